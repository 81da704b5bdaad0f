// The CPU path of the integer SSIM: per picture row, the horizontal moments
// into a ring of kTaps rows; per output row, the vertical sums of the rows
// under the window and each position's term, added in row-major order.
#include <vector>

#include "features/integer_ssim/integer_ssim.h"
#include "features/integer_ssim/integer_ssim_math.h"

namespace twinvmaf::integer_ssim {

namespace {

struct SsimScratch final : Scratch {
    std::vector<Moments> ring;  // kTaps rows of horizontal moments
};

template <class Sample>
void frame_sums(const PlaneView& ref, const PlaneView& dis, int samplemax, std::vector<Moments>& ring,
                double& ssim, std::uint64_t& weights)
{
    const int width = static_cast<int>(ref.width), height = static_cast<int>(ref.height);
    ring.resize(static_cast<std::size_t>(kTaps) * width);
    auto ring_row = [&](int y) { return ring.data() + static_cast<std::size_t>(y % kTaps) * width; };
    double sum = 0.0;
    std::uint64_t weight_sum = 0;
    for (int y = 0; y < height + kRadius; ++y) {
        if (y < height) {
            const Sample* r = ref.row<Sample>(static_cast<unsigned>(y));
            const Sample* d = dis.row<Sample>(static_cast<unsigned>(y));
            Moments* out = ring_row(y);
            for (int x = 0; x < width; ++x) out[x] = horizontal_moments(r, d, x, width);
        }
        if (y < kRadius) continue;
        // Output row y - kRadius: picture rows y - 2 kRadius + k for the
        // taps k inside the picture.
        const int at = y - kRadius;
        const int k_first = first_tap(at), k_end = end_tap(at, height);
        for (int x = 0; x < width; ++x) {
            Moments m;
            for (int k = k_first; k < k_end; ++k) add_weighted(m, tap(k), ring_row(at - kRadius + k)[x]);
            sum += ssim_term(m, samplemax);
            weight_sum += static_cast<std::uint64_t>(m.w);
        }
    }
    ssim = sum;
    weights = weight_sum;
}

}  // namespace

std::unique_ptr<Scratch> IntegerSsimCpu::make_scratch() const { return std::make_unique<SsimScratch>(); }

void IntegerSsimCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    SsimScratch& s = *static_cast<SsimScratch*>(scratch);
    const PlaneView ref = inputs.ref.plane(0), dis = inputs.dis.plane(0);
    const int samplemax = static_cast<int>((1u << format().bitdepth) - 1);
    double ssim = 0.0;
    std::uint64_t weights = 0;
    if (format().bitdepth == 8)
        frame_sums<std::uint8_t>(ref, dis, samplemax, s.ring, ssim, weights);
    else
        frame_sums<std::uint16_t>(ref, dis, samplemax, s.ring, ssim, weights);
    scores.set(0, ssim);
    scores.set_integer(0, weights);
}

}  // namespace twinvmaf::integer_ssim
