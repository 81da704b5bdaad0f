#include "test_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "core/feature.h"
#include "twinvmaf/error.h"

namespace twinvmaf::test {

std::filesystem::path fixtures_dir()
{
    if (const char* env = std::getenv("TWINVMAF_FIXTURES"); env && *env) return env;
    return TWINVMAF_DEFAULT_FIXTURES;
}

std::map<std::string, std::string> manifest_runs()
{
    std::map<std::string, std::string> runs;
    // Without fixtures there are no runs (the tests that need them skip).
    if (!std::filesystem::exists(fixtures_dir() / "MANIFEST.md")) return runs;
    std::istringstream manifest(read_file(fixtures_dir() / "MANIFEST.md"));
    const std::regex row(R"(^\| `([A-Za-z0-9_.]+)`[^|]*\| `([^`]*)` \|)");
    std::string line;
    std::smatch m;
    while (std::getline(manifest, line)) {
        if (std::regex_search(line, m, row)) runs.emplace(m[1], m[2]);
    }
    return runs;
}

TempDir::TempDir()
{
    std::random_device rd;
    for (int attempt = 0; attempt < 100; ++attempt) {
        auto candidate = std::filesystem::temp_directory_path() /
                         ("twinvmaf-test-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
        if (std::filesystem::create_directory(candidate)) {
            path_ = candidate;
            return;
        }
    }
    throw std::runtime_error("cannot create a temporary directory");
}

TempDir::~TempDir()
{
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::string read_file(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_file(const std::filesystem::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string error_of(const std::function<void()>& statement)
{
    try {
        statement();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

std::uint64_t splitmix64(std::uint64_t& state)
{
    state += 0x9E3779B97F4A7C15u;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

std::string strip_fps(const std::string& text)
{
    return std::regex_replace(text, std::regex(R"(fps[^,/\n]*)"), "fps");
}

std::string shell_quote(const std::string& text)
{
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'') quoted += "'\\''";
        else quoted += c;
    }
    return quoted + "'";
}

namespace {

// A /bin/sh command line with its output and error captured; `input` is
// its standard input's redirection ("" when the command line pipes into it).
CommandResult run_shell(const std::string& command, const std::string& input)
{
    TempDir dir;
    const auto out_path = dir / "stdout";
    const auto err_path = dir / "stderr";
    const std::string redirected = command + " >" + shell_quote(out_path.string()) + " 2>" +
                                   shell_quote(err_path.string()) + input;
    const int status = std::system(redirected.c_str());
    CommandResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.stdout_text = read_file(out_path);
    result.stderr_text = read_file(err_path);
    return result;
}

}  // namespace

CommandResult run_command(const std::string& command) { return run_shell(command, " </dev/null"); }

#ifdef TWINVMAF_CLI
CommandResult run_cli(const std::string& arguments) { return run_command(shell_quote(TWINVMAF_CLI) + " " + arguments); }

CommandResult run_cli_with_input(const std::string& arguments, const std::filesystem::path& input, bool pipe)
{
    const std::string cli = shell_quote(TWINVMAF_CLI) + " " + arguments;
    if (pipe) return run_shell("cat " + shell_quote(input.string()) + " | " + cli, "");
    return run_shell(cli, " <" + shell_quote(input.string()));
}
void expect_cli_failure(const std::filesystem::path& dir, const std::string& args, const std::string& needle)
{
    const std::filesystem::path out = dir / "out.xml";
    const auto r = run_cli(args + " -o " + shell_quote(out));
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_NE(r.stderr_text.find(needle), std::string::npos) << args << "\nstderr: " << r.stderr_text;
    EXPECT_EQ(r.stderr_text.rfind("twinvmaf: error: ", 0), 0u) << r.stderr_text;
    const std::size_t lines = static_cast<std::size_t>(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'));
    const bool usage = r.stderr_text.find("\nRun '") != std::string::npos;
    EXPECT_EQ(lines, usage ? 2u : 1u) << "not a one-line error: " << r.stderr_text;
    EXPECT_FALSE(std::filesystem::exists(out)) << "a failed run left an output file: " << args;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        EXPECT_EQ(entry.path().filename().string().find(".twinvmaf-"), std::string::npos)
            << "temporary file left: " << entry.path();
}
#else
CommandResult run_cli(const std::string&)
{
    throw std::runtime_error("run_cli is only available in the CLI tests");
}

CommandResult run_cli_with_input(const std::string&, const std::filesystem::path&, bool)
{
    throw std::runtime_error("run_cli is only available in the CLI tests");
}

void expect_cli_failure(const std::filesystem::path&, const std::string&, const std::string&)
{
    throw std::runtime_error("run_cli is only available in the CLI tests");
}
#endif

std::string raw_frames(unsigned w, unsigned h, unsigned frames, unsigned seed)
{
    const std::size_t frame = std::size_t{w} * h + 2 * std::size_t{(w + 1) / 2} * ((h + 1) / 2);
    std::string bytes(frame * frames, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 7 + seed * 13 + i / 5) & 0xff);
    return bytes;
}

std::string y4m(unsigned w, unsigned h, const std::string& chroma, unsigned frames)
{
    std::string text = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip C" + chroma + "\n";
    const std::string frame = raw_frames(w, h, 1, 3);
    for (unsigned i = 0; i < frames; ++i) text += "FRAME\n" + frame;
    return text;
}

Picture random_picture(const VideoFormat& format, std::uint32_t seed, int max_delta, const Picture* base)
{
    Picture p(format);
    std::mt19937 rng(seed);
    const unsigned max = format.max_sample();
    const std::size_t samples = format.frame_bytes() / format.bytes_per_sample();
    for (std::size_t i = 0; i < samples; ++i) {
        unsigned v;
        if (base) {
            const unsigned b = format.bitdepth > 8
                                   ? reinterpret_cast<const std::uint16_t*>(base->bytes())[i]
                                   : base->bytes()[i];
            const int d = static_cast<int>(rng() % (2 * max_delta + 1)) - max_delta;
            v = static_cast<unsigned>(std::clamp<int>(static_cast<int>(b) + d, 0, static_cast<int>(max)));
        } else {
            v = rng() % (max + 1);
        }
        if (format.bitdepth > 8) reinterpret_cast<std::uint16_t*>(p.bytes())[i] = static_cast<std::uint16_t>(v);
        else p.bytes()[i] = static_cast<std::uint8_t>(v);
    }
    return p;
}

unsigned sample_at(const Picture& picture, int plane, unsigned x, unsigned y)
{
    const PlaneView view = picture.plane(plane);
    return picture.format().bitdepth > 8 ? view.row<std::uint16_t>(y)[x] : view.row<std::uint8_t>(y)[x];
}

Picture constant_picture(const VideoFormat& format, unsigned value)
{
    Picture p(format);
    const std::size_t samples = format.frame_bytes() / format.bytes_per_sample();
    for (std::size_t i = 0; i < samples; ++i) {
        if (format.bitdepth > 8) reinterpret_cast<std::uint16_t*>(p.bytes())[i] = static_cast<std::uint16_t>(value);
        else p.bytes()[i] = static_cast<std::uint8_t>(value);
    }
    return p;
}

Collector score_one_frame(const std::string& feature, const OptionList& options, const Picture& ref,
                          const Picture& dis)
{
    const FeatureInfo& info = find_feature(feature);
    OptionValues values(feature, info.options);
    values.set_all(options);
    auto extractor = info.create(values);
    extractor->init(ref.format());
    Collector collector;
    SlotWriter writer(collector, extractor->output_names());
    const auto scratch = extractor->make_scratch();
    FrameScores scores;
    extractor->extract(FrameInputs{ref, dis, 0, {}, {}}, scores, scratch.get());
    extractor->collect(0, scores, writer);
    extractor->flush(collector);
    return collector;
}

double frame_value(const Collector& collector, const std::string& name, std::uint64_t frame)
{
    const auto id = collector.find(name);
    EXPECT_TRUE(id) << "no series " << name;
    return id ? collector.get(*id, frame) : std::nan("");
}

void set_sample(Picture& picture, int plane, unsigned x, unsigned y, unsigned value)
{
    const PlaneView view = picture.plane(plane);
    std::uint8_t* row = picture.bytes() + (view.data - picture.bytes()) + static_cast<std::ptrdiff_t>(y) * view.stride;
    if (picture.format().bitdepth > 8) reinterpret_cast<std::uint16_t*>(row)[x] = static_cast<std::uint16_t>(value);
    else row[x] = static_cast<std::uint8_t>(value);
}

}  // namespace twinvmaf::test

namespace twinvmaf::test {

std::unique_ptr<FeatureExtractor> make_extractor(const std::string& feature, const OptionList& options)
{
    const FeatureInfo& info = find_feature(feature);
    OptionValues values(feature, info.options);
    values.set_all(options);
    return info.create(values);
}

Collector score_frames(FeatureExtractor& extractor, const std::vector<Picture>& refs, const std::vector<Picture>& dis)
{
    Collector collector;
    SlotWriter writer(collector, extractor.output_names());
    auto scratch = extractor.make_scratch();
    for (std::size_t i = 0; i < refs.size(); ++i) {
        std::vector<const Picture*> previous_ref, previous_dis;
        for (std::size_t k = 1; k <= extractor.history() && k <= i; ++k) {
            previous_ref.push_back(&refs[i - k]);
            previous_dis.push_back(&dis[i - k]);
        }
        FrameScores scores;
        const FrameInputs inputs{refs[i], dis[i], i, previous_ref, previous_dis};
        extractor.extract(inputs, scores, scratch.get());
        extractor.collect(i, scores, writer);
    }
    extractor.flush(collector);
    return collector;
}

std::vector<double> series(const Collector& collector, const std::string& name)
{
    const auto id = collector.find(name);
    if (!id) throw std::runtime_error("no series " + name);
    std::vector<double> values;
    for (std::uint64_t frame = 0; frame < collector.frame_span(); ++frame) values.push_back(collector.get(*id, frame));
    return values;
}

std::vector<std::string> series_names(const Collector& collector)
{
    std::vector<std::string> out;
    for (const auto& s : collector.series()) out.push_back(s.name);
    return out;
}

void expect_frames_scored_independently(const std::string& feature, const OptionList& options)
{
    for (const VideoFormat& format :
         {VideoFormat{96, 64, ChromaFormat::k420, 8}, VideoFormat{37, 41, ChromaFormat::k444, 10}}) {
        std::vector<Picture> ref, dis;
        for (std::uint32_t i = 0; i < 3; ++i) {
            ref.push_back(random_picture(format, 2 * i + 1));
            dis.push_back(random_picture(format, 2 * i + 2, 20 << (format.bitdepth - 8), &ref.back()));
        }
        auto extractor = make_extractor(feature, options);
        extractor->init(format);
        const Collector together = score_frames(*extractor, ref, dis);
        for (std::size_t i = 0; i < ref.size(); ++i) {
            const Collector alone = score_one_frame(feature, options, ref[i], dis[i]);
            for (const std::string& name : series_names(alone))
                EXPECT_EQ(frame_value(together, name, i), frame_value(alone, name)) << name << " frame " << i;
        }
    }
}

void expect_finite_on_every_small_size(const std::string& feature, const OptionList& options,
                                       const std::vector<ChromaFormat>& chromas, const std::vector<unsigned>& bits)
{
    std::vector<std::pair<unsigned, unsigned>> sizes;
    for (unsigned w = 1; w <= 33; ++w)
        for (unsigned h = 1; h <= 33; ++h) sizes.emplace_back(w, h);
    sizes.insert(sizes.end(), {{257, 145}, {19, 23}, {65, 3}, {2, 70}, {129, 17}});
    std::uint32_t seed = 0;
    for (const ChromaFormat chroma : chromas) {
        for (const unsigned depth : bits) {
            for (const auto& [w, h] : sizes) {
                const VideoFormat format{w, h, chroma, depth};
                const Picture ref = random_picture(format, ++seed);
                const Picture dis = random_picture(format, ++seed, 30 << (depth - 8), &ref);
                const Collector c = score_one_frame(feature, options, ref, dis);
                for (const auto& series : c.series())
                    ASSERT_TRUE(std::isfinite(c.get(*c.find(series.name), 0)))
                        << series.name << " at " << format.describe();
            }
        }
    }
}

}  // namespace twinvmaf::test
