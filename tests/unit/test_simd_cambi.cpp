// cambi's SIMD row kernels against the reference ones (cambi_kernels.h), for
// every instruction set this build has: mask rows of every width 1..64 and a
// few wider, with column sums over their whole range (0..49) and every
// threshold that matters, the in-place decimation of pictures of those
// widths, and rows of c-values (every contrast-step count, random bands,
// histogram counts up to what the reciprocal table allows), and the top-k
// sum's compaction of the non-zero c-values and their exact fixed-point sum,
// and the histograms' row step (runs of equal values, columns that do not
// change, windows cut by the edges, counts that wrap around 0 and 65535).
// Buffers are compared whole, so a kernel that writes outside its columns
// fails too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "features/cambi/cambi.h"
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


// Contrast parameters as cambi.cpp makes them (tvi[d] <= tvi[last]), with a
// random visibility threshold and band.
ContrastParams random_contrast(int num_diffs, std::mt19937& rng)
{
    ContrastParams p;
    p.num_diffs = num_diffs;
    const int last = std::uniform_int_distribution<int>(num_diffs, 1023 + num_diffs)(rng);
    for (int d = 0; d < num_diffs; ++d) p.tvi[d] = static_cast<std::uint16_t>(std::uniform_int_distribution<int>(0, last)(rng));
    p.tvi[num_diffs - 1] = static_cast<std::uint16_t>(last);
    p.vlt_luma = static_cast<std::uint16_t>(rng() % 3 == 0 ? 0 : std::uniform_int_distribution<int>(0, last)(rng));
    set_band(p);
    return p;
}

TEST(SimdCambi, CValuesRowMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    const float* reciprocal = reciprocal_table();
    // p0 + pm indexes the reciprocal table: counts up to half its size.
    constexpr unsigned kMaxCount = (kReciprocalSize - 1) / 2;
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(52);
        for (unsigned w : test_widths()) {
            for (Fill fill : kFills) {
                for (int num_diffs : {1, 2, 4, 8, 32}) {
                    const ContrastParams p = random_contrast(num_diffs, rng);
                    SCOPED_TRACE(testing::Message() << "width " << w << " " << fill_name(fill) << " diffs "
                                                    << num_diffs << " band " << p.band_base << "+" << p.band_size);
                    // Histograms as the kernel contract says: 2 entries more.
                    std::vector<std::uint16_t> histograms(std::size_t{p.band_size} * w + 2);
                    fill_samples(histograms, kMaxCount, fill, rng);
                    // Values in and around the band; the mask as `fill` says
                    // (random: about 3 in 4 set).
                    std::vector<std::uint16_t> image(w);
                    for (auto& v : image) {
                        const int around = std::uniform_int_distribution<int>(-8, p.band_size + 8)(rng);
                        v = static_cast<std::uint16_t>(std::clamp(p.band_base + around, 0, 1023 + 32));
                    }
                    std::vector<std::uint8_t> mask(w);
                    fill_samples(mask, 1, fill, rng);
                    if (fill == Fill::kRandom)
                        for (auto& m : mask) m = rng() % 4 != 0;
                    std::vector<float> expected(w + kSlack, 0.25f), actual = expected;
                    reference.c_values_row(histograms.data(), w, mask.data(), image.data(), p, reciprocal,
                                           expected.data());
                    simd.c_values_row(histograms.data(), w, mask.data(), image.data(), p, reciprocal, actual.data());
                    ASSERT_EQ(0, std::memcmp(expected.data(), actual.data(), sizeof(float) * expected.size()));
                }
            }
        }
    });
}

// c-values as cambi makes them: 0, or in [2^-13, 2^14) (cambi_math.h),
// with the ends of that range among the extremes (and -0 for the compaction).
std::vector<float> c_values_like(std::size_t n, Fill fill, std::mt19937& rng)
{
    const float smallest = std::ldexp(1.0f, -13), largest = std::nextafter(16384.0f, 0.0f);
    std::uniform_real_distribution<float> exponent(-13.0f, 14.0f);
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float any = std::min(largest, std::max(smallest, std::exp2(exponent(rng))));
        switch (fill) {
        case Fill::kRandom: v[i] = rng() % 3 == 0 ? any : 0.0f; break;
        case Fill::kZero: v[i] = rng() % 2 ? 0.0f : -0.0f; break;
        case Fill::kMax: v[i] = any; break;
        case Fill::kAlternating: v[i] = (i & 1) ? largest : 0.0f; break;
        default: v[i] = rng() % 3 == 0 ? 0.0f : (rng() & 1 ? largest : smallest); break;
        }
    }
    return v;
}

TEST(SimdCambi, TopKKernelsMatchTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(53);
        std::vector<unsigned> sizes = test_widths();
        sizes.push_back(100000);
        for (unsigned n : sizes) {
            for (Fill fill : kFills) {
                SCOPED_TRACE(testing::Message() << "values " << n << " " << fill_name(fill));
                const std::vector<float> values = c_values_like(n, fill, rng);
                std::vector<float> expected = values, actual = values;
                const std::size_t count = reference.compact_nonzero(expected.data(), n);
                ASSERT_EQ(count, simd.compact_nonzero(actual.data(), n));
                ASSERT_EQ(0, std::memcmp(expected.data(), actual.data(), sizeof(float) * count));

                // c-values are never -0 (c_value() starts from +0), which
                // the compaction treats as 0 but c_value_fixed() does not take.
                std::vector<float> summed = values;
                for (float& v : summed) v = v == 0.0f ? 0.0f : v;
                FixedSum sum_expected{3, 5}, sum_actual{3, 5};  // adds to what is there
                reference.add_fixed_values(summed.data(), n, sum_expected);
                simd.add_fixed_values(summed.data(), n, sum_actual);
                ASSERT_EQ(sum_expected.high, sum_actual.high);
                ASSERT_EQ(sum_expected.low, sum_actual.low);
            }
        }
    });
}


// Counted rows as Windows::counted_row() makes them (-1 or a band value),
// with runs of equal values, and entering values often equal to leaving ones.
void counted_rows(unsigned columns, int band_size, Fill fill, std::mt19937& rng, std::vector<std::int16_t>& leaving,
                  std::vector<std::int16_t>& entering)
{
    leaving.assign(columns, -1);
    entering.assign(columns, -1);
    std::uniform_int_distribution<int> value(-1, band_size - 1), run(1, 40);
    const auto fill_row = [&](std::vector<std::int16_t>& row) {
        for (unsigned j = 0; j < columns;) {
            const unsigned length = std::min<unsigned>(fill == Fill::kRandom ? run(rng) : 1 + rng() % 3, columns - j);
            int v = value(rng);
            if (fill == Fill::kZero) v = 0;
            if (fill == Fill::kMax) v = band_size - 1;
            if (fill == Fill::kAlternating) v = (j & 1) ? band_size - 1 : -1;
            for (unsigned k = 0; k < length; ++k) row[j + k] = static_cast<std::int16_t>(v);
            j += length;
        }
    };
    fill_row(leaving);
    fill_row(entering);
    for (unsigned j = 0; j < columns; ++j)
        if (rng() % 3 == 0) entering[j] = leaving[j];
}

TEST(SimdCambi, SlideRowMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(54);
        for (unsigned w : test_widths()) {
            for (unsigned pad : {0u, 1u, 2u, 7u, 16u, 32u, 65u}) {
                // Narrower than the window, Netflix takes columns w..pad-1 too.
                const unsigned columns = std::max(w, pad);
                for (Fill fill : kFills) {
                    for (int band_size : {1, 5, 40}) {
                        SCOPED_TRACE(testing::Message() << "width " << w << " pad " << pad << " " << fill_name(fill)
                                                        << " band " << band_size);
                        std::vector<std::int16_t> leaving, entering;
                        counted_rows(columns, band_size, fill, rng, leaving, entering);
                        // Counts anywhere, the ends of uint16 among them.
                        std::vector<std::uint16_t> expected(std::size_t{w} * band_size + kSlack);
                        fill_samples(expected, 65535, rng() % 2 ? Fill::kRandomExtremes : Fill::kRandom, rng);
                        std::vector<std::uint16_t> actual = expected;
                        reference.slide_row(expected.data(), w, leaving.data(), entering.data(), columns, pad);
                        simd.slide_row(actual.data(), w, leaving.data(), entering.data(), columns, pad);
                        ASSERT_EQ(expected, actual);
                    }
                }
            }
        }
    });
}

}  // namespace
}  // namespace twinvmaf::cambi
