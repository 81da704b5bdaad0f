// vif's SIMD row kernels against the reference ones (vif_kernels.h), for
// every instruction set this build has: random and extreme rows of every
// width 1..64 and a few wider, every bit depth, every scale. Buffers are
// compared whole, padding included, so a kernel that writes outside its
// row's columns fails too.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "features/vif/vif.h"
#include "features/vif/vif_kernels.h"
#include "simd_targets.h"

namespace twinvmaf::vif {
namespace {

using test::fill_name;
using test::fill_samples;
using test::Fill;
using test::for_each_simd_target;
using test::kFills;
using test::test_widths;

constexpr unsigned kPad = kMaxFilterHalf;

// kMomentArrays padded rows, as vif_cpu.cpp allocates them.
struct MomentRows {
    std::vector<std::uint16_t> arrays[kMomentArrays];

    explicit MomentRows(unsigned width)
    {
        for (auto& a : arrays) a.assign(width + 2 * kPad + kRowSlack, 0x5a5a);
    }
    MomentRow row()
    {
        std::uint16_t* p[kMomentArrays];
        for (unsigned i = 0; i < kMomentArrays; ++i) p[i] = arrays[i].data() + kPad;
        return {p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]};
    }
};

bool operator==(const MomentRows& a, const MomentRows& b)
{
    for (unsigned i = 0; i < kMomentArrays; ++i)
        if (a.arrays[i] != b.arrays[i]) return false;
    return true;
}

bool operator==(const ScaleSums& a, const ScaleSums& b)
{
    return a.num_log == b.num_log && a.den_log == b.den_log && a.num_non_log == b.num_non_log &&
           a.den_non_log == b.den_non_log;
}

// `count` picture rows of `width` samples (and kRowSlack more) below `max`.
template <class Sample>
struct Rows {
    std::vector<std::vector<Sample>> storage;
    std::vector<const Sample*> pointers;

    Rows(unsigned count, unsigned width, std::uint64_t max, Fill fill, std::mt19937& rng) : storage(count)
    {
        for (auto& row : storage) {
            row.resize(width + kRowSlack);
            fill_samples(row, max, fill, rng);
            pointers.push_back(row.data());
        }
    }
};

// Bit depths of 16-bit scale-0 pictures.
constexpr unsigned kHighBitdepths[] = {9, 10, 12, 14, 15, 16};

TEST(SimdVif, VerticalMomentsMatchTheReference)
{
    const Kernels reference = reference_kernels();
    const auto targets = for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(16);
        for (int scale = 0; scale < kScaleCount; ++scale) {
            const unsigned taps = scale_filter(scale).width;
            for (unsigned w : test_widths()) {
                for (Fill fill : kFills) {
                    SCOPED_TRACE(testing::Message() << "scale " << scale << " width " << w << " " << fill_name(fill));
                    if (scale == 0) {
                        Rows<std::uint8_t> r(taps, w, 255, fill, rng), d(taps, w, 255, Fill::kRandom, rng);
                        MomentRows expected(w), actual(w);
                        const VerticalShifts shifts = statistics_shifts(0, 8);
                        reference.vertical_moments_8bit[0](r.pointers.data(), d.pointers.data(), shifts, w,
                                                           expected.row());
                        simd.vertical_moments_8bit[0](r.pointers.data(), d.pointers.data(), shifts, w, actual.row());
                        ASSERT_TRUE(expected == actual) << "8-bit";
                    }
                    const std::vector<unsigned> depths =
                        scale == 0 ? std::vector<unsigned>(std::begin(kHighBitdepths), std::end(kHighBitdepths))
                                   : std::vector<unsigned>{16};
                    for (unsigned bitdepth : depths) {
                        const std::uint64_t max = (std::uint64_t{1} << bitdepth) - 1;
                        Rows<std::uint16_t> r(taps, w, max, fill, rng), d(taps, w, max, Fill::kRandom, rng);
                        MomentRows expected(w), actual(w);
                        const VerticalShifts shifts = statistics_shifts(scale, bitdepth);
                        reference.vertical_moments_16bit[scale](r.pointers.data(), d.pointers.data(), shifts, w,
                                                                expected.row());
                        simd.vertical_moments_16bit[scale](r.pointers.data(), d.pointers.data(), shifts, w,
                                                           actual.row());
                        ASSERT_TRUE(expected == actual) << bitdepth << "-bit";
                    }
                }
            }
        }
    });
    std::cout << "SIMD targets checked:";
    for (const auto& name : targets) std::cout << " " << name;
    std::cout << "\n";
}

TEST(SimdVif, RowStatisticsMatchTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(17);
        for (int scale = 0; scale < kScaleCount; ++scale) {
            for (unsigned w : test_widths()) {
                for (Fill fill : kFills) {
                    for (double gain_limit : {100.0, 1.0, 2.5}) {
                        SCOPED_TRACE(testing::Message() << "scale " << scale << " width " << w << " "
                                                        << fill_name(fill) << " gain limit " << gain_limit);
                        MomentRows moments(w);
                        for (unsigned i = 0; i < kMomentArrays; ++i)
                            fill_samples(moments.arrays[i], 65535, i % 2 ? fill : Fill::kRandom, rng);
                        std::vector<std::int32_t> s1(w), s2(w), s12(w), t1(w), t2(w), t12(w);
                        // Non-zero starting sums: the kernels add to them.
                        ScaleSums expected{.num_log = 5, .den_log = -7, .num_non_log = 11, .den_non_log = 13};
                        ScaleSums actual = expected;
                        reference.row_statistics[scale](moments.row(), w, {s1.data(), s2.data(), s12.data()},
                                                        log2_table(), gain_limit, expected);
                        simd.row_statistics[scale](moments.row(), w, {t1.data(), t2.data(), t12.data()},
                                                   log2_table(), gain_limit, actual);
                        ASSERT_TRUE(expected == actual)
                            << expected.num_log << " " << expected.den_log << " " << expected.num_non_log << " "
                            << expected.den_non_log << " vs " << actual.num_log << " " << actual.den_log << " "
                            << actual.num_non_log << " " << actual.den_non_log;
                    }
                }
            }
        }
    });
}

TEST(SimdVif, DecimationMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(18);
        for (int scale = 1; scale < kScaleCount; ++scale) {
            const unsigned taps = scale_filter(scale).width;
            for (unsigned w : test_widths()) {
                for (Fill fill : kFills) {
                    SCOPED_TRACE(testing::Message() << "scale " << scale << " width " << w << " " << fill_name(fill));
                    const auto check_vertical = [&](auto fn_ref, auto fn_simd, const auto& r, const auto& d,
                                                    unsigned shift) {
                        std::vector<std::uint16_t> ref_a(w + kRowSlack, 7), dis_a(w + kRowSlack, 7);
                        std::vector<std::uint16_t> ref_b = ref_a, dis_b = dis_a;
                        fn_ref(r.pointers.data(), d.pointers.data(), shift, w, ref_a.data(), dis_a.data());
                        fn_simd(r.pointers.data(), d.pointers.data(), shift, w, ref_b.data(), dis_b.data());
                        ASSERT_EQ(ref_a, ref_b) << "shift " << shift;
                        ASSERT_EQ(dis_a, dis_b) << "shift " << shift;
                    };
                    if (scale == 1) {
                        Rows<std::uint8_t> r(taps, w, 255, fill, rng), d(taps, w, 255, Fill::kRandom, rng);
                        check_vertical(reference.vertical_lowpass_8bit[1], simd.vertical_lowpass_8bit[1], r, d,
                                       lowpass_shift(1, 8));
                        for (unsigned bitdepth : kHighBitdepths) {
                            const std::uint64_t max = (std::uint64_t{1} << bitdepth) - 1;
                            Rows<std::uint16_t> r16(taps, w, max, fill, rng), d16(taps, w, max, Fill::kRandom, rng);
                            check_vertical(reference.vertical_lowpass_16bit[1], simd.vertical_lowpass_16bit[1], r16,
                                           d16, lowpass_shift(1, bitdepth));
                        }
                    } else {
                        Rows<std::uint16_t> r(taps, w, 65535, fill, rng), d(taps, w, 65535, Fill::kRandom, rng);
                        check_vertical(reference.vertical_lowpass_16bit[scale], simd.vertical_lowpass_16bit[scale], r,
                                       d, lowpass_shift(scale, 16));
                    }
                    // The horizontal pass over padded rows of width w.
                    std::vector<std::uint16_t> ref_in(w + 2 * kPad + kRowSlack), dis_in(ref_in.size());
                    fill_samples(ref_in, 65535, fill, rng);
                    fill_samples(dis_in, 65535, Fill::kRandom, rng);
                    const unsigned out_width = w / 2;
                    std::vector<std::uint16_t> ref_a(out_width + kRowSlack, 3), dis_a(ref_a), ref_b(ref_a),
                        dis_b(ref_a);
                    reference.horizontal_decimate[scale](ref_in.data() + kPad, dis_in.data() + kPad, out_width,
                                                         ref_a.data(), dis_a.data());
                    simd.horizontal_decimate[scale](ref_in.data() + kPad, dis_in.data() + kPad, out_width,
                                                    ref_b.data(), dis_b.data());
                    ASSERT_EQ(ref_a, ref_b);
                    ASSERT_EQ(dis_a, dis_b);
                }
            }
        }
    });
}

}  // namespace
}  // namespace twinvmaf::vif
