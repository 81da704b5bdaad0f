// motion's and psnr's SIMD row kernels against the reference ones, for every
// instruction set this build has: random and extreme rows of every width
// 1..64 and a few wider, every bit depth.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "features/motion/motion_kernels.h"
#include "features/psnr/psnr_kernels.h"
#include "simd_targets.h"

namespace twinvmaf {
namespace {

using test::fill_name;
using test::fill_samples;
using test::Fill;
using test::for_each_simd_target;
using test::kFills;
using test::test_widths;

constexpr unsigned kBitdepths[] = {8, 9, 10, 12, 14, 15, 16};

template <class Sample>
std::vector<Sample> samples(unsigned width, unsigned bitdepth, Fill fill, std::mt19937& rng)
{
    std::vector<Sample> row(width);
    fill_samples(row, (std::uint64_t{1} << bitdepth) - 1, fill, rng);
    return row;
}

// Five earlier and five current rows; the vertical blur of both kernels,
// the padded rows compared whole, then the SAD of the padded row.
template <class Sample>
void check_motion(const motion::Kernels& reference, const motion::Kernels& simd, unsigned width, unsigned bitdepth,
                  Fill fill, std::mt19937& rng)
{
    std::vector<std::vector<Sample>> earlier, current;
    const Sample* e[5];
    const Sample* c[5];
    for (int k = 0; k < 5; ++k) {
        earlier.push_back(samples<Sample>(width, bitdepth, fill, rng));
        // Current rows: the earlier ones (a still picture), or the opposite extreme, or random.
        current.push_back(k == 2 ? earlier.back() : samples<Sample>(width, bitdepth, k == 1 ? Fill::kRandom : fill, rng));
    }
    for (int k = 0; k < 5; ++k) {
        e[k] = earlier[k].data();
        c[k] = current[k].data();
    }
    std::vector<std::int32_t> expected(width + 2 * motion::kRadius, 99), actual = expected;
    bool expected_any, actual_any;
    if constexpr (sizeof(Sample) == 1) {
        expected_any = reference.vertical_blur_8bit(e, c, width, bitdepth, expected.data());
        actual_any = simd.vertical_blur_8bit(e, c, width, bitdepth, actual.data());
    } else {
        expected_any = reference.vertical_blur_16bit(e, c, width, bitdepth, expected.data());
        actual_any = simd.vertical_blur_16bit(e, c, width, bitdepth, actual.data());
    }
    ASSERT_EQ(expected, actual);
    ASSERT_EQ(expected_any, actual_any);
    motion::mirror_pad_row(expected.data(), width);
    ASSERT_EQ(reference.row_sad(expected.data(), width), simd.row_sad(expected.data(), width));
}

TEST(SimdMotion, BlurAndSadMatchTheReference)
{
    const motion::Kernels reference = motion::reference_kernels();
    for_each_simd_target([&] {
        const motion::Kernels simd = motion::simd_kernels();
        std::mt19937 rng(20);
        for (unsigned bitdepth : kBitdepths) {
            for (unsigned w : test_widths()) {
                for (Fill fill : kFills) {
                    SCOPED_TRACE(testing::Message() << bitdepth << "-bit width " << w << " " << fill_name(fill));
                    if (bitdepth == 8)
                        check_motion<std::uint8_t>(reference, simd, w, bitdepth, fill, rng);
                    else
                        check_motion<std::uint16_t>(reference, simd, w, bitdepth, fill, rng);
                }
            }
        }
        // Blurred rows of the extreme values |v| = 65535 the vertical pass can give.
        for (unsigned w : test_widths()) {
            std::vector<std::int32_t> row(w + 2 * motion::kRadius);
            for (std::size_t i = 0; i < row.size(); ++i) row[i] = (i % 3 == 0) ? -65535 : 65535;
            ASSERT_EQ(reference.row_sad(row.data(), w), simd.row_sad(row.data(), w)) << "width " << w;
        }
    });
}

TEST(SimdPsnr, RowSumsMatchTheReference)
{
    const psnr::Kernels reference = psnr::reference_kernels();
    for_each_simd_target([&] {
        const psnr::Kernels simd = psnr::simd_kernels();
        std::mt19937 rng(21);
        std::vector<unsigned> widths = test_widths();
        widths.push_back(70000);  // the 8-bit row sum wraps modulo 2^32 at the extremes
        for (unsigned bitdepth : kBitdepths) {
            for (unsigned w : widths) {
                for (Fill fill : kFills) {
                    SCOPED_TRACE(testing::Message() << bitdepth << "-bit width " << w << " " << fill_name(fill));
                    if (bitdepth == 8) {
                        const auto r = samples<std::uint8_t>(w, 8, fill, rng);
                        const auto d = samples<std::uint8_t>(w, 8, fill == Fill::kMax ? Fill::kZero : Fill::kRandom, rng);
                        ASSERT_EQ(reference.row_sse_8bit(r.data(), d.data(), w), simd.row_sse_8bit(r.data(), d.data(), w));
                    } else {
                        const auto r = samples<std::uint16_t>(w, bitdepth, fill, rng);
                        const auto d = samples<std::uint16_t>(w, bitdepth, fill == Fill::kMax ? Fill::kZero : Fill::kRandom, rng);
                        ASSERT_EQ(reference.row_sse_16bit(r.data(), d.data(), w, bitdepth),
                                  simd.row_sse_16bit(r.data(), d.data(), w, bitdepth));
                    }
                }
            }
        }
    });
}

}  // namespace
}  // namespace twinvmaf
