// Helpers shared by the tests: where the fixtures are, temporary folders,
// running the CLI, random pictures.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "core/collector.h"
#include "core/options.h"
#include "core/feature.h"
#include "twinvmaf/picture.h"

namespace twinvmaf::test {

// Whether the library and the CLI the tests drive run under AddressSanitizer
// (the debug and fuzz presets; the test code itself is compiled without it,
// tests/CMakeLists.txt says why, so the build says so in a definition): some
// tests look at fewer cases there, or skip what the sanitizer's own memory
// use makes impossible (a limit on address space).
#if defined(TWINVMAF_LIBRARY_SANITIZED)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif

// ../shared/fixtures beside the checkout, or $TWINVMAF_FIXTURES.
std::filesystem::path fixtures_dir();

// MANIFEST.md's Runs table: run stem -> the CLI arguments after the common
// part (e.g. "vmaf_v0.6.1_egl" -> "--model version=vmaf_v0.6.1:adm...=1.2").
std::map<std::string, std::string> manifest_runs();

// A fresh empty directory, removed when the object dies.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& bytes);

struct CommandResult {
    int exit_code = -1;
    std::string stdout_text;
    std::string stderr_text;
};

// Runs a /bin/sh command line, its standard input empty.
CommandResult run_command(const std::string& command);

// Runs the twinvmaf CLI built with the tests (arguments are shell-quoted);
// standard input is /dev/null.
CommandResult run_cli(const std::string& arguments);
// The same with standard input read from `input`: redirected from the file,
// or through a pipe (`cat input | twinvmaf ...`).
CommandResult run_cli_with_input(const std::string& arguments, const std::filesystem::path& input, bool pipe);

// 8-bit 4:2:0 raw frames of w x h with a simple pattern that `seed` varies.
std::string raw_frames(unsigned w, unsigned h, unsigned frames, unsigned seed);
// A Y4M file of `frames` frames of w x h with the C tag `chroma` (8-bit tags;
// the samples are raw_frames(w, h, 1, 3)).
std::string y4m(unsigned w, unsigned h, const std::string& chroma, unsigned frames);

// Runs the CLI with `args` and "-o <dir>/out.xml" and expects a refusal: a
// nonzero exit, stderr "twinvmaf: error: ..." on one line containing `needle`
// (a usage error adds the "Run ... --help" line), no output file and no
// temporary file left in `dir`.
void expect_cli_failure(const std::filesystem::path& dir, const std::string& args, const std::string& needle);

// Quotes a string for /bin/sh.
std::string shell_quote(const std::string& text);

// What `statement` throws as a twinvmaf::Error (its what()), or "(no error)".
std::string error_of(const std::function<void()>& statement);

// The next value of the splitmix64 generator at `state` (advanced by one
// step): the seeds' sample generators use it, as tools/size_sweep.py does.
std::uint64_t splitmix64(std::uint64_t& state);

// An output's text with every "fps..." field cut to "fps": the one part of
// a log that differs between two runs of the same scores.
std::string strip_fps(const std::string& text);

// A picture of uniformly random samples (every byte of the buffer, unscored
// chroma included), or with `base`: base plus uniform noise in
// [-max_delta, max_delta], clipped to the bit depth.
Picture random_picture(const VideoFormat& format, std::uint32_t seed, int max_delta = -1,
                       const Picture* base = nullptr);

// An extractor of `feature` with `options` (Netflix's option names).
std::unique_ptr<FeatureExtractor> make_extractor(const std::string& feature, const OptionList& options = {});

// Scores frame pairs with an initialised `extractor` as the pipeline does:
// each frame extracted with its history (refs / dis before it), collected in
// frame order, then flush().
Collector score_frames(FeatureExtractor& extractor, const std::vector<Picture>& refs, const std::vector<Picture>& dis);

// Every frame's value of the series `name` (throws if there is none), and
// the collector's series names in their order.
std::vector<double> series(const Collector& collector, const std::string& name);
std::vector<std::string> series_names(const Collector& collector);

// Sample (x, y) of a plane, for 8-bit and deeper pictures alike.
unsigned sample_at(const Picture& picture, int plane, unsigned x, unsigned y);
void set_sample(Picture& picture, int plane, unsigned x, unsigned y, unsigned value);

// A picture whose every sample is `value`.
Picture constant_picture(const VideoFormat& format, unsigned value);

// One frame pair scored by a registered feature's extractor (init, extract,
// collect, flush), as the pipeline does; the collector it wrote.
Collector score_one_frame(const std::string& feature, const OptionList& options, const Picture& ref,
                          const Picture& dis);

// The value of series `name` at `frame`; a test failure (and NaN) when the
// collector has no such series.
double frame_value(const Collector& collector, const std::string& name, std::uint64_t frame = 0);

// Scratch memory carries nothing from frame to frame: three random frames
// scored one after the other give the values of each scored alone (96x64
// 4:2:0 8-bit and 37x41 4:4:4 10-bit). Not for temporal features.
void expect_frames_scored_independently(const std::string& feature, const OptionList& options);

// Every size 1x1..33x33 and a few odd ones (257x145, 19x23, 65x3, 2x70,
// 129x17) in each chroma format and bit depth given: scored without refusal
// and every value finite. Under the debug preset's sanitizers this also
// proves that no buffer is read outside.
void expect_finite_on_every_small_size(const std::string& feature, const OptionList& options,
                                       const std::vector<ChromaFormat>& chromas, const std::vector<unsigned>& bits);

}  // namespace twinvmaf::test
