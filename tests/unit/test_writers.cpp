// Output writers: byte-for-byte against Netflix's own output files (golden
// files made with every number printed "%.17g", i.e. our "max" precision),
// the legacy number format, the smaller formats and the atomic file write.
#include "output/writers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "long_run_scores.h"
#include "test_support.h"
#include "twinvmaf/error.h"

namespace twinvmaf {
namespace {

namespace fs = std::filesystem;
using test::fixtures_dir;
using test::read_file;

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Golden {
    Collector collector;
    std::uint64_t frame_count = 0;
    double fps = 0.0;
};

// Loads a Netflix JSON output back into a collector: keys in file order
// (ordered_json), null as +inf (what Netflix prints for inf/nan).
Golden load_golden_json(const fs::path& path)
{
    const auto json = nlohmann::ordered_json::parse(read_file(path));
    Golden golden;
    const auto as_double = [](const nlohmann::ordered_json& v) {
        return v.is_null() ? kInf : v.get<double>();
    };
    golden.fps = json["fps"].is_null() ? std::nan("") : json["fps"].get<double>();
    for (const auto& frame : json["frames"]) {
        const auto index = frame["frameNum"].get<std::uint64_t>();
        for (const auto& [key, value] : frame["metrics"].items())
            golden.collector.set(key, index, as_double(value));
        ++golden.frame_count;
    }
    for (const auto& [key, value] : json["aggregate_metrics"].items())
        golden.collector.set_aggregate(key, as_double(value));
    return golden;
}

std::string render(OutputFormat format, const OutputContext& context)
{
    std::ostringstream out;
    write_output(out, format, context);
    return out.str();
}

// Equality with a readable report: the first differing offset and a window
// of both texts, instead of two whole files.
::testing::AssertionResult same_bytes(const std::string& actual, const std::string& expected)
{
    if (actual == expected) return ::testing::AssertionSuccess();
    std::size_t at = 0;
    while (at < actual.size() && at < expected.size() && actual[at] == expected[at]) ++at;
    const std::size_t from = at > 80 ? at - 80 : 0;
    return ::testing::AssertionFailure()
           << "first difference at byte " << at << " (sizes " << actual.size() << " vs "
           << expected.size() << ")\n--- actual:\n"
           << actual.substr(from, 200) << "\n--- expected:\n"
           << expected.substr(from, 200);
}

Precision max_precision()
{
    return Precision::parse("max");
}

struct Fixture {
    const char* name;
    unsigned width;
    unsigned height;
};
constexpr Fixture kVmafFixtures[] = {{"vtest_576x324_420p8", 576, 324},
                                     {"box_640x480_422p10", 640, 480}};

TEST(WritersGolden, JsonMatchesNetflixByteForByte)
{
    for (const auto& fixture : kVmafFixtures) {
        SCOPED_TRACE(fixture.name);
        const auto path = fixtures_dir() / fixture.name / "golden" / "vmaf_v0.6.1.json";
        const Golden golden = load_golden_json(path);
        ASSERT_GT(golden.frame_count, 0u);
        OutputContext ctx{golden.collector, golden.frame_count, 1, fixture.width, fixture.height,
                          golden.fps, max_precision(), "3.2.0"};
        EXPECT_TRUE(same_bytes(render(OutputFormat::kJson, ctx), read_file(path)));
    }
}

TEST(WritersGolden, JsonWithNullsMatchesNetflix)
{
    // psnr_hvs on 4:2:0 checker: inf chroma scores, printed as null in the
    // frames (with Netflix's missing newline) and in the pooled metrics.
    const auto path = fixtures_dir() / "checker_1920x1080_420p8" / "golden" / "psnr_hvs.json";
    const Golden golden = load_golden_json(path);
    OutputContext ctx{golden.collector, golden.frame_count, 1, 1920, 1080,
                      golden.fps, max_precision(), "3.2.0"};
    const std::string text = render(OutputFormat::kJson, ctx);
    EXPECT_NE(text.find("\"psnr_hvs_cb\": null,        \"psnr_hvs_cr\": null,"), std::string::npos);
    EXPECT_TRUE(same_bytes(text, read_file(path)));
}

TEST(WritersGolden, EveryGoldenJsonRoundTrips)
{
    // All JSON goldens of all fixtures: each is reproduced from its own
    // per-frame scores, which also checks the pooling on every feature.
    int checked = 0;
    for (const auto& dir : fs::directory_iterator(fixtures_dir())) {
        const auto golden_dir = dir.path() / "golden";
        if (!fs::is_directory(golden_dir)) continue;
        for (const auto& entry : fs::directory_iterator(golden_dir)) {
            if (entry.path().extension() != ".json") continue;
            // Subsampled runs are checked in SubsampleMatchesNetflix.
            if (entry.path().filename().string().find("subsample") != std::string::npos) continue;
            SCOPED_TRACE(entry.path().string());
            const Golden golden = load_golden_json(entry.path());
            OutputContext ctx{golden.collector, golden.frame_count, 1, 0, 0,
                              golden.fps, max_precision(), "3.2.0"};
            EXPECT_TRUE(same_bytes(render(OutputFormat::kJson, ctx), read_file(entry.path())));
            ++checked;
        }
    }
    EXPECT_GT(checked, 100);
}

// The XML and CSV goldens come from another run than the JSON (the fps
// differs), with the same scores.
TEST(WritersGolden, XmlMatchesNetflixByteForByte)
{
    for (const auto& fixture : kVmafFixtures) {
        SCOPED_TRACE(fixture.name);
        const auto dir = fixtures_dir() / fixture.name / "golden";
        const Golden golden = load_golden_json(dir / "vmaf_v0.6.1.json");
        const std::string expected = read_file(dir / "vmaf_v0.6.1.xml");
        const std::string fps_tag = "<fyi fps=\"";
        const auto fps_at = expected.find(fps_tag);
        ASSERT_NE(fps_at, std::string::npos);
        const double fps = std::stod(expected.substr(fps_at + fps_tag.size()));  // e.g. 197.20
        OutputContext ctx{golden.collector, golden.frame_count, 1, fixture.width, fixture.height,
                          fps, max_precision(), "3.2.0"};
        EXPECT_TRUE(same_bytes(render(OutputFormat::kXml, ctx), expected));
    }
}

TEST(WritersGolden, CsvMatchesNetflixByteForByte)
{
    for (const auto& fixture : kVmafFixtures) {
        SCOPED_TRACE(fixture.name);
        const auto dir = fixtures_dir() / fixture.name / "golden";
        const Golden golden = load_golden_json(dir / "vmaf_v0.6.1.json");
        OutputContext ctx{golden.collector, golden.frame_count, 1, fixture.width, fixture.height,
                          golden.fps, max_precision(), "3.2.0"};
        EXPECT_TRUE(same_bytes(render(OutputFormat::kCsv, ctx), read_file(dir / "vmaf_v0.6.1.csv")));
    }
}

TEST(WritersGolden, SubsampleMatchesNetflix)
{
    // All 48 frames in the collector; subsample 3 must write frames 0, 3, ...
    // and pool over those only, as Netflix's --subsample 3 run did.
    const auto dir = fixtures_dir() / "vtest_576x324_420p8" / "golden";
    const Golden all = load_golden_json(dir / "vmaf_v0.6.1.json");
    ASSERT_EQ(all.frame_count, 48u);
    const auto expected_path = dir / "vmaf_v0.6.1_subsample3.json";
    const Golden expected = load_golden_json(expected_path);
    OutputContext ctx{all.collector, 48, 3, 576, 324, expected.fps, max_precision(), "3.2.0"};
    EXPECT_TRUE(same_bytes(render(OutputFormat::kJson, ctx), read_file(expected_path)));
}

// ---------------------------------------------------------------------------
// Number formats

Precision legacy()
{
    return Precision{};
}

TEST(FormatScore, LegacyMatchesNetflix)
{
    EXPECT_EQ(format_score(0.5, legacy()), "0.500000");
    EXPECT_EQ(format_score(1e-7, legacy()), "0.0000001000000000");
    EXPECT_EQ(format_score(-1e-7, legacy()), "-0.0000001000000000");
    EXPECT_EQ(format_score(80.807123300486481, legacy()), "80.807123");
    EXPECT_EQ(format_score(0.0, legacy()), "0.000000");
    EXPECT_EQ(format_score(-0.0, legacy()), "-0.000000");
    EXPECT_EQ(format_score(100.0, legacy()), "100.000000");
    // The fraction is 9.99...e-8: eight multiplications by 10.
    EXPECT_EQ(format_score(123.0000001, legacy()), "123.0000000999999941");
    // Borderline: exactly six leading zeros stays "%.6f".
    EXPECT_EQ(format_score(1e-6, legacy()), "0.000001");
    EXPECT_EQ(format_score(2.000001, legacy()), "2.000001");
    EXPECT_EQ(format_score(2.0000009, legacy()), "2.0000008999999999");
    EXPECT_EQ(format_score(5e-324, legacy()), "0.0000000000000000");
    // |x| >= 2^31: Netflix's (int) cast saturates, so the count is 0.
    EXPECT_EQ(format_score(3000000000.0000005, legacy()), "3000000000.000000");
    EXPECT_EQ(format_score(1e20, legacy()), "100000000000000000000.000000");
}

TEST(FormatScore, NonFiniteSpelledAsPrintf)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const Precision& p : {legacy(), Precision::parse("max"), Precision::parse("3")}) {
        EXPECT_EQ(format_score(kInf, p), "inf");
        EXPECT_EQ(format_score(-kInf, p), "-inf");
        EXPECT_EQ(format_score(nan, p), "nan");
        EXPECT_EQ(format_score(-nan, p), "-nan");
    }
}

TEST(FormatScore, MaxAndDigits)
{
    EXPECT_EQ(format_score(0.1, Precision::parse("max")), "0.10000000000000001");
    EXPECT_EQ(format_score(0.0, Precision::parse("max")), "0");
    EXPECT_EQ(format_score(80.807123300486481, Precision::parse("max")), "80.807123300486481");
    EXPECT_EQ(format_score(80.807123300486481, Precision::parse("3")), "80.8");
    EXPECT_EQ(format_score(1e-7, Precision::parse("3")), "1e-07");
    EXPECT_EQ(format_score(123456.0, Precision::parse("2")), "1.2e+05");
    EXPECT_EQ(format_score(0.5, Precision::parse("1")), "0.5");
    EXPECT_EQ(format_score(2.5, Precision::parse("1")), "2");
}

// The writer formats with std::to_chars; it must agree with printf, which is
// what Netflix uses, on every value and mode.
TEST(FormatScore, AgreesWithPrintf)
{
    const auto reference_zeros = [](double x) {
        x = std::fabs(x);
        if (!(x < 2147483648.0)) return 0;
        double f = x - static_cast<int>(x);
        int n = 0;
        while (f < 1.0 && f != 0.0) {
            f *= 10.0;
            ++n;
        }
        return n;
    };
    const auto printf_string = [](const char* format, int digits, double v) {
        char buf[512];
        std::snprintf(buf, sizeof buf, format, digits, v);
        return std::string(buf);
    };
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<int> exponent(-30, 30);
    for (int k = 0; k < 20000; ++k) {
        double v;
        switch (k % 4) {
        case 0: v = unit(rng) * 100.0; break;                                 // VMAF-like
        case 1: v = unit(rng) * std::pow(10.0, exponent(rng)); break;         // any scale
        case 2: v = std::round(unit(rng) * 1e6) / 1e6 + unit(rng) * 1e-7; break;  // near 6/7 zeros
        default: {
            std::uint64_t bits = rng();
            std::memcpy(&v, &bits, sizeof v);
            if (!std::isfinite(v)) v = 1.0;
        }
        }
        if (k & 1) v = -v;
        const int places = reference_zeros(v) <= 6 ? 6 : 16;
        ASSERT_EQ(format_score(v, legacy()), printf_string("%.*f", places, v)) << v;
        ASSERT_EQ(format_score(v, Precision::parse("max")), printf_string("%.*g", 17, v)) << v;
        const int digits = 1 + k % 17;
        ASSERT_EQ(format_score(v, Precision::parse(std::to_string(digits))),
                  printf_string("%.*g", digits, v))
            << v;
    }
}

TEST(PrecisionParse, AcceptsLegacyMaxAndDigits)
{
    EXPECT_EQ(Precision::parse("legacy").mode, Precision::Mode::kLegacy);
    EXPECT_EQ(Precision::parse("max").mode, Precision::Mode::kMax);
    for (int n = 1; n <= 17; ++n) {
        const Precision p = Precision::parse(std::to_string(n));
        EXPECT_EQ(p.mode, Precision::Mode::kDigits);
        EXPECT_EQ(p.digits, n);
    }
}

TEST(PrecisionParse, RejectsAnythingElse)
{
    for (const std::string bad : {"", "0", "18", "100", "-1", "+5", " 5", "5 ", "1.5", "MAX",
                                  "Legacy", "abc", "99999999999999999999"}) {
        try {
            Precision::parse(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()),
                      "--precision: expected legacy, max or 1..17, got '" + bad + "'");
        }
    }
}

// ---------------------------------------------------------------------------
// Small collectors: every format, gaps, aggregates, subsample

// A context with the defaults of everything but the scores.
OutputContext basic(const Collector& c, std::uint64_t frame_count, unsigned subsample = 1)
{
    return OutputContext{c, frame_count, subsample, 0, 0, 0.0, Precision{}, "0.1.0"};
}

// a: frames 0 and 3; b: frames 0 and 1; frame 2 has nothing.
Collector small_collector()
{
    Collector c;
    c.set("a", 0, 1.0);
    c.set("b", 0, 2.0);
    c.set("b", 1, 0.5);
    c.set("a", 3, 1e-7);
    return c;
}

TEST(Writers, SubFormat)
{
    const Collector c = small_collector();
    OutputContext ctx = basic(c, 4);
    EXPECT_EQ(render(OutputFormat::kSub, ctx),
              "{0}{1}frame: 0|a: 1.000000|b: 2.000000|\n"
              "{1}{2}frame: 1|b: 0.500000|\n"
              "{3}{4}frame: 3|a: 0.0000001000000000|\n");
}

TEST(Writers, CsvHeaderListsAllSeries)
{
    const Collector c = small_collector();
    OutputContext ctx = basic(c, 4);
    EXPECT_EQ(render(OutputFormat::kCsv, ctx),
              "Frame,a,b,\n"
              "0,1.000000,2.000000,\n"
              "1,0.500000,\n"
              "3,0.0000001000000000,\n");
    ctx.subsample = 3;  // frames 0 and 3; the header still has both series
    EXPECT_EQ(render(OutputFormat::kCsv, ctx),
              "Frame,a,b,\n"
              "0,1.000000,2.000000,\n"
              "3,0.0000001000000000,\n");
}

TEST(Writers, XmlWithGapsAndAggregates)
{
    Collector c = small_collector();
    c.set_aggregate("float_ms_ssim", 0.9);
    c.set_aggregate("odd", -kInf);
    OutputContext ctx{c, 2, 1, 17, 19, 24.0, Precision{}, "0.1.0"};
    // a lacks frame 1, so it has no pooled value over [0, 2).
    EXPECT_EQ(render(OutputFormat::kXml, ctx),
              "<VMAF version=\"0.1.0\">\n"
              "  <params qualityWidth=\"17\" qualityHeight=\"19\" />\n"
              "  <fyi fps=\"24.00\" />\n"
              "  <frames>\n"
              "    <frame frameNum=\"0\" a=\"1.000000\" b=\"2.000000\" />\n"
              "    <frame frameNum=\"1\" b=\"0.500000\" />\n"
              "    <frame frameNum=\"3\" a=\"0.0000001000000000\" />\n"
              "  </frames>\n"
              "  <pooled_metrics>\n"
              "    <metric name=\"a\" />\n"
              "    <metric name=\"b\" min=\"0.500000\" max=\"2.000000\" mean=\"1.250000\" "
              "harmonic_mean=\"1.000000\" />\n"
              "  </pooled_metrics>\n"
              "  <aggregate_metrics float_ms_ssim=\"0.900000\" odd=\"-inf\" />\n"
              "</VMAF>\n");
}

TEST(Writers, JsonWithGapsAggregatesAndNulls)
{
    Collector c;
    c.set("x", 0, 1.0);
    c.set("y", 0, kInf);
    c.set("z", 0, 3.0);
    c.set("x", 1, 2.0);
    c.set("y", 1, 4.0);
    c.set("z", 1, std::nan(""));
    c.set("w", 1, 0.25);  // no value at frame 0: no pooled metrics
    c.set_aggregate("agg1", 0.5);
    c.set_aggregate("agg2", std::nan(""));
    OutputContext ctx{c, 2, 1, 0, 0, kInf, Precision{}, "0.1.0"};
    const std::string text = render(OutputFormat::kJson, ctx);
    EXPECT_EQ(text,
              "{\n"
              "  \"version\": \"0.1.0\",\n"
              "  \"fps\": null,\n"
              "  \"frames\": [\n"
              "    {\n"
              "      \"frameNum\": 0,\n"
              "      \"metrics\": {\n"
              "        \"x\": 1.000000,\n"
              "        \"y\": null,"
              "        \"z\": 3.000000\n"
              "      }\n"
              "    },\n"
              "    {\n"
              "      \"frameNum\": 1,\n"
              "      \"metrics\": {\n"
              "        \"x\": 2.000000,\n"
              "        \"y\": 4.000000,\n"
              "        \"z\": null,"
              "        \"w\": 0.250000\n"
              "      }\n"
              "    }\n"
              "  ],\n"
              "  \"pooled_metrics\": {\n"
              "    \"x\": {\n"
              "      \"min\": 1.000000,\n"
              "      \"max\": 2.000000,\n"
              "      \"mean\": 1.500000,\n"
              "      \"harmonic_mean\": 1.400000\n"
              "    },\n"
              "    \"y\": {\n"
              "      \"min\": 4.000000,\n"
              "      \"max\": null,\n"
              "      \"mean\": null,\n"
              "      \"harmonic_mean\": 9.000000\n"
              "    },\n"
              "    \"z\": {\n"
              "      \"min\": 3.000000,\n"
              "      \"max\": 3.000000,\n"
              "      \"mean\": null,\n"
              "      \"harmonic_mean\": null\n"
              "    },\n"
              "    \"w\": {\n"
              "    }\n"
              "  },\n"
              "  \"aggregate_metrics\": {\n"
              "    \"agg1\": 0.500000,\n"
              "    \"agg2\": null\n"
              "  }\n"
              "}\n");
    // Netflix's quirks aside, it is valid JSON.
    const auto parsed = nlohmann::ordered_json::parse(text);
    EXPECT_TRUE(parsed["frames"][0]["metrics"]["y"].is_null());
    EXPECT_TRUE(parsed["pooled_metrics"]["w"].empty());
}

TEST(Writers, JsonWithoutFramesOrSeries)
{
    const Collector c;
    OutputContext ctx{c, 0, 1, 0, 0, 0.0, Precision{}, "3.2.0"};
    const std::string text = render(OutputFormat::kJson, ctx);
    EXPECT_EQ(text,
              "{\n"
              "  \"version\": \"3.2.0\",\n"
              "  \"fps\": 0.00,\n"
              "  \"frames\": [\n"
              "  ],\n"
              "  \"pooled_metrics\": {\n"
              "  },\n"
              "  \"aggregate_metrics\": {\n"
              "  }\n"
              "}\n");
    EXPECT_TRUE(nlohmann::json::accept(text));
    EXPECT_EQ(render(OutputFormat::kCsv, ctx), "Frame,\n");
    EXPECT_EQ(render(OutputFormat::kSub, ctx), "");
}

TEST(Writers, JsonFirstWrittenFrameIsNotZero)
{
    // Netflix decides the separator by "index > 0"; ours by "first written",
    // which stays valid JSON when frame 0 is absent.
    Collector c;
    c.set("s", 2, 1.0);
    c.set("s", 4, 2.0);
    OutputContext ctx = basic(c, 5, 2);
    const std::string text = render(OutputFormat::kJson, ctx);
    EXPECT_NE(text.find("\"frames\": [\n    {\n      \"frameNum\": 2,"), std::string::npos);
    const auto parsed = nlohmann::json::parse(text);
    EXPECT_EQ(parsed["frames"].size(), 2u);
}

TEST(Writers, XmlPrintsNonFiniteScoresAsPrintf)
{
    Collector c;
    c.set("p", 0, kInf);
    c.set("q", 0, -std::nan(""));
    OutputContext ctx{c, 1, 1, 1, 1, 1.0, Precision::parse("max"), "v"};
    const std::string text = render(OutputFormat::kXml, ctx);
    EXPECT_NE(text.find("<frame frameNum=\"0\" p=\"inf\" q=\"-nan\" />"), std::string::npos);
}

// ---------------------------------------------------------------------------
// write_output_file

std::vector<std::string> entries(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(WriteOutputFile, WritesExactlyTheTarget)
{
    test::TempDir dir;
    const Collector c = small_collector();
    OutputContext ctx{c, 4, 1, 8, 8, 25.0, Precision{}, "0.1.0"};
    const auto path = dir / "out.xml";
    write_output_file(path.string(), OutputFormat::kXml, ctx);
    EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"out.xml"});
    EXPECT_EQ(read_file(path), render(OutputFormat::kXml, ctx));
}

TEST(WriteOutputFile, OverwritesAnExistingFile)
{
    test::TempDir dir;
    const auto path = dir / "out.csv";
    test::write_file(path, std::string(100000, 'x'));  // longer than the new contents
    const Collector c = small_collector();
    OutputContext ctx = basic(c, 4);
    write_output_file(path.string(), OutputFormat::kCsv, ctx);
    EXPECT_EQ(read_file(path), render(OutputFormat::kCsv, ctx));
    EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"out.csv"});
}

TEST(WriteOutputFile, MissingDirectoryThrowsAndLeavesNothing)
{
    test::TempDir dir;
    const Collector c = small_collector();
    OutputContext ctx = basic(c, 4);
    const auto path = (dir / "missing" / "out.json").string();
    try {
        write_output_file(path, OutputFormat::kJson, ctx);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), path + ": cannot write output: folder " + (dir / "missing").string() +
                                             " does not exist (No such file or directory)");
    }
    EXPECT_TRUE(entries(dir.path()).empty());
}

TEST(WriteOutputFile, DashMeansStdout)
{
    test::TempDir dir;
    const Collector c = small_collector();
    OutputContext ctx = basic(c, 4);
    ::testing::internal::CaptureStdout();
    write_output_file("-", OutputFormat::kSub, ctx);
    std::cout.flush();
    EXPECT_EQ(::testing::internal::GetCapturedStdout(), render(OutputFormat::kSub, ctx));
    EXPECT_FALSE(fs::exists("-"));
}

TEST(WriteOutputFile, LargeRunIsWrittenWhole)
{
    // 100k frames x 40 scores, the size of a long run: every frame and every
    // score reaches the file (its speed is bench_output_writer's figure).
    constexpr std::uint64_t kFrames = 100000;
    const Collector c = test::long_run_scores(kFrames, 40);
    test::TempDir dir;
    OutputContext ctx{c, kFrames, 1, 1920, 1080, 30.0, Precision::parse("max"), "0.1.0"};
    write_output_file((dir / "big.json").string(), OutputFormat::kJson, ctx);
    std::ifstream in(dir / "big.json");
    const auto json = nlohmann::json::parse(in);
    ASSERT_EQ(json.at("frames").size(), kFrames);
    const auto& last = json.at("frames").back();
    EXPECT_EQ(last.at("frameNum").get<std::uint64_t>(), kFrames - 1);
    ASSERT_EQ(last.at("metrics").size(), 40u);
    EXPECT_EQ(last.at("metrics").at("feature_39").get<double>(), c.series()[39].values[kFrames - 1]);
}

}  // namespace
}  // namespace twinvmaf
