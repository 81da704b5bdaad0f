// Serial chains of floating-point additions on the device, in parallel, with
// the chains' bits: the twin of a CPU reference that adds terms[0],
// terms[1], ... into one accumulator from +0 (float_ssim's four means,
// psnr_hvs's plane sums). The arithmetic and its proofs are core/chain_sum.h;
// here are the kernels that run it for up to kMaxJobs independent jobs
// (MS-SSIM's scales, psnr_hvs's planes), each with kChains chains over the
// same positions (SSIM's four sums), all in one go on the twin's stream:
//   1. chunk_totals_kernel: one thread per chunk of kChunk positions, each
//      chain over its chunk from 0;
//   2. guesses_kernel: one block per job, the exclusive prefix sums of those
//      totals (in any order: they are only guesses of each chunk's start);
//   3. records_kernel: one thread per chunk, every chain from its guess,
//      with its Record (the positions' terms read once for all chains);
//   4. groups_kernel: one thread per group of kGroup chunks and chain, the
//      group's record composed from its chunks' (group_record) from the
//      group's guess, kept, and made a Window for the walk;
//   5. supers_kernel: one thread per super-group of kGroup groups and chain,
//      its record composed from its groups' records in the same way (a
//      composed record is a record: core/chain_sum.h), made a Window;
//   6. resolve_kernel: one block per job and chain walks the super-groups in
//      order with the true start: the super-group's end where its window
//      proves it, else its groups' (by their windows), else a group's
//      chunks (translated ends, or a chunk's terms again, read into shared
//      memory by the whole block and added there); every thread of the
//      block walks alike, so the block stays in step. At 4K a chain of
//      8.3 M positions is 16,200 chunks, 507 groups, 16 super-groups: the
//      serial walk is about 16 steps where the data lets it;
//   7. finish_kernel: finish(job, sums) per job.
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
    tv::chain_sum::Recorder<T> rec[kChains];
    for (unsigned c = 0; c < kChains; ++c) rec[c].begin(guesses[slot + c]);
    constexpr std::size_t kAhead = tv::chain_sum::kAhead;
    std::size_t i = first;
    for (; i + kAhead <= last; i += kAhead) {
        T t[kAhead][kChains];
        for (std::size_t j = 0; j < kAhead; ++j) terms.at(job, i + j, t[j]);
        for (std::size_t j = 0; j < kAhead; ++j)
            for (unsigned c = 0; c < kChains; ++c) rec[c].step(t[j][c]);
    }
    for (; i < last; ++i) {
        T t[kChains];
        terms.at(job, i, t);
        for (unsigned c = 0; c < kChains; ++c) rec[c].step(t[c]);
    }
    for (unsigned c = 0; c < kChains; ++c) records[slot + c] = rec[c].r;
}

using tv::chain_sum::kGroup;
__device__ inline std::size_t groups_of(std::size_t chunks) { return (chunks + kGroup - 1) / kGroup; }

// Thread (x: group * kChains + chain, y: job).
template <class T, unsigned kChains, class Terms>
__global__ void __launch_bounds__(kThreads) groups_kernel(Terms terms, std::size_t chunks_per_job,
                                                          std::size_t groups_per_job,
                                                          const tv::chain_sum::Record<T>* records,
                                                          tv::chain_sum::Record<T>* group_records,
                                                          tv::chain_sum::Window<T>* windows)
{
    const unsigned job = blockIdx.y;
    const std::size_t index = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
    const std::size_t group = index / kChains;
    const unsigned c = static_cast<unsigned>(index % kChains);
    const std::size_t chunks = chunks_of(terms.count(job));
    if (group >= groups_of(chunks)) return;
    const std::size_t first = group * kGroup;
    const std::size_t count = chunks - first < kGroup ? chunks - first : kGroup;
    const tv::chain_sum::Record<T>* chunk = records + (job * chunks_per_job + first) * kChains + c;
    const tv::chain_sum::Record<T> g =
        tv::chain_sum::group_record(chunk[0].start, count, [&](std::size_t j) { return chunk[j * kChains]; });
    group_records[(job * groups_per_job + group) * kChains + c] = g;
    windows[(job * groups_per_job + group) * kChains + c] = tv::chain_sum::window_of(g);
}

// Thread (x: super-group * kChains + chain, y: job).
template <class T, unsigned kChains, class Terms>
__global__ void __launch_bounds__(kThreads) supers_kernel(Terms terms, std::size_t groups_per_job,
                                                          std::size_t supers_per_job,
                                                          const tv::chain_sum::Record<T>* group_records,
                                                          tv::chain_sum::Window<T>* super_windows)
{
    const unsigned job = blockIdx.y;
    const std::size_t index = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
    const std::size_t super = index / kChains;
    const unsigned c = static_cast<unsigned>(index % kChains);
    const std::size_t groups = groups_of(chunks_of(terms.count(job)));
    if (super >= groups_of(groups)) return;
    const std::size_t first = super * kGroup;
    const std::size_t count = groups - first < kGroup ? groups - first : kGroup;
    const tv::chain_sum::Record<T>* group = group_records + (job * groups_per_job + first) * kChains + c;
    const tv::chain_sum::Record<T> g =
        tv::chain_sum::group_record(group[0].start, count, [&](std::size_t j) { return group[j * kChains]; });
    super_windows[(job * supers_per_job + super) * kChains + c] = tv::chain_sum::window_of(g);
}

// The walk of one chain (block x: job * kChains + chain), every thread
// alike; its sum into sums[job * kChains + chain].
inline constexpr unsigned kResolveThreads = 128;

template <class T, unsigned kChains, class Terms>
__global__ void __launch_bounds__(kResolveThreads) resolve_kernel(Terms terms, std::size_t chunks_per_job,
                                                                  std::size_t groups_per_job,
                                                                  std::size_t supers_per_job,
                                                                  const tv::chain_sum::Record<T>* records,
                                                                  const tv::chain_sum::Window<T>* windows,
                                                                  const tv::chain_sum::Window<T>* super_windows,
                                                                  T* sums)
{
    const unsigned job = blockIdx.x / kChains, c = blockIdx.x % kChains;
    const std::size_t n = terms.count(job);
    const std::size_t chunks = chunks_of(n);
    const std::size_t groups = groups_of(chunks);
    const std::size_t supers = groups_of(groups);
    const tv::chain_sum::Window<T>* job_supers = super_windows + job * supers_per_job * kChains + c;
    const tv::chain_sum::Window<T>* job_windows = windows + job * groups_per_job * kChains + c;
    const tv::chain_sum::Record<T>* job_records = records + job * chunks_per_job * kChains + c;
    __shared__ tv::chain_sum::Window<T> staged[kResolveThreads];
    __shared__ tv::chain_sum::Window<T> super_groups[kGroup];
    __shared__ tv::chain_sum::Record<T> group_chunks[kGroup];
    __shared__ T span[kChunk];
    T s = T(0);
    for (std::size_t batch = 0; batch < supers; batch += kResolveThreads) {
        const std::size_t in_batch = supers - batch < kResolveThreads ? supers - batch : kResolveThreads;
        __syncthreads();
        if (threadIdx.x < in_batch) staged[threadIdx.x] = job_supers[(batch + threadIdx.x) * kChains];
        __syncthreads();
        for (std::size_t k = 0; k < in_batch; ++k) {
            T end;
            if (tv::chain_sum::window_end(staged[k], s, end)) {
                s = end;
                continue;
            }
            // The super-group's groups from the true start.
            const std::size_t first_group = (batch + k) * kGroup;
            const std::size_t group_count = groups - first_group < kGroup ? groups - first_group : kGroup;
            __syncthreads();
            if (threadIdx.x < group_count) super_groups[threadIdx.x] = job_windows[(first_group + threadIdx.x) * kChains];
            __syncthreads();
            for (std::size_t g = 0; g < group_count; ++g) {
                if (tv::chain_sum::window_end(super_groups[g], s, end)) {
                    s = end;
                    continue;
                }
                // The group's chunks from the true start.
                const std::size_t first_chunk = (first_group + g) * kGroup;
                const std::size_t count = chunks - first_chunk < kGroup ? chunks - first_chunk : kGroup;
                __syncthreads();
                if (threadIdx.x < count) group_chunks[threadIdx.x] = job_records[(first_chunk + threadIdx.x) * kChains];
                __syncthreads();
                for (std::size_t j = 0; j < count; ++j) {
                    if (tv::chain_sum::translated_end(group_chunks[j], s, end)) {
                        s = end;
                        continue;
                    }
                    const std::size_t first = (first_chunk + j) * kChunk;
                    const std::size_t size = n - first < kChunk ? n - first : kChunk;
                    __syncthreads();
                    for (std::size_t i = threadIdx.x; i < size; i += kResolveThreads) {
                        T t[kChains];
                        terms.at(job, first + i, t);
                        span[i] = t[c];
                    }
                    __syncthreads();
                    s = tv::chain_sum::follow(s, 0, size, [&](std::size_t i) { return span[i]; });
                }
            }
        }
    }
    if (threadIdx.x == 0) sums[job * kChains + c] = s;
}

template <class T, unsigned kChains, class Finish>
__global__ void finish_kernel(unsigned jobs, const T* sums, Finish finish)
{
    const unsigned job = threadIdx.x;
    if (job >= jobs) return;
    T chains[kChains];
    for (unsigned c = 0; c < kChains; ++c) chains[c] = sums[job * kChains + c];
    finish(job, chains);
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
          groups_per_job_((chunks_per_job_ + tv::chain_sum::kGroup - 1) / tv::chain_sum::kGroup),
          supers_per_job_((groups_per_job_ + tv::chain_sum::kGroup - 1) / tv::chain_sum::kGroup),
          records_(std::max<std::size_t>(1, jobs * chunks_per_job_ * kChains), "chain sum records"),
          group_records_(std::max<std::size_t>(1, jobs * groups_per_job_ * kChains), "chain sum group records"),
          windows_(std::max<std::size_t>(1, jobs * groups_per_job_ * kChains), "chain sum group windows"),
          super_windows_(std::max<std::size_t>(1, jobs * supers_per_job_ * kChains), "chain sum super-group windows"),
          sums_(std::max<std::size_t>(1, jobs * kChains), "chain sums")
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
        const dim3 group_grid(blocks_for(std::max<std::size_t>(1, groups_per_job_ * kChains), kThreads), jobs);
        groups_kernel<T, kChains><<<group_grid, kThreads, 0, stream>>>(terms, chunks_per_job_, groups_per_job_,
                                                                       records_.get(), group_records_.get(),
                                                                       windows_.get());
        check_launch("chain sum groups_kernel");
        const dim3 super_grid(blocks_for(std::max<std::size_t>(1, supers_per_job_ * kChains), kThreads), jobs);
        supers_kernel<T, kChains><<<super_grid, kThreads, 0, stream>>>(terms, groups_per_job_, supers_per_job_,
                                                                       group_records_.get(), super_windows_.get());
        check_launch("chain sum supers_kernel");
        resolve_kernel<T, kChains><<<jobs * kChains, kResolveThreads, 0, stream>>>(
            terms, chunks_per_job_, groups_per_job_, supers_per_job_, records_.get(), windows_.get(),
            super_windows_.get(), sums_.get());
        check_launch("chain sum resolve_kernel");
        finish_kernel<T, kChains><<<1, jobs, 0, stream>>>(jobs, sums_.get(), finish);
        check_launch("chain sum finish_kernel");
    }

private:
    unsigned jobs_ = 0;
    std::size_t chunks_per_job_ = 0;
    DeviceArray<T> guesses_;
    std::size_t groups_per_job_ = 0;
    std::size_t supers_per_job_ = 0;
    DeviceArray<tv::chain_sum::Record<T>> records_;
    DeviceArray<tv::chain_sum::Record<T>> group_records_;
    DeviceArray<tv::chain_sum::Window<T>> windows_;
    DeviceArray<tv::chain_sum::Window<T>> super_windows_;
    DeviceArray<T> sums_;
};

}  // namespace twinvmaf::gpu
