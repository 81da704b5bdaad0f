// Output names as Netflix libvmaf prints them.
//
// Extractors "provide" features under internal names (e.g.
// "VMAF_integer_feature_adm2_score"); libvmaf prints them through a fixed
// alias table ("integer_adm2") and appends a suffix for every non-default
// naming option ("integer_adm2_egl_1.2"). Models name their inputs by the
// internal names, so both directions go through these two functions.
#pragma once

#include <string>

#include "core/options.h"

namespace twinvmaf {

// libvmaf's alias of an internal feature name; the name itself if none.
const std::string& feature_alias(const std::string& provided_name);

// The printed name of `provided_name` computed with `options`.
std::string output_name(const std::string& provided_name, const OptionValues& options);

}  // namespace twinvmaf
