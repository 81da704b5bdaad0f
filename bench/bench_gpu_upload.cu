// Host-to-device feeding paths for large raw frames, in GB/s of frame data:
//   pread -> pinned:        reading into pinned pictures (T threads)
//   pinned -> device:       the upload alone (one stream)
//   pinned allocation:      cudaHostAlloc on 1 and 8 threads, and huge pages
//                           (madvise) registered with cudaHostRegister, and
//                           that split: fault-in (1, 8 threads), register,
//                           unregister, free
//   mmap + register -> dev: pinning the file's page-cache pages and uploading
//                           straight from them (no host copy), per frame
//   context teardown:       cudaDeviceReset at the end
// Run on a GPU machine:  bench_gpu_upload FILE FRAME_BYTES [THREADS]
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "gpu/gpu_runtime.h"

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void must(gpuError_t e, const char* what)
{
    if (e != gpuSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, gpuGetErrorString(e));
        std::exit(1);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s FILE FRAME_BYTES [THREADS]\n", argv[0]);
        return 2;
    }
    const int fd = ::open(argv[1], O_RDONLY);
    if (fd < 0) return 1;
    struct stat info {};
    ::fstat(fd, &info);
    const std::size_t frame = std::strtoull(argv[2], nullptr, 10);
    const unsigned threads = argc > 3 ? std::atoi(argv[3]) : 6;
    const std::size_t frames = static_cast<std::size_t>(info.st_size) / frame;
    const double gb = double(frames * frame) / 1e9;
    std::printf("%zu frames of %zu bytes, %u threads\n", frames, frame, threads);

    auto t0 = Clock::now();
    must(cudaFree(nullptr), "init");
    std::printf("context init: %.1f ms\n", 1000 * seconds_since(t0));

    const unsigned ring = threads + 2;
    std::vector<void*> pinned(ring);
    t0 = Clock::now();
    for (auto& p : pinned) must(gpuHostAlloc(&p, frame), "pinned alloc");
    std::printf("pinned alloc: %.2f ms per frame buffer (%.1f GB/s)\n", 1000 * seconds_since(t0) / ring,
                ring * frame / 1e9 / seconds_since(t0));
    void* device = nullptr;
    must(gpuMalloc(&device, frame), "device alloc");
    gpuStream_t stream;
    must(gpuStreamCreate(&stream), "stream");

    // pread -> pinned, T threads, frame i by thread i % T into its own buffer.
    t0 = Clock::now();
    {
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                for (std::size_t i = t; i < frames; i += threads)
                    (void)!::pread(fd, pinned[t], frame, static_cast<off_t>(i * frame));
            });
        for (auto& th : pool) th.join();
    }
    double s = seconds_since(t0);
    std::printf("pread -> pinned:        %6.1f GB/s (%.3f ms/frame)\n", gb / s, 1000 * s / frames);

    t0 = Clock::now();
    for (std::size_t i = 0; i < frames; ++i)
        must(gpuMemcpyAsync(device, pinned[i % ring], frame, gpuMemcpyHostToDevice, stream), "upload");
    must(gpuStreamSynchronize(stream), "sync");
    s = seconds_since(t0);
    std::printf("pinned -> device:       %6.1f GB/s (%.3f ms/frame)\n", gb / s, 1000 * s / frames);

    // Allocation variants for the pictures themselves (per frame buffer).
    {
        const unsigned n = 16;
        std::vector<void*> extra(n);
        t0 = Clock::now();
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < 8; ++t)
            pool.emplace_back([&, t] {
                for (unsigned i = t; i < n; i += 8) must(gpuHostAlloc(&extra[i], frame), "pinned alloc");
            });
        for (auto& th : pool) th.join();
        s = seconds_since(t0);
        std::printf("pinned alloc, 8 threads: %.2f ms per frame buffer (%.1f GB/s)\n", 1000 * s / n, n * frame / 1e9 / s);
        for (void* p : extra) (void)gpuFreeHost(p);

        const std::size_t huge = std::size_t{2} << 20;
        const std::size_t rounded = (frame + huge - 1) / huge * huge;
        t0 = Clock::now();
        for (unsigned i = 0; i < n; ++i) {
            extra[i] = std::aligned_alloc(huge, rounded);
            ::madvise(extra[i], rounded, MADV_HUGEPAGE);
            std::memset(extra[i], 0, rounded);
            must(cudaHostRegister(extra[i], rounded, cudaHostRegisterPortable), "register");
        }
        s = seconds_since(t0);
        std::printf("huge pages + register:   %.2f ms per frame buffer (%.1f GB/s)\n", 1000 * s / n, n * frame / 1e9 / s);
        t0 = Clock::now();
        for (unsigned i = 0; i < n; ++i)
            must(gpuMemcpyAsync(device, extra[i], frame, gpuMemcpyHostToDevice, stream), "upload");
        must(gpuStreamSynchronize(stream), "sync");
        s = seconds_since(t0);
        std::printf("  its upload:            %6.1f GB/s\n", n * frame / 1e9 / s);
        for (void* p : extra) {
            (void)cudaHostUnregister(p);
            std::free(p);
        }

        // The same, split: faulting the pages in (no GPU call; 1 and 8
        // threads), then registering them, then the teardown.
        const auto fault_in = [&](unsigned i) {
            extra[i] = std::aligned_alloc(huge, rounded);
            ::madvise(extra[i], rounded, MADV_HUGEPAGE);
            std::memset(extra[i], 0, rounded);
        };
        for (unsigned parallel : {1u, 8u}) {
            t0 = Clock::now();
            std::vector<std::thread> faulting;
            for (unsigned t = 0; t < parallel; ++t)
                faulting.emplace_back([&, t] {
                    for (unsigned i = t; i < n; i += parallel) fault_in(i);
                });
            for (auto& th : faulting) th.join();
            const double fault_s = seconds_since(t0);
            t0 = Clock::now();
            for (unsigned i = 0; i < n; ++i)
                must(cudaHostRegister(extra[i], rounded, cudaHostRegisterPortable), "register");
            const double register_s = seconds_since(t0);
            t0 = Clock::now();
            for (unsigned i = 0; i < n; ++i) (void)cudaHostUnregister(extra[i]);
            const double unregister_s = seconds_since(t0);
            t0 = Clock::now();
            for (void* p : extra) std::free(p);
            std::printf("  split, fault-in on %u thread(s): fault-in %.2f, register %.2f, unregister %.2f, free %.2f "
                        "ms per frame buffer\n",
                        parallel, 1000 * fault_s / n, 1000 * register_s / n, 1000 * unregister_s / n,
                        1000 * seconds_since(t0) / n);
        }
    }

    // mmap + register each frame's pages + upload + unregister.
    void* map = ::mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (map != MAP_FAILED) {
        t0 = Clock::now();
        double register_s = 0;
        std::size_t done = 0;
        for (std::size_t i = 0; i < frames; ++i) {
            auto* p = static_cast<char*>(map) + i * frame;
            // Registration needs page alignment; widen to whole pages.
            const std::size_t page = 4096;
            auto* start = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(p) & ~(page - 1));
            const std::size_t length = ((p + frame - start) + page - 1) / page * page;
            const auto r0 = Clock::now();
            if (cudaHostRegister(start, length, cudaHostRegisterReadOnly | cudaHostRegisterPortable) != cudaSuccess) {
                std::printf("mmap + register:        cudaHostRegister failed: %s\n",
                            gpuGetErrorString(gpuGetLastError()));
                break;
            }
            register_s += seconds_since(r0);
            must(gpuMemcpyAsync(device, p, frame, gpuMemcpyHostToDevice, stream), "upload");
            must(gpuStreamSynchronize(stream), "sync");
            const auto u0 = Clock::now();
            (void)cudaHostUnregister(start);
            register_s += seconds_since(u0);
            ++done;
        }
        s = seconds_since(t0);
        if (done == frames)
            std::printf("mmap + register -> dev: %6.1f GB/s (%.3f ms/frame, of which register+unregister %.3f)\n",
                        gb / s, 1000 * s / frames, 1000 * register_s / frames);
    }
    // What the end of a process costs when it tears the context down itself.
    for (void* p : pinned) (void)gpuFreeHost(p);
    (void)gpuFree(device);
    t0 = Clock::now();
    (void)cudaDeviceReset();
    std::printf("context teardown (cudaDeviceReset): %.1f ms\n", 1000 * seconds_since(t0));
    return 0;
}
