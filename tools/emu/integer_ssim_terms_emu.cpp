// Host emulation of integer_ssim_gpu.cu's terms_kernel: each block's 256
// threads as std::threads with a barrier for __syncthreads; __shared__ as
// function statics (blocks run one after another). Compares every term with
// a direct computation from integer_ssim_math.h, bit for bit.
#include <barrier>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>
#include "features/integer_ssim/integer_ssim_math.h"
struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
thread_local dim3 threadIdx, blockIdx;
std::barrier<>* g_barrier;
void __syncthreads() { g_barrier->arrive_and_wait(); }
#define __global__
#define __shared__ static
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(x)
namespace twinvmaf::integer_ssim {
#include TWINVMAF_KERNEL_INC
}
using namespace twinvmaf::integer_ssim;

template <class Sample>
int check(int w, int h, int bits, unsigned seed)
{
    std::mt19937 rng(seed);
    const int maxv = (1 << bits) - 1;
    const std::ptrdiff_t stride = (w + 3) * sizeof(Sample);  // padded rows
    std::vector<std::uint8_t> ref(stride * h), dis(stride * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int a = rng() % (maxv + 1);
            const int b = std::min(maxv, std::max(0, a + int(rng() % 41) - 20));
            reinterpret_cast<Sample*>(ref.data() + y * stride)[x] = Sample(a);
            reinterpret_cast<Sample*>(dis.data() + y * stride)[x] = Sample(b);
        }
    std::vector<double> terms(std::size_t(w) * h, -12345.0);
    const unsigned bx = (w + kTileW - 1) / kTileW, by = (h + kTileH - 1) / kTileH;
    for (unsigned gy = 0; gy < by; ++gy)
        for (unsigned gx = 0; gx < bx; ++gx) {
            std::barrier<> bar(kThreadsX * kThreadsY);
            g_barrier = &bar;
            std::vector<std::thread> threads;
            for (int t = 0; t < kThreadsX * kThreadsY; ++t)
                threads.emplace_back([&, t, gx, gy] {
                    threadIdx = dim3(t % kThreadsX, t / kThreadsX);
                    blockIdx = dim3(gx, gy);
                    terms_kernel<Sample>(ref.data(), stride, dis.data(), stride, w, h, maxv, terms.data());
                });
            for (auto& th : threads) th.join();
        }
    int bad = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            Moments m;
            for (int ky = first_tap(y); ky < end_tap(y, h); ++ky) {
                const int sy = y - kRadius + ky;
                const Moments hm = horizontal_moments(reinterpret_cast<const Sample*>(ref.data() + sy * stride),
                                                      reinterpret_cast<const Sample*>(dis.data() + sy * stride), x, w);
                add_weighted(m, tap(ky), hm);
            }
            const double want = ssim_term(m, maxv);
            const double got = terms[std::size_t(y) * w + x];
            if (std::memcmp(&want, &got, 8) != 0 && bad++ < 5) std::printf("  %dx%d %d-bit: (%d,%d) %.17g vs %.17g\n", w, h, bits, x, y, got, want);
        }
    return bad;
}

int main()
{
    int bad = 0, cases = 0;
    const int sizes[][2] = {{1, 1}, {2, 3}, {5, 9}, {8, 8}, {9, 17}, {17, 9}, {31, 15}, {32, 16}, {33, 17}, {40, 40}, {65, 3}, {3, 65}, {70, 37}, {129, 33}};
    for (auto s : sizes) {
        bad += check<std::uint8_t>(s[0], s[1], 8, 1 + cases++);
        bad += check<std::uint16_t>(s[0], s[1], 10, 1 + cases++);
        bad += check<std::uint16_t>(s[0], s[1], 15, 1 + cases++);
    }
    std::printf("%d cases, %d positions differ\n", cases, bad);
    return bad != 0;
}
