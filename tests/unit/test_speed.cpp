// SpEED: options and output names, geometry and
// the block arithmetic of speed_math.h against independent computations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/feature.h"
#include "features/common/float_filter.h"
#include "features/speed/speed.h"
#include "features/speed/speed_math.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using namespace twinvmaf::speed;

TEST(Speed, Log2TwoPiEIsGccsFoldedConstant)
{
    // log2(2 pi e) as GCC folds the constant in speed.c (MPFR, correctly rounded).
    EXPECT_EQ(twinvmaf::speed::log2_2pi_e(), 0x1.06073a671183dp+2);
}

TEST(Speed, OptionsAndOutputNamesFollowNetflix)
{
    const FeatureInfo& chroma = find_feature("speed_chroma");
    OptionValues v("speed_chroma", chroma.options);
    v.set("speed_max_val", "45");
    v.set("speed_nn_floor", "0.1");
    v.set("speed_prescale", "0.6");
    v.set("speed_prescale_method", "bilinear");
    v.set("speed_sigma_nn", "0.19");
    v.set("speed_weight_var_mode", "5");
    auto extractor = chroma.create(v);
    EXPECT_EQ(extractor->output_names(),
              (std::vector<std::string>{"speed_chroma_u_mxv_45_nnf_0.1_ps_0.6_psm_bilinear_snn_0.19_wvm_5",
                                        "speed_chroma_v_mxv_45_nnf_0.1_ps_0.6_psm_bilinear_snn_0.19_wvm_5",
                                        "speed_chroma_uv_mxv_45_nnf_0.1_ps_0.6_psm_bilinear_snn_0.19_wvm_5"}));
    EXPECT_THROW(v.set("speed_weight_var_mode", "7"), Error);
    EXPECT_THROW(v.set("speed_sigma_nn", "0.05"), Error);
    EXPECT_THROW(v.set("speed_use_ref_diff", "true"), Error);  // temporal only

    const FeatureInfo& temporal = find_feature("speed_temporal");
    OptionValues t("speed_temporal", temporal.options);
    EXPECT_EQ(temporal.create(t)->output_names(), std::vector<std::string>{"speed_temporal"});
    t.set("speed_use_ref_diff", "true");
    t.set("speed_kernelscale", "2");
    EXPECT_EQ(temporal.create(t)->output_names(), std::vector<std::string>{"speed_temporal_ks_2_urd"});
    EXPECT_THROW(t.set("speed_weight_var_mode", "1"), Error);

    // A kernel scale in range but not in Netflix's list, and an unknown method.
    OptionValues bad("speed_chroma", chroma.options);
    bad.set("speed_kernelscale", "0.9");
    EXPECT_THROW(chroma.create(bad), Error);
    OptionValues bad_method("speed_chroma", chroma.options);
    bad_method.set("speed_prescale_method", "area");
    EXPECT_THROW(chroma.create(bad_method), Error);
}

TEST(Speed, GeometryAndSmallFrames)
{
    // vtest 576x324 4:2:0: chroma 288x162 -> operating 18x10 -> 15x10, 3x2 blocks.
    const Geometry g = Geometry::of(288, 162, 1.0);
    EXPECT_EQ(g.operating_width, 18u);
    EXPECT_EQ(g.operating_height, 10u);
    EXPECT_EQ(g.truncated_width, 15u);
    EXPECT_EQ(g.blocks(), 6u);
    EXPECT_EQ(g.sub_width, 11u);
    EXPECT_EQ(g.sub_height, 6u);
    // prescale 0.6 leaves 173x97 -> 10x6 -> 10x5.
    const Geometry p = Geometry::of(288, 162, 0.6);
    EXPECT_EQ(p.scaled_width, 173u);
    EXPECT_EQ(p.truncated_height, 5u);

    const FeatureInfo& chroma = find_feature("speed_chroma");
    auto small = chroma.create(OptionValues("speed_chroma", chroma.options));
    try {
        small->init(VideoFormat{257, 145, ChromaFormat::k420, 8});
        ADD_FAILURE() << "257x145 4:2:0 must be refused";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("operating size is 0"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(small->init(VideoFormat{160, 160, ChromaFormat::k420, 8}));  // chroma 80x80: 1 block
    EXPECT_THROW(small->init(VideoFormat{158, 160, ChromaFormat::k420, 8}), Error);
}

TEST(Speed, GaussianTaps)
{
    EXPECT_EQ(float_filter::filter_width(1, 1.0f), 9);
    EXPECT_EQ(float_filter::filter_width(4, 1.0f), 3);
    EXPECT_EQ(float_filter::filter_width(1, 4.0f), 37);
    EXPECT_EQ(float_filter::filter_width(4, 0.5f), 3);
    const std::vector<float> t = float_filter::gaussian_taps(3, 3 / 5.0f);
    // exp(-0.5 / 0.36) normalised: 0.2494..., 0.5011...
    EXPECT_FLOAT_EQ(t[0], t[2]);
    EXPECT_NEAR(t[0], std::exp(-0.5 / 0.36) / (1 + 2 * std::exp(-0.5 / 0.36)), 1e-7);
    EXPECT_NEAR(t[1], 1 / (1 + 2 * std::exp(-0.5 / 0.36)), 1e-7);
}

namespace {

// Cyclic Jacobi eigenvalues in double: an independent procedure.
std::vector<double> jacobi_eigenvalues(std::vector<double> a, int n)
{
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0;
        for (int p = 0; p < n; ++p)
            for (int q = p + 1; q < n; ++q) off += a[p * n + q] * a[p * n + q];
        if (off < 1e-30) break;
        for (int p = 0; p < n; ++p)
            for (int q = p + 1; q < n; ++q) {
                if (a[p * n + q] == 0) continue;
                const double theta = (a[q * n + q] - a[p * n + p]) / (2 * a[p * n + q]);
                const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
                const double c = 1 / std::sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; ++k) {
                    const double akp = a[k * n + p], akq = a[k * n + q];
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for (int k = 0; k < n; ++k) {
                    const double apk = a[p * n + k], aqk = a[q * n + k];
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
            }
    }
    std::vector<double> e(n);
    for (int i = 0; i < n; ++i) e[i] = a[i * n + i];
    std::sort(e.begin(), e.end());
    return e;
}

}  // namespace

TEST(Speed, EigenvaluesOfSmallSymmetricMatrices)
{
    // [[2,1,0],[1,2,1],[0,1,2]]: 2 - sqrt 2, 2, 2 + sqrt 2.
    const float m3[9] = {2, 1, 0, 1, 2, 1, 0, 1, 2};
    float eig[3], scratch[9 + 12];
    ASSERT_TRUE(symmetric_eigenvalues(m3, 3, eig, scratch, SerialLoop{}));
    std::sort(eig, eig + 3);
    EXPECT_NEAR(eig[0], 2 - std::sqrt(2.0), 1e-6);
    EXPECT_NEAR(eig[1], 2, 1e-6);
    EXPECT_NEAR(eig[2], 2 + std::sqrt(2.0), 1e-6);

    // A 25x25 covariance-like matrix (B B' / 25, positive definite) against Jacobi.
    std::mt19937 rng(3);
    std::normal_distribution<float> normal(0, 1);
    const int n = kBlockElements;
    std::vector<float> b(n * 40), m(n * n);
    for (float& x : b) x = normal(rng);
    std::vector<double> md(n * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 0;
            for (int k = 0; k < 40; ++k) s += b[i * 40 + k] * b[j * 40 + k];
            m[i * n + j] = s / 40;
            md[i * n + j] = m[i * n + j];
        }
    std::vector<float> e(n), sc(n * n + 4 * n);
    ASSERT_TRUE(symmetric_eigenvalues(m.data(), n, e.data(), sc.data(), SerialLoop{}));
    std::sort(e.begin(), e.end());
    const std::vector<double> ref = jacobi_eigenvalues(md, n);
    for (int i = 0; i < n; ++i) EXPECT_NEAR(e[i], ref[i], 2e-5 * ref[n - 1]) << i;
}

TEST(Speed, QrSolveRecoversAKnownSolution)
{
    const int n = kBlockElements, cols = 3;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> a(n * n), x(n * cols), bvec(n * cols, 0.0f);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) a[i * n + j] = (i == j ? 4.0f : 0.0f) + u(rng) * 0.5f;
    for (float& v : x) v = u(rng);
    for (int i = 0; i < n; ++i)
        for (int c = 0; c < cols; ++c)
            for (int k = 0; k < n; ++k) bvec[i * cols + c] += a[i * n + k] * x[k * cols + c];
    std::vector<float> qt(n * n), r(n * n), scratch(4 * n * n + n), qb(n * cols), sol(n * cols);
    qr_decompose(a.data(), n, qt.data(), r.data(), scratch.data(), SerialLoop{});
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j) EXPECT_NEAR(r[i * n + j], 0.0f, 1e-5) << i << "," << j;
    matmul(qb.data(), qt.data(), bvec.data(), n, cols);
    for (int j = 0; j < cols; ++j) ASSERT_TRUE(back_substitute_column(r.data(), qb.data(), sol.data(), n, cols, j));
    for (int i = 0; i < n * cols; ++i) EXPECT_NEAR(sol[i], x[i], 1e-4) << i;
}

// The CPU's fast loops implement the per-entry definitions a GPU twin runs:
// matmul (rows in vector lanes) against matmul_entry, covariance_sums (325
// pairs at once) against covariance_pair_sum, bit for bit.
TEST(Speed, FastLoopsEqualTheirPerEntryDefinitions)
{
    std::mt19937 rng(11);
    std::normal_distribution<float> normal(0, 30);
    const int n = kBlockElements;
    for (int cols : {1, 7, 25, 72}) {
        std::vector<float> x(n * n), y(n * cols), dst(n * cols);
        for (float& v : x) v = normal(rng);
        for (float& v : y) v = normal(rng);
        matmul(dst.data(), x.data(), y.data(), n, cols);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < cols; ++j)
                ASSERT_EQ(dst[i * cols + j], matmul_entry(x.data(), y.data(), n, cols, i, j)) << i << "," << j;
    }
    for (auto [w, h] : {std::pair{9, 5}, std::pair{40, 23}, std::pair{61, 33}}) {
        std::vector<float> data(static_cast<std::size_t>(w) * h);
        for (float& v : data) v = normal(rng);
        const int sub_w = w - 4, sub_h = h - 4;
        float means[kBlockElements];
        for (int k = 0; k < n; ++k) means[k] = submatrix_mean(data.data(), w, k / kBlock, k % kBlock, sub_w, sub_h);
        std::vector<double> centered(static_cast<std::size_t>(sub_w) * kCovariancePad), sums(n * kCovariancePad);
        covariance_sums(data.data(), w, sub_w, sub_h, means, centered.data(), sums.data());
        for (int a = 0; a < n; ++a)
            for (int b = 0; b <= a; ++b)
                ASSERT_EQ(sums[a * kCovariancePad + b], covariance_pair_sum(data.data(), w, sub_w, sub_h, means, a, b))
                    << w << "x" << h << " pair " << a << "," << b;
    }
}

TEST(Speed, BlockScoreModes)
{
    const double c = log2_2pi_e();
    const float base = base_entropy(0.29f, 0.0f, c);
    // 25 * (log2(0.29) + log2(2 pi e)) in float
    EXPECT_FLOAT_EQ(base, static_cast<float>(25 * (std::log2(static_cast<double>(0.29f)) + c)));
    EXPECT_EQ(block_score(base - 1, base - 1, 3, 5, base, 0), 0.0f);  // both below: invisible
    const float e_ref = 100, e_dis = 90, v_ref = 3, v_dis = 7;
    EXPECT_FLOAT_EQ(block_score(e_ref, e_dis, v_ref, v_dis, base, 0),
                    std::fabs(static_cast<float>(100 * 2.0) - static_cast<float>(90 * 3.0)));
    EXPECT_FLOAT_EQ(block_score(e_ref, e_dis, v_ref, v_dis, base, 1),
                    std::fabs(static_cast<float>(100 * 2.0) - static_cast<float>(90 * 2.0)));
    EXPECT_FLOAT_EQ(block_score(e_ref, e_dis, v_ref, v_dis, base, 3),
                    std::fabs(static_cast<float>(100 * std::log2(6.0)) - static_cast<float>(90 * std::log2(6.0))));
    EXPECT_FLOAT_EQ(block_score(e_ref, e_dis, v_ref, v_dis, base, 5),
                    std::fabs(static_cast<float>(100 * 2.0) - static_cast<float>(90 * std::log2(5.0))));
}
