// psnr_hvs's SIMD block kernel against the reference one, for every
// instruction set this build has: block rows of 1..40 blocks (every tail of
// every vector length, and several groups of blocks), random and extreme
// samples, 8..16-bit, each plane's tables; the whole term buffer compared
// bytewise with canaries on both sides, and the float sum continued over it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "features/psnr_hvs/psnr_hvs.h"
#include "features/psnr_hvs/psnr_hvs_kernels.h"
#include "simd_targets.h"

namespace twinvmaf {
namespace {

using psnr_hvs::kBlockSize;
using psnr_hvs::kBlockStep;
using psnr_hvs::kCoefficients;
using test::fill_name;
using test::fill_samples;
using test::Fill;
using test::for_each_simd_target;
using test::kFills;

constexpr unsigned kHvsBitdepths[] = {8, 10, 12, 16};
constexpr int kMaxBlocks = 40;
constexpr std::size_t kCanaryFloats = kCoefficients;  // floats each side of the terms: one block

// The terms of one block row from `kernel`, with the canaries, then the sum
// it returns, continued from `sum`.
template <class Sample>
std::vector<float> row_terms(psnr_hvs::BlockRowFn<Sample> kernel, const std::vector<Sample>& ref,
                             const std::vector<Sample>& dis, std::ptrdiff_t stride, int blocks,
                             const psnr_hvs::PlaneTables& tables, float sum)
{
    std::vector<float> terms(kCanaryFloats + kCoefficients * static_cast<std::size_t>(blocks) + kCanaryFloats, -7.25f);
    terms.push_back(
        kernel(ref.data(), stride, dis.data(), stride, blocks, tables.csf, tables.mask, terms.data() + kCanaryFloats, sum));
    return terms;
}

bool same_bytes(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// A plane of 8 rows just wide enough for `blocks` blocks plus (blocks % 7)
// samples that no block reads, its stride a few samples more; the
// distorted plane filled as `dis_fill` says.
template <class Sample>
void check_row(psnr_hvs::BlockRowFn<Sample> reference, psnr_hvs::BlockRowFn<Sample> simd, int blocks,
               unsigned bitdepth, Fill ref_fill, Fill dis_fill, const psnr_hvs::PlaneTables& tables,
               std::mt19937& rng)
{
    const std::ptrdiff_t width = kBlockStep * blocks + 1 + blocks % kBlockStep, stride = width + 3;
    std::vector<Sample> ref(static_cast<std::size_t>(stride * kBlockSize)), dis(ref.size());
    const std::uint64_t max_value = (std::uint64_t{1} << bitdepth) - 1;
    fill_samples(ref, max_value, ref_fill, rng);
    fill_samples(dis, max_value, dis_fill, rng);
    // A sum already under way, as for every block row after a plane's first.
    const float sum = std::uniform_real_distribution<float>(0, 1e6f)(rng);
    const std::vector<float> expected = row_terms(reference, ref, dis, stride, blocks, tables, sum);
    const std::vector<float> actual = row_terms(simd, ref, dis, stride, blocks, tables, sum);
    ASSERT_TRUE(same_bytes(expected, actual));
}

TEST(SimdPsnrHvs, BlockRowTermsMatchTheReference)
{
    const psnr_hvs::Kernels reference = psnr_hvs::reference_kernels();
    const psnr_hvs::PlaneTables tables[3] = {psnr_hvs::plane_tables(0), psnr_hvs::plane_tables(1),
                                             psnr_hvs::plane_tables(2)};
    const std::vector<std::string> targets = for_each_simd_target([&] {
        const psnr_hvs::Kernels simd = psnr_hvs::simd_kernels();
        std::mt19937 rng(16);
        for (unsigned bitdepth : kHvsBitdepths) {
            for (int blocks = 1; blocks <= kMaxBlocks; ++blocks) {
                for (Fill ref_fill : kFills) {
                    // The distorted plane: as the reference one, or random, or the opposite extreme.
                    for (Fill dis_fill : {ref_fill, Fill::kRandom, ref_fill == Fill::kMax ? Fill::kZero : Fill::kMax}) {
                        SCOPED_TRACE(testing::Message() << bitdepth << "-bit, " << blocks << " blocks, "
                                                        << fill_name(ref_fill) << " / " << fill_name(dis_fill));
                        const psnr_hvs::PlaneTables& t = tables[blocks % 3];
                        if (bitdepth == 8)
                            check_row<std::uint8_t>(reference.block_row_8bit, simd.block_row_8bit, blocks, bitdepth,
                                                    ref_fill, dis_fill, t, rng);
                        else
                            check_row<std::uint16_t>(reference.block_row_16bit, simd.block_row_16bit, blocks,
                                                     bitdepth, ref_fill, dis_fill, t, rng);
                    }
                }
            }
        }
    });
    EXPECT_FALSE(targets.empty());
}

}  // namespace
}  // namespace twinvmaf
