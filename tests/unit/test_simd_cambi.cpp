// cambi's SIMD row kernels against the reference ones (cambi_kernels.h), for
// every instruction set this build has: mask rows of every width 1..64 and a
// few wider, with column sums over their whole range (0..49) and every
// threshold that matters, and the in-place decimation of pictures of those
// widths. Buffers are compared whole, so a kernel that writes outside its
// columns fails too.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "features/cambi/cambi_kernels.h"
#include "simd_targets.h"

namespace twinvmaf::cambi {
namespace {

using test::fill_name;
using test::fill_samples;
using test::Fill;
using test::for_each_simd_target;
using test::kFills;
using test::test_widths;

constexpr int kMaxWindowSum = kMaskFilterSize * kMaskFilterSize;
constexpr unsigned kSlack = 70;

TEST(SimdCambi, MaskRowMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    const auto targets = for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(50);
        for (unsigned w : test_widths()) {
            for (Fill fill : kFills) {
                std::vector<std::uint16_t> sums(w);
                fill_samples(sums, kMaskFilterSize, fill, rng);
                for (unsigned threshold : {0u, 1u, 20u, 23u, 24u, 30u, 48u, 49u, 60u, 65535u}) {
                    SCOPED_TRACE(testing::Message() << "width " << w << " " << fill_name(fill) << " threshold "
                                                    << threshold);
                    std::vector<std::uint32_t> prefix(w + 1);
                    std::vector<std::uint8_t> expected(w + kSlack, 0x5a), actual = expected;
                    reference.mask_row(sums.data(), w, threshold, prefix.data(), expected.data());
                    simd.mask_row(sums.data(), w, threshold, prefix.data(), actual.data());
                    ASSERT_EQ(expected, actual);
                }
            }
        }
    });
    std::cout << "SIMD targets checked:";
    for (const auto& name : targets) std::cout << " " << name;
    std::cout << "\n";
    static_assert(kMaxWindowSum < 256);
}

template <class T>
void check_decimate(DecimateFn<T> reference, DecimateFn<T> simd, unsigned w, Fill fill, std::mt19937& rng)
{
    // A picture of (2w - 1) x 5 in a buffer of stride 2w + 3, decimated to
    // w x 3 (the sizes halve rounding up, as cambi's scales do).
    const std::size_t stride = 2 * w + 3;
    std::vector<T> expected(stride * 5 + kSlack);
    fill_samples(expected, sizeof(T) == 1 ? 1 : 1023, fill, rng);
    std::vector<T> actual = expected;
    reference(expected.data(), stride, w, 3);
    simd(actual.data(), stride, w, 3);
    ASSERT_EQ(expected, actual);
}

TEST(SimdCambi, DecimationMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(51);
        for (unsigned w : test_widths()) {
            for (Fill fill : kFills) {
                SCOPED_TRACE(testing::Message() << "width " << w << " " << fill_name(fill));
                check_decimate(reference.decimate_image, simd.decimate_image, w, fill, rng);
                check_decimate(reference.decimate_mask, simd.decimate_mask, w, fill, rng);
            }
        }
    });
}

}  // namespace
}  // namespace twinvmaf::cambi
