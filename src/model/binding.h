// Connects a model's features to the feature extractors that compute them.
//
// A model names each input by libvmaf's internal name (e.g.
// VMAF_integer_feature_adm2_score) plus extractor options from the model file
// (feature_opts_dicts) and the command line (--model ...:adm.opt=value). The
// extractor is the registered one whose FeatureInfo::provided lists the name;
// the collector series it writes is output_name(name, options), e.g.
// integer_adm2_egl_1 (core/feature_names.h).
#pragma once

#include <string>
#include <vector>

#include "core/options.h"
#include "model/model.h"

namespace twinvmaf::model {

// libvmaf's vmaf_model_feature_overload(): merges `options` into the options
// of every feature of every model in `loaded` that `extractor` computes (an
// option given again replaces the earlier value). Where Netflix ignores an
// override that touches no feature, this is an Error naming the extractors
// the model uses; an unknown option is an Error when the model is bound.
void apply_override(LoadedModel& loaded, const std::string& extractor, const OptionList& options);

// Sets every feature's `input` (the series its extractor writes) and returns
// the extractor configuration each feature needs, in feature order, model
// "0" first; equal configurations repeat. Throws twinvmaf::Error when no
// extractor provides a feature ("... which twinvmaf does not implement yet")
// or an option is unknown or out of range.
std::vector<OptionValues> bind_to_extractors(LoadedModel& loaded);

}  // namespace twinvmaf::model
