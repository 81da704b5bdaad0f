// ssimulacra2 against the lusoris/vmaf fork's CPU build (its plain C path,
// --cpumask 255) at %.17g: every frame of every public fixture, and small
// clips of every chroma format (tests/data/fork_goldens/ssimulacra2_*.txt;
// the README there has the commands). The data files are found beside this
// source file (__FILE__).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/ssimulacra2/ssimulacra2.h"
#include "features/ssimulacra2/ssimulacra2_kernels.h"
#include "simd_targets.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;

namespace {

std::filesystem::path goldens_dir()
{
    return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "fork_goldens";
}

std::string g17(double v)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

// One golden series: key -> the values of frames 0, 1, ... as printed.
std::map<std::string, std::vector<std::string>> read_goldens(const std::string& file, int key_fields)
{
    std::map<std::string, std::vector<std::string>> out;
    std::ifstream in(goldens_dir() / file);
    EXPECT_TRUE(in) << "missing " << (goldens_dir() / file);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string key, word;
        for (int i = 0; i < key_fields; ++i) {
            words >> word;
            key += (i ? " " : "") + word;
        }
        std::string frame, value;
        words >> frame >> value;
        if (frame == "refused") {
            out[key] = {"refused"};
            continue;
        }
        auto& values = out[key];
        EXPECT_EQ(std::to_string(values.size()), frame) << line;
        values.push_back(value);
    }
    return out;
}

ChromaFormat chroma_of(int code)
{
    return code == 444 ? ChromaFormat::k444 : code == 422 ? ChromaFormat::k422 : ChromaFormat::k420;
}

std::vector<std::string> score_clip(const VideoFormat& format, const std::vector<Picture>& ref,
                                    const std::vector<Picture>& dis, int matrix)
{
    auto extractor = test::make_extractor("ssimulacra2", {{"yuv_matrix", std::to_string(matrix)}});
    extractor->init(format);
    const Collector scored = test::score_frames(*extractor, ref, dis);
    std::vector<std::string> out;
    for (double v : test::series(scored, "ssimulacra2")) out.push_back(g17(v));
    return out;
}

std::vector<Picture> read_frames(const std::filesystem::path& path, const VideoFormat& format, unsigned frames)
{
    std::ifstream in(path, std::ios::binary);
    std::vector<Picture> pictures;
    for (unsigned f = 0; f < frames; ++f) {
        Picture p(format);
        in.read(reinterpret_cast<char*>(p.bytes()), static_cast<std::streamsize>(p.size_bytes()));
        if (!in) break;
        pictures.push_back(std::move(p));
    }
    return pictures;
}

// tools/ssimulacra2_goldens.py's small_frame(): every sample of Y, U, V in
// the fork's geometry (chroma rounded up, our pictures' stored layout) in order, ref uniform, dis = ref + noise in [-24, 24] << (bits - 8).
std::pair<Picture, Picture> small_frame(const VideoFormat& format, int chroma_code, unsigned frame)
{
    const unsigned max = format.max_sample(), mid = 1u << (format.bitdepth - 1);
    const std::int64_t amp = std::int64_t{24} << (format.bitdepth - 8);
    Picture ref = test::constant_picture(format, mid), dis = test::constant_picture(format, mid);
    std::uint64_t state = (std::uint64_t{format.width} << 40) ^ (std::uint64_t{format.height} << 24) ^
                          (std::uint64_t{format.bitdepth} << 16) ^ (static_cast<std::uint64_t>(chroma_code) << 4) ^
                          frame;
    for (int plane = 0; plane < 3; ++plane) {
        for (unsigned y = 0; y < format.stored_height(plane); ++y) {
            for (unsigned x = 0; x < format.stored_width(plane); ++x) {
                const std::uint64_t r = test::splitmix64(state);
                const std::int64_t value = static_cast<std::int64_t>(r % (max + 1));
                const std::int64_t noise = static_cast<std::int64_t>((r >> 32) % (2 * amp + 1)) - amp;
                const std::int64_t noisy = std::min<std::int64_t>(std::max<std::int64_t>(value + noise, 0), max);
                test::set_sample(ref, plane, x, y, static_cast<unsigned>(value));
                test::set_sample(dis, plane, x, y, static_cast<unsigned>(noisy));
            }
        }
    }
    return {std::move(ref), std::move(dis)};
}

}  // namespace

// The recursive Gaussian's coefficients are the fork's
// create_recursive_gaussian(1.5), which it computes with the C library's
// tan, sin, exp and cos in double at every init.
TEST(Ssimulacra2, BlurCoefficientsAreTheForks)
{
    const double sigma = 1.5, pi = 3.14159265358979323846;
    const double radius = std::round(3.2795 * sigma + 0.2546);
    ASSERT_EQ(static_cast<int>(radius), ssimulacra2::kBlurRadius);
    const double pi_div_2r = pi / (2.0 * radius);
    const double omega[3] = {pi_div_2r, 3.0 * pi_div_2r, 5.0 * pi_div_2r};
    const double p1 = +1.0 / std::tan(0.5 * omega[0]);
    const double p3 = -1.0 / std::tan(0.5 * omega[1]);
    const double p5 = +1.0 / std::tan(0.5 * omega[2]);
    const double r1 = +p1 * p1 / std::sin(omega[0]);
    const double r3 = -p3 * p3 / std::sin(omega[1]);
    const double r5 = +p5 * p5 / std::sin(omega[2]);
    const double neg_half_sigma2 = -0.5 * sigma * sigma;
    const double recip_r = 1.0 / radius;
    double rho[3];
    for (int i = 0; i < 3; i++) rho[i] = std::exp(neg_half_sigma2 * omega[i] * omega[i]) * recip_r;
    const double d13 = p1 * r3 - r1 * p3;
    const double d35 = p3 * r5 - r3 * p5;
    const double d51 = p5 * r1 - r5 * p1;
    const double recip_d13 = 1.0 / d13;
    const double zeta_15 = d35 * recip_d13;
    const double zeta_35 = d51 * recip_d13;
    const double a[3][3] = {{p1, p3, p5}, {r1, r3, r5}, {zeta_15, zeta_35, 1.0}};
    const double gamma[3] = {1.0, radius * radius - sigma * sigma, zeta_15 * rho[0] + zeta_35 * rho[1] + rho[2]};
    auto det = [](const double m[3][3]) {
        return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
               m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    };
    const double inv_det = 1.0 / det(a);
    for (int col = 0; col < 3; col++) {
        double m[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) m[i][j] = j == col ? gamma[i] : a[i][j];
        const double beta = det(m) * inv_det;
        const float n2 = static_cast<float>(-beta * std::cos(omega[col] * (radius + 1.0)));
        const float d1 = static_cast<float>(-2.0 * std::cos(omega[col]));
        EXPECT_EQ(n2, ssimulacra2::blur_coefficients().n2[col]) << col;
        EXPECT_EQ(d1, ssimulacra2::blur_coefficients().d1[col]) << col;
    }
}

// The EOTF table is the sRGB EOTF of i / 1023 (the fork's generator rounds
// it to float): checks the transcription, not the rounding.
TEST(Ssimulacra2, EotfTableIsTheSrgbEotf)
{
    for (int i = 0; i < ssimulacra2::kEotfTableSize; ++i) {
        const double v = i / 1023.0;
        const double e = v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        EXPECT_NEAR(ssimulacra2::eotf_table(i), e, 1e-7) << i;
    }
}

TEST(Ssimulacra2, EveryFixtureFrameEqualsTheFork)
{
    const auto goldens = read_goldens("ssimulacra2_fixtures.txt", 2);
    ASSERT_FALSE(goldens.empty());
    std::map<std::string, std::vector<std::pair<int, const std::vector<std::string>*>>> by_fixture;
    for (const auto& [key, values] : goldens) {
        const std::string fixture = key.substr(0, key.find(' '));
        const int matrix = std::stoi(key.substr(key.find('=') + 1));
        by_fixture[fixture].push_back({matrix, &values});
    }
    std::size_t frames_compared = 0;
    for (const auto& [fixture, runs] : by_fixture) {
        const std::filesystem::path dir = test::fixtures_dir() / fixture;
        std::ifstream meta_in(dir / "fixture.json");
        ASSERT_TRUE(meta_in) << "fixture missing: " << dir;
        std::stringstream meta;
        meta << meta_in.rdbuf();
        auto number = [&](const std::string& field) {
            const std::string text = meta.str();
            const std::size_t at = text.find("\"" + field + "\":");
            return std::stoul(text.substr(at + field.size() + 3));
        };
        VideoFormat format;
        format.width = static_cast<unsigned>(number("width"));
        format.height = static_cast<unsigned>(number("height"));
        format.chroma = chroma_of(static_cast<int>(number("pixel_format")));
        format.bitdepth = static_cast<unsigned>(number("bitdepth"));
        const unsigned frames = static_cast<unsigned>(number("frames"));
        const std::vector<Picture> ref = read_frames(dir / "ref.yuv", format, frames);
        const std::vector<Picture> dis = read_frames(dir / "dis.yuv", format, frames);
        ASSERT_EQ(ref.size(), frames) << fixture;
        ASSERT_EQ(dis.size(), frames) << fixture;
        for (const auto& [matrix, values] : runs) {
            const std::vector<std::string> ours = score_clip(format, ref, dis, matrix);
            ASSERT_EQ(ours.size(), values->size()) << fixture << " yuv_matrix=" << matrix;
            for (std::size_t f = 0; f < ours.size(); ++f)
                EXPECT_EQ(ours[f], (*values)[f]) << fixture << " yuv_matrix=" << matrix << " frame " << f;
            frames_compared += ours.size();
        }
    }
    EXPECT_GE(frames_compared, 150u);
}

TEST(Ssimulacra2, SmallClipsEqualTheFork)
{
    const auto goldens = read_goldens("ssimulacra2_small.txt", 3);
    ASSERT_FALSE(goldens.empty());
    for (const auto& [key, values] : goldens) {
        std::istringstream words(key);
        std::string fmt, size, matrix_text;
        words >> fmt >> size >> matrix_text;
        if (matrix_text == "valgrind") continue;
        const int chroma_code = std::stoi(fmt.substr(0, 3));
        VideoFormat format;
        format.chroma = chroma_of(chroma_code);
        format.bitdepth = static_cast<unsigned>(std::stoi(fmt.substr(4)));
        format.width = static_cast<unsigned>(std::stoi(size.substr(0, size.find('x'))));
        format.height = static_cast<unsigned>(std::stoi(size.substr(size.find('x') + 1)));
        const int matrix = std::stoi(matrix_text.substr(matrix_text.find('=') + 1));
        ASSERT_NE(values.front(), "refused") << key << ": the fork refused it; the test expects scores";
        std::vector<Picture> ref, dis;
        for (unsigned f = 0; f < values.size(); ++f) {
            auto [r, d] = small_frame(format, chroma_code, f);
            ref.push_back(std::move(r));
            dis.push_back(std::move(d));
        }
        const std::vector<std::string> ours = score_clip(format, ref, dis, matrix);
        ASSERT_EQ(ours.size(), values.size()) << key;
        for (std::size_t f = 0; f < ours.size(); ++f) EXPECT_EQ(ours[f], values[f]) << key << " frame " << f;
    }
}

TEST(Ssimulacra2, IdenticalPicturesScore100)
{
    const VideoFormat format{64, 48, ChromaFormat::k420, 10};
    const Picture ref = test::random_picture(format, 7);
    EXPECT_EQ(test::frame_value(test::score_one_frame("ssimulacra2", {}, ref, ref), "ssimulacra2"), 100.0);
}

TEST(Ssimulacra2, RefusesAnUnknownMatrix)
{
    EXPECT_THROW(test::make_extractor("ssimulacra2", {{"yuv_matrix", "4"}}), Error);
}

TEST(Ssimulacra2, FramesAreScoredIndependently) { test::expect_frames_scored_independently("ssimulacra2", {}); }

// Every SIMD kernel against the reference on rows of every width 1..70
// (whole vectors and tails), bit for bit: random values in and around each
// kernel's range (negative, above 1, zeros and exact 0 and 1 for the clamps,
// the cube root's and EOTF's ends).
namespace {

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

std::vector<float> random_floats(std::mt19937& rng, std::size_t n, float lo, float hi)
{
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) {
        const unsigned pick = rng() % 16;
        x = pick == 0 ? 0.0f : pick == 1 ? 1.0f : pick == 2 ? -0.0f : u(rng);
    }
    return v;
}

}  // namespace

TEST(Ssimulacra2, SimdKernelsEqualTheReference)
{
    using namespace ssimulacra2;
    const ssimulacra2::Kernels ref = ssimulacra2::reference_kernels();
    std::mt19937 rng(2024);
    const auto names = test::for_each_simd_target([&] {
        const ssimulacra2::Kernels simd = ssimulacra2::simd_kernels();
        for (int w = 1; w <= 70; ++w) {
            const std::size_t n = static_cast<std::size_t>(w);
            for (int matrix = 0; matrix < 4; ++matrix) {
                const RgbParams p = rgb_params(static_cast<YuvMatrix>(matrix), 10);
                const auto ys = random_floats(rng, n, 0.0f, 1023.0f), us = random_floats(rng, n, 0.0f, 1023.0f),
                           vs = random_floats(rng, n, 0.0f, 1023.0f);
                std::vector<float> a(3 * n), b(3 * n);
                ref.rgb_row(p, ys.data(), us.data(), vs.data(), w, a.data(), a.data() + n, a.data() + 2 * n);
                simd.rgb_row(p, ys.data(), us.data(), vs.data(), w, b.data(), b.data() + n, b.data() + 2 * n);
                ASSERT_TRUE(same_bits(a, b)) << "rgb_row w=" << w << " matrix " << matrix;
            }
            {
                const auto lin = random_floats(rng, 3 * n, -0.05f, 1.05f);
                std::vector<float> a(3 * n), b(3 * n);
                ref.xyb(lin.data(), n, a.data());
                simd.xyb(lin.data(), n, b.data());
                ASSERT_TRUE(same_bits(a, b)) << "xyb w=" << w;
            }
            {
                const auto l = random_floats(rng, kMaps * n, -1.0f, 2.0f), r = random_floats(rng, kMaps * n, -1.0f, 2.0f);
                const float* lrow[kMaps];
                const float* rrow[kMaps];
                for (int m = 0; m < kMaps; ++m) {
                    lrow[m] = l.data() + m * n;
                    rrow[m] = r.data() + m * n;
                }
                std::vector<float> sa = random_floats(rng, kMaps * 6 * n, -1.0f, 1.0f), sb = sa;
                std::vector<float> a(kMaps * n), b(kMaps * n);
                for (int step = 0; step < 3; ++step) {
                    ref.vertical_step(lrow, rrow, w, sa.data(), a.data());
                    simd.vertical_step(lrow, rrow, w, sb.data(), b.data());
                    ASSERT_TRUE(same_bits(a, b)) << "vertical_step w=" << w;
                    ASSERT_TRUE(same_bits(sa, sb)) << "vertical_step state w=" << w;
                }
            }
            {
                auto rows = random_floats(rng, kMaps * n, 0.0f, 1.0f);
                // Variances near and below 0, as blurred squares give.
                for (std::size_t i = 0; i < n; ++i)
                    if (rng() % 4 == 0) rows[2 * n + i] = rows[i] * rows[i] * (1.0f - 1e-6f * (rng() % 3));
                const auto img1 = random_floats(rng, n, 0.0f, 1.0f), img2 = random_floats(rng, n, 0.0f, 1.0f);
                std::vector<double> a(kTermRows * n), b(kTermRows * n);
                ref.terms_row(rows.data(), img1.data(), img2.data(), w, a.data());
                simd.terms_row(rows.data(), img1.data(), img2.data(), w, b.data());
                ASSERT_TRUE(same_bits(a, b)) << "terms_row w=" << w;
            }
        }
    });
    EXPECT_FALSE(names.empty());
}

// Every size 1x1..33x33 (and the odd ones of test_support) in every chroma
// format: scored, finite (the fork refuses none; under the debug preset's
// sanitizers this also shows that no buffer is read outside).
TEST(Ssimulacra2, EverySmallSizeIsScored)
{
    test::expect_finite_on_every_small_size("ssimulacra2", {}, {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444},
                                            {8, 10});
}
