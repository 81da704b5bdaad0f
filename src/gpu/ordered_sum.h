// One chain of floating-point additions in index order, on the device: the
// twin of a CPU reference that adds terms[0], terms[1], ... serially into one
// accumulator (float_ssim's means, psnr_hvs's plane sums). No parallel
// reduction gives that chain's bits, so one thread adds every term, in
// order; the block's other warps stage the next chunk of terms from global
// into shared memory meanwhile, so that thread waits on its additions, not
// on global loads. Independent chains over the same terms (SSIM's four
// sums) run in as many threads, each in its own group of lanes. The terms
// themselves are computed in parallel beforehand with the math header's
// functions.
#pragma once

#include <cstddef>
#include <type_traits>

#include "gpu/block_sum.h"
#include "gpu/gpu_runtime.h"

namespace twinvmaf::gpu {

// Shared memory of one ordered_sum() call: two chunks of terms.
template <class Term, unsigned kChunk>
struct OrderedSumStage {
    Term chunk[2][kChunk];
};

namespace detail {
// f(integral_constant<unsigned, a>) for a runtime a < kEnd.
template <unsigned kA, unsigned kEnd, class F>
__device__ void with_constant(unsigned a, F&& f)
{
    if constexpr (kA < kEnd) {
        if (a == kA)
            f(std::integral_constant<unsigned, kA>{});
        else
            with_constant<kA + 1, kEnd>(a, f);
    }
}
}  // namespace detail

// For each adder a < kAdders: calls add(terms[i], integral_constant<a>) for
// i = 0 .. count - 1, in that order, in the first lane of group of lanes a
// (thread 32a): kAdders independent chains over the same terms (e.g. the
// four sums of SSIM), one thread each. The other groups stage the terms.
// Every thread of the (1-D) block must call it.
template <unsigned kThreads, unsigned kAdders, class Term, unsigned kChunk, class Add>
__device__ void ordered_sum(const Term* terms, std::size_t count, OrderedSumStage<Term, kChunk>& stage, Add&& add)
{
    constexpr unsigned kFirstLoader = kAdders * kLaneGroup;
    static_assert(kThreads > kFirstLoader, "loaders besides the adding groups of lanes");
    const std::size_t chunks = (count + kChunk - 1) / kChunk;
    auto chunk_size = [&](std::size_t c) {
        const std::size_t left = count - c * kChunk;
        return left < kChunk ? static_cast<unsigned>(left) : kChunk;
    };
    // Chunk c into stage slot c % 2 by threads first .. kThreads - 1.
    auto load = [&](std::size_t c, unsigned first) {
        const std::size_t begin = c * kChunk;
        const unsigned n = chunk_size(c);
        for (unsigned i = threadIdx.x - first; i < n; i += kThreads - first) stage.chunk[c & 1][i] = terms[begin + i];
    };
    if (chunks) load(0, 0);
    __syncthreads();
    for (std::size_t c = 0; c < chunks; ++c) {
        if (threadIdx.x >= kFirstLoader) {
            if (c + 1 < chunks) load(c + 1, kFirstLoader);
        } else if (threadIdx.x % kLaneGroup == 0) {
            const unsigned n = chunk_size(c);
            const Term* staged = stage.chunk[c & 1];
            detail::with_constant<0, kAdders>(threadIdx.x / kLaneGroup, [&](auto adder) {
#pragma unroll 8
                for (unsigned i = 0; i < n; ++i) add(staged[i], adder);
            });
        }
        __syncthreads();
    }
}

}  // namespace twinvmaf::gpu
