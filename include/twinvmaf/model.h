// VMAF models by Netflix's names: a built-in version ("vmaf_v0.6.1",
// "vmaf_b_v0.6.3", "vmaf_v1.0.16_3d0h", ...) or a model file in Netflix's
// JSON format, read once and used by any number of sessions.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "twinvmaf/options.h"

namespace twinvmaf {

namespace model {
struct LoadedModel;
}

// libvmaf's VmafModelConfig (and the CLI's --model name=, disable_clip,
// enable_transform).
struct ModelOptions {
    std::string name = "vmaf";      // what its per-frame score is called
    bool disable_clip = false;      // never clip, whatever the model says
    bool enable_transform = false;  // apply its score transform even if the file disables it
};

class Model {
public:
    // Throws twinvmaf::Error naming the version (listing the built-in ones),
    // the file, or the field at fault.
    static Model builtin(const std::string& version, const ModelOptions& options = {});
    static Model from_file(const std::string& path, const ModelOptions& options = {});
    // `source` names the text in error messages.
    static Model from_json(std::string_view json, const std::string& source, const ModelOptions& options = {});

    // Names of the built-in models, in Netflix's order.
    static std::vector<std::string> builtin_versions();

    // libvmaf's vmaf_model_feature_overload(): `options` (Netflix's option
    // names) for every feature of the model that extractor `extractor`
    // computes, e.g. ("adm", {{"adm_enhn_gain_limit", "1.2"}}). Throws when
    // the model uses no such extractor. Affects this Model only (copies of
    // it made before keep their options).
    void override_feature(const std::string& extractor, const OptionList& options);

    const std::string& name() const;
    // version= or path=, as Netflix's summary line names the model.
    const std::string& label() const;
    // A bootstrap collection (e.g. vmaf_b_v0.6.3): model "0" writes name(),
    // its members name()_0001.., and the collection name()_bagging,
    // _stddev, _ci_p95_lo and _ci_p95_hi.
    bool is_collection() const;
    // Every per-frame series the model writes, in libvmaf's order.
    std::vector<std::string> output_names() const;

    // The model data (internal: src/model/model.h).
    const model::LoadedModel& loaded() const { return *loaded_; }
    explicit Model(std::shared_ptr<const model::LoadedModel> loaded) : loaded_(std::move(loaded)) {}

private:
    std::shared_ptr<const model::LoadedModel> loaded_;
};

}  // namespace twinvmaf
