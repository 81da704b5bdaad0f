#include "features/fork_ms_ssim/fork_ms_ssim.h"

#include "core/cpu_dispatch.h"
#include "features/common/float_picture.h"
#include "features/fork_ms_ssim/fork_ms_ssim_math.h"

#include <cmath>

namespace twinvmaf::fork_ms_ssim {

namespace {

struct ForkScratch final : Scratch {
    ssim::SsimScratch ssim;
    std::vector<float> tmp;  // the horizontal pass: halved(w) x h
};

// The fork's ms_ssim_decimate(): horizontal pass over every row, then the
// vertical pass, into out (halved(w) x halved(h)). Each output is the chain
// of pass_value() (fork_ms_ssim_math.h); inside the picture the mirror is
// the identity and is left out, and the vertical chains run side by side
// over a row (the same operations per output, in the same order). Cloned
// per instruction set (core/cpu_dispatch.h): std::fma is then the FMA
// instruction rather than libm's software fmaf, the same correctly rounded
// result either way.
TV_CPU_CLONES void decimate(const float* in, int w, int h, std::vector<float>& tmp, std::vector<float>& out)
{
    const int w_out = halved(w), h_out = halved(h);
    tmp.resize(static_cast<std::size_t>(w_out) * h);
    out.resize(static_cast<std::size_t>(w_out) * h_out);
    float taps[kTaps];
    for (int k = 0; k < kTaps; ++k) taps[k] = tap(k);
    // Outputs whose window 2 x - 4 .. 2 x + 4 lies inside [0, n).
    auto inner_end = [](int n_out, int n) {
        int end = 0;
        while (end < n_out && 2 * end + kHalf < n) ++end;
        return end;
    };
    const int x_inner = inner_end(w_out, w), y_inner = inner_end(h_out, h);
    for (int y = 0; y < h; ++y) {
        const float* row = in + static_cast<std::size_t>(y) * w;
        float* t = tmp.data() + static_cast<std::size_t>(y) * w_out;
        const auto at = [&](int i) { return row[i]; };
        int x = 0;
        for (; x < w_out && x < 2; ++x) t[x] = pass_value(at, x, w);
        for (; x < x_inner; ++x) {
            const float* r = row + 2 * x - kHalf;
            float acc = 0.0f;
#pragma GCC unroll 9
            for (int k = 0; k < kTaps; ++k) acc = std::fma(r[k], taps[k], acc);
            t[x] = acc;
        }
        for (; x < w_out; ++x) t[x] = pass_value(at, x, w);
    }
    for (int y = 0; y < h_out; ++y) {
        float* o = out.data() + static_cast<std::size_t>(y) * w_out;
        if (y >= 2 && y < y_inner) {
            for (int x = 0; x < w_out; ++x) o[x] = 0.0f;
            for (int k = 0; k < kTaps; ++k) {
                const float* r = tmp.data() + static_cast<std::size_t>(2 * y + k - kHalf) * w_out;
                const float c = taps[k];
                for (int x = 0; x < w_out; ++x) o[x] = std::fma(r[x], c, o[x]);
            }
            continue;
        }
        for (int x = 0; x < w_out; ++x)
            o[x] = pass_value([&](int i) { return tmp[static_cast<std::size_t>(i) * w_out + x]; }, y, h);
    }
}

void luma_to_float(const Picture& picture, std::vector<float>& out)
{
    const PlaneView luma = picture.plane(0);
    out.resize(static_cast<std::size_t>(luma.width) * luma.height);
    float_picture::plane_to_float(luma, picture.format().bitdepth, 0.0f, out.data(), luma.width);
}

}  // namespace

std::unique_ptr<Scratch> ForkMsSsimCpu::make_scratch() const { return std::make_unique<ForkScratch>(); }

void ForkMsSsimCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    ForkScratch& f = *static_cast<ForkScratch*>(scratch);
    ssim::SsimScratch& s = f.ssim;
    luma_to_float(inputs.ref, s.ref[0]);
    luma_to_float(inputs.dis, s.dis[0]);
    std::array<ssim::SsimMeans, ssim::kMsScales> means;
    int w = static_cast<int>(format_.width), h = static_cast<int>(format_.height);
    for (int scale = 0; scale < ssim::kMsScales; ++scale) {
        if (scale > 0) {
            decimate(s.ref[scale - 1].data(), w, h, f.tmp, s.ref[scale]);
            decimate(s.dis[scale - 1].data(), w, h, f.tmp, s.dis[scale]);
            w = halved(w);
            h = halved(h);
        }
        means[scale] = ssim::ssim_means(s.ref[scale].data(), s.dis[scale].data(), w, h, s.work);
    }
    store(means, scores);
}

FeatureInfo feature_info()
{
    const FeatureInfo netflix = ssim::float_ms_ssim_feature_info();
    return FeatureInfo{
        .name = "lusoris_float_ms_ssim",
        .help = "lusoris/vmaf's float_ms_ssim (Netflix's MS-SSIM with the fork's separable pyramid; "
                "outputs named float_ms_ssim as in the fork)",
        .options = netflix.options,
        .provided = {"float_ms_ssim"},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<ForkMsSsimCpu>(ssim::Settings::from(values));
        },
    };
}

}  // namespace twinvmaf::fork_ms_ssim
