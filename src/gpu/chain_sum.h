// Serial chains of floating-point additions on the device, in parallel, with
// the chains' bits: the twin of a CPU reference that adds terms[0],
// terms[1], ... into one accumulator from +0 (float_ssim's four means,
// psnr_hvs's plane sums). The arithmetic and its proof are core/chain_sum.h;
// here are the four kernels that run it for up to kMaxJobs independent jobs
// (MS-SSIM's scales, psnr_hvs's planes), each with kChains chains over the
// same positions (SSIM's four sums), all in one go on the twin's stream:
//   1. chunk_totals_kernel: one thread per chunk of kChunk positions, each
//      chain over its chunk from 0;
//   2. guesses_kernel: one block per job, the exclusive prefix sums of those
//      totals (in any order: they are only guesses of each chunk's start);
//   3. records_kernel: one thread per chunk, each chain from its guess, with
//      its Record;
//   4. resolve_kernel: one block per job, one thread per chain walks the
//      chunks in order with the true start: the translated end where the
//      record proves it, else that chunk's terms again from the true start;
//      then finish(job, sums) in the block's first thread.
// Terms is a device-copyable type with
//   __device__ std::size_t count(unsigned job) const;     // positions
//   __device__ void at(unsigned job, std::size_t i, T (&terms)[kChains]) const;
// and Finish one with __device__ void operator()(unsigned job, const T (&sums)[kChains]) const.
#pragma once

#include <algorithm>
#include <cstddef>

#include "core/chain_sum.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"
#include "gpu/gpu_runtime.h"

namespace twinvmaf::gpu {

namespace chain_sum_detail {

using tv::chain_sum::kChunk;
inline constexpr unsigned kThreads = 128;      // kernels 1 and 3
inline constexpr unsigned kScanThreads = 256;  // kernel 2

__device__ inline std::size_t chunks_of(std::size_t n) { return (n + kChunk - 1) / kChunk; }

// Kernels 1 and 3: the calling thread's chunk (grid x: chunks, y: jobs), its
// positions [first, last); false past its job's last position.
struct ChunkRange {
    unsigned job;
    std::size_t index, first, last;
};
template <class Terms>
__device__ bool thread_chunk(const Terms& terms, ChunkRange& r)
{
    r.job = blockIdx.y;
    r.index = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
    const std::size_t n = terms.count(r.job);
    r.first = r.index * kChunk;
    if (r.first >= n) return false;
    r.last = n - r.first < kChunk ? n : r.first + kChunk;
    return true;
}

template <class T, unsigned kChains, class Terms>
__global__ void __launch_bounds__(kThreads) chunk_totals_kernel(Terms terms, std::size_t chunks_per_job, T* totals)
{
    ChunkRange r;
    if (!thread_chunk(terms, r)) return;
    const unsigned job = r.job;
    const std::size_t k = r.index, first = r.first, last = r.last;
    T sums[kChains] = {};
    const auto add = [&](const T (&t)[kChains]) {
        for (unsigned c = 0; c < kChains; ++c) sums[c] = sums[c] + t[c];
    };
    constexpr std::size_t kAhead = tv::chain_sum::kAhead;  // terms read ahead of their additions
    std::size_t i = first;
    for (; i + kAhead <= last; i += kAhead) {
        T t[kAhead][kChains];
        for (std::size_t j = 0; j < kAhead; ++j) terms.at(job, i + j, t[j]);
        for (std::size_t j = 0; j < kAhead; ++j) add(t[j]);
    }
    for (; i < last; ++i) {
        T t[kChains];
        terms.at(job, i, t);
        add(t);
    }
    for (unsigned c = 0; c < kChains; ++c) totals[(job * chunks_per_job + k) * kChains + c] = sums[c];
}

template <class T, unsigned kChains, class Terms>
__global__ void __launch_bounds__(kScanThreads) guesses_kernel(Terms terms, std::size_t chunks_per_job, T* totals)
{
    const unsigned job = blockIdx.x;
    const std::size_t chunks = chunks_of(terms.count(job));
    const std::size_t span = (chunks + kScanThreads - 1) / kScanThreads;
    const std::size_t begin = threadIdx.x * span;
    const std::size_t end = begin + span < chunks ? begin + span : chunks;
    T* job_totals = totals + job * chunks_per_job * kChains;
    __shared__ T offsets[kScanThreads][kChains];
    T run[kChains] = {};
    for (std::size_t k = begin; k < end; ++k)
        for (unsigned c = 0; c < kChains; ++c) run[c] = run[c] + job_totals[k * kChains + c];
    for (unsigned c = 0; c < kChains; ++c) offsets[threadIdx.x][c] = run[c];
    __syncthreads();
    if (threadIdx.x == 0) {
        T before[kChains] = {};
        for (unsigned t = 0; t < kScanThreads; ++t)
            for (unsigned c = 0; c < kChains; ++c) {
                const T span_total = offsets[t][c];
                offsets[t][c] = before[c];
                before[c] = before[c] + span_total;
            }
    }
    __syncthreads();
    for (unsigned c = 0; c < kChains; ++c) run[c] = offsets[threadIdx.x][c];
    for (std::size_t k = begin; k < end; ++k)
        for (unsigned c = 0; c < kChains; ++c) {
            const T total = job_totals[k * kChains + c];
            job_totals[k * kChains + c] = run[c];
            run[c] = run[c] + total;
        }
}

template <class T, unsigned kChains, class Terms>
__global__ void __launch_bounds__(kThreads) records_kernel(Terms terms, std::size_t chunks_per_job, const T* guesses,
                                                           tv::chain_sum::Record<T>* records)
{
    ChunkRange r;
    if (!thread_chunk(terms, r)) return;
    const unsigned job = r.job;
    const std::size_t k = r.index, first = r.first, last = r.last;
    const std::size_t slot = (job * chunks_per_job + k) * kChains;
    for (unsigned c = 0; c < kChains; ++c)
        records[slot + c] = tv::chain_sum::follow_recorded(guesses[slot + c], first, last, [&](std::size_t i) {
            T t[kChains];
            terms.at(job, i, t);
            return t[c];
        });
}

// The walk: thread c of the first group of lanes follows chain c; the other
// lanes stage the next batch of records into shared memory meanwhile
// (double buffered), so the walk waits on shared, not global, memory.
inline constexpr unsigned kResolveThreads = 256;
inline constexpr unsigned kBatch = 64;  // chunks per staged batch

template <class T, unsigned kChains, class Terms, class Finish>
__global__ void __launch_bounds__(kResolveThreads) resolve_kernel(Terms terms, std::size_t chunks_per_job,
                                                                  const tv::chain_sum::Record<T>* records,
                                                                  Finish finish)
{
    static_assert(kChains <= 32, "the chains in the first group of lanes");
    const unsigned job = blockIdx.x;
    const unsigned c = threadIdx.x;
    const std::size_t n = terms.count(job);
    const std::size_t chunks = chunks_of(n);
    const std::size_t batches = (chunks + kBatch - 1) / kBatch;
    const tv::chain_sum::Record<T>* job_records = records + job * chunks_per_job * kChains;
    __shared__ tv::chain_sum::Record<T> staged[2][kBatch * kChains];
    __shared__ T sums[kChains];
    auto stage = [&](std::size_t b, unsigned first_thread) {
        const std::size_t begin = b * kBatch * kChains;
        const std::size_t count = (chunks * kChains - begin) < kBatch * kChains ? chunks * kChains - begin
                                                                                  : kBatch * kChains;
        for (std::size_t i = threadIdx.x - first_thread; i < count; i += kResolveThreads - first_thread)
            staged[b & 1][i] = job_records[begin + i];
    };
    if (batches) stage(0, 0);
    __syncthreads();
    T s = T(0);
    for (std::size_t b = 0; b < batches; ++b) {
        if (threadIdx.x >= 32) {
            if (b + 1 < batches) stage(b + 1, 32);
        } else if (c < kChains) {
            const std::size_t first_chunk = b * kBatch;
            const std::size_t in_batch = chunks - first_chunk < kBatch ? chunks - first_chunk : kBatch;
            for (std::size_t k = 0; k < in_batch; ++k) {
                T end;
                if (!tv::chain_sum::translated_end(staged[b & 1][k * kChains + c], s, end)) {
                    const std::size_t first = (first_chunk + k) * kChunk;
                    const std::size_t last = n - first < kChunk ? n : first + kChunk;
                    end = tv::chain_sum::follow(s, first, last, [&](std::size_t i) {
                        T t[kChains];
                        terms.at(job, i, t);
                        return t[c];
                    });
                }
                s = end;
            }
        }
        __syncthreads();
    }
    if (c < kChains) sums[c] = s;
    __syncthreads();
    if (threadIdx.x == 0) finish(job, sums);
}

}  // namespace chain_sum_detail

// The device buffers of up to `jobs` jobs of up to `max_count` positions
// each, and the launches.
template <class T, unsigned kChains>
class ChainSums {
public:
    ChainSums() = default;
    ChainSums(unsigned jobs, std::size_t max_count)
        : jobs_(jobs),
          chunks_per_job_((max_count + tv::chain_sum::kChunk - 1) / tv::chain_sum::kChunk),
          guesses_(std::max<std::size_t>(1, jobs * chunks_per_job_ * kChains), "chain sum guesses"),
          records_(std::max<std::size_t>(1, jobs * chunks_per_job_ * kChains), "chain sum records")
    {
    }

    // The chains of jobs 0 .. jobs - 1 (terms.count(job) <= max_count), then
    // finish(job, sums) for each, on `stream`.
    template <class Terms, class Finish>
    void enqueue(const Terms& terms, unsigned jobs, const Finish& finish, gpuStream_t stream) const
    {
        using namespace chain_sum_detail;
        if (jobs == 0 || jobs > jobs_) return;
        const dim3 grid(blocks_for(std::max<std::size_t>(1, chunks_per_job_), kThreads), jobs);
        chunk_totals_kernel<T, kChains><<<grid, kThreads, 0, stream>>>(terms, chunks_per_job_, guesses_.get());
        check_launch("chain sum chunk_totals_kernel");
        guesses_kernel<T, kChains><<<jobs, kScanThreads, 0, stream>>>(terms, chunks_per_job_, guesses_.get());
        check_launch("chain sum guesses_kernel");
        records_kernel<T, kChains><<<grid, kThreads, 0, stream>>>(terms, chunks_per_job_, guesses_.get(),
                                                                  records_.get());
        check_launch("chain sum records_kernel");
        resolve_kernel<T, kChains><<<jobs, kResolveThreads, 0, stream>>>(terms, chunks_per_job_, records_.get(), finish);
        check_launch("chain sum resolve_kernel");
    }

private:
    unsigned jobs_ = 0;
    std::size_t chunks_per_job_ = 0;
    DeviceArray<T> guesses_;
    DeviceArray<tv::chain_sum::Record<T>> records_;
};

}  // namespace twinvmaf::gpu
