// Highway SIMD of SpEED's kernels (speed_kernels.h), compiled once per
// instruction set: tv::log2_correctly_rounded (core/cr_log2.h) one argument
// per 64-bit lane. Every step is the scalar one - the same IEEE additions,
// subtractions, multiplications and divisions in the same order (no fused
// multiply-add: the project compiles with -ffp-contract=off, and Highway's
// Mul and Add are single operations; two_prod's exact error term aside, see
// core/simd_double_double-inl.h), the same exact bit manipulation and
// the same table entries (gathered) - so each lane rounds exactly as the
// scalar code does. Arguments outside the scalar's main path (zero,
// negative, subnormal, infinite, NaN, exact powers of two) are recomputed by
// the scalar function. The block entropies keep each block's order: the 25
// terms added in k order, one block per lane.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/speed/speed_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/cr_log2.h"
#include "core/simd.h"
#include "core/simd_double_double-inl.h"
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

// cr_log2_detail's double-double steps, lane by lane (same operations).
using simd::HWY_NAMESPACE::dd_add;
using simd::HWY_NAMESPACE::dd_div;
using simd::HWY_NAMESPACE::dd_mul;
using simd::HWY_NAMESPACE::dd_mul_d;
using simd::HWY_NAMESPACE::two_sum;
using simd::HWY_NAMESPACE::VDD;

// log2_dd(x).hi for lanes with a normal x > 0 (others: any value).
HWY_INLINE V log2_normal(D d, V x)
{
    using namespace tv::cr_log2_detail;
    const DU du;
    const DI di;
    const auto u = hn::BitCast(du, x);
    auto e = hn::Sub(hn::BitCast(di, hn::And(hn::ShiftRight<52>(u), hn::Set(du, 0x7ff))), hn::Set(di, 1023));
    const V m = hn::BitCast(
        d, hn::Or(hn::And(u, hn::Set(du, 0x000fffffffffffffULL)), hn::Set(du, 0x3ff0000000000000ULL)));
    const auto i = hn::BitCast(di, hn::And(hn::ShiftRight<44>(u), hn::Set(du, 0xff)));
    // i >= 128: c = 1 + (i + 1) / 256 and e + 1 (the mask is -1 in those lanes).
    const auto upper = hn::VecFromMask(di, hn::Gt(i, hn::Set(di, 127)));
    const auto point = hn::Sub(i, upper);
    e = hn::Sub(e, upper);
    const V c = hn::Add(hn::Set(d, 1.0), hn::Mul(hn::ConvertTo(d, point), hn::Set(d, 0x1p-8)));
    const V zero = hn::Zero(d);
    const VDD num{hn::Sub(m, c), zero};
    const VDD den = two_sum(m, c);
    const VDD s = dd_div(num, den);
    const VDD z = dd_mul(s, s);
    const V zh = z.hi;
    const V tail = hn::Add(
        hn::Set(d, 1.0 / 7),
        hn::Mul(zh, hn::Add(hn::Set(d, 1.0 / 9),
                            hn::Mul(zh, hn::Add(hn::Set(d, 1.0 / 11),
                                                hn::Mul(zh, hn::Add(hn::Set(d, 1.0 / 13),
                                                                    hn::Mul(zh, hn::Set(d, 1.0 / 15)))))))));
    VDD p = dd_add(VDD{hn::Set(d, kFifthHi), hn::Set(d, kFifthLo)}, dd_mul_d(z, tail));
    p = dd_add(VDD{hn::Set(d, kThirdHi), hn::Set(d, kThirdLo)}, dd_mul(z, p));
    p = dd_add(VDD{hn::Set(d, 1.0), zero}, dd_mul(z, p));
    const VDD atanh_s = dd_mul(s, p);
    const V two = hn::Set(d, 2.0);
    const VDD log2_ratio = dd_mul(VDD{hn::Mul(two, atanh_s.hi), hn::Mul(two, atanh_s.lo)},
                                  VDD{hn::Set(d, kInvLn2Hi), hn::Set(d, kInvLn2Lo)});
    // The table of (hi, lo) pairs as doubles: entry i at 2i and 2i + 1.
    const double* table = &log2_point(0).hi;
    const auto at = hn::Add(i, i);
    const VDD t{hn::GatherIndex(d, table, at), hn::GatherIndex(d, table, hn::Add(at, hn::Set(di, 1)))};
    const VDD frac = dd_add(t, log2_ratio);
    return dd_add(VDD{hn::ConvertTo(d, e), zero}, frac).hi;
}

// The lanes log2_normal() serves exactly as the scalar function does:
// finite, positive, normal, and not a power of two (exponent field 1..2046,
// sign 0, fraction not 0).
HWY_INLINE hn::Mask<D> on_main_path(D d, V x)
{
    const DU du;
    const auto u = hn::BitCast(du, x);
    const auto field = hn::ShiftRight<52>(u);  // sign and exponent
    const auto normal = hn::And(hn::Gt(field, hn::Zero(du)), hn::Lt(field, hn::Set(du, 0x7ff)));
    const auto fraction = hn::Ne(hn::And(u, hn::Set(du, 0x000fffffffffffffULL)), hn::Zero(du));
    return hn::RebindMask(d, hn::And(normal, fraction));
}

// log2 of a vector: the lanes off the main path by the scalar function.
HWY_INLINE V log2_vector(D d, V x)
{
    V result = log2_normal(d, x);
    const auto main = on_main_path(d, x);
    if (HWY_UNLIKELY(!hn::AllTrue(d, main))) {
        HWY_ALIGN double args[hn::MaxLanes(d)];
        HWY_ALIGN double values[hn::MaxLanes(d)];
        hn::Store(x, d, args);
        hn::Store(result, d, values);
        HWY_ALIGN double on[hn::MaxLanes(d)];
        hn::Store(hn::IfThenElseZero(main, hn::Set(d, 1.0)), d, on);
        for (std::size_t k = 0; k < hn::Lanes(d); ++k)
            if (on[k] == 0.0) values[k] = tv::log2_correctly_rounded(args[k]);
        result = hn::Load(d, values);
    }
    return result;
}

void log2_many(const double* x, std::size_t n, double* out)
{
    const D d;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(log2_vector(d, hn::LoadU(d, x + i)), d, out + i);
    for (; i < n; ++i) out[i] = tv::log2_correctly_rounded(x[i]);
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
