// SpEED's arithmetic, shared by the CPU reference and a GPU twin: the
// per-plane block statistics (covariance, eigenvalues, linear solve,
// entropies, score); its filters and scalers are Netflix's shared ones
// (features/common/float_filter_math.h). Everything is float (fp32)
// with the float -> double promotions of Netflix's C (speed.c, vif_tools.c):
// where Netflix writes sqrt(), log2() or a double constant on a float, the
// operation runs in double and is rounded back to float at the assignment,
// and so it does here, written out with explicit casts. Compile without
// contraction (-ffp-contract=off; nvcc --fmad=false). Netflix's log2() is
// glibc's, so log2 here is tv::glibc::log2 (core/glibc_log2.h: glibc 2.36's
// algorithm with the fused multiply-adds of its x86-64 FMA build, the same
// bits on host and device), not a correctly rounded one.
//
// Facts taken from Netflix libvmaf (BSD-2-Clause-Patent): the algorithm,
// its constants (EIGENVALUE_EPS 1e-6, 500 QR iterations, 5x5 blocks, 4
// dyadic scales) and the order of operations; the code is our own.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/glibc_log2.h"
#include "core/host_device.h"

namespace twinvmaf::speed {

inline constexpr int kBlock = 5;
inline constexpr int kBlockElements = kBlock * kBlock;  // 25: the covariance size
inline constexpr int kScales = 4;                       // decimation by 2^4
inline constexpr double kEigenvalueEps = 1e-6;
inline constexpr int kMaxQrIterations = 500;

// sqrt of a float, as C's sqrt(double) assigned to a float.
TV_HD float sqrt_via_double(float x) { return static_cast<float>(sqrt(static_cast<double>(x))); }

TV_HD float hypot_f(float x, float y) { return sqrt_via_double(x * x + y * y); }

TV_HD int sign_of(float x) { return x >= 0 ? 1 : -1; }

TV_HD float abs_f(float x) { return x < 0 ? -x : (x == 0 ? 0.0f : x); }

// How the block statistics' loops of independent entries run: SerialLoop on
// the CPU; a GPU twin's policy (gpu/block_loop.h) shares each loop's indices
// among a block's threads and synchronises the block before and after it,
// and runs single() in one thread. The scalars between loops are computed
// by every thread from the same data. Any division of a loop gives the same
// bits.
struct SerialLoop {
    template <class F>
    TV_HD void operator()(int begin, int end, F&& f) const
    {
        for (int i = begin; i < end; ++i) f(i);
    }
    template <class F>
    TV_HD void single(F&& f) const
    {
        f();
    }
    TV_HD void matmul(float* dst, const float* x, const float* y, int n, int cols) const;
};

// ---------------------------------------------------------------------------
// Block statistics (est_params) on a plane `data` of truncated size, row
// stride `stride` floats. `sub_w` x `sub_h` is the size of each of the 25
// shifted sub-pictures (truncated size - 4).

// Mean of the sub-picture at (r, c): float sum in row order, / count in float.
TV_HD float submatrix_mean(const float* data, std::ptrdiff_t stride, int r, int c, int sub_w, int sub_h)
{
    float sum = 0;
    for (int i = 0; i < sub_h; ++i)
        for (int j = 0; j < sub_w; ++j) sum += data[(r + i) * stride + (c + j)];
    return sum / static_cast<float>(static_cast<std::size_t>(sub_w) * static_cast<std::size_t>(sub_h));
}

// The double sum of (x_a - m_a)(x_b - m_b) over the sub-pictures of block
// offsets a and b (a = row * 5 + column), rows in order, then columns: one
// covariance entry before its division. The CPU's covariance_sums computes
// all 325 pairs at once with these same sums (tests/unit/test_speed.cpp).
TV_HD double covariance_pair_sum(const float* data, std::ptrdiff_t stride, int sub_w, int sub_h, const float* means,
                                 int a, int b)
{
    const int ra = a / kBlock, ca = a % kBlock, rb = b / kBlock, cb = b % kBlock;
    const double ma = static_cast<double>(means[a]), mb = static_cast<double>(means[b]);
    double sum = 0;
    for (int i = 0; i < sub_h; ++i)
        for (int j = 0; j < sub_w; ++j) {
            const double xa = static_cast<double>(data[(ra + i) * stride + (ca + j)]) - ma;
            const double xb = static_cast<double>(data[(rb + i) * stride + (cb + j)]) - mb;
            sum += xa * xb;
        }
    return sum;
}

// One covariance entry from its double sum (in row order, (x - mx)(y - my)).
TV_HD float covariance_from_sum(double sum, int sub_w, int sub_h)
{
    return static_cast<float>(sum / static_cast<double>(static_cast<std::size_t>(sub_w) *
                                                        static_cast<std::size_t>(sub_h)));
}

// --- Eigenvalues of the symmetric 25x25 matrix: Householder reduction to
// tridiagonal form, then implicit symmetric QR steps with Wilkinson shifts
// (the GSL procedure as Netflix adapted it). `a` is overwritten.

// Householder vector for column `col` below row `start` (annihilates rows
// start+1..n-1); returns tau, leaves v scaled in the column, beta on top.
template <class Loop>
TV_HD float householder_column(float* a, int n, int col, int start, const Loop& loop)
{
    if (n - start == 1) return 0.0f;
    float xnorm2 = 0;
    for (int i = start + 1; i < n; ++i) xnorm2 += a[i * n + col] * a[i * n + col];
    const float xnorm = sqrt_via_double(xnorm2);
    if (xnorm == 0.0f) return 0.0f;
    const float alpha = a[start * n + col];
    const float beta = static_cast<float>(-sign_of(alpha)) * hypot_f(alpha, xnorm);
    const float tau = (beta - alpha) / beta;
    const float s = alpha - beta;
    if (s != 0.0f) {
        loop(start, n, [&](int i) { a[i * n + col] /= s; });
        loop.single([&] { a[start * n + col] = beta; });
    }
    return tau;
}

// Reduces symmetric `a` (n x n) to tridiagonal form: diagonal d, subdiagonal
// sd. v and x are scratch vectors of n floats.
template <class Loop>
TV_HD void tridiagonalize(float* a, int n, float* d, float* sd, float* v, float* x, const Loop& loop)
{
    for (int i = 0; i + 2 < n; ++i) {
        const float tau = householder_column(a, n, i, i + 1, loop);
        loop(i + 1, n, [&](int j) { v[j] = a[j * n + i]; });
        if (tau != 0.0f) {
            loop.single([&] {
                a[(i + 1) * n + i] = v[i + 1];
                v[i + 1] = 1.0f;
            });
            const int s = i + 1;
            loop(s, n, [&](int r) {  // x = tau A v
                float acc = 0.0f;
                for (int c = s; c < n; ++c) acc += tau * a[r * n + c] * v[c];
                x[r] = acc;
            });
            float xv = 0;
            for (int r = s; r < n; ++r) xv += x[r] * v[r];
            const float alpha = static_cast<float>(-0.5 * static_cast<double>(tau) * static_cast<double>(xv));
            loop(s, n, [&](int r) { x[r] += alpha * v[r]; });
            const int m = n - s;
            loop(0, m * m, [&](int e) {  // A -= x v' + v x'
                const int r = s + e / m, c = s + e % m;
                a[r * n + c] -= x[r] * v[c] + v[r] * x[c];
            });
        }
    }
    loop(0, n, [&](int i) {
        d[i] = a[i * n + i];
        if (i + 1 < n) sd[i] = a[(i + 1) * n + i];
    });
}

TV_HD void chop_small_subdiagonal(const float* d, float* sd, int n)
{
    for (int i = 0; i + 1 < n; ++i) {
        if (static_cast<double>(abs_f(sd[i])) < kEigenvalueEps * static_cast<double>(abs_f(d[i]) + abs_f(d[i + 1])))
            sd[i] = 0.0f;
    }
}

// Eigenvalue of the trailing 2x2 block nearer to its last diagonal entry.
TV_HD float wilkinson_shift(const float* d, const float* sd, int n)
{
    const float ta = d[n - 2];
    const float tb = d[n - 1];
    const float tab = sd[n - 2];
    const float dt = static_cast<float>(static_cast<double>(ta - tb) / 2.0);
    if (dt > 0) return tb - tab * (tab / (dt + hypot_f(dt, tab)));
    if (dt == 0) return tb - abs_f(tab);
    return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

TV_HD void givens(float a, float b, float& c, float& s)
{
    if (b == 0) {
        c = 1;
        s = 0;
    } else if (abs_f(b) > abs_f(a)) {
        const float t = -a / b;
        const float s1 = static_cast<float>(1.0 / sqrt(static_cast<double>(1 + t * t)));
        s = s1;
        c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = static_cast<float>(1.0 / sqrt(static_cast<double>(1 + t * t)));
        c = c1;
        s = c1 * t;
    }
}

// One implicit QR step on the unreduced tridiagonal block (d, sd) of size n.
TV_HD void qr_step(float* d, float* sd, int n)
{
    float mu = wilkinson_shift(d, sd, n);
    if (kEigenvalueEps * static_cast<double>(abs_f(mu)) > static_cast<double>(abs_f(d[0]) + abs_f(sd[0])))
        mu = 0;
    float x = d[0] - mu;
    float z = sd[0];
    float bk = 0, zk = 0;
    float ap = d[0], bp = sd[0], aq = d[1];
    if (n == 2) {
        float c, s;
        givens(x, z, c, s);
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }
    float bq = sd[1];
    for (int k = 0; k < n - 1; ++k) {
        float c, s;
        givens(x, z, c, s);
        const float bk1 = c * bk - s * zk;
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float zp1 = -s * bq;
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        const float bq1 = c * bq;
        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < n - 2) aq = d[k + 2];
        if (k < n - 3) bq = sd[k + 2];
        d[k] = ap1;
        if (k > 0) sd[k - 1] = bk1;
        if (k < n - 2) sd[k + 1] = bp;
        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

// Eigenvalues of the tridiagonal (d, sd), left in d (unsorted). Returns
// false when the 500 QR steps ran out (Netflix warns and goes on).
TV_HD bool tridiagonal_eigenvalues(float* d, float* sd, int n)
{
    chop_small_subdiagonal(d, sd, n);
    int b = n - 1;
    int iter = 0;
    while (b > 0 && iter < kMaxQrIterations) {
        if (sd[b - 1] == 0.0f) {
            --b;
            continue;
        }
        int a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f) --a;
        const int block = b - a + 1;
        qr_step(d + a, sd + a, block);
        chop_small_subdiagonal(d + a, sd + a, block);
        ++iter;
    }
    return iter != kMaxQrIterations;
}

// Eigenvalues of symmetric n x n `m` (kept) into `eig`; scratch: n*n + 4n
// floats. The reduction's loops run through `loop`; the QR iterations, a
// serial algorithm, in one thread.
template <class Loop>
TV_HD bool symmetric_eigenvalues(const float* m, int n, float* eig, float* scratch, const Loop& loop)
{
    float* a = scratch;
    float* d = a + n * n;
    float* sd = d + n;
    float* v = sd + n;
    float* x = v + n;
    loop(0, n * n, [&](int i) { a[i] = m[i]; });
    if (n == 1) {
        loop.single([&] { eig[0] = a[0]; });
        return true;
    }
    tridiagonalize(a, n, d, sd, v, x, loop);
    bool converged = true;
    loop.single([&] { converged = tridiagonal_eigenvalues(d, sd, n); });
    loop(0, n, [&](int i) { eig[i] = d[i]; });
    return converged;
}

// --- Linear solve A X = B (A n x n, B n x cols) by Householder QR as
// Netflix builds it: Q accumulated from explicit reflector matrices
// I - 2 v v', R = Q A, then X from R X = Q B by back substitution.
//
// Its steps are loops over independent entries. They run through a `Loop`
// policy: SerialLoop on the CPU; a GPU twin's policy shares each loop's
// indices among a block's threads and synchronises the block before and
// after it. The scalars between loops (norms) are computed by every thread
// from the same data. Any division of a loop gives the same bits.

// One entry of x * y (n x n times n x cols): the sum over k in order from +0.
TV_HD float matmul_entry(const float* x, const float* y, int n, int cols, int i, int j)
{
    float acc = 0;
    for (int k = 0; k < n; ++k) acc += x[i * n + k] * y[k * cols + j];
    return acc;
}

// dst = x * y: every entry is matmul_entry(); the loop order (i, k, j) lets
// the CPU add the products of a row side by side in vector lanes.
TV_HD void matmul(float* dst, const float* x, const float* y, int n, int cols)
{
    for (int i = 0; i < n * cols; ++i) dst[i] = 0;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k) {
            const float xik = x[i * n + k];
            for (int j = 0; j < cols; ++j) dst[i * cols + j] += xik * y[k * cols + j];
        }
}

TV_HD void SerialLoop::matmul(float* dst, const float* x, const float* y, int n, int cols) const
{
    speed::matmul(dst, x, y, n, cols);
}

TV_HD float vector_norm(const float* v, int n)
{
    float sum = 0;
    for (int i = 0; i < n; ++i) sum += v[i] * v[i];
    return sqrt_via_double(sum);
}

// Q (returned transposed back, i.e. Q' with Q' A = R) and R of n x n `a`.
// scratch: 3 n*n + n floats. On return q holds Q' (the product of the
// reflectors) and r holds R = Q' A.
template <class Loop>
TV_HD void qr_decompose(const float* a, int n, float* qt, float* r, float* scratch, const Loop& loop)
{
    float* z = scratch;
    float* h = z + n * n;
    float* tmp = h + n * n;
    float* v = tmp + n * n;
    loop(0, n * n, [&](int e) {
        z[e] = a[e];
        qt[e] = e / n == e % n ? 1.0f : 0.0f;
    });
    for (int k = 0; k + 1 < n; ++k) {
        loop(0, n * n, [&](int e) {  // minor: rows/cols < k become identity
            const int i = e / n, j = e % n;
            if (i < k || j < k) z[e] = i == j ? 1.0f : 0.0f;
        });
        loop(0, n, [&](int i) { v[i] = z[i * n + k]; });
        const float norm = vector_norm(v, n);
        loop(k, k + 1, [&](int i) { v[i] += static_cast<float>(sign_of(a[k * n + k])) * norm; });
        const float vn = vector_norm(v, n);
        loop(0, n, [&](int i) { v[i] = v[i] / vn; });
        loop(0, n * n, [&](int e) {  // h = I - 2 v v'
            const int i = e / n, j = e % n;
            const float t = -2.0f * v[i] * v[j];
            h[e] = i == j ? t + 1 : t;
        });
        loop.matmul(tmp, h, z, n, n);
        loop(0, n * n, [&](int e) { z[e] = tmp[e]; });
        loop.matmul(tmp, h, qt, n, n);
        loop(0, n * n, [&](int e) { qt[e] = tmp[e]; });
    }
    loop.matmul(r, qt, a, n, n);
}

// Back substitution R X = B (R upper triangular n x n, B n x cols) for
// column j of X. False (the column partly written) when a diagonal entry of
// R is below 1e-6; that depends on R only, so every column says the same.
TV_HD bool back_substitute_column(const float* r, const float* b, float* x, int n, int cols, int j)
{
    for (int i = n - 1; i >= 0; --i) {
        const float den = r[i * n + i];
        if (static_cast<double>(abs_f(den)) < kEigenvalueEps) return false;
        float xi = b[i * cols + j];
        for (int k = i + 1; k < n; ++k) xi -= x[k * cols + j] * r[i * n + k];
        x[i * cols + j] = xi / den;
    }
    return true;
}

// Independent term Y (25 x blocks): entry (k, block) is sample k of the block.
TV_HD float independent_entry(const float* data, std::ptrdiff_t stride, int blocks_x, int k, int block)
{
    const int r = k / kBlock, c = k % kBlock, by = block / blocks_x, bx = block % blocks_x;
    return data[(by * kBlock + r) * stride + bx * kBlock + c];
}

// S of one block: the sum over k of x[k] y[k] / 25, added in k order.
TV_HD float block_variance(const float* x, const float* y, int blocks, int b)
{
    float variance = 0;
    for (int k = 0; k < kBlockElements; ++k) {
        const float z = (x[k * blocks + b] * y[k * blocks + b]) / static_cast<float>(kBlockElements);
        variance = k == 0 ? z : variance + z;
    }
    return variance;
}

// --- Entropies and the score.

// log2(2 pi e) as C folds it: log2 of the double 2 * M_PI * M_E, which GCC
// rounds correctly (MPFR) in Netflix's build; glibc's log2 gives the same
// double, 0x1.06073a671183dp+2, here (tests/unit/test_speed.cpp).
TV_HD double log2_2pi_e()
{
    return tv::glibc::log2(2 * 3.14159265358979323846 * 2.7182818284590452354);
}

// One term of a block's entropy: log2(L * S + sigma_nn) + log2(2 pi e), in
// double. It depends on the eigenvalue and the block's variance only, so a
// GPU twin computes the 25 x blocks terms side by side.
TV_HD double entropy_term(float eigenvalue, float variance, float sigma_nn, double log2_2pie)
{
    return tv::glibc::log2(static_cast<double>(eigenvalue * variance + sigma_nn)) + log2_2pie;
}

// The one NaN entropy_step() returns (a positive quiet NaN).
TV_HD float entropy_nan() { return tv::bit_cast<float>(std::uint32_t{0x7fc00000u}); }

// entropy += term, in double, stored as float (the running sum is float).
// A NaN sum (a term of log2 of a negative argument, or -inf + inf) is
// entropy_nan(): when both operands are NaNs, which one's sign and payload
// an addition passes on is up to the compiler (it may swap the operands;
// GCC 12 and 13 differ) and to the device (CUDA has its own NaN), so
// without this the bits of a NaN entropy would depend on the build.
TV_HD float entropy_step(float entropy, double term)
{
    const float sum = static_cast<float>(static_cast<double>(entropy) + term);
    return sum != sum ? entropy_nan() : sum;
}

TV_HD float base_entropy(float sigma_nn, float nn_floor, double log2_2pie)
{
    return static_cast<float>(
        static_cast<double>(kBlockElements) *
        (tv::glibc::log2(static_cast<double>((1 + nn_floor) * sigma_nn)) + log2_2pie));
}

// |spatial_ref - spatial_dis| of one block, or NaN-free 0 when both entropies
// are below the base entropy. `mode` is speed_weight_var_mode (0..6).
TV_HD float block_score(float e_ref, float e_dis, float v_ref, float v_dis, float base, int mode)
{
    if (e_ref < base && e_dis < base) return 0.0f;
    const double ref_only = tv::glibc::log2(static_cast<double>(1 + v_ref));
    double w_ref = ref_only;
    double w_dis = 0;
    switch (mode) {
    case 0: w_dis = tv::glibc::log2(static_cast<double>(1 + v_dis)); break;
    case 1: w_dis = ref_only; break;
    case 2:
        w_ref = tv::glibc::log2(static_cast<double>(1 + v_dis));
        w_dis = w_ref;
        break;
    case 3:
        w_ref = tv::glibc::log2(1 + static_cast<double>(v_ref + v_dis) / 2.0);
        w_dis = w_ref;
        break;
    case 4: w_dis = tv::glibc::log2(1 + static_cast<double>(v_ref + v_dis) / 2.0); break;
    case 5:
        w_dis = tv::glibc::log2(1 + (0.75 * static_cast<double>(v_ref) + 0.25 * static_cast<double>(v_dis)));
        break;
    default:
        w_dis = tv::glibc::log2(1 + (0.25 * static_cast<double>(v_ref) + 0.75 * static_cast<double>(v_dis)));
        break;
    }
    const float spatial_ref = static_cast<float>(static_cast<double>(e_ref) * w_ref);
    const float spatial_dis = static_cast<float>(static_cast<double>(e_dis) * w_dis);
    return abs_f(spatial_ref - spatial_dis);
}

// The eigenvalue of term k (negative ones count as 0).
TV_HD float clamped_eigenvalue(const float* eig, int k) { return eig[k] < 0 ? 0 : eig[k]; }

// The entropy of one block: entropy_step over the 25 eigenvalues in order.
TV_HD float block_entropy(const float* eig, float variance, float sigma_nn, double log2_2pie)
{
    float entropy = 0;
    for (int k = 0; k < kBlockElements; ++k)
        entropy = entropy_step(entropy, entropy_term(clamped_eigenvalue(eig, k), variance, sigma_nn, log2_2pie));
    return entropy;
}

// get_speed_score's mean of the block scores: added in block order in float.
TV_HD float mean_block_score(const float* block_scores, int blocks)
{
    float score = 0;
    for (int b = 0; b < blocks; ++b) score += block_scores[b];
    return score / static_cast<float>(blocks);
}

// speed_chroma_uv from the U and V scores: where one channel's covariance
// was singular the other channel's score, else their mean.
TV_HD float combine_uv(float u, float v, bool u_singular, bool v_singular)
{
    if (u_singular && !v_singular) return v;
    if (v_singular && !u_singular) return u;
    return static_cast<float>(static_cast<double>(u + v) / 2.0);
}

}  // namespace twinvmaf::speed
