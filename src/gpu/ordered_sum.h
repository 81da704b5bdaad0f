// One chain of floating-point additions in index order, on the device: the
// twin of a CPU reference that adds terms[0], terms[1], ... serially into one
// accumulator (float_ssim's means, psnr_hvs's plane sums). No parallel
// reduction gives that chain's bits, so one thread adds every term, in
// order; the block's other warps stage the next chunk of terms from global
// into shared memory meanwhile, so that thread waits on its additions, not
// on global loads. The terms themselves are computed in parallel beforehand
// with the math header's functions.
#pragma once

#include <cstddef>

#include "gpu/block_sum.h"
#include "gpu/gpu_runtime.h"

namespace twinvmaf::gpu {

// Shared memory of one ordered_sum() call: two chunks of terms.
template <class Term, unsigned kChunk>
struct OrderedSumStage {
    Term chunk[2][kChunk];
};

// Calls add(terms[i]) for i = 0 .. count - 1, in that order, in thread 0 of
// the block. Every thread of the (1-D, kThreads > 32) block must call it.
template <unsigned kThreads, class Term, unsigned kChunk, class Add>
__device__ void ordered_sum(const Term* terms, std::size_t count, OrderedSumStage<Term, kChunk>& stage, Add&& add)
{
    static_assert(kThreads > kLaneGroup, "loaders besides the adding group of lanes");
    const std::size_t chunks = (count + kChunk - 1) / kChunk;
    // Chunk c into stage slot c % 2 by threads first .. kThreads - 1.
    auto load = [&](std::size_t c, unsigned first) {
        const std::size_t begin = c * kChunk;
        const std::size_t left = count - begin;
        const unsigned n = left < kChunk ? static_cast<unsigned>(left) : kChunk;
        for (unsigned i = threadIdx.x - first; i < n; i += kThreads - first) stage.chunk[c & 1][i] = terms[begin + i];
    };
    if (chunks) load(0, 0);
    __syncthreads();
    for (std::size_t c = 0; c < chunks; ++c) {
        if (threadIdx.x >= kLaneGroup) {
            if (c + 1 < chunks) load(c + 1, kLaneGroup);
        } else if (threadIdx.x == 0) {
            const std::size_t left = count - c * kChunk;
            const unsigned n = left < kChunk ? static_cast<unsigned>(left) : kChunk;
            const Term* staged = stage.chunk[c & 1];
#pragma unroll 8
            for (unsigned i = 0; i < n; ++i) add(staged[i]);
        }
        __syncthreads();
    }
}

}  // namespace twinvmaf::gpu
