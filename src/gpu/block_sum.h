// Block-wide sums of 64-bit integers for kernels of 1-D blocks, and sums
// within each group of 32 lanes.
//
// Each group of 32 lanes adds its values with shuffles, one lane per group
// writes the group's totals to shared memory, and thread 0 adds the groups.
// Integer addition modulo 2^64 is associative and commutative, so the totals
// are the same bits whatever the shape of the reduction: the CPU's sums in
// any order. (Shared-memory atomics on one address from every thread were
// the slow alternative: 64-bit ones are compare-and-swap loops that
// serialise the whole block.)
#pragma once

#include "gpu/gpu_runtime.h"

namespace twinvmaf::gpu {

inline constexpr unsigned kLaneGroup = 32;

// Shared memory of one block_sum() call.
template <unsigned kThreads, unsigned kCount>
struct BlockSumScratch {
    static_assert(kThreads % kLaneGroup == 0, "blocks of whole groups of 32 lanes");
    unsigned long long group_totals[kThreads / kLaneGroup][kCount];
};

// Sums values[k] over each group of 32 lanes (threads 32g .. 32g + 31 of the
// block), for each k; the totals are valid in the group's first lane. Every
// lane of the group must call it.
template <unsigned kCount>
__device__ void lane_group_sum(unsigned long long (&values)[kCount])
{
    for (unsigned k = 0; k < kCount; ++k)
        for (unsigned offset = kLaneGroup / 2; offset > 0; offset /= 2)
            values[k] += gpuShflDown32(values[k], offset);
}

// Sums values[k] over the block, for each k; the totals are valid in thread
// 0's values. Every thread of the block must call it (the shuffles need
// whole groups); the scratch may be reused after a __syncthreads().
template <unsigned kThreads, unsigned kCount>
__device__ void block_sum(unsigned long long (&values)[kCount], BlockSumScratch<kThreads, kCount>& scratch)
{
    lane_group_sum(values);
    const unsigned lane = threadIdx.x % kLaneGroup;
    const unsigned group = threadIdx.x / kLaneGroup;
    if (lane == 0)
        for (unsigned k = 0; k < kCount; ++k) scratch.group_totals[group][k] = values[k];
    __syncthreads();
    if (threadIdx.x == 0)
        for (unsigned g = 1; g < kThreads / kLaneGroup; ++g)
            for (unsigned k = 0; k < kCount; ++k) values[k] += scratch.group_totals[g][k];
}

}  // namespace twinvmaf::gpu
