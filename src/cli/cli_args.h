// Command-line settings of the `twinvmaf` CLI: Netflix vmaf's flags and
// meanings (libvmaf/tools/cli_parse.c), plus --precision.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/options.h"
#include "output/writers.h"
#include "twinvmaf/model.h"
#include "twinvmaf/picture.h"

namespace twinvmaf::cli {

struct FeatureRequest {
    std::string name;
    OptionList options;
};

struct ModelRequest {
    std::string text;      // the --model argument as given
    std::string path;      // path=
    std::string version;   // version=
    std::string name = "vmaf";
    bool disable_clip = false;
    bool enable_transform = false;
    // "<extractor>.<option>=<value>" overrides, in order.
    std::vector<std::pair<std::string, OptionList>> overrides;
};

struct Settings {
    std::string reference;
    std::string distorted;
    // Raw YUV geometry; set when any of -w/-h/-p/-b is given (then all four are).
    std::optional<VideoFormat> raw_format;
    std::vector<ModelRequest> models;
    std::vector<FeatureRequest> features;
    std::string output_path;
    OutputFormat output_format = OutputFormat::kXml;
    Precision precision{};
    unsigned threads = 0;  // 0: every core
    unsigned subsample = 1;
    std::uint64_t frame_cnt = 0;
    std::uint64_t frame_skip_ref = 0;
    std::uint64_t frame_skip_dist = 0;
    bool no_prediction = false;
    bool quiet = false;
    std::string backend = "auto";  // cpu | cuda | hip | auto
    int gpu = 0;                   // device index for cuda/hip
    bool gpu_given = false;        // --gpu was on the command line
    std::string batch_list;        // --batch: the list of pairs (cli/batch.h)
    // Compressed inputs (twinvmaf::Inputs says what each does).
    std::optional<unsigned> ref_stream;  // --ref_stream N
    std::optional<unsigned> dist_stream; // --dist_stream N
    std::string scale;                   // --scale FILTER
    std::string pix_fmt;                 // --pix_fmt FORMAT
    std::string hwdec = "auto";          // --hwdec none|cuda|auto
};

// What main() should do after parsing.
enum class Action { kRun, kHelp, kVersion };

struct ParseResult {
    Action action = Action::kRun;
    Settings settings;
};

// Parses argv. Throws UsageError (a twinvmaf::Error) with a one-line message.
ParseResult parse_arguments(int argc, char** argv);

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string usage_text(const char* program);

// Splits "name=opt=val:opt=val" as Netflix's parse_feature_config does.
FeatureRequest parse_feature_argument(const std::string& text);
// Splits a --model argument as Netflix's parse_model_config does.
ModelRequest parse_model_argument(const std::string& text);
// Loads a parsed --model as Netflix's vmaf does: the built-in version or the
// file, then its "<extractor>.<option>=<value>" overrides (the CLI and the
// Python package alike). Throws twinvmaf::Error naming what is at fault.
Model load_model(const ModelRequest& request);

}  // namespace twinvmaf::cli
