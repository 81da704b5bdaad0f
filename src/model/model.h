// VMAF models: Netflix's JSON model format, read as libvmaf reads it
// (src/read_json_model.c, src/model.c), into plain data that the predictor
// (model/predict.h) scores.
//
// A file holds either one model ({"model_dict": {...}}) or a bootstrap
// collection ({"0": {"model_dict": ...}, "1": ..., ...}). libvmaf treats model
// "0" of a collection as an ordinary model named <name>, and models "1".."N"
// (named <name>_0001...) as the collection that gives <name>_bagging,
// _stddev, _ci_p95_lo and _ci_p95_hi.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.h"
#include "model/svm.h"

namespace twinvmaf::model {

enum class ModelType { kSvmNusvr, kBootstrapSvmNusvr, kResidueBootstrapSvmNusvr };

enum class Normalization { kNone, kLinearRescale };

struct KnotPoint {
    double x = 0.0;
    double y = 0.0;
};

// score_transform: a polynomial, then a piecewise-linear map, then
// rectification; applied only when enabled (by the file or enable_transform).
struct ScoreTransform {
    bool enabled = false;
    std::optional<double> p0, p1, p2;
    // Fewer than two knots map nothing (libvmaf ignores them the same way).
    std::vector<KnotPoint> knots;
    bool out_lte_in = false;
    bool out_gte_in = false;
};

struct ModelFeature {
    // libvmaf's internal ("provided") name, e.g. VMAF_integer_feature_adm2_score.
    std::string name;
    double slope = 0.0;
    double intercept = 0.0;
    // The extractor options from feature_opts_dicts, merged with --model
    // overrides; values are text as libvmaf's option dictionary holds them.
    OptionList options;
    // The collector series the model reads, e.g. "integer_adm2_egl_1"; set
    // when the model is bound to extractors (model/binding.h) or by a test.
    std::string input;
};

struct Model {
    std::string name;  // what its per-frame score is written as
    ModelType type = ModelType::kSvmNusvr;
    Normalization normalization = Normalization::kNone;
    double slope = 0.0;  // of the prediction (denormalisation)
    double intercept = 0.0;
    std::vector<ModelFeature> features;
    struct Clip {
        double min, max;
    };
    std::optional<Clip> score_clip;
    ScoreTransform transform;
    // chroma_correction_parameter (v1.0.16 models): a speed_chroma input of
    // exactly 0 is replaced by one derived from adm3.
    std::optional<double> chroma_correction;
    SvmRegression svm;
};

// The model-level switches of --model (libvmaf's VmafModelConfig).
struct LoadOptions {
    std::string name = "vmaf";
    bool disable_clip = false;      // never clip, whatever score_clip says
    bool enable_transform = false;  // transform even if score_transform.enabled is false
};

// What one --model gives.
struct LoadedModel {
    std::string label;  // version= or path=, as Netflix's summary line names it
    Model model;        // writes <name>; for a collection its model "0"
    // A bootstrap collection's models "1".."N" (empty for a single model);
    // they write <name>_0001.. and the collection's statistics.
    std::vector<Model> bootstrap;

    bool is_collection() const { return !bootstrap.empty(); }
    // Every model of the file, model "0" first.
    std::vector<Model*> all_models();
    std::vector<const Model*> all_models() const;
};

// Parses a model file's text. `source` names it in error messages.
// Throws twinvmaf::Error naming the source, the field and the problem.
LoadedModel parse_model(std::string_view json_text, const std::string& source,
                        const LoadOptions& options);

// --model version=...: a model compiled into the binary. An unknown version is
// an Error listing the built-in ones.
LoadedModel load_builtin_model(const std::string& version, const LoadOptions& options);

// --model path=...
LoadedModel load_model_file(const std::string& path, const LoadOptions& options);

// Names of the built-in models, in Netflix's order.
std::vector<std::string> builtin_model_versions();

}  // namespace twinvmaf::model
