// The CPU reference of ciede: dE00 per luma position, summed as Netflix does.
//
// Lab colours are memoised per worker thread: lab_from_yuv() is a pure
// function of the sample triple and spends up to six pow() calls (much of
// the feature's time), and a frame repeats few triples many times (flat
// areas, and the distorted picture wherever it kept the reference's
// samples). The triples of a row that miss the cache are converted together
// by the lab_batch kernel (ciede_kernels.h), then the dE00 values of the
// row's pairs are computed by the delta_e_batch kernel and summed in raster
// order. A pair whose two triples
// are equal adds nothing (its dE00 is +0: see extract()). None of this
// changes a bit of the result.
#include "features/ciede/ciede.h"

#include <array>
#include <limits>
#include <vector>

#include "features/ciede/ciede_kernels.h"

namespace twinvmaf::ciede {

namespace {

// A direct-mapped cache of lab_from_yuv(), keyed by the packed samples.
class LabCache final : public Scratch {
public:
    LabCache() : kernels_(kernels()) { keys_.fill(kEmpty); }

    // Notes a triple the row will look up: a miss is queued for fill()
    // (its slot claimed now, so that a repeat in the row is not queued twice).
    void prefetch(std::uint64_t key)
    {
        std::uint64_t& slot_key = keys_[slot_of(key)];
        if (slot_key == key) return;
        slot_key = key;
        missed_keys_.push_back(key);
        missed_y_.push_back(sample(key, 0));
        missed_u_.push_back(sample(key, 1));
        missed_v_.push_back(sample(key, 2));
    }

    // Converts the queued misses in one batch and stores them, in queue
    // order: where two queued keys share a slot the later one stays, with
    // its own Lab, and lab() recomputes the other.
    void fill(unsigned bitdepth)
    {
        const std::size_t n = missed_keys_.size();
        if (n == 0) return;
        missed_labs_.resize(n);
        kernels_.lab_batch(missed_y_.data(), missed_u_.data(), missed_v_.data(), n, bitdepth, missed_labs_.data());
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t slot = slot_of(missed_keys_[i]);
            keys_[slot] = missed_keys_[i];
            labs_[slot] = missed_labs_[i];
        }
        missed_keys_.clear();
        missed_y_.clear();
        missed_u_.clear();
        missed_v_.clear();
    }

    Lab lab(std::uint64_t key, unsigned bitdepth)
    {
        const std::size_t slot = slot_of(key);
        if (keys_[slot] != key) {
            keys_[slot] = key;
            labs_[slot] = lab_from_yuv(sample(key, 0), sample(key, 1), sample(key, 2), bitdepth);
        }
        return labs_[slot];
    }

    // Samples have at most 16 bits, so no key is kEmpty.
    static std::uint64_t pack(unsigned y, unsigned u, unsigned v)
    {
        return std::uint64_t{y} | (std::uint64_t{u} << 16) | (std::uint64_t{v} << 32);
    }
    static unsigned sample(std::uint64_t key, int i) { return static_cast<unsigned>((key >> (16 * i)) & 0xffff); }

private:
    static std::size_t slot_of(std::uint64_t key)
    {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - kSlotBits));
    }

    static constexpr unsigned kSlotBits = 15;  // 32768 slots, 640 KiB: about L2
    static constexpr std::uint64_t kEmpty = std::numeric_limits<std::uint64_t>::max();
    std::array<std::uint64_t, std::size_t{1} << kSlotBits> keys_;
    std::array<Lab, std::size_t{1} << kSlotBits> labs_;
    Kernels kernels_;
    std::vector<std::uint64_t> missed_keys_;
    std::vector<double> missed_y_, missed_u_, missed_v_;
    std::vector<Lab> missed_labs_;

public:
    const Kernels& row_kernels() const { return kernels_; }
    // The row's packed triples; the Lab pairs of its unequal ones and their dE00.
    std::vector<std::uint64_t> row_ref, row_dis;
    std::vector<Lab> pair_ref, pair_dis;
    std::vector<float> pair_delta_e;
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
    const unsigned width = ref_luma.width;
    cache.row_ref.resize(width);
    cache.row_dis.resize(width);
    for (unsigned y = 0; y < ref_luma.height; ++y) {
        for (unsigned x = 0; x < width; ++x) {
            const Triple r = pixel_samples(ref_luma, ref_chroma, bitdepth, x, y);
            const Triple d = pixel_samples(dis_luma, dis_chroma, bitdepth, x, y);
            cache.row_ref[x] = LabCache::pack(r.y, r.u, r.v);
            cache.row_dis[x] = LabCache::pack(d.y, d.u, d.v);
            if (cache.row_ref[x] == cache.row_dis[x]) continue;
            cache.prefetch(cache.row_ref[x]);
            cache.prefetch(cache.row_dis[x]);
        }
        cache.fill(bitdepth);
        // Equal samples give equal Lab colours, whose dE00 is +0: every
        // difference is 0, the divisors are >= 1 or 0.65 s_L > 0, and
        // sqrt(+0 + +0 + +0 + R_T * 0 * 0) = +0 (tests/unit/test_ciede.cpp
        // checks it); sum + +0 is sum (sum is never -0: it starts at +0).
        // So only the unequal pairs are converted and added, in raster order.
        cache.pair_ref.clear();
        cache.pair_dis.clear();
        for (unsigned x = 0; x < width; ++x) {
            const std::uint64_t r = cache.row_ref[x], d = cache.row_dis[x];
            if (r == d) continue;
            cache.pair_ref.push_back(cache.lab(r, bitdepth));
            cache.pair_dis.push_back(cache.lab(d, bitdepth));
        }
        const std::size_t pairs = cache.pair_ref.size();
        cache.pair_delta_e.resize(pairs);
        cache.row_kernels().delta_e_batch(cache.pair_ref.data(), cache.pair_dis.data(), pairs, kNetflixWeights,
                                          cache.pair_delta_e.data());
        for (std::size_t i = 0; i < pairs; ++i) sum += cache.pair_delta_e[i];
    }
    scores.set(0, sum);
}

}  // namespace twinvmaf::ciede
