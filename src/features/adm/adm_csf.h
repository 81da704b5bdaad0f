// ADM's contrast sensitivity functions (host only, once per run): the weight
// of each scale's h/v and d bands, as Netflix computes them in float
// (integer_adm.c's and adm_tools.h's identical dwt_quant_step,
// barten_csf_tools.h, adm_csf_tools.h), for the integer and the float ADM.
#pragma once

#include <cstdint>

namespace twinvmaf::adm {

// Netflix's adm_csf_mode values.
enum class CsfMode : int {
    kWatson = 0,          // Watson et al. 1997 wavelet quantisation thresholds
    kBarten = 1,          // Barten's CSF as in HDR-VDP-2
    kBlend = 2,           // tabulated Barten/Watson blend (v1.0.16 models)
    kBlendCorrected = 3,  // the same with Netflix's later L1 fix (v1.0.17+)
};

struct CsfInputs {
    CsfMode mode = CsfMode::kWatson;
    double norm_view_dist = 3.0;
    int ref_display_height = 1080;
    double csf_scale = 1.0;       // Barten only: h and v
    double csf_diag_scale = 1.0;  // Barten only: d
};

// The float weights {h, v, d} of `scale` (0 finest .. 3 coarsest): Netflix's
// rfactor. The blend modes only know some (height, distance) pairs; for the
// others Netflix returns -EINVAL as the weight, and so do we (scores then
// come out NaN or meaningless, as Netflix's do).
void csf_weights(int scale, const CsfInputs& inputs, float weights[3]);

// The weights {h, v, d} of the CSF of the DLM paper ("Image Quality Assessment
// by Separately Evaluating Detail Losses and Additive Impairments", Li, Zhang,
// Ma, Ngan, IEEE TMM 13(5), 2011): Netflix's adm_native_csf, which only the
// float ADM offers (its adm_csf_mode 2). `inputs.mode` is not read.
void dlm_csf_weights(int scale, const CsfInputs& inputs, float weights[3]);

// The fixed-point weights the integer pipeline multiplies by: scale 0 in 16
// bits (Q21, Q21, Q23), scales 1..3 in 32 bits (Q32). Netflix converts with
// a plain C cast; out of range that is undefined, and we give what x86-64
// gives (the low bits of a truncation to int32 / int64).
void csf_fixed_weights(int scale, const CsfInputs& inputs, const float weights[3], std::uint32_t fixed[3]);

}  // namespace twinvmaf::adm
