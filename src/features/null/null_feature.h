// null: Netflix's no-op extractor. It reads every frame pair and writes
// nothing; useful to measure the cost of reading and the pipeline alone.
#pragma once

#include "core/feature.h"

namespace twinvmaf::null_feature {

FeatureInfo feature_info();

}  // namespace twinvmaf::null_feature
