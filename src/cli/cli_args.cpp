#include "cli/cli_args.h"

#include <getopt.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/message_text.h"
#include "io/decode_options.h"
#include "io/raw_reader.h"
#include "twinvmaf/error.h"

namespace twinvmaf::cli {

namespace {

enum LongOnly {
    kXml = 256,
    kJson,
    kCsv,
    kSub,
    kThreads,
    kFeature,
    kSubsample,
    kCpumask,
    kFrameCnt,
    kFrameSkipRef,
    kFrameSkipDist,
    kPrecision,
    kHelp,
    kAomCtc,
    kNflxCtc,
    kBackend,
    kGpu,
    kBatch,
    kRefStream,
    kDistStream,
    kScale,
    kPixFmt,
    kHwdec,
};

const option kLongOptions[] = {
    {"reference", required_argument, nullptr, 'r'},
    {"distorted", required_argument, nullptr, 'd'},
    {"width", required_argument, nullptr, 'w'},
    {"height", required_argument, nullptr, 'h'},
    {"pixel_format", required_argument, nullptr, 'p'},
    {"bitdepth", required_argument, nullptr, 'b'},
    {"model", required_argument, nullptr, 'm'},
    {"output", required_argument, nullptr, 'o'},
    {"xml", no_argument, nullptr, kXml},
    {"json", no_argument, nullptr, kJson},
    {"csv", no_argument, nullptr, kCsv},
    {"sub", no_argument, nullptr, kSub},
    {"threads", required_argument, nullptr, kThreads},
    {"feature", required_argument, nullptr, kFeature},
    {"subsample", required_argument, nullptr, kSubsample},
    {"cpumask", required_argument, nullptr, kCpumask},
    {"aom_ctc", required_argument, nullptr, kAomCtc},
    {"nflx_ctc", required_argument, nullptr, kNflxCtc},
    {"frame_cnt", required_argument, nullptr, kFrameCnt},
    {"frame_skip_ref", required_argument, nullptr, kFrameSkipRef},
    {"frame_skip_dist", required_argument, nullptr, kFrameSkipDist},
    {"precision", required_argument, nullptr, kPrecision},
    {"backend", required_argument, nullptr, kBackend},
    {"gpu", required_argument, nullptr, kGpu},
    {"batch", required_argument, nullptr, kBatch},
    {"ref_stream", required_argument, nullptr, kRefStream},
    {"dist_stream", required_argument, nullptr, kDistStream},
    {"scale", required_argument, nullptr, kScale},
    {"pix_fmt", required_argument, nullptr, kPixFmt},
    {"hwdec", required_argument, nullptr, kHwdec},
    {"no_prediction", no_argument, nullptr, 'n'},
    {"version", no_argument, nullptr, 'v'},
    {"quiet", no_argument, nullptr, 'q'},
    {"help", no_argument, nullptr, kHelp},
    {nullptr, 0, nullptr, 0},
};

std::string option_label(int code)
{
    for (const option& o : kLongOptions) {
        if (!o.name) break;
        if (o.val == code) {
            return code < 256 ? std::string("-") + static_cast<char>(code) + "/--" + o.name
                              : std::string("--") + o.name;
        }
    }
    return "?";
}

std::uint64_t parse_count(const char* text, int code)
{
    // Like Netflix's strtoul(..., 0), but a sign or trailing junk is an error.
    errno = 0;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 0);
    if (!*text || *end || errno || std::strchr(text, '-'))
        throw UsageError("invalid argument \"" + message_text(text) + "\" for option " +
                         option_label(code) + "; should be a non-negative integer");
    return value;
}

unsigned parse_unsigned(const char* text, int code, std::uint64_t max = 0xffffffffu)
{
    const std::uint64_t value = parse_count(text, code);
    if (value > max)
        throw UsageError("invalid argument \"" + message_text(text) + "\" for option " +
                         option_label(code) + "; at most " + std::to_string(max));
    return static_cast<unsigned>(value);
}

// -w / -h: 1 .. kMaxFrameDimension.
unsigned parse_dimension(const char* text, int code)
{
    const unsigned value = parse_unsigned(text, code, kMaxFrameDimension);
    if (value == 0)
        throw UsageError("invalid argument \"" + message_text(text) + "\" for option " + option_label(code) +
                         "; a frame size must be positive");
    return value;
}

ChromaFormat parse_pixel_format(const char* text)
{
    const std::string s = text;
    if (s == "420") return ChromaFormat::k420;
    if (s == "422") return ChromaFormat::k422;
    if (s == "444") return ChromaFormat::k444;
    throw UsageError("invalid argument \"" + message_text(s) + "\" for option -p/--pixel_format; should be "
                     "a valid pixel format (420/422/444)");
}

unsigned parse_bitdepth(const char* text)
{
    const unsigned bits = parse_unsigned(text, 'b');
    if (bits != 8 && bits != 10 && bits != 12 && bits != 16)
        throw UsageError("invalid argument \"" + message_text(text) + "\" for option "
                         "-b/--bitdepth; should be a valid bitdepth (8/10/12/16)");
    return bits;
}

std::vector<std::string> split(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = text.find(separator, start);
        parts.push_back(text.substr(start, at - start));
        if (at == std::string::npos) return parts;
        start = at + 1;
    }
}

// "key=value" -> {key, value}; a key without '=' gives no value.
std::pair<std::string, std::optional<std::string>> split_key_value(const std::string& text)
{
    const std::size_t at = text.find('=');
    if (at == std::string::npos) return {text, std::nullopt};
    return {text.substr(0, at), text.substr(at + 1)};
}

void add_preset_model(Settings& s, const std::string& version, const std::string& name)
{
    s.models.push_back(parse_model_argument("version=" + version + ":name=" + name));
}

// A preset feature replaces an earlier request for the same extractor
// (Netflix's CHECKED_REPLACE), or is added.
void replace_preset_feature(Settings& s, const std::string& text)
{
    FeatureRequest request = parse_feature_argument(text);
    for (FeatureRequest& existing : s.features) {
        if (existing.name == request.name) {
            existing = std::move(request);
            return;
        }
    }
    s.features.push_back(std::move(request));
}

// Netflix's --aom_ctc v1.0 .. v7.0 (AOM common test conditions): two models
// and a list of features, added where the option stands on the command line.
void add_aom_ctc_preset(Settings& s, const std::string& version)
{
    if (version == "proposed") throw UsageError("`--aom_ctc proposed` is deprecated.");
    static const char* const kVersions[] = {"v1.0", "v2.0", "v3.0", "v4.0", "v5.0", "v6.0", "v7.0"};
    const auto found = std::find(std::begin(kVersions), std::end(kVersions), version);
    if (found == std::end(kVersions))
        throw UsageError("bad aom_ctc version \"" + message_text(version) + "\"; valid: v1.0 .. v7.0");
    const int level = static_cast<int>(found - std::begin(kVersions)) + 1;

    add_preset_model(s, "vmaf_v0.6.1", "vmaf");
    add_preset_model(s, "vmaf_v0.6.1neg", "vmaf_neg");
    for (const char* feature : {"psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5", "ciede",
                                "float_ssim=enable_db=true:clip_db=true",
                                "float_ms_ssim=enable_db=true:clip_db=true", "psnr_hvs"})
        s.features.push_back(parse_feature_argument(feature));
    if (level >= 3) s.features.push_back(parse_feature_argument("cambi"));
    // v6.0 also lets Netflix compare .y4m inputs of different bit depths;
    // twinvmaf's readers need equal formats (the run then fails clearly).
    if (level >= 7) replace_preset_feature(s, "float_ssim=scale=1:enable_db=true:clip_db=true");
}

// Netflix's --nflx_ctc v1.0.
void add_nflx_ctc_preset(Settings& s, const std::string& version)
{
    if (version != "v1.0")
        throw UsageError("bad nflx_ctc version \"" + message_text(version) + "\"; valid: v1.0");
    add_preset_model(s, "vmaf_4k_v0.6.1", "vmaf");
    add_preset_model(s, "vmaf_4k_v0.6.1neg", "vmaf_neg");
    for (const char* feature : {"psnr=enable_chroma=true:enable_apsnr=true",
                                "float_ssim=enable_db=true:clip_db=true", "cambi"})
        s.features.push_back(parse_feature_argument(feature));
}

}  // namespace

FeatureRequest parse_feature_argument(const std::string& text)
{
    FeatureRequest request;
    const std::size_t at = text.find('=');
    request.name = text.substr(0, at);
    if (request.name.empty())
        throw UsageError("--feature: missing feature name in \"" + message_text(text) + "\"");
    if (at == std::string::npos) return request;
    for (const std::string& pair : split(text.substr(at + 1), ':')) {
        auto [key, value] = split_key_value(pair);
        if (key.empty() || !value)
            throw UsageError("--feature " + message_text(text) + ": bad option string \"" + message_text(pair) +
                             "\"; expected option=value");
        request.options.emplace_back(key, libvmaf_option_text(*value));
    }
    return request;
}

ModelRequest parse_model_argument(const std::string& text)
{
    ModelRequest model;
    model.text = text;
    for (const std::string& pair : split(text, ':')) {
        auto [key, value] = split_key_value(pair);
        if (!value) {
            // Netflix takes these two as flags without a value.
            if (key == "disable_clip" || key == "enable_transform") value = "true";
            else
                throw UsageError("--model " + message_text(text) + ": bad option string \"" + message_text(pair) +
                                 "\"");
        }
        if (key == "path") model.path = *value;
        else if (key == "name") model.name = *value;
        else if (key == "version") model.version = *value;
        else if (key == "disable_clip") model.disable_clip = *value == "true";
        else if (key == "enable_transform") model.enable_transform = *value == "true";
        else {
            const std::size_t dot = key.find('.');
            if (dot == std::string::npos || dot == 0 || dot + 1 == key.size())
                throw UsageError("--model " + message_text(text) + ": unknown key \"" + message_text(key) +
                                 "\"; expected path, version, name, disable_clip, "
                                 "enable_transform or <feature>.<option>");
            model.overrides.push_back(
                {key.substr(0, dot), {{key.substr(dot + 1), libvmaf_option_text(*value)}}});
        }
    }
    if (model.path.empty() == model.version.empty())
        throw UsageError("--model " + message_text(text) + ": give exactly one of path= or version=");
    return model;
}

Model load_model(const ModelRequest& request)
{
    const ModelOptions options{
        .name = request.name, .disable_clip = request.disable_clip, .enable_transform = request.enable_transform};
    Model loaded = request.version.empty() ? Model::from_file(request.path, options)
                                           : Model::builtin(request.version, options);
    for (const auto& [extractor, overrides] : request.overrides) loaded.override_feature(extractor, overrides);
    return loaded;
}

std::string usage_text(const char* program)
{
    std::string text = "Usage: ";
    text += program;
    text += R"( [options]

Scores a distorted video against its reference, as Netflix's `vmaf` does.

Input:
 --reference/-r $path:        reference .y4m, .yuv, or compressed video
                              (.mp4, .mkv, .webm, .ivf, ...; see below)
 --distorted/-d $path:        distorted, the same
 --width/-w $unsigned:        width        \
 --height/-h $unsigned:       height        | all four for raw .yuv;
 --pixel_format/-p $string:   420/422/444   | for .y4m they must match
 --bitdepth/-b $unsigned:     8/10/12/16   /  the header if given
 --frame_cnt $unsigned:       score at most N frames
 --frame_skip_ref $unsigned:  skip the first N frames of the reference
 --frame_skip_dist $unsigned: skip the first N frames of the distorted
 --batch $path:               score every pair of a list in one process, instead
                              of -r/-d: one pair a line, "REF DIS [width=W
                              height=H pixel_format=P bitdepth=B ref_stream=N
                              dist_stream=N output=PATH]"; other options apply
                              to every pair; -o names a folder for the outputs
                              (default: DIS.<format>)
Compressed input (decoded with FFmpeg's libraries, every frame in
presentation order, no frame-rate conversion; Y4M and .yuv are read as they are):
 --ref_stream $unsigned:      the N-th video stream of the reference (0-based,
                              as ffmpeg's -map 0:V:N; default: the first)
 --dist_stream $unsigned:     the same for the distorted
 --scale $filter:             scale a distorted of another size to the
                              reference's with this libswscale filter (bicubic,
                              bilinear, lanczos, spline, neighbor, area, ...;
                              as ffmpeg -vf scale=W:H:flags=$filter); without
                              it a size mismatch is an error
 --pix_fmt $format:           convert decoded pictures of another pixel format
                              to this one (yuv420p, yuv422p10le, ...; as ffmpeg
                              -pix_fmt); without it a format twinvmaf does not
                              score (nv12, rgb24, ...) or a mismatch is an error
 --hwdec none|cuda|auto:      where to decode: cuda decodes with the GPU's
                              NVDEC into GPU memory, scored there with no copy
                              through the host (--backend cuda only, without
                              --scale/--pix_fmt); auto (default) does so when
                              the run scores on CUDA, on the host otherwise
                              and for what NVDEC cannot decode; none: the host
Scoring:
 --model/-m $params:          model, colon-delimited: version=<built-in> or
                              path=<file.json>, name=, disable_clip,
                              enable_transform, <extractor>.<option>=<value>
                              (repeatable; default: version=vmaf_v0.6.1)
 --aom_ctc v1.0..v7.0:        AOM CTC preset: vmaf_v0.6.1 (vmaf), vmaf_v0.6.1neg
                              (vmaf_neg) and psnr, ciede, float_ssim, ...
 --nflx_ctc v1.0:             Netflix CTC preset: vmaf_4k_v0.6.1 (vmaf),
                              vmaf_4k_v0.6.1neg (vmaf_neg), psnr, float_ssim, cambi
 --feature $name[=opt=val:opt=val]: extract a feature (repeatable)
 --no_prediction/-n:          features only, no model
 --subsample $unsigned:       write scores of every N-th frame only
 --threads $unsigned:         worker threads (default 0: all cores);
                              the output is identical for any value
 --backend cpu|cuda|hip|auto: where features run (default auto: the GPU
                              when there is one and every feature has a
                              twin, the CPU for a run without features);
                              the output is identical on every backend
 --gpu $unsigned:             GPU device index (default 0)
Output:
 --output/-o $path:           output file ("-": standard output)
 --xml | --json | --csv | --sub: output format (default: XML)
 --precision legacy|max|N:    legacy (default): Netflix's %.6f;
                              max: %.17g (round-trips doubles); N: %.Ng
 --quiet/-q:                  no progress line
 --version/-v:                print the version and exit
 --help:                      print this help and exit
)";
    return text;
}

ParseResult parse_arguments(int argc, char** argv)
{
    ParseResult result;
    Settings& s = result.settings;
    bool raw_flag_seen = false;
    unsigned width = 0, height = 0, bitdepth = 0;
    std::optional<ChromaFormat> chroma;
    // The last option that shapes the output file, which needs one.
    std::optional<int> output_option;

    // 0, not 1: glibc then also forgets where it was inside a cluster of
    // short options ("-nq") when an earlier parse stopped part-way (a throw).
    optind = 0;
    opterr = 0;  // we report errors ourselves, on one line
    int code;
    const char* short_options = ":r:d:w:h:p:b:m:o:nvq";
    while ((code = getopt_long(argc, argv, short_options, kLongOptions, nullptr)) != -1) {
        switch (code) {
        case 'r': s.reference = optarg; break;
        case 'd': s.distorted = optarg; break;
        case 'w': width = parse_dimension(optarg, 'w'); raw_flag_seen = true; break;
        case 'h': height = parse_dimension(optarg, 'h'); raw_flag_seen = true; break;
        case 'p': chroma = parse_pixel_format(optarg); raw_flag_seen = true; break;
        case 'b': bitdepth = parse_bitdepth(optarg); raw_flag_seen = true; break;
        case 'm': s.models.push_back(parse_model_argument(optarg)); break;
        case 'o': s.output_path = optarg; break;
        case kXml: s.output_format = OutputFormat::kXml; output_option = code; break;
        case kJson: s.output_format = OutputFormat::kJson; output_option = code; break;
        case kCsv: s.output_format = OutputFormat::kCsv; output_option = code; break;
        case kSub: s.output_format = OutputFormat::kSub; output_option = code; break;
        case kThreads: s.threads = parse_unsigned(optarg, kThreads, 1024); break;
        case kFeature: s.features.push_back(parse_feature_argument(optarg)); break;
        case kSubsample: s.subsample = parse_unsigned(optarg, kSubsample); break;
        case kCpumask:
            // Accepted for compatibility: twinvmaf's SIMD paths give the same
            // bits as its scalar code, so a mask can only change the speed.
            parse_count(optarg, kCpumask);
            break;
        case kAomCtc: add_aom_ctc_preset(s, optarg); break;
        case kNflxCtc: add_nflx_ctc_preset(s, optarg); break;
        case kFrameCnt: s.frame_cnt = parse_count(optarg, kFrameCnt); break;
        case kFrameSkipRef: s.frame_skip_ref = parse_count(optarg, kFrameSkipRef); break;
        case kFrameSkipDist: s.frame_skip_dist = parse_count(optarg, kFrameSkipDist); break;
        case kPrecision:
            output_option = code;
            try {
                s.precision = Precision::parse(optarg);
            } catch (const Error& e) {
                throw UsageError(e.what());
            }
            break;
        case kBackend: {
            const std::string backend = optarg;
            if (backend != "cpu" && backend != "cuda" && backend != "hip" && backend != "auto")
                throw UsageError("invalid argument \"" + message_text(backend) + "\" for option --backend; should be "
                                 "cpu, cuda, hip or auto");
            s.backend = backend;
            break;
        }
        case kGpu:
            s.gpu = static_cast<int>(parse_unsigned(optarg, kGpu, 1023));
            s.gpu_given = true;
            break;
        case kBatch: s.batch_list = optarg; break;
        case kRefStream: s.ref_stream = parse_unsigned(optarg, kRefStream, 1023); break;
        case kDistStream: s.dist_stream = parse_unsigned(optarg, kDistStream, 1023); break;
        case kScale:
        case kPixFmt:
            // Checked now, though only a compressed input uses them.
            try {
                if (code == kScale) parse_scale_flags(optarg, "--scale");
                else parse_pixel_format_name(optarg, "--pix_fmt");
            } catch (const Error& e) {
                throw UsageError(e.what());
            }
            (code == kScale ? s.scale : s.pix_fmt) = optarg;
            break;
        case kHwdec:
            try {
                parse_hardware_decoding(optarg, "--hwdec");
            } catch (const Error& e) {
                throw UsageError(e.what());
            }
            s.hwdec = optarg;
            break;
        case 'n': s.no_prediction = true; break;
        case 'q': s.quiet = true; break;
        case 'v': result.action = Action::kVersion; return result;
        case kHelp: result.action = Action::kHelp; return result;
        case ':':
            throw UsageError("option " + message_text(argv[optind - 1]) + " needs a value");
        default: {
            const std::string bad = optopt ? std::string("-") + static_cast<char>(optopt)
                                           : std::string(argv[optind - 1]);
            throw UsageError("unknown option " + message_text(bad));
        }
        }
    }
    if (optind < argc) throw UsageError("unexpected argument \"" + message_text(argv[optind]) + "\"");

    if (!s.batch_list.empty()) {
        // --batch: the pairs come from the list (cli/batch.h), and every
        // pair has an output file.
        if (!s.reference.empty() || !s.distorted.empty())
            throw UsageError("--batch takes its pairs from the list; give no -r/-d with it");
    } else {
        if (s.reference.empty()) throw UsageError("a reference video (-r/--reference) is required");
        if (s.distorted.empty()) throw UsageError("a distorted video (-d/--distorted) is required");
        if (s.reference == kStandardInputPath && s.distorted == kStandardInputPath)
            throw UsageError("-r - and -d - cannot both read standard input; give one of them a file");
        if (output_option && s.output_path.empty())
            throw UsageError(option_label(*output_option) +
                             " shapes the output file, but there is none: add -o/--output "
                             "(\"-\" for standard output)");
    }
    if (s.gpu_given && s.backend == "cpu")
        throw UsageError("--gpu picks a GPU device; it cannot apply with --backend cpu");
    if (raw_flag_seen) {
        if (!width || !height || !chroma || !bitdepth)
            throw UsageError("raw .yuv input needs all of --width/-w, --height/-h, "
                             "--pixel_format/-p and --bitdepth/-b");
        s.raw_format = VideoFormat{width, height, *chroma, bitdepth};
    }
    if (s.models.empty() && !s.no_prediction) {
        // Netflix's default: the built-in vmaf_v0.6.1, named "vmaf".
        s.models.push_back(parse_model_argument("version=vmaf_v0.6.1"));
    }
    for (std::size_t i = 0; i < s.models.size(); ++i) {
        for (std::size_t j = i + 1; j < s.models.size(); ++j) {
            if (s.models[i].name == s.models[j].name)
                throw UsageError("each model should be uniquely named; set it with "
                                 "--model ...:name=<name>");
        }
    }
    if (s.subsample == 0) s.subsample = 1;
    return result;
}

}  // namespace twinvmaf::cli
