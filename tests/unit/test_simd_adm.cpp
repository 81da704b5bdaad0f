// adm's SIMD row kernels against the reference ones (adm_kernels.h), for
// every instruction set this build has: the wavelet's passes on random and
// extreme rows of every width 1..64 and a few wider at every bit depth, and
// decouple, CSF, masking and the sums on coefficients over their whole range
// (the extremes included, where the reference's sums wrap) for columns
// [begin, end) inside a row. Buffers are compared whole, past the row's end
// included, so a kernel that writes outside its columns fails too.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "features/adm/adm_kernels.h"
#include "simd_targets.h"

namespace twinvmaf::adm {
namespace {

using test::fill_name;
using test::fill_samples;
using test::Fill;
using test::for_each_simd_target;
using test::kFills;
using test::test_widths;

// Values written past a row's end before a kernel runs.
constexpr int kSlack = 70;
constexpr int kSentinel = 0x5a5a;

// How a row of signed coefficients is filled.
enum class CoefFill { kRandom, kSmall, kZero, kMax, kMin, kAlternating, kExtremes };
constexpr CoefFill kCoefFills[] = {CoefFill::kRandom, CoefFill::kSmall, CoefFill::kZero,     CoefFill::kMax,
                                   CoefFill::kMin,    CoefFill::kAlternating, CoefFill::kExtremes};

const char* coef_fill_name(CoefFill fill)
{
    switch (fill) {
    case CoefFill::kRandom: return "random";
    case CoefFill::kSmall: return "small";
    case CoefFill::kZero: return "zero";
    case CoefFill::kMax: return "max";
    case CoefFill::kMin: return "min";
    case CoefFill::kAlternating: return "alternating";
    default: return "extremes";
    }
}

// `size` coefficients of type T: uniform over T's range (kRandom), over
// +-2^small_bits (kSmall: where real bands lie, and for 32-bit coefficients
// where the angle test's doubles are exact), or extremes.
template <class T>
std::vector<T> coefficients(int size, CoefFill fill, std::mt19937& rng, int small_bits = 12)
{
    using L = std::numeric_limits<T>;
    std::uniform_int_distribution<std::int64_t> any(L::min(), L::max());
    std::uniform_int_distribution<std::int64_t> small(-(std::int64_t{1} << small_bits), std::int64_t{1} << small_bits);
    const T extremes[] = {L::min(), T(L::min() + 1), T(-1), T(0), T(1), T(L::max() - 1), L::max()};
    std::vector<T> v(size + kSlack, static_cast<T>(kSentinel));
    for (int i = 0; i < size; ++i) {
        switch (fill) {
        case CoefFill::kRandom: v[i] = static_cast<T>(any(rng)); break;
        case CoefFill::kSmall: v[i] = static_cast<T>(small(rng)); break;
        case CoefFill::kZero: v[i] = 0; break;
        case CoefFill::kMax: v[i] = L::max(); break;
        case CoefFill::kMin: v[i] = L::min(); break;
        case CoefFill::kAlternating: v[i] = (i & 1) ? L::max() : L::min(); break;
        case CoefFill::kExtremes: v[i] = extremes[rng() % 7]; break;
        }
    }
    return v;
}

// Column ranges [begin, end) of a row of `width` that a test runs: the whole
// row and rows with a few columns left out on either side.
std::vector<std::pair<int, int>> column_ranges(int width)
{
    std::vector<std::pair<int, int>> ranges{{0, width}};
    if (width > 1) ranges.push_back({1, width});
    if (width > 4) ranges.push_back({2, width - 1});
    if (width > 7) ranges.push_back({3, width - 3});
    return ranges;
}

// ---- the wavelet -------------------------------------------------------------------

constexpr int kBitdepths[] = {8, 9, 10, 12, 14, 15, 16};

template <class Sample>
void check_dwt0_vertical(const Kernels& reference, const Kernels& simd, int width, int bitdepth, Fill fill,
                         std::mt19937& rng)
{
    std::vector<std::vector<Sample>> storage(4, std::vector<Sample>(width));
    const Sample* rows[4];
    for (int k = 0; k < 4; ++k) {
        fill_samples(storage[k], (std::uint64_t{1} << bitdepth) - 1, k == 2 ? Fill::kRandom : fill, rng);
        rows[k] = storage[k].data();
    }
    std::vector<std::int16_t> low_a(width + kSlack, kSentinel), high_a = low_a, low_b = low_a, high_b = low_a;
    if constexpr (sizeof(Sample) == 1) {
        reference.dwt0_vertical_8bit(rows, width, bitdepth, low_a.data(), high_a.data());
        simd.dwt0_vertical_8bit(rows, width, bitdepth, low_b.data(), high_b.data());
    } else {
        reference.dwt0_vertical_16bit(rows, width, bitdepth, low_a.data(), high_a.data());
        simd.dwt0_vertical_16bit(rows, width, bitdepth, low_b.data(), high_b.data());
    }
    ASSERT_EQ(low_a, low_b);
    ASSERT_EQ(high_a, high_b);
}

TEST(SimdAdm, Scale0VerticalPassMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    const auto targets = for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(30);
        for (int bitdepth : kBitdepths) {
            for (unsigned w : test_widths()) {
                for (Fill fill : kFills) {
                    SCOPED_TRACE(testing::Message() << bitdepth << "-bit width " << w << " " << fill_name(fill));
                    if (bitdepth == 8)
                        check_dwt0_vertical<std::uint8_t>(reference, simd, int(w), bitdepth, fill, rng);
                    else
                        check_dwt0_vertical<std::uint16_t>(reference, simd, int(w), bitdepth, fill, rng);
                }
            }
        }
    });
    std::cout << "SIMD targets checked:";
    for (const auto& name : targets) std::cout << " " << name;
    std::cout << "\n";
}

// The output width of a horizontal pass of `input_width`, as adm_math.h's
// scales halve (rounding up).
int half_width(int input_width) { return (input_width + 1) / 2; }

TEST(SimdAdm, Scale0HorizontalPassMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(31);
        for (unsigned w : test_widths()) {
            for (CoefFill fill : kCoefFills) {
                SCOPED_TRACE(testing::Message() << "width " << w << " " << coef_fill_name(fill));
                const int width = int(w), out = half_width(width);
                const std::vector<std::int16_t> split = coefficients<std::int16_t>(width, fill, rng);
                for (bool with_high : {true, false}) {
                    std::vector<std::int16_t> low_a(out + kSlack, kSentinel), high_a = low_a, low_b = low_a,
                                                                               high_b = low_a;
                    reference.dwt0_horizontal(split.data(), width, out, low_a.data(),
                                              with_high ? high_a.data() : nullptr);
                    simd.dwt0_horizontal(split.data(), width, out, low_b.data(), with_high ? high_b.data() : nullptr);
                    ASSERT_EQ(low_a, low_b);
                    ASSERT_EQ(high_a, high_b);
                }
            }
        }
    });
}

// Every rounding the scales use (vertical and horizontal), and one the
// 16-bit vertical pass sends back to the reference.
std::vector<DwtRounding> roundings()
{
    std::vector<DwtRounding> all;
    for (const DwtRounding& r : kVerticalRounding) all.push_back(r);
    for (const DwtRounding& r : kHorizontalRounding) all.push_back(r);
    all.push_back({std::int64_t{1} << 29, 30});
    return all;
}

template <class Coef>
void check_dwt_vertical(const Kernels& reference, const Kernels& simd, int width, CoefFill fill, std::mt19937& rng)
{
    std::vector<std::vector<Coef>> storage;
    const Coef* rows[4];
    for (int k = 0; k < 4; ++k) {
        storage.push_back(coefficients<Coef>(width, k == 1 ? CoefFill::kRandom : fill, rng));
        rows[k] = storage[k].data();
    }
    for (const DwtRounding& rounding : roundings()) {
        SCOPED_TRACE(testing::Message() << "rounding " << rounding.add << " >> " << rounding.shift);
        std::vector<std::int32_t> low_a(width + kSlack, kSentinel), high_a = low_a, low_b = low_a, high_b = low_a;
        if constexpr (sizeof(Coef) == 2) {
            reference.dwt_vertical_16bit(rows, width, rounding, low_a.data(), high_a.data());
            simd.dwt_vertical_16bit(rows, width, rounding, low_b.data(), high_b.data());
        } else {
            reference.dwt_vertical_32bit(rows, width, rounding, low_a.data(), high_a.data());
            simd.dwt_vertical_32bit(rows, width, rounding, low_b.data(), high_b.data());
        }
        ASSERT_EQ(low_a, low_b);
        ASSERT_EQ(high_a, high_b);
    }
}

TEST(SimdAdm, UpperScalesWaveletMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(32);
        for (unsigned w : test_widths()) {
            for (CoefFill fill : kCoefFills) {
                SCOPED_TRACE(testing::Message() << "width " << w << " " << coef_fill_name(fill));
                const int width = int(w), out = half_width(width);
                check_dwt_vertical<std::int16_t>(reference, simd, width, fill, rng);
                check_dwt_vertical<std::int32_t>(reference, simd, width, fill, rng);
                const std::vector<std::int32_t> split = coefficients<std::int32_t>(width, fill, rng, 24);
                for (const DwtRounding& rounding : roundings()) {
                    for (bool with_high : {true, false}) {
                        SCOPED_TRACE(testing::Message() << "horizontal, rounding " << rounding.add << " >> "
                                                        << rounding.shift << (with_high ? "" : ", low only"));
                        std::vector<std::int32_t> low_a(out + kSlack, kSentinel), high_a = low_a, low_b = low_a,
                                                                                   high_b = low_a;
                        reference.dwt_horizontal(split.data(), width, out, rounding, low_a.data(),
                                                 with_high ? high_a.data() : nullptr);
                        simd.dwt_horizontal(split.data(), width, out, rounding, low_b.data(),
                                            with_high ? high_b.data() : nullptr);
                        ASSERT_EQ(low_a, low_b);
                        ASSERT_EQ(high_a, high_b);
                    }
                }
            }
        }
    });
}

// ---- decouple, CSF, masking and the sums ---------------------------------------------

// Bits of the "small" coefficients of each precision: scale 0's bands are
// 16-bit; 2^26 is where the angle test of 32-bit ones leaves doubles.
template <class Arith>
constexpr int kSmallBits = sizeof(typename Arith::Coef) == 2 ? 12 : 25;

template <class Arith>
const BandKernels<Arith>& band_kernels(const Kernels& k)
{
    if constexpr (std::is_same_v<Arith, Scale0Arithmetic>)
        return k.scale0;
    else
        return k.scale_n;
}

// CSF weights of one precision: Netflix's default ones and random ones
// (16-bit at scale 0, 32-bit above).
template <class Arith>
std::vector<std::uint32_t> csf_weights(std::mt19937& rng)
{
    if constexpr (sizeof(typename Arith::Coef) == 2)
        return {36453, 49417, 1, 65535, static_cast<std::uint32_t>(rng() & 0xffff)};
    else
        return {0, 1, 0xffffffffu, 0x80000000u, 716046764u, static_cast<std::uint32_t>(rng())};
}

template <class Arith>
void check_decouple_and_weights(const Kernels& reference_all, const Kernels& simd_all, int width, CoefFill fill,
                                std::mt19937& rng)
{
    using Coef = typename Arith::Coef;
    const BandKernels<Arith>& reference = band_kernels<Arith>(reference_all);
    const BandKernels<Arith>& simd = band_kernels<Arith>(simd_all);
    std::vector<Coef> band[4];  // ref h, ref v, dis h, dis v
    for (int k = 0; k < 4; ++k)
        band[k] = coefficients<Coef>(width, k == 3 && fill != CoefFill::kSmall ? CoefFill::kRandom : fill, rng,
                                     kSmallBits<Arith>);
    // The distorted band near the reference one in half the columns (where
    // the angle test passes and gains lie inside (0, 1)).
    for (int x = 0; x < width; x += 2) {
        band[2][x] = static_cast<Coef>(band[0][x] - band[0][x] / 8);
        band[3][x] = static_cast<Coef>(band[1][x] - band[1][x] / 8);
    }
    for (const auto& [begin, end] : column_ranges(width)) {
        SCOPED_TRACE(testing::Message() << "columns " << begin << ".." << end);
        std::vector<std::uint8_t> aligned_a(width + kSlack, 0x5a), aligned_b = aligned_a;
        reference.angle_test(band[0].data(), band[1].data(), band[2].data(), band[3].data(), begin, end,
                             aligned_a.data());
        simd.angle_test(band[0].data(), band[1].data(), band[2].data(), band[3].data(), begin, end, aligned_b.data());
        ASSERT_EQ(aligned_a, aligned_b) << "angle test";
        // Decouple with the angle test's flags and with random ones.
        std::vector<std::uint8_t> flags = aligned_a;
        for (int x = begin; x < end; x += 3) flags[x] = static_cast<std::uint8_t>(rng() & 1);
        for (double gain_limit : {100.0, 1.0, 1.2, 2.5}) {
            SCOPED_TRACE(testing::Message() << "gain limit " << gain_limit);
            std::vector<std::int32_t> gain(width + kSlack);
            std::vector<Coef> restored_a(width + kSlack, static_cast<Coef>(kSentinel)), additive_a = restored_a,
                                                                                          restored_b = restored_a,
                                                                                          additive_b = restored_a;
            for (int side = 0; side < 2; ++side) {
                const Coef* o = band[side].data();
                const Coef* t = band[2 + side].data();
                reference.decouple(o, t, flags.data(), begin, end, gain_limit, gain.data(), restored_a.data(),
                                   additive_a.data());
                simd.decouple(o, t, flags.data(), begin, end, gain_limit, gain.data(), restored_b.data(),
                              additive_b.data());
                ASSERT_EQ(restored_a, restored_b) << "restored";
                ASSERT_EQ(additive_a, additive_b) << "additive";
            }
        }
        // Masking weights of every orientation, summed onto random values
        // (or started), with each weight.
        for (std::uint32_t weight : csf_weights<Arith>(rng)) {
            std::vector<std::int32_t> neighbour_a = coefficients<std::int32_t>(width, CoefFill::kRandom, rng);
            std::vector<std::int32_t> centre_a = coefficients<std::int32_t>(width, CoefFill::kRandom, rng);
            std::vector<std::int32_t> neighbour_b = neighbour_a, centre_b = centre_a;
            for (int theta = 0; theta < kOrientations; ++theta) {
                for (bool first : {false, true}) {
                    SCOPED_TRACE(testing::Message() << "weight " << weight << " theta " << theta << " first " << first);
                    const Coef* masker = band[theta % 4].data();
                    reference.add_masking_weights(masker, weight, theta, first, begin, end, neighbour_a.data(),
                                                  centre_a.data());
                    simd.add_masking_weights(masker, weight, theta, first, begin, end, neighbour_b.data(),
                                             centre_b.data());
                    ASSERT_EQ(neighbour_a, neighbour_b) << "neighbour weights";
                    ASSERT_EQ(centre_a, centre_b) << "centre weights";
                }
            }
        }
    }
}

template <class Arith>
void check_masking_and_sums(const Kernels& reference_all, const Kernels& simd_all, int width, CoefFill fill,
                            std::mt19937& rng)
{
    using Coef = typename Arith::Coef;
    const BandKernels<Arith>& reference = band_kernels<Arith>(reference_all);
    const BandKernels<Arith>& simd = band_kernels<Arith>(simd_all);
    const int scale = std::is_same_v<Arith, Scale0Arithmetic> ? 0 : 2;
    const std::vector<Coef> source = coefficients<Coef>(width, fill, rng, kSmallBits<Arith>);
    // Thresholds: small ones (real masking) and any int32.
    std::vector<std::int32_t> weights[4];
    for (auto& w : weights) w = coefficients<std::int32_t>(width, fill == CoefFill::kSmall ? fill : CoefFill::kRandom, rng, 10);
    for (const auto& [begin, end] : column_ranges(width)) {
        SCOPED_TRACE(testing::Message() << "columns " << begin << ".." << end);
        std::vector<std::int32_t> sums_a(width + kSlack, kSentinel), sums_b = sums_a;
        std::vector<std::int32_t> threshold_a(width + kSlack, kSentinel), threshold_b = threshold_a;
        reference_all.masking_threshold(weights[0].data(), weights[1].data(), weights[2].data(), weights[3].data(),
                                        width, begin, end, sums_a.data(), threshold_a.data());
        simd_all.masking_threshold(weights[0].data(), weights[1].data(), weights[2].data(), weights[3].data(), width,
                                   begin, end, sums_b.data(), threshold_b.data());
        ASSERT_EQ(threshold_a, threshold_b) << "masking threshold";
        // The shifts of this width, of a tiny band (cube shift 0) and of a
        // large one.
        for (int shifts_width : {width, 2, 4000}) {
            const MaskingShifts masking = masking_shifts(scale, shifts_width, shifts_width);
            for (std::uint32_t weight : csf_weights<Arith>(rng)) {
                for (int theta = 0; theta < kOrientations; ++theta) {
                    SCOPED_TRACE(testing::Message() << "weight " << weight << " theta " << theta << " shifts of "
                                                    << shifts_width);
                    ASSERT_EQ(reference.masked_cube(source.data(), weight, threshold_a.data(), begin, end, masking,
                                                    theta),
                              simd.masked_cube(source.data(), weight, threshold_a.data(), begin, end, masking, theta));
                }
            }
            for (int denominator_scale : {scale, 1, 3}) {
                if ((denominator_scale == 0) != (scale == 0)) continue;
                const Region region{0, shifts_width, 0, shifts_width};
                const DenominatorShifts den = denominator_shifts(denominator_scale, region);
                SCOPED_TRACE(testing::Message() << "denominator of scale " << denominator_scale << " of "
                                                << shifts_width);
                ASSERT_EQ(reference.reference_cube(source.data(), begin, end, den),
                          simd.reference_cube(source.data(), begin, end, den));
            }
        }
    }
}

template <class Arith>
void check_band_kernels(int seed)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(seed);
        for (unsigned w : test_widths()) {
            for (CoefFill fill : kCoefFills) {
                SCOPED_TRACE(testing::Message() << "width " << w << " " << coef_fill_name(fill));
                check_decouple_and_weights<Arith>(reference, simd, int(w), fill, rng);
                check_masking_and_sums<Arith>(reference, simd, int(w), fill, rng);
            }
        }
    });
}

TEST(SimdAdm, Scale0BandKernelsMatchTheReference) { check_band_kernels<Scale0Arithmetic>(33); }

TEST(SimdAdm, UpperScalesBandKernelsMatchTheReference) { check_band_kernels<ScaleNArithmetic>(34); }

}  // namespace
}  // namespace twinvmaf::adm
