// Helpers shared by the tests: where the fixtures are, temporary folders,
// running the CLI, random pictures.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/collector.h"
#include "core/feature.h"
#include "core/options.h"
#include "twinvmaf/picture.h"

namespace twinvmaf::test {

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

// Runs the twinvmaf CLI built with the tests (arguments are shell-quoted).
CommandResult run_cli(const std::string& arguments);

// Quotes a string for /bin/sh.
std::string shell_quote(const std::string& text);

// A picture of uniformly random samples (every byte of the buffer, unscored
// chroma included), or with `base`: base plus uniform noise in
// [-max_delta, max_delta], clipped to the bit depth.
Picture random_picture(const VideoFormat& format, std::uint32_t seed, int max_delta = -1,
                       const Picture* base = nullptr);

// Sample (x, y) of a plane, for 8-bit and deeper pictures alike.
unsigned sample_at(const Picture& picture, int plane, unsigned x, unsigned y);

// An extractor of the registered feature `name` with `options`.
std::unique_ptr<FeatureExtractor> make_feature(const std::string& name, const OptionList& options);

// Scores frames (ref[i], dis[i]) with one extractor and one scratch, as the
// pipeline does on one thread (no history: not for temporal features).
Collector score_frames(const std::string& feature, const OptionList& options,
                       const std::vector<const Picture*>& ref, const std::vector<const Picture*>& dis);
Collector score_frame(const std::string& feature, const OptionList& options, const Picture& ref,
                      const Picture& dis);

// A series' value at `frame` (a test failure and NaN when there is no such
// series), and every series' name in the collector's order.
double series_value(const Collector& collector, const std::string& name, std::uint64_t frame = 0);
std::vector<std::string> series_names(const Collector& collector);

// Scratch memory carries nothing from frame to frame: three random frames
// scored one after the other give the values of each scored alone (96x64
// 4:2:0 8-bit and 37x41 4:4:4 10-bit).
void expect_frames_scored_independently(const std::string& feature, const OptionList& options);

// Every size 1x1..33x33 and a few odd ones (257x145, 19x23, 65x3, 2x70,
// 129x17) in each chroma format and bit depth given: scored without refusal
// and every value finite. Under the debug preset's sanitizers this also
// proves that no buffer is read outside.
void expect_finite_on_every_small_size(const std::string& feature, const OptionList& options,
                                       const std::vector<ChromaFormat>& chromas, const std::vector<unsigned>& bits);

}  // namespace twinvmaf::test
