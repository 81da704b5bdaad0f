// The CPU reference of ciede: dE00 per luma position, summed as Netflix does.
//
// Lab colours are memoised per worker thread: lab_from_yuv() is a pure
// function of the sample triple and spends six correctly rounded pow() calls
// (most of the feature's time), and a frame repeats few triples many times
// (flat areas, and the distorted picture wherever it kept the reference's
// samples). A pair whose two triples are equal adds nothing (its dE00 is +0:
// see add_pixel()). Neither changes a bit of the result.
#include "features/ciede/ciede.h"

#include <array>
#include <limits>

namespace twinvmaf::ciede {

namespace {

// A direct-mapped cache of lab_from_yuv(), keyed by the packed samples.
class LabCache final : public Scratch {
public:
    LabCache() { keys_.fill(kEmpty); }

    Lab lab(unsigned y, unsigned u, unsigned v, unsigned bitdepth)
    {
        const std::uint64_t key = pack(y, u, v);
        const std::size_t slot = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - kSlotBits));
        if (keys_[slot] != key) {
            keys_[slot] = key;
            labs_[slot] = lab_from_yuv(y, u, v, bitdepth);
        }
        return labs_[slot];
    }

    // Samples have at most 16 bits, so no key is kEmpty.
    static std::uint64_t pack(unsigned y, unsigned u, unsigned v)
    {
        return std::uint64_t{y} | (std::uint64_t{u} << 16) | (std::uint64_t{v} << 32);
    }

private:
    static constexpr unsigned kSlotBits = 15;  // 32768 slots, 640 KiB: about L2
    static constexpr std::uint64_t kEmpty = std::numeric_limits<std::uint64_t>::max();
    std::array<std::uint64_t, std::size_t{1} << kSlotBits> keys_;
    std::array<Lab, std::size_t{1} << kSlotBits> labs_;
};

unsigned luma_sample(const PlaneView& luma, bool high_bitdepth, unsigned x, unsigned y)
{
    return high_bitdepth ? luma.row<std::uint16_t>(y)[x] : luma.row<std::uint8_t>(y)[x];
}

struct Triple {
    unsigned y, u, v;
};

Triple pixel_samples(const PlaneView& luma, const ChromaPlanes& chroma, unsigned bitdepth, unsigned x, unsigned y)
{
    return {luma_sample(luma, bitdepth > 8, x, y), netflix_upsampled_chroma(chroma, 0, x, y),
            netflix_upsampled_chroma(chroma, 1, x, y)};
}

}  // namespace

std::unique_ptr<Scratch> CiedeCpu::make_scratch() const { return std::make_unique<LabCache>(); }

void CiedeCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    const unsigned bitdepth = format().bitdepth;
    const PlaneView ref_luma = inputs.ref.plane(0), dis_luma = inputs.dis.plane(0);
    const ChromaPlanes ref_chroma = chroma_planes(inputs.ref), dis_chroma = chroma_planes(inputs.dis);
    // Reduction order (a twin must keep it): one serial chain of double
    // additions of the float dE00 values over every luma position in raster
    // order (rows top to bottom, each left to right), starting from 0.
    double sum = 0.;
    std::unique_ptr<Scratch> own;  // a caller without the pipeline's scratch
    if (!scratch) {
        own = make_scratch();
        scratch = own.get();
    }
    LabCache& cache = static_cast<LabCache&>(*scratch);
    for (unsigned y = 0; y < ref_luma.height; ++y) {
        for (unsigned x = 0; x < ref_luma.width; ++x) {
            const Triple r = pixel_samples(ref_luma, ref_chroma, bitdepth, x, y);
            const Triple d = pixel_samples(dis_luma, dis_chroma, bitdepth, x, y);
            // Equal samples give equal Lab colours, whose dE00 is +0: every
            // difference is 0, the divisors are >= 1 or 0.65 s_L > 0, and
            // sqrt(+0 + +0 + +0 + R_T * 0 * 0) = +0 (tests/unit/test_ciede.cpp
            // checks it); sum + +0 is sum (sum is never -0: it starts at +0).
            if (LabCache::pack(r.y, r.u, r.v) == LabCache::pack(d.y, d.u, d.v)) continue;
            sum += delta_e_2000(cache.lab(r.y, r.u, r.v, bitdepth), cache.lab(d.y, d.u, d.v, bitdepth),
                                kNetflixWeights);
        }
    }
    scores.set(0, sum);
}

}  // namespace twinvmaf::ciede
