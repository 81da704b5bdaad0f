// The list of features twinvmaf knows, in a fixed order. Adding a feature is
// one line here plus its folder under src/features/.
#include "core/feature.h"
#include "features/adm/adm.h"
#include "features/cambi/cambi.h"
#include "features/float_adm/float_adm.h"
#include "features/motion/motion.h"
#include "features/null/null_feature.h"
#include "features/psnr/psnr.h"
#include "features/speed/speed.h"
#include "features/vif/vif.h"

namespace twinvmaf {

const std::vector<FeatureInfo>& feature_registry()
{
    static const std::vector<FeatureInfo> features = {
        psnr::feature_info(),
        motion::feature_info(),
        null_feature::feature_info(),
        vif::feature_info(),
        adm::feature_info(),
        speed::chroma_feature_info(),
        speed::temporal_feature_info(),
        cambi::feature_info(),
        float_adm::feature_info(),
    };
    return features;
}

}  // namespace twinvmaf
