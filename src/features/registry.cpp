// The list of features twinvmaf knows, in a fixed order. Adding a feature is
// one line here plus its folder under src/features/.
#include "core/feature.h"
#include "features/adm/adm.h"
#include "features/cambi/cambi.h"
#include "features/float_ansnr/float_ansnr.h"
#include "features/float_moment/float_moment.h"
#include "features/float_psnr/float_psnr.h"
#include "features/ciede/ciede.h"
#include "features/float_motion/float_motion.h"
#include "features/float_vif/float_vif.h"
#include "features/float_adm/float_adm.h"
#include "features/fork_ms_ssim/fork_ms_ssim.h"
#include "features/integer_ssim/integer_ssim.h"
#include "features/motion/motion.h"
#include "features/motion_v2/motion_v2.h"
#include "features/null/null_feature.h"
#include "features/psnr/psnr.h"
#include "features/psnr_hvs/psnr_hvs.h"
#include "features/speed/speed.h"
#include "features/ssim/ssim.h"
#include "features/ssimulacra2/ssimulacra2.h"
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
        float_psnr::feature_info(),
        float_ansnr::feature_info(),
        float_moment::feature_info(),
        ciede::feature_info(),
        psnr_hvs::feature_info(),
        ssim::float_ssim_feature_info(),
        ssim::float_ms_ssim_feature_info(),
        float_vif::feature_info(),
        float_motion::feature_info(),
        float_adm::feature_info(),
        ssimulacra2::feature_info(),
        motion_v2::feature_info(),
        integer_ssim::feature_info(),
        fork_ms_ssim::feature_info(),
    };
    return features;
}

}  // namespace twinvmaf
