#include "model/binding.h"

#include <algorithm>

#include "core/feature.h"
#include "core/feature_names.h"
#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf::model {

namespace {

const FeatureInfo& extractor_of(const LoadedModel& loaded, const ModelFeature& feature)
{
    const FeatureInfo* info = find_feature_providing(feature.name);
    if (!info)
        throw Error("model " + message_text(loaded.label) + " needs feature '" + message_text(feature.name) +
                    "', which twinvmaf does not implement yet (no extractor provides it)");
    return *info;
}

void merge(OptionList& into, const OptionList& options)
{
    // A pair, not a structured binding: clang 15 cannot capture those.
    for (const auto& option : options) {
        auto same = std::find_if(into.begin(), into.end(), [&](const auto& kv) { return kv.first == option.first; });
        if (same != into.end()) same->second = option.second;
        else into.push_back(option);
    }
}

}  // namespace

void apply_override(LoadedModel& loaded, const std::string& extractor, const OptionList& options)
{
    bool used = false;
    std::vector<std::string> extractors;
    for (Model* model : loaded.all_models()) {
        for (ModelFeature& feature : model->features) {
            const std::string& name = extractor_of(loaded, feature).name;
            if (std::find(extractors.begin(), extractors.end(), name) == extractors.end())
                extractors.push_back(name);
            if (name != extractor) continue;
            merge(feature.options, options);
            used = true;
        }
    }
    if (used) return;
    std::string list;
    for (const std::string& name : extractors) list += (list.empty() ? "" : ", ") + name;
    throw Error("model " + message_text(loaded.label) + " computes no feature with extractor '" +
                message_text(extractor) +
                "'; its extractors are: " + list);
}

std::vector<OptionValues> bind_to_extractors(LoadedModel& loaded)
{
    std::vector<OptionValues> configs;
    for (Model* model : loaded.all_models()) {
        for (ModelFeature& feature : model->features) {
            const FeatureInfo& info = extractor_of(loaded, feature);
            OptionValues values(info.name, info.options);
            try {
                values.set_all(feature.options);
            } catch (const Error& e) {
                throw Error("model " + message_text(loaded.label) + ", feature " + message_text(feature.name) +
                            ": " + e.what());
            }
            feature.input = output_name(feature.name, values);
            configs.push_back(std::move(values));
        }
    }
    return configs;
}

}  // namespace twinvmaf::model
