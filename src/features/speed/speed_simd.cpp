// Highway SIMD of SpEED's kernels (speed_kernels.h), compiled once per
// instruction set: tv::glibc::log2 (core/glibc_log2.h, glibc's __log2_fma)
// one argument per 64-bit lane. Every step is the scalar one - the same IEEE
// additions, subtractions and multiplications in the same order, the same
// exact bit manipulation, the same table entries (gathered), and glibc's
// fused multiply-adds as Highway's MulAdd/MulSub, which are single fused
// instructions on the targets with HWY_NATIVE_FMA (AVX2, AVX-512) - so each
// lane rounds exactly as the scalar code does. Nothing else fuses (the
// project compiles with -ffp-contract=off, and Highway's Mul and Add are
// single operations). On targets without a fused multiply-add (SSSE3,
// SSE4, EMU128; Highway's MulAdd is a multiplication and an addition there)
// each lane calls the scalar function, whose fma() is exact everywhere.
// Arguments off glibc's main and near-1 paths (zero, negative, subnormal,
// infinite, NaN) are recomputed by the scalar function. The block entropies
// keep each block's order: the 25 terms added in k order, one block per
// lane.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/speed/speed_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/glibc_log2.h"
#include "core/simd.h"
#include "core/simd_to_float-inl.h"
#include "features/speed/speed_kernels.h"
#include "features/speed/speed_math.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::speed::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::to_float_as_cast;
using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using DU = hn::RebindToUnsigned<D>;
using DI = hn::RebindToSigned<D>;

#if HWY_NATIVE_FMA
// glibc_log2.h's log2_detail steps, lane by lane (fused() = MulAdd).
namespace lg = tv::glibc::log2_detail;

HWY_INLINE V fused(V a, V b, V c) { return hn::MulAdd(a, b, c); }

// main_fma(reduce(bits)) for lanes with a positive normal x off the near-1
// interval (others: any value, no fault).
HWY_INLINE V log2_main(D d, hn::Vec<DU> ix)
{
    const DU du;
    const DI di;
    // reduce(): x = 2^k z, z in [OFF, 2 OFF), subinterval i.
    const auto tmp = hn::Sub(ix, hn::Set(du, lg::kOff));
    const auto i = hn::BitCast(di, hn::And(hn::ShiftRight<52 - 6>(tmp), hn::Set(du, 63)));
    const auto k = hn::ShiftRight<52>(hn::BitCast(di, tmp));  // arithmetic shift
    const V z = hn::BitCast(d, hn::Sub(ix, hn::And(tmp, hn::Set(du, 0xfffULL << 52))));
    // table(i): {invc, logc} pairs as doubles, entry i at 2i and 2i + 1.
    const double* table = &lg::table(0).invc;
    const auto at = hn::Add(i, i);
    const V invc = hn::GatherIndex(d, table, at);
    const V logc = hn::GatherIndex(d, table, hn::Add(at, hn::Set(di, 1)));
    const V kd = hn::ConvertTo(d, k);
    // main_fma().
    const V inv_ln2_hi = hn::Set(d, lg::kInvLn2Hi);
    const V r = fused(z, invc, hn::Set(d, -1.0));
    const V t1 = hn::Mul(r, inv_ln2_hi);
    const V t2 = fused(r, hn::Set(d, lg::kInvLn2Lo), hn::MulSub(r, inv_ln2_hi, t1));  // fma(r, hi, -t1)
    const V t3 = hn::Add(kd, logc);
    const V hi = hn::Add(t3, t1);
    const V lo = hn::Add(hn::Add(hn::Sub(t3, hi), t1), t2);
    const V r2 = hn::Mul(r, r);
    const V r4 = hn::Mul(r2, r2);
    const V p = fused(r4, fused(r, hn::Set(d, lg::kA5), hn::Set(d, lg::kA4)),
                      fused(r2, fused(r, hn::Set(d, lg::kA3), hn::Set(d, lg::kA2)),
                            fused(r, hn::Set(d, lg::kA1), hn::Set(d, lg::kA0))));
    return hn::Add(fused(r2, p, lo), hi);
}

// near_one_fma(x) for lanes in the near-1 interval (others: any value).
HWY_INLINE V log2_near_one(D d, V x)
{
    const V r = hn::Sub(x, hn::Set(d, 1.0));
    const V inv_ln2_hi = hn::Set(d, lg::kInvLn2Hi);
    const V hi = hn::Mul(r, inv_ln2_hi);
    V lo = fused(r, hn::Set(d, lg::kInvLn2Lo), hn::MulSub(r, inv_ln2_hi, hi));  // fma(r, hi', -hi)
    const V r2 = hn::Mul(r, r);
    const V r4 = hn::Mul(r2, r2);
    const V q = fused(r, hn::Set(d, lg::kB1), hn::Set(d, lg::kB0));
    const V y = fused(r2, q, hi);
    lo = hn::Add(lo, fused(r2, q, hn::Sub(hi, y)));
    const V inner_lo = fused(r2, fused(r, hn::Set(d, lg::kB5), hn::Set(d, lg::kB4)),
                             fused(r, hn::Set(d, lg::kB3), hn::Set(d, lg::kB2)));
    const V inner_hi = fused(r2, fused(r, hn::Set(d, lg::kB9), hn::Set(d, lg::kB8)),
                             fused(r, hn::Set(d, lg::kB7), hn::Set(d, lg::kB6)));
    lo = fused(r4, fused(r4, inner_hi, inner_lo), lo);
    return hn::Add(y, lo);
}

// tv::glibc::log2 of a vector: glibc's main path for every lane, its near-1
// path where a lane needs it (x == 1 gives +0 there, as glibc's test), the
// scalar function for the lanes off both.
HWY_INLINE V log2_vector(D d, V x)
{
    const DU du;
    const auto ix = hn::BitCast(du, x);
    V result = log2_main(d, ix);
    // near_one(): ix - kNearOneLow < kNearOneSpan, unsigned.
    const auto near = hn::Lt(hn::Sub(ix, hn::Set(du, lg::kNearOneLow)), hn::Set(du, lg::kNearOneSpan));
    if (HWY_UNLIKELY(!hn::AllFalse(du, near))) {
        const V near_value = hn::IfThenZeroElse(hn::RebindMask(d, hn::Eq(ix, hn::Set(du, lg::kOne))),
                                                log2_near_one(d, x));
        result = hn::IfThenElse(hn::RebindMask(d, near), near_value, result);
    }
    // off_main_path(): (ix >> 48) - 0x10 >= 0x7fe0, unsigned (zero,
    // subnormal, negative, inf, NaN); never in the near-1 interval.
    const auto off = hn::Gt(hn::Sub(hn::ShiftRight<48>(ix), hn::Set(du, 0x10)), hn::Set(du, 0x7fdf));
    if (HWY_UNLIKELY(!hn::AllFalse(du, off))) {
        HWY_ALIGN double args[hn::MaxLanes(d)];
        HWY_ALIGN double values[hn::MaxLanes(d)];
        HWY_ALIGN double on[hn::MaxLanes(d)];
        hn::Store(x, d, args);
        hn::Store(result, d, values);
        hn::Store(hn::IfThenElseZero(hn::RebindMask(d, off), hn::Set(d, 1.0)), d, on);
        for (std::size_t j = 0; j < hn::Lanes(d); ++j)
            if (on[j] != 0.0) values[j] = tv::glibc::log2(args[j]);
        result = hn::Load(d, values);
    }
    return result;
}
#else
// No fused multiply-add in this instruction set: the scalar function per
// lane (its fma() is exact, in hardware or in glibc's software).
HWY_INLINE V log2_vector(D d, V x)
{
    HWY_ALIGN double values[hn::MaxLanes(d)];
    hn::Store(x, d, values);
    for (std::size_t j = 0; j < hn::Lanes(d); ++j) values[j] = tv::glibc::log2(values[j]);
    return hn::Load(d, values);
}
#endif  // HWY_NATIVE_FMA

void log2_many(const double* x, std::size_t n, double* out)
{
    const D d;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(log2_vector(d, hn::LoadU(d, x + i)), d, out + i);
    for (; i < n; ++i) out[i] = tv::glibc::log2(x[i]);
}

void block_entropies(const float* eig, const float* variances, int blocks, float sigma_nn, double log2_2pie,
                     float* out)
{
    const D d;
    const hn::Rebind<float, D> df;  // one float per 64-bit lane
    const int lanes = static_cast<int>(hn::Lanes(d));
    const auto sigma = hn::Set(df, sigma_nn);
    const V offset = hn::Set(d, log2_2pie);
    int b = 0;
    for (; b + lanes <= blocks; b += lanes) {
        const auto variance = hn::LoadU(df, variances + b);
        auto entropy = hn::Zero(df);
        for (int k = 0; k < kBlockElements; ++k) {
            // entropy_term(): log2(L * S + sigma_nn) (in float, then double) + log2(2 pi e)
            const auto arg = hn::Add(hn::Mul(hn::Set(df, clamped_eigenvalue(eig, k)), variance), sigma);
            const V term = hn::Add(log2_vector(d, hn::PromoteTo(d, arg)), offset);
            entropy = to_float_as_cast(df, hn::Add(hn::PromoteTo(d, entropy), term));  // entropy_step(),
            entropy = hn::IfThenElse(hn::IsNaN(entropy), hn::Set(df, entropy_nan()), entropy);  // its NaN
        }
        hn::StoreU(entropy, df, out + b);
    }
    for (; b < blocks; ++b) out[b] = block_entropy(eig, variances[b], sigma_nn, log2_2pie);
}

// covariance_sums(): the centred doubles of each block position (the same
// subtraction of the same doubles), then each sum (x, y) one lane: the
// products cx * c[y] added in position order, several positions before each
// store (the same chain of additions). Lanes are at most 8, so that each x's
// range of y, a whole group of 8, is whole vectors.
using DC = hn::CappedTag<double, 8>;

// sums[x][y] += c_q[x] * c_q[y] for the kPositions centred positions c_q
// (kCovariancePad apart), q in order.
template <int kPositions>
HWY_INLINE void add_products(const double* c, double* sums)
{
    const DC d;
    const int lanes = static_cast<int>(hn::Lanes(d));
    for (int x = 0; x < kBlockElements; ++x) {
        hn::Vec<DC> cx[kPositions];
        for (int q = 0; q < kPositions; ++q) cx[q] = hn::Set(d, c[q * kCovariancePad + x]);
        double* s = sums + x * kCovariancePad;
        const int y_end = (x | 7) + 1;
        for (int y = 0; y < y_end; y += lanes) {
            auto sum = hn::LoadU(d, s + y);
            for (int q = 0; q < kPositions; ++q)
                sum = hn::Add(sum, hn::Mul(cx[q], hn::LoadU(d, c + q * kCovariancePad + y)));
            hn::StoreU(sum, d, s + y);
        }
    }
}

void covariance_sums(const float* data, int stride, int sub_w, int sub_h, const float* means, double* centered,
                     double* sums)
{
    const DC d;
    const hn::Rebind<float, DC> df;
    const int lanes = static_cast<int>(hn::Lanes(d));
    std::fill(sums, sums + kBlockElements * kCovariancePad, 0.0);
    // The means as doubles, and one picture row as doubles, each padded for
    // the whole vectors read past their ends.
    HWY_ALIGN double mean[kBlockElements + 8];
    for (int k = 0; k < kBlockElements; ++k) mean[k] = static_cast<double>(means[k]);
    for (int k = kBlockElements; k < kBlockElements + 8; ++k) mean[k] = 0.0;
    std::vector<double> row(static_cast<std::size_t>(sub_w) + kBlock - 1 + 8, 0.0);
    const int row_n = sub_w + kBlock - 1;
    for (int i = 0; i < sub_h; ++i) {
        for (int r = 0; r < kBlock; ++r) {
            const float* in = data + static_cast<std::ptrdiff_t>(r + i) * stride;
            int t = 0;
            for (; t + lanes <= row_n; t += lanes) hn::StoreU(hn::PromoteTo(d, hn::LoadU(df, in + t)), d, row.data() + t);
            for (; t < row_n; ++t) row[t] = static_cast<double>(in[t]);
            // c[5r + col] = row[j + col] - mean[5r + col] for col < 5; a vector
            // writes past col 4 into the next row's entries, which come later
            // (and entries 25.. are zeroed last).
            for (int j = 0; j < sub_w; ++j) {
                double* c = centered + static_cast<std::ptrdiff_t>(j) * kCovariancePad + r * kBlock;
                for (int col = 0; col < kBlock; col += lanes)
                    hn::StoreU(hn::Sub(hn::LoadU(d, row.data() + j + col), hn::LoadU(d, mean + r * kBlock + col)), d,
                               c + col);
            }
        }
        for (int j = 0; j < sub_w; ++j)
            std::fill(centered + static_cast<std::ptrdiff_t>(j) * kCovariancePad + kBlockElements,
                      centered + static_cast<std::ptrdiff_t>(j + 1) * kCovariancePad, 0.0);
        int j = 0;
        for (; j + 4 <= sub_w; j += 4) add_products<4>(centered + static_cast<std::ptrdiff_t>(j) * kCovariancePad, sums);
        for (; j < sub_w; ++j) add_products<1>(centered + static_cast<std::ptrdiff_t>(j) * kCovariancePad, sums);
    }
}

// back_substitute_column() of every column, one column per float lane: the
// same subtractions of the same float products in k order and the same
// division. Where a diagonal entry of R fails the test (each column would
// stop there, partly written), the reference does all of it.
bool back_substitute(const float* r, const float* b, float* x, int n, int cols)
{
    for (int i = 0; i < n; ++i)
        if (static_cast<double>(abs_f(r[i * n + i])) < kEigenvalueEps)
            return reference_kernels().back_substitute(r, b, x, n, cols);
    const hn::ScalableTag<float> df;
    const int lanes = static_cast<int>(hn::Lanes(df));
    int j = 0;
    for (; j + lanes <= cols; j += lanes)
        for (int i = n - 1; i >= 0; --i) {
            auto xi = hn::LoadU(df, b + i * cols + j);
            for (int k = i + 1; k < n; ++k)
                xi = hn::Sub(xi, hn::Mul(hn::LoadU(df, x + k * cols + j), hn::Set(df, r[i * n + k])));
            hn::StoreU(hn::Div(xi, hn::Set(df, r[i * n + i])), df, x + i * cols + j);
        }
    for (; j < cols; ++j) back_substitute_column(r, b, x, n, cols, j);  // solved: every column is
    return true;
}

// submatrix_mean() of the 25 offsets: 25 float chains side by side, lane c
// of row r's vectors being offset (r, c), each adding its samples in the
// reference's order (rows, then columns) from 0; the columns whose vectors
// would read past the sub-picture's last sample column (+4) are added by
// scalar code in their place in the order. The division as the reference.
void block_means(const float* data, int stride, int sub_w, int sub_h, float* means)
{
    using DM = hn::CappedTag<float, 8>;
    const DM df;
    const int lanes = static_cast<int>(hn::Lanes(df));
    constexpr int kMaxVectors = 2;  // vectors per row: 5 columns in 8 or 4 lanes
    const int vectors = (kBlock + lanes - 1) / lanes;
    if (vectors > kMaxVectors) return reference_kernels().block_means(data, stride, sub_w, sub_h, means);
    const int width = vectors * lanes;  // floats read from the first column
    const int vector_end = std::max(0, sub_w + kBlock - 1 - width + 1);  // j < this: reads in the row
    hn::Vec<DM> sum[kBlock][kMaxVectors];
    for (auto& row : sum)
        for (auto& v : row) v = hn::Zero(df);
    HWY_ALIGN float lane_sums[kBlock][kMaxVectors * 8];
    for (int i = 0; i < sub_h; ++i) {
        int j = 0;
        for (; j < std::min(vector_end, sub_w); ++j)
            for (int r = 0; r < kBlock; ++r) {
                const float* p = data + static_cast<std::ptrdiff_t>(r + i) * stride + j;
                for (int v = 0; v < vectors; ++v) sum[r][v] = hn::Add(sum[r][v], hn::LoadU(df, p + v * lanes));
            }
        if (j < sub_w) {
            for (int r = 0; r < kBlock; ++r)
                for (int v = 0; v < vectors; ++v) hn::Store(sum[r][v], df, lane_sums[r] + v * lanes);
            for (; j < sub_w; ++j)
                for (int r = 0; r < kBlock; ++r)
                    for (int c = 0; c < kBlock; ++c)
                        lane_sums[r][c] += data[static_cast<std::ptrdiff_t>(r + i) * stride + (c + j)];
            for (int r = 0; r < kBlock; ++r)
                for (int v = 0; v < vectors; ++v) sum[r][v] = hn::Load(df, lane_sums[r] + v * lanes);
        }
    }
    for (int r = 0; r < kBlock; ++r)
        for (int v = 0; v < vectors; ++v) hn::Store(sum[r][v], df, lane_sums[r] + v * lanes);
    const float count = static_cast<float>(static_cast<std::size_t>(sub_w) * static_cast<std::size_t>(sub_h));
    for (int k = 0; k < kBlockElements; ++k) means[k] = lane_sums[k / kBlock][k % kBlock] / count;
}

}  // namespace

Kernels simd_kernels_here() { return {log2_many, block_entropies, covariance_sums, back_substitute, block_means}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::speed::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::speed {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::speed
#endif
