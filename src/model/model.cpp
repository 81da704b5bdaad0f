#include "model/model.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/message_text.h"
#include "model/builtin_models.h"
#include "twinvmaf/error.h"

namespace twinvmaf::model {

namespace {

using Json = nlohmann::ordered_json;

// libvmaf's limits (read_json_model.c: MAX_FEATURE_COUNT, MAX_KNOT_COUNT).
constexpr std::size_t kMaxFeatures = 64;
constexpr std::size_t kMaxKnots = 10;
// Netflix's largest model file (a bootstrap collection) is 400 kB.
constexpr std::size_t kMaxModelFileBytes = std::size_t{64} << 20;

// A JSON value as an error message shows what was found: its type, and a
// scalar's text (shortened). Never the whole of an array or object, which
// may be megabytes (or nested deeper than a recursive dump can go).
std::string describe(const Json& value)
{
    if (value.is_array() && value.size() <= 4 && std::none_of(value.begin(), value.end(), [](const Json& item) {
            return item.is_structured();
        }))
        return message_text(value.dump());
    if (value.is_array()) return "an array of " + std::to_string(value.size()) + (value.size() == 1 ? " item" : " items");
    if (value.is_object()) return "an object";
    if (value.is_string()) return "the string \"" + message_text(value.get_ref<const std::string&>()) + "\"";
    return message_text(value.dump());
}

// Where in which file: prefixes every error message.
class Context {
public:
    explicit Context(std::string where) : where_(std::move(where)) {}

    [[noreturn]] void fail(const std::string& field, const std::string& problem) const
    {
        throw Error(where_ + ": " + field + ": " + problem);
    }

    const std::string& where() const { return where_; }

private:
    std::string where_;
};

double number(const Context& ctx, const Json& value, const std::string& field)
{
    if (!value.is_number()) ctx.fail(field, "expected a number, found " + describe(value));
    return value.get<double>();
}

const std::string& string_value(const Context& ctx, const Json& value, const std::string& field)
{
    if (!value.is_string()) ctx.fail(field, "expected a string, found " + describe(value));
    return value.get_ref<const std::string&>();
}

const Json& array(const Context& ctx, const Json& value, const std::string& field)
{
    if (!value.is_array()) ctx.fail(field, "expected an array, found " + describe(value));
    return value;
}

std::vector<double> numbers(const Context& ctx, const Json& value, const std::string& field)
{
    std::vector<double> out;
    for (const Json& item : array(ctx, value, field)) out.push_back(number(ctx, item, field));
    return out;
}

const Json& required(const Context& ctx, const Json& dict, const std::string& key)
{
    const auto found = dict.find(key);
    if (found == dict.end()) ctx.fail("model_dict", "no '" + key + "'");
    return *found;
}

ModelType parse_model_type(const Context& ctx, const Json& value)
{
    const std::string& type = string_value(ctx, value, "model_type");
    if (type == "LIBSVMNUSVR") return ModelType::kSvmNusvr;
    if (type == "BOOTSTRAP_LIBSVMNUSVR") return ModelType::kBootstrapSvmNusvr;
    if (type == "RESIDUEBOOTSTRAP_LIBSVMNUSVR") return ModelType::kResidueBootstrapSvmNusvr;
    ctx.fail("model_type", "unknown type '" + message_text(type) +
                               "' (expected LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR or "
                               "RESIDUEBOOTSTRAP_LIBSVMNUSVR)");
}

Normalization parse_normalization(const Context& ctx, const Json& value)
{
    const std::string& type = string_value(ctx, value, "norm_type");
    if (type == "linear_rescale") return Normalization::kLinearRescale;
    if (type == "none") return Normalization::kNone;
    ctx.fail("norm_type", "unknown type '" + message_text(type) + "' (expected linear_rescale or none)");
}

// One feature's options as libvmaf's dictionary holds them: numbers through
// float and "%g", booleans as true/false, strings as they are.
OptionList parse_feature_options(const Context& ctx, const Json& dict, const std::string& field)
{
    if (!dict.is_object()) ctx.fail(field, "expected an object, found " + describe(dict));
    OptionList options;
    for (auto it = dict.begin(); it != dict.end(); ++it) {
        const Json& value = it.value();
        std::string text;
        if (value.is_number()) text = libvmaf_number_text(value.get<double>());
        else if (value.is_boolean()) text = value.get<bool>() ? "true" : "false";
        else if (value.is_string()) text = value.get<std::string>();
        else ctx.fail(field + "." + message_text(it.key()), "expected a number, true/false or a string");
        options.emplace_back(it.key(), text);
    }
    return options;
}

ScoreTransform parse_score_transform(const Context& ctx, const Json& value)
{
    if (!value.is_object()) ctx.fail("score_transform", "expected an object");
    ScoreTransform transform;
    for (auto it = value.begin(); it != value.end(); ++it) {
        const std::string field = "score_transform." + it.key();
        const Json& item = it.value();
        if (it.key() == "enabled") {
            if (!item.is_boolean()) ctx.fail(field, "expected true or false");
            transform.enabled = item.get<bool>();
        } else if (it.key() == "p0" || it.key() == "p1" || it.key() == "p2") {
            std::optional<double>& p = it.key() == "p0" ? transform.p0
                                       : it.key() == "p1" ? transform.p1 : transform.p2;
            p.reset();
            if (!item.is_null()) p = number(ctx, item, field);
        } else if (it.key() == "knots") {
            transform.knots.clear();
            if (item.is_null()) continue;
            for (const Json& knot : array(ctx, item, field)) {
                const std::vector<double> xy = numbers(ctx, knot, field);
                if (xy.size() != 2) ctx.fail(field, "each knot is [x, y], found " + describe(knot));
                transform.knots.push_back({xy[0], xy[1]});
            }
            if (transform.knots.size() > kMaxKnots)
                ctx.fail(field, "more than " + std::to_string(kMaxKnots) + " knots");
            // libvmaf maps nothing (returns 0 part-way) through knots that do
            // not rise; refuse them instead of predicting garbage.
            for (std::size_t k = 0; k + 1 < transform.knots.size(); ++k) {
                if (!(transform.knots[k].x < transform.knots[k + 1].x &&
                      transform.knots[k].y <= transform.knots[k + 1].y))
                    ctx.fail(field, "knots must rise: x strictly, y or equal (knot " +
                                        std::to_string(k + 1) + " to " + std::to_string(k + 2) + ")");
            }
        } else if (it.key() == "out_lte_in" || it.key() == "out_gte_in") {
            // A string, and only "true" switches it on (libvmaf's reading).
            const bool on = string_value(ctx, item, field) == "true";
            (it.key() == "out_lte_in" ? transform.out_lte_in : transform.out_gte_in) = on;
        }
        // Other keys are ignored, as libvmaf ignores them.
    }
    return transform;
}

// Checks what libvmaf leaves undefined: the chroma correction looks for
// exactly one feature whose name contains "adm3" and one with "speed_chroma".
void check_chroma_correction(const Context& ctx, const Model& model)
{
    if (*model.chroma_correction == 0.0)
        ctx.fail("chroma_correction_parameter",
                 "0 switches the correction on but makes libvmaf write no score");
    for (const char* part : {"adm3", "speed_chroma"}) {
        std::size_t matches = 0;
        for (const ModelFeature& feature : model.features)
            matches += feature.name.find(part) != std::string::npos;
        if (matches != 1)
            ctx.fail("chroma_correction_parameter",
                     std::string("needs exactly one feature named *") + part + "*, found " +
                         std::to_string(matches));
    }
}

Model parse_model_dict(const Context& ctx, const Json& dict, const std::string& name,
                       const LoadOptions& options)
{
    if (!dict.is_object()) ctx.fail("model_dict", "expected an object");
    Model model;
    model.name = name;
    model.type = parse_model_type(ctx, required(ctx, dict, "model_type"));
    model.normalization = parse_normalization(ctx, required(ctx, dict, "norm_type"));

    const Json& names = array(ctx, required(ctx, dict, "feature_names"), "feature_names");
    if (names.empty()) ctx.fail("feature_names", "no features");
    if (names.size() > kMaxFeatures)
        ctx.fail("feature_names", "more than " + std::to_string(kMaxFeatures) + " features");
    for (const Json& feature : names)
        model.features.push_back(ModelFeature{.name = string_value(ctx, feature, "feature_names")});

    if (const auto opts = dict.find("feature_opts_dicts"); opts != dict.end()) {
        const Json& dicts = array(ctx, *opts, "feature_opts_dicts");
        if (dicts.size() > model.features.size())
            ctx.fail("feature_opts_dicts", std::to_string(dicts.size()) + " entries for " +
                                               std::to_string(model.features.size()) + " features");
        for (std::size_t i = 0; i < dicts.size(); ++i)
            model.features[i].options = parse_feature_options(
                ctx, dicts[i], "feature_opts_dicts[" + std::to_string(i) + "]");
    }

    // slopes/intercepts: the prediction's first, then one per feature.
    for (const char* key : {"slopes", "intercepts"}) {
        const auto found = dict.find(key);
        if (found == dict.end()) {
            if (model.normalization == Normalization::kLinearRescale)
                ctx.fail("model_dict", std::string("no '") + key + "' (norm_type is linear_rescale)");
            continue;
        }
        const std::vector<double> values = numbers(ctx, *found, key);
        if (values.size() != model.features.size() + 1)
            ctx.fail(key, std::to_string(values.size()) + " values; expected 1 + one per feature = " +
                              std::to_string(model.features.size() + 1));
        const bool slopes = std::strcmp(key, "slopes") == 0;
        (slopes ? model.slope : model.intercept) = values[0];
        for (std::size_t i = 0; i < model.features.size(); ++i)
            (slopes ? model.features[i].slope : model.features[i].intercept) = values[i + 1];
    }

    if (const auto clip = dict.find("score_clip"); clip != dict.end()) {
        const std::vector<double> range = numbers(ctx, *clip, "score_clip");
        if (range.size() != 2) ctx.fail("score_clip", "expected [min, max], found " + describe(*clip));
        if (range[0] > range[1])
            ctx.fail("score_clip", "min is above max in " + describe(*clip));
        if (!options.disable_clip) model.score_clip = Model::Clip{range[0], range[1]};
    }

    if (const auto transform = dict.find("score_transform"); transform != dict.end()) {
        model.transform = parse_score_transform(ctx, *transform);
        // libvmaf's enable_transform acts only on a model that has a
        // score_transform entry.
        if (options.enable_transform) model.transform.enabled = true;
    }

    if (const auto correction = dict.find("chroma_correction_parameter"); correction != dict.end()) {
        model.chroma_correction = number(ctx, *correction, "chroma_correction_parameter");
        check_chroma_correction(ctx, model);
    }

    const std::string& svm_text = string_value(ctx, required(ctx, dict, "model"), "model");
    try {
        model.svm = SvmRegression::parse(svm_text);
    } catch (const Error& e) {
        ctx.fail("model", e.what());
    }
    return model;
}

// The collection member names: <name>_0001, <name>_0002, ...
std::string member_name(const std::string& name, std::size_t index)
{
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_%04zu", index);
    return name + suffix;
}

bool is_bootstrap(ModelType type)
{
    return type == ModelType::kBootstrapSvmNusvr || type == ModelType::kResidueBootstrapSvmNusvr;
}

// {"0": {"model_dict": ...}, "1": ..., ...}, read as libvmaf reads it: keys
// are taken in file order, each that is the next number in sequence is a
// model, anything else is skipped.
LoadedModel parse_collection(const Context& file, const Json& top, const LoadOptions& options)
{
    LoadedModel loaded;
    std::size_t next = 0;
    for (auto it = top.begin(); it != top.end(); ++it) {
        if (it.key() != std::to_string(next)) continue;
        const Context ctx(file.where() + ", model '" + it.key() + "'");
        const Json& entry = it.value();
        if (!entry.is_object() || !entry.contains("model_dict"))
            ctx.fail("model", "expected an object with a 'model_dict'");
        const std::string name = next == 0 ? options.name : member_name(options.name, next);
        Model model = parse_model_dict(ctx, entry["model_dict"], name, options);
        if (next == 0) {
            loaded.model = std::move(model);
        } else {
            if (!is_bootstrap(model.type))
                ctx.fail("model_type", "a member of a model collection must be "
                                       "BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR");
            if (next > 1 && model.type != loaded.bootstrap.front().type)
                ctx.fail("model_type", "differs from model '1' (a collection has one type)");
            loaded.bootstrap.push_back(std::move(model));
        }
        ++next;
    }
    if (next < 2) file.fail("model collection", "needs models '0' and '1' at least");
    return loaded;
}

}  // namespace

std::vector<Model*> LoadedModel::all_models()
{
    std::vector<Model*> models{&model};
    for (Model& member : bootstrap) models.push_back(&member);
    return models;
}

std::vector<const Model*> LoadedModel::all_models() const
{
    std::vector<const Model*> models{&model};
    for (const Model& member : bootstrap) models.push_back(&member);
    return models;
}

namespace {

// Model files nest five levels deep ("0", model_dict, score_transform, knots,
// a knot). nlohmann copies values recursively while it parses an
// ordered_json, so a file of thousands of nested brackets would overflow the
// stack: refuse deep nesting before parsing.
constexpr std::size_t kMaxJsonDepth = 32;

void check_nesting(std::string_view text, const std::string& source)
{
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;  // the escaped character cannot end the string
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                throw Error(source + ": arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) +
                            " levels (at byte " + std::to_string(i) + "); not a model file");
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
}

}  // namespace

LoadedModel parse_model(std::string_view json_text, const std::string& source,
                        const LoadOptions& options)
{
    const Context file(source);
    check_nesting(json_text, source);
    Json top;
    try {
        top = Json::parse(json_text);
    } catch (const Json::exception& e) {
        throw Error(source + ": not valid JSON: " + message_text(e.what(), 2 * kMessageValueLimit));
    }
    if (!top.is_object()) file.fail("top level", "expected a JSON object");

    // libvmaf first reads the file as one model, and as a collection when
    // that fails for want of a "model_dict".
    if (const auto dict = top.find("model_dict"); dict != top.end())
        return LoadedModel{.model = parse_model_dict(file, *dict, options.name, options)};
    if (top.contains("0")) return parse_collection(file, top, options);
    file.fail("top level", "neither a 'model_dict' (one model) nor models '0', '1', ... "
                           "(a bootstrap collection)");
}

std::vector<std::string> builtin_model_versions()
{
    std::vector<std::string> versions;
    for (const BuiltinModelFile& file : builtin_model_files()) versions.emplace_back(file.version);
    return versions;
}

LoadedModel load_builtin_model(const std::string& version, const LoadOptions& options)
{
    for (const BuiltinModelFile& file : builtin_model_files()) {
        if (file.version != version) continue;
        LoadedModel loaded = parse_model(file.json, "built-in model " + version, options);
        loaded.label = version;
        return loaded;
    }
    std::string known;
    for (const std::string& name : builtin_model_versions()) known += (known.empty() ? "" : ", ") + name;
    throw Error("no built-in model '" + version + "'; built-in models: " + known);
}

namespace {

// The whole file, up to kMaxModelFileBytes; a directory, a read error or a
// larger file (/dev/zero included) is an Error naming the cause.
std::string read_model_text(const std::string& path)
{
    const std::string shown = message_text(path);
    auto fail = [&](const std::string& cause) -> std::string {
        std::string message = "cannot read model file '" + shown + "': " + cause;
        if (path.ends_with(".pkl")) message += " (pkl model files are not supported; use json)";
        throw Error(message);
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail(std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat info {};
    if (::fstat(fd, &info) != 0) return fail(std::strerror(errno));
    if (S_ISDIR(info.st_mode)) return fail("it is a directory");
    const std::string too_large = "larger than any model file (at most " +
                                  std::to_string(kMaxModelFileBytes >> 20) + " MiB)";
    if (S_ISREG(info.st_mode) && static_cast<std::uint64_t>(info.st_size) > kMaxModelFileBytes)
        return fail(std::to_string(info.st_size) + " bytes is " + too_large);
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got == 0) break;
        if (got < 0) {
            if (errno == EINTR) continue;
            return fail(std::strerror(errno));
        }
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > kMaxModelFileBytes) return fail(too_large);
    }
    return text;
}

}  // namespace

LoadedModel load_model_file(const std::string& path, const LoadOptions& options)
{
    const std::string text = read_model_text(path);
    try {
        LoadedModel loaded = parse_model(text, "model file " + message_text(path), options);
        loaded.label = path;
        return loaded;
    } catch (const Error& e) {
        // Netflix's hint for the model format libvmaf used to read.
        if (!path.ends_with(".pkl")) throw;
        throw Error(std::string(e.what()) + " (pkl model files are not supported; use json)");
    }
}

}  // namespace twinvmaf::model
