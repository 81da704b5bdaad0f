// GPU twins against the CPU reference, bit for bit, and the frame flow of
// the GPU engine. Skipped (with a message) where no GPU is present.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <string>

#include "core/collector.h"
#include "twinvmaf/error.h"
#include "core/feature.h"
#include "core/pipeline.h"
#include "features/common/float_exact_sum.h"
#include "features/float_psnr/float_psnr_math.h"
#include "gpu/gpu_engine.h"
#include "io/video_reader.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf;
using twinvmaf::test::fixtures_dir;
using twinvmaf::test::read_file;
using twinvmaf::test::TempDir;

namespace {

bool have_gpu() { return gpu_device_count(Backend::kCuda) > 0 || gpu_device_count(Backend::kHip) > 0; }
Backend gpu_backend() { return gpu_device_count(Backend::kCuda) > 0 ? Backend::kCuda : Backend::kHip; }

// CUDA_DEVICE_MAX_CONNECTIONS as the process started, before any test ran.
const std::optional<std::string> queues_at_start = [] {
    const char* value = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    return value ? std::optional<std::string>(value) : std::nullopt;
}();

#define REQUIRE_GPU() \
    if (!have_gpu()) GTEST_SKIP() << "no GPU device: GPU twin tests did not run"

struct ScoredRun {
    Collector collector;
    PipelineResult result;
};

// Scores ref/dis with one feature (and options) on `backend`.
ScoredRun score(const fs::path& ref, const fs::path& dis, const std::optional<VideoFormat>& raw, const std::string& feature,
          const OptionList& options, Backend backend, unsigned subsample = 1)
{
    const FeatureInfo& info = find_feature(feature);
    OptionValues values(info.name, info.options);
    values.set_all(options);
    std::vector<std::unique_ptr<FeatureExtractor>> extractors;
    extractors.push_back(info.create(values));
    PipelineConfig config;
    config.threads = 2;
    config.subsample = subsample;
    config.backend = backend;
    config.feature_options = {values};
    auto r = open_video(ref.string(), raw);
    auto d = open_video(dis.string(), raw);
    ScoredRun run;
    Pipeline pipeline(std::move(extractors), config);
    run.result = pipeline.run(*r, *d, run.collector);
    return run;
}

std::string g17(double v)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

// Every value of every series and aggregate, identical at %.17g.
void expect_identical(const Collector& cpu, const Collector& gpu, const std::string& where)
{
    ASSERT_EQ(cpu.series().size(), gpu.series().size()) << where;
    for (std::size_t s = 0; s < cpu.series().size(); ++s) {
        const auto& a = cpu.series()[s];
        const auto& b = gpu.series()[s];
        ASSERT_EQ(a.name, b.name) << where;
        ASSERT_EQ(a.values.size(), b.values.size()) << where << " " << a.name;
        for (std::size_t i = 0; i < a.values.size(); ++i) {
            EXPECT_EQ(a.written[i], b.written[i]) << where << " " << a.name << " frame " << i;
            EXPECT_EQ(g17(a.values[i]), g17(b.values[i])) << where << " " << a.name << " frame " << i;
        }
    }
    ASSERT_EQ(cpu.aggregates().size(), gpu.aggregates().size()) << where;
    for (std::size_t i = 0; i < cpu.aggregates().size(); ++i)
        EXPECT_EQ(g17(cpu.aggregates()[i].value), g17(gpu.aggregates()[i].value)) << where;
}

struct TwinCase {
    std::string feature;
    OptionList options;
};

std::vector<TwinCase> twin_cases()
{
    return {
        {"psnr", {}},
        {"psnr", {{"enable_mse", "true"}, {"enable_apsnr", "true"}}},
        {"psnr", {{"enable_chroma", "false"}}},
        {"psnr", {{"reduced_hbd_peak", "true"}, {"min_sse", "0.5"}}},
        // motion: the compared frame (one or two back, none) changes what the
        // twin computes; the other options act on the host, through the
        // shared collect() and flush(), and run once all together.
        {"motion", {}},
        {"motion", {{"motion_five_frame_window", "true"}}},
        {"motion", {{"motion_force_zero", "true"}}},
        {"motion",
         {{"debug", "true"},
          {"motion_moving_average", "true"},
          {"motion_blend_factor", "0.5"},
          {"motion_blend_offset", "2"},
          {"motion_fps_weight", "1.5"},
          {"motion_max_val", "5"}}},
        // adm: the options that change the device computation (gain limit,
        // CSF weights and mode, skipped scale 0 or AIM) one by one; the
        // host-only ones (debug outputs, DLM weight, noise weight, min val)
        // all together.
        {"adm", {}},
        {"adm", {{"adm_enhn_gain_limit", "1.2"}}},
        {"adm", {{"adm_csf_mode", "1"}}},
        {"adm", {{"adm_csf_mode", "2"}}},
        {"adm", {{"adm_csf_mode", "3"}}},
        {"adm",
         {{"adm_csf_scale", "1.5"},
          {"adm_csf_diag_scale", "0.7"},
          {"adm_norm_view_dist", "4"},
          {"adm_ref_display_height", "2160"}}},
        {"adm", {{"adm_skip_scale0", "true"}}},
        {"adm", {{"adm_skip_aim", "true"}}},
        {"adm",
         {{"debug", "true"},
          {"adm_dlm_weight", "0.7"},
          {"adm_noise_weight", "0.02"},
          {"adm_min_val", "0.5"}}},
        {"vif", {}},
        {"vif", {{"vif_enhn_gain_limit", "1.0"}}},
        {"vif", {{"vif_skip_scale0", "true"}}},
        {"vif", {{"debug", "true"}}},
        {"vif", {{"debug", "true"}, {"vif_skip_scale0", "true"}, {"vif_enhn_gain_limit", "1.5"}}},
        // cambi: the v1 models' options (speed-up, max, visibility), full
        // reference, an encoding size (resampling, anti-dithering), a
        // non-default window and top-k, more contrast steps, PQ.
        {"cambi", {}},
        {"cambi", {{"cambi_high_res_speedup", "1080"}, {"cambi_max_val", "17"}, {"cambi_vis_lum_threshold", "0.06"}}},
        {"cambi", {{"full_ref", "true"}}},
        {"cambi", {{"enc_width", "320"}, {"enc_height", "180"}, {"enc_bitdepth", "8"}}},
        {"cambi", {{"window_size", "31"}, {"topk", "0.2"}}},
        {"cambi", {{"max_log_contrast", "3"}, {"tvi_threshold", "0.03"}, {"cambi_vis_lum_threshold", "0.1"}}},
        {"cambi", {{"eotf", "pq"}, {"cambi_topk", "0.9"}}},
        // ciede: no options; every chroma format and bit depth of the fixtures.
        {"ciede", {}},
        // SpEED: prescale with each method, weight modes, the filters' and
        // the entropies' parameters; temporal with the reference difference.
        {"speed_chroma", {}},
        {"speed_chroma", {{"speed_prescale", "0.6"}, {"speed_prescale_method", "bilinear"}}},
        {"speed_chroma", {{"speed_prescale", "0.8"}, {"speed_prescale_method", "nearest"}}},
        {"speed_chroma", {{"speed_prescale", "1.5"}, {"speed_prescale_method", "bicubic"}}},
        {"speed_chroma", {{"speed_prescale", "1.3"}, {"speed_prescale_method", "lanczos4"}}},
        {"speed_chroma", {{"speed_weight_var_mode", "3"}, {"speed_kernelscale", "1.5"}}},
        {"speed_chroma",
         {{"speed_weight_var_mode", "5"}, {"speed_sigma_nn", "0.19"}, {"speed_nn_floor", "0.1"}, {"speed_max_val", "45"}}},
        {"speed_temporal", {}},
        {"speed_temporal", {{"speed_use_ref_diff", "true"}}},
        {"speed_temporal", {{"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"}}},
        // The float features (issue 14): defaults, then every option that
        // changes the device's work.
        {"float_psnr", {}},
        {"float_ansnr", {}},
        {"float_moment", {}},
        {"float_motion", {}},
        {"float_motion", {{"motion_force_zero", "true"}}},
        {"float_motion", {{"motion_filter_size", "3"}, {"debug", "false"}}},
        {"float_motion", {{"motion_add_scale1", "true"}}},
        {"float_motion", {{"motion_add_uv", "true"}, {"motion_filter_size", "1"}}},
        {"float_motion",
         {{"motion_fps_weight", "1.5"}, {"motion_blend_factor", "0.5"}, {"motion_blend_offset", "2"},
          {"motion_max_val", "5"}}},
        {"float_vif", {}},
        {"float_vif", {{"vif_enhn_gain_limit", "1.0"}}},
        {"float_vif", {{"vif_kernelscale", "0.5"}}},
        {"float_vif", {{"vif_kernelscale", "1.5"}, {"debug", "true"}}},
        {"float_vif", {{"debug", "true"}, {"vif_skip_scale0", "true"}}},
        {"float_vif", {{"vif_prescale", "0.5"}, {"vif_prescale_method", "bilinear"}}},
        {"float_vif", {{"vif_prescale", "1.5"}, {"vif_prescale_method", "bicubic"}, {"vif_sigma_nsq", "1.5"}}},
        {"float_adm", {}},
        {"float_adm", {{"adm_enhn_gain_limit", "1.2"}}},
        {"float_adm", {{"adm_csf_mode", "1"}}},
        {"float_adm", {{"adm_csf_mode", "2"}}},
        {"float_adm", {{"adm_norm_view_dist", "4"}, {"adm_ref_display_height", "2160"}}},
        {"float_adm", {{"debug", "true"}, {"adm_csf_scale", "1.5"}, {"adm_csf_diag_scale", "0.7"}}},
        {"float_adm", {{"adm_skip_scale0", "true"}, {"adm_skip_aim_scale", "1"}}},
        {"float_adm", {{"adm_bypass_cm", "1"}, {"adm_f1s0", "0.5"}, {"adm_f2s3", "2"}}},
        // p-norms other than 3: per-coefficient powf terms (glibc_powf.h's
        // port of glibc's powf on both sides).
        {"float_adm", {{"adm_p_norm", "2"}}},
        {"float_adm", {{"adm_p_norm", "2.5"}, {"debug", "true"}}},
        {"float_adm", {{"adm_p_norm", "4"}, {"adm_bypass_cm", "1"}}},
        // float_ssim and float_ms_ssim: dB, clipped dB, the l/c/s outputs;
        // float_ssim's decimation (automatic, none, explicit).
        {"float_ssim", {}},
        {"float_ssim", {{"enable_db", "true"}}},
        {"float_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}},
        {"float_ssim", {{"enable_lcs", "true"}}},
        {"float_ssim", {{"scale", "1"}, {"enable_lcs", "true"}}},
        {"float_ssim", {{"scale", "3"}, {"enable_db", "true"}, {"clip_db", "true"}}},
        {"float_ms_ssim", {}},
        {"float_ms_ssim", {{"enable_db", "true"}}},
        {"float_ms_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}},
        {"float_ms_ssim", {{"enable_lcs", "true"}}},
        // psnr_hvs has no options: every fixture's chroma format and depth.
        {"psnr_hvs", {}},
        // The lusoris/vmaf fork's extractors: motion_v2 with the option sets
        // of tests/data/fork_goldens/runs.txt, the integer ssim (no options).
        {"motion_v2", {}},
        {"motion_v2", {{"motion_force_zero", "true"}}},
        {"motion_v2", {{"motion_moving_average", "true"}}},
        {"motion_v2",
         {{"motion_blend_factor", "0.25"}, {"motion_blend_offset", "1.5"}, {"motion_fps_weight", "2"},
          {"motion_max_val", "20"}}},
        {"ssim", {}},
        // ssimulacra2: every YUV matrix (its one option).
        {"ssimulacra2", {}},
        {"ssimulacra2", {{"yuv_matrix", "1"}}},
        {"ssimulacra2", {{"yuv_matrix", "2"}}},
        {"ssimulacra2", {{"yuv_matrix", "3"}}},
        // The fork's float_ms_ssim (its separable pyramid), with the output
        // options of Netflix's.
        {"lusoris_float_ms_ssim", {}},
        {"lusoris_float_ms_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}},
        {"lusoris_float_ms_ssim", {{"enable_lcs", "true"}}},
    };
}

// TWINVMAF_GPU_FEATURES="a,b": only those features' cases (a quick run of
// some twins, e.g. under compute-sanitizer); unset or empty: every feature.
bool feature_selected(const std::string& feature)
{
    const char* list = std::getenv("TWINVMAF_GPU_FEATURES");
    if (!list || !*list) return true;
    std::string names = std::string(",") + list + ",";
    return names.find("," + feature + ",") != std::string::npos;
}

std::string describe(const TwinCase& c)
{
    std::string text = c.feature;
    for (const auto& [k, v] : c.options) text += ":" + k + "=" + v;
    return text;
}

// The twin equals the CPU on this input; or, where the CPU refuses it (a
// frame size the feature does not score), the GPU refuses it with the same
// message.
void expect_twin_equals_cpu(const fs::path& ref, const fs::path& dis, const VideoFormat& format, const TwinCase& c,
                            const std::string& where)
{
    std::string cpu_error;
    ScoredRun cpu;
    try {
        cpu = score(ref, dis, format, c.feature, c.options, Backend::kCpu);
    } catch (const Error& e) {
        cpu_error = e.what();
    }
    if (!cpu_error.empty()) {
        try {
            score(ref, dis, format, c.feature, c.options, gpu_backend());
            ADD_FAILURE() << where << ": the CPU refuses (" << cpu_error << "), the GPU scored";
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()), cpu_error) << where;
        }
        return;
    }
    const ScoredRun gpu = score(ref, dis, format, c.feature, c.options, gpu_backend());
    expect_identical(cpu.collector, gpu.collector, where);
}

TEST(GpuTwins, EqualCpuOnEveryFixture)
{
    REQUIRE_GPU();
    std::size_t compared = 0;
    for (const auto& entry : fs::directory_iterator(fixtures_dir())) {
        if (!fs::exists(entry.path() / "fixture.json")) continue;
        const auto info = nlohmann::json::parse(read_file(entry.path() / "fixture.json"));
        const int pf = info["pixel_format"].get<int>();
        const VideoFormat format{info["width"].get<unsigned>(), info["height"].get<unsigned>(),
                                 pf == 420 ? ChromaFormat::k420 : pf == 422 ? ChromaFormat::k422 : ChromaFormat::k444,
                                 info["bitdepth"].get<unsigned>()};
        for (const TwinCase& c : twin_cases()) {
            if (!twin_exists(c.feature, gpu_backend()) || !feature_selected(c.feature)) continue;
            expect_twin_equals_cpu(entry.path() / "ref.yuv", entry.path() / "dis.yuv", format, c,
                                   entry.path().filename().string() + " " + describe(c));
            ++compared;
        }
    }
    EXPECT_GT(compared, 0u);
}

// Sample i of a raw file's bytes: one byte at 8 bits, else two, little-endian.
void put_sample(std::string& bytes, std::size_t i, unsigned v, unsigned bits)
{
    if (bits > 8) {
        bytes[2 * i] = static_cast<char>(v & 0xff);
        bytes[2 * i + 1] = static_cast<char>(v >> 8);
    } else {
        bytes[i] = static_cast<char>(v);
    }
}

// Random frames of every size 1x1..33x33 plus a few odd ones, every chroma
// format and bit depth: same values, no fault (run under compute-sanitizer).
TEST(GpuTwins, EqualCpuOnTinyAndOddSizes)
{
    REQUIRE_GPU();
    TempDir dir;
    std::mt19937 rng(7);
    std::vector<std::pair<unsigned, unsigned>> sizes;
    for (unsigned s = 1; s <= 33; ++s) sizes.emplace_back(s, s);
    // 16x40, 40x12, 15x9, 48x16: float_adm's band of 1 at scale 3, run in
    // Netflix's buffer layout (float_adm_arena.h).
    // 1x8 .. 7x40: vif's scales 0, 1 or 2 one column wide, with the leftovers
    // of the scale before beside them (vif_cpu.cpp, statistics()).
    sizes.insert(sizes.end(), {{257, 145}, {19, 23}, {1, 7}, {31, 2}, {16, 40}, {40, 12}, {15, 9}, {48, 16}, {1, 8},
                               {2, 9}, {3, 16}, {4, 8}, {5, 23}, {6, 17}, {7, 40}});
    for (auto [w, h] : sizes)
        for (ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444})
            for (unsigned bits : {8u, 10u, 16u}) {
                const VideoFormat format{w, h, chroma, bits};
                const std::size_t samples = format.frame_bytes() / format.bytes_per_sample() * 2;
                for (const char* name : {"ref.yuv", "dis.yuv"}) {
                    std::string bytes(samples * format.bytes_per_sample(), '\0');
                    for (std::size_t i = 0; i < samples; ++i) {
                        put_sample(bytes, i, rng() & format.max_sample(), bits);
                    }
                    twinvmaf::test::write_file(dir / name, bytes);
                }
                for (const TwinCase& c : twin_cases()) {
                    if (!twin_exists(c.feature, gpu_backend()) || !feature_selected(c.feature)) continue;
                    if (w <= 33 && !c.options.empty()) continue;  // tiny sizes: default options only
                    // A size the feature refuses (vif under 8 rows) is refused on both alike.
                    expect_twin_equals_cpu(dir / "ref.yuv", dir / "dis.yuv", format, c,
                                           format.describe() + " " + describe(c));
                }
            }
}

// vif under 8 columns with every option set of the parity gate: scale 0, 1
// or 2 one column wide reads the leftovers of the scale before (zeros where
// none ran: scale 0, or scale 1 with vif_skip_scale0), a scale with no
// columns scores 0 / 0.
TEST(GpuTwins, VifUnderEightColumnsEveryOption)
{
    REQUIRE_GPU();
    if (!feature_selected("vif")) GTEST_SKIP() << "vif not in TWINVMAF_GPU_FEATURES";
    TempDir dir;
    std::mt19937 rng(8);
    for (auto [w, h] : {std::pair{1u, 8u}, {1u, 33u}, {2u, 8u}, {3u, 17u}, {4u, 16u}, {5u, 9u}, {6u, 40u}, {7u, 24u}})
        for (unsigned bits : {8u, 10u}) {
            const VideoFormat format{w, h, ChromaFormat::k420, bits};
            const std::size_t samples = format.frame_bytes() / format.bytes_per_sample() * 3;  // 3 frames
            for (const char* name : {"ref.yuv", "dis.yuv"}) {
                std::string bytes(samples * format.bytes_per_sample(), '\0');
                for (std::size_t i = 0; i < samples; ++i) put_sample(bytes, i, rng() & format.max_sample(), bits);
                twinvmaf::test::write_file(dir / name, bytes);
            }
            for (const TwinCase& c : twin_cases())
                if (c.feature == "vif")
                    expect_twin_equals_cpu(dir / "ref.yuv", dir / "dis.yuv", format, c,
                                           format.describe() + " " + describe(c));
        }
}

// float_psnr and float_moment where their exact sums hold far above the old
// fixed limit of 2^37 (features/common/float_exact_sum.h: a grid per depth,
// limit 2^53 units): bright 4K planes at 8, 10 and 12 bits (ref in the top
// quarter of the range, dis in the bottom one), whose sums of squares and
// errors are above 2^37 but far below 2^53 units; the twins take the
// order-free path there (the twin's speed at 4K) and must give the CPU's
// bits.
TEST(GpuTwins, FloatPsnrAndMomentExactAbove2To37)
{
    REQUIRE_GPU();
    TempDir dir;
    for (unsigned bits : {8u, 10u, 12u}) {
        const VideoFormat format{3840, 2160, ChromaFormat::k420, bits};
        const std::size_t luma = std::size_t{format.width} * format.height;
        const std::size_t samples = format.frame_bytes() / format.bytes_per_sample();
        const unsigned quarter = 1u << (bits - 2);
        std::mt19937 rng(bits);
        double squares = 0;
        for (const char* name : {"ref.yuv", "dis.yuv"}) {
            const unsigned low = name[0] == 'r' ? 3 * quarter : 0;
            std::string bytes(samples * format.bytes_per_sample(), '\0');
            for (std::size_t i = 0; i < samples; ++i) {
                const unsigned v = i < luma ? low + rng() % quarter : 1u << (bits - 1);
                if (low && i < luma) squares += std::ldexp(static_cast<double>(v) * v, -2 * static_cast<int>(bits - 8));
                put_sample(bytes, i, v, bits);
            }
            twinvmaf::test::write_file(dir / name, bytes);
        }
        ASSERT_GT(squares, std::ldexp(1.0, 37)) << bits;
        for (const char* feature : {"float_psnr", "float_moment"}) {
            const TwinCase c{feature, {}};
            expect_twin_equals_cpu(dir / "ref.yuv", dir / "dis.yuv", format, c, format.describe() + " " + describe(c));
        }
    }
}

// float_psnr and float_moment above the exact range of their chains (a
// total of 2^53 grid units and more, 2^37 at 16 bits: 16-bit 2048x1152,
// errors near full scale in the first 2,150,000 samples, then errors of one
// code whose squares, 2^-16, the chain loses once it is past 2^37): the
// twins' exact sums are not the CPU's doubles there, so they must run the
// CPU's chain (float_gpu.h, grid_sum_finish_kernel). The test checks that
// the CPU's chain does round here, then that the GPU gives its bits.
TEST(GpuTwins, FloatPsnrAndMomentBeyondTheExactRange)
{
    REQUIRE_GPU();
    TempDir dir;
    const VideoFormat format{2048, 1152, ChromaFormat::k420, 16};
    constexpr std::size_t kLarge = 2150000;
    std::mt19937 rng(5);
    const std::size_t luma = std::size_t{format.width} * format.height;
    const std::size_t frame = format.frame_bytes() / 2;
    std::vector<std::uint16_t> ref(luma), dis(luma);
    for (std::size_t i = 0; i < luma; ++i) {
        if (i < kLarge) {
            ref[i] = static_cast<std::uint16_t>(rng() & 63);
            dis[i] = static_cast<std::uint16_t>(65535 - (rng() & 63));
        } else {
            ref[i] = static_cast<std::uint16_t>(rng() & 32767);
            dis[i] = static_cast<std::uint16_t>(ref[i] + 1);
        }
    }
    // Two equal frames; chroma mid-grey.
    auto bytes_of = [&](const std::vector<std::uint16_t>& plane) {
        std::string bytes(4 * frame, '\0');
        for (int f = 0; f < 2; ++f)
            for (std::size_t i = 0; i < frame; ++i) {
                const unsigned v = i < luma ? plane[i] : 32768;
                bytes[2 * (f * frame + i)] = static_cast<char>(v & 0xff);
                bytes[2 * (f * frame + i) + 1] = static_cast<char>(v >> 8);
            }
        return bytes;
    };
    twinvmaf::test::write_file(dir / "ref.yuv", bytes_of(ref));
    twinvmaf::test::write_file(dir / "dis.yuv", bytes_of(dis));
    // The CPU's chain rounds here: it is not the exact total.
    double noise = 0;
    unsigned long long units = 0;
    for (unsigned y = 0; y < format.height; ++y) {
        const std::uint16_t* r = ref.data() + std::size_t{y} * format.width;
        const std::uint16_t* d = dis.data() + std::size_t{y} * format.width;
        noise = float_psnr::accumulate_row(r, d, format.width, 16, noise);
        for (unsigned x = 0; x < format.width; ++x)
            units += float_exact_sum::grid_units(
                float_psnr::squared_error(float_picture::sample_to_float(r[x], 16, 0.0f),
                                          float_picture::sample_to_float(d[x], 16, 0.0f)),
                16);
    }
    ASSERT_FALSE(float_exact_sum::exact(units));
    ASSERT_LT(noise + 1.0, static_cast<double>(units) * float_exact_sum::grid_unit(16)) << "the chain does not round here";
    for (const char* feature : {"float_psnr", "float_moment"}) {
        const TwinCase c{feature, {}};
        expect_twin_equals_cpu(dir / "ref.yuv", dir / "dis.yuv", format, c, "2048x1152 16-bit " + describe(c));
    }
}

// A temporal twin with --subsample: motion runs on every frame (it needs the
// one before) and reads the earlier pictures from the engine's slots.
TEST(GpuTwins, TemporalTwinEqualsCpuWithSubsample)
{
    REQUIRE_GPU();
    if (!twin_exists("motion", gpu_backend())) GTEST_SKIP() << "no motion twin";
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    const VideoFormat format{576, 324, ChromaFormat::k420, 8};
    for (const OptionList& options : {OptionList{}, OptionList{{"motion_five_frame_window", "true"}}}) {
        const ScoredRun cpu = score(fixture / "ref.yuv", fixture / "dis.yuv", format, "motion", options, Backend::kCpu, 3);
        const ScoredRun gpu = score(fixture / "ref.yuv", fixture / "dis.yuv", format, "motion", options, gpu_backend(), 3);
        expect_identical(cpu.collector, gpu.collector, describe({"motion", options}) + " subsample 3");
    }
}

// motion_v2 runs only on the frames written (the fork's framework), each
// against the frame before it, which the engine keeps on the device.
TEST(GpuTwins, MotionV2EqualsCpuWithSubsample)
{
    REQUIRE_GPU();
    if (!twin_exists("motion_v2", gpu_backend())) GTEST_SKIP() << "no motion_v2 twin";
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    const VideoFormat format{576, 324, ChromaFormat::k420, 8};
    for (unsigned subsample : {2u, 3u}) {
        const OptionList options{{"motion_moving_average", "true"}};
        const ScoredRun cpu = score(fixture / "ref.yuv", fixture / "dis.yuv", format, "motion_v2", options, Backend::kCpu, subsample);
        const ScoredRun gpu = score(fixture / "ref.yuv", fixture / "dis.yuv", format, "motion_v2", options, gpu_backend(), subsample);
        expect_identical(cpu.collector, gpu.collector, "motion_v2 subsample " + std::to_string(subsample));
    }
}

// DESIGN.md §3: per frame two uploads (ref, dis), one readback, one host
// wait; and the frames are collected in order with --subsample.
TEST(GpuTwins, OneReadbackAndOneWaitPerFrame)
{
    REQUIRE_GPU();
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    const VideoFormat format{576, 324, ChromaFormat::k420, 8};
    const ScoredRun run = score(fixture / "ref.yuv", fixture / "dis.yuv", format, "psnr", {}, gpu_backend(), 3);
    const std::uint64_t frames = fs::file_size(fixture / "ref.yuv") / format.frame_bytes();
    ASSERT_GT(frames, 1u);
    EXPECT_EQ(run.result.frames, frames);
    EXPECT_EQ(run.result.gpu_stats.frames, frames);
    EXPECT_EQ(run.result.gpu_stats.uploads, 2 * frames);
    EXPECT_EQ(run.result.gpu_stats.readbacks, frames);
    EXPECT_EQ(run.result.gpu_stats.host_waits, frames);
    std::cout << "[ flow ] " << run.result.device << ": " << frames << " frames, " << run.result.gpu_stats.uploads << " uploads, "
              << run.result.gpu_stats.readbacks << " readbacks, " << run.result.gpu_stats.host_waits
              << " host waits\n";
}

// Scores ref/dis with several features (and options) at once on `backend`.
ScoredRun score_together(const fs::path& fixture, const VideoFormat& format, const std::vector<TwinCase>& features,
                         Backend backend)
{
    std::vector<std::unique_ptr<FeatureExtractor>> extractors;
    PipelineConfig config;
    config.threads = 2;
    config.backend = backend;
    for (const TwinCase& c : features) {
        const FeatureInfo& info = find_feature(c.feature);
        OptionValues values(info.name, info.options);
        values.set_all(c.options);
        extractors.push_back(info.create(values));
        config.feature_options.push_back(values);
    }
    auto r = open_video((fixture / "ref.yuv").string(), format);
    auto d = open_video((fixture / "dis.yuv").string(), format);
    ScoredRun scored;
    Pipeline pipeline(std::move(extractors), config);
    scored.result = pipeline.run(*r, *d, scored.collector);
    return scored;
}

// The v1 features (the v1.0.16 models' extractors with their options).
std::vector<TwinCase> v1_features()
{
    return {
        {"cambi", {{"cambi_high_res_speedup", "1080"}, {"cambi_max_val", "17"}, {"cambi_vis_lum_threshold", "0.06"}}},
        {"speed_chroma", {{"speed_max_val", "45"}, {"speed_nn_floor", "0.1"}, {"speed_sigma_nn", "0.19"},
                          {"speed_weight_var_mode", "5"}}},
        {"speed_temporal", {}},
        {"adm", {{"adm_csf_mode", "2"}, {"adm_dlm_weight", "0.7"}, {"adm_min_val", "0.5"}, {"adm_noise_weight", "0.02"}}},
        {"motion", {{"motion_max_val", "18"}}},
        {"float_ssim", {{"enable_lcs", "true"}}},
        {"float_ms_ssim", {{"enable_lcs", "true"}}},
        {"psnr_hvs", {}},
    };
}

// The VMAF v1 features all on the device at once: one readback and one host
// wait per frame for all twins together, and every value as on the CPU.
TEST(GpuTwins, V1FeaturesTogetherOneReadbackPerFrame)
{
    REQUIRE_GPU();
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    const VideoFormat format{576, 324, ChromaFormat::k420, 8};
    const ScoredRun cpu = score_together(fixture, format, v1_features(), Backend::kCpu);
    const ScoredRun gpu = score_together(fixture, format, v1_features(), gpu_backend());
    expect_identical(cpu.collector, gpu.collector, "v1 features together");
    const std::uint64_t frames = gpu.result.frames;
    EXPECT_EQ(gpu.result.gpu_stats.readbacks, frames);
    EXPECT_EQ(gpu.result.gpu_stats.host_waits, frames);
    EXPECT_EQ(gpu.result.gpu_stats.uploads, 2 * frames);
    std::cout << "[ flow v1 ] " << gpu.result.device << ": " << frames << " frames, cambi + speed_chroma + "
              << "speed_temporal + adm + motion: " << gpu.result.gpu_stats.uploads << " uploads, "
              << gpu.result.gpu_stats.readbacks << " readbacks, " << gpu.result.gpu_stats.host_waits << " host waits\n";
}

// Every twin at once (the v1 features and the float features, the float
// models' extractors among them): still one readback and one host wait per
// frame, and every value as on the CPU.
TEST(GpuTwins, AllTwinsTogetherOneReadbackPerFrame)
{
    REQUIRE_GPU();
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    const VideoFormat format{576, 324, ChromaFormat::k420, 8};
    std::vector<TwinCase> features = v1_features();
    const std::vector<TwinCase> more = {
        {"psnr", {}},
        {"vif", {}},
        {"float_psnr", {}},
        {"float_ansnr", {}},
        {"float_moment", {}},
        {"float_motion", {{"motion_add_scale1", "true"}}},
        {"float_vif", {{"debug", "true"}}},
        {"float_adm", {{"debug", "true"}}},
        {"motion_v2", {{"motion_moving_average", "true"}}},
        {"ssim", {}},
        {"ciede", {}},
        {"ssimulacra2", {}},
    };
    features.insert(features.end(), more.begin(), more.end());
    std::string names;
    for (const TwinCase& c : features) {
        if (!twin_exists(c.feature, gpu_backend())) GTEST_SKIP() << c.feature << " has no twin";
        names += (names.empty() ? "" : " + ") + c.feature;
    }
    const ScoredRun cpu = score_together(fixture, format, features, Backend::kCpu);
    const ScoredRun gpu = score_together(fixture, format, features, gpu_backend());
    expect_identical(cpu.collector, gpu.collector, "all twins together");
    const std::uint64_t frames = gpu.result.frames;
    EXPECT_EQ(gpu.result.gpu_stats.readbacks, frames);
    EXPECT_EQ(gpu.result.gpu_stats.host_waits, frames);
    EXPECT_EQ(gpu.result.gpu_stats.uploads, 2 * frames);
    std::cout << "[ flow all ] " << gpu.result.device << ": " << frames << " frames, " << names << ": "
              << gpu.result.gpu_stats.uploads << " uploads, " << gpu.result.gpu_stats.readbacks << " readbacks, "
              << gpu.result.gpu_stats.host_waits << " host waits\n";
}

// cambi's heatmaps are the CPU reference's: refused on the GPU before any
// file is made.
TEST(GpuTwins, CambiHeatmapsAreRefusedBeforeAnythingIsWritten)
{
    REQUIRE_GPU();
    TempDir dir;
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    const std::string maps = (dir / "maps").string();
    try {
        score(fixture / "ref.yuv", fixture / "dis.yuv", VideoFormat{576, 324, ChromaFormat::k420, 8}, "cambi",
              {{"heatmaps_path", maps}}, gpu_backend());
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("heatmaps_path is written by the CPU reference only"), std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(fs::exists(maps));
}

TEST(GpuTwins, BackendIsReportedAndMissingDeviceIsAnError)
{
    if (have_gpu()) {
        const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
        EXPECT_THROW(score(fixture / "ref.yuv", fixture / "dis.yuv", VideoFormat{576, 324, ChromaFormat::k420, 8},
                           "null", {}, gpu_backend()),
                     Error)
            << "a feature without a twin must be refused on the GPU";
        return;
    }
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    EXPECT_THROW(score(fixture / "ref.yuv", fixture / "dis.yuv", VideoFormat{576, 324, ChromaFormat::k420, 8}, "psnr",
                       {}, Backend::kCuda),
                 Error);
}

// Runs without a device too: the CUDA build must ask for 2 hardware queues
// (gpu_runtime.h, kHardwareQueues) before its first runtime call, and leave a
// number the user set alone.
TEST(GpuRuntime, HardwareQueuesAreLimitedUnlessTheUserSetThem)
{
    if (!backend_compiled(Backend::kCuda)) GTEST_SKIP() << "not a CUDA build: the runtime's default is kept";
    (void)gpu_device_count(Backend::kCuda);
    const char* value = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    ASSERT_NE(value, nullptr);
    EXPECT_EQ(std::string(value), queues_at_start.value_or("2"));
}

}  // namespace
