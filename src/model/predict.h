// Scoring with VMAF models, with libvmaf's arithmetic in libvmaf's order
// (src/predict.c, src/libvmaf.c), so every score is the identical double:
//
//   each feature:  slope * value + intercept           (linear_rescale)
//   chroma fix:    speed_chroma of 0 -> from adm3      (chroma_correction_parameter)
//   SVM:           libsvm's nu-SVR prediction          (model/svm.h)
//   prediction:    (svm - intercept) / slope           (linear_rescale)
//   transform:     polynomial, knots, out_lte_in/out_gte_in   (if enabled)
//   clip:          to score_clip                        (unless disable_clip)
//
// A bootstrap collection adds, per frame, the mean of its members' untransformed,
// unclipped predictions (<name>_bagging), their spread (<name>_stddev) and the
// 2.5 / 97.5 percentiles (<name>_ci_p95_lo / _hi).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/collector.h"
#include "model/model.h"

namespace twinvmaf::model {

// libvmaf's prediction-time flags; a bootstrap collection's statistics are
// computed from predictions without transform and clip.
struct PredictOptions {
    bool skip_transform = false;
    bool skip_clip = false;
};

// The model's score for one frame's feature values, in the model's feature
// order.
double predict(const Model& model, std::span<const double> features, PredictOptions options = {});

// Every series a loaded model writes, in the order libvmaf first writes them.
std::vector<std::string> output_names(const LoadedModel& loaded);

// Predicts frames [0, frame_count) that are multiples of `subsample` from the
// collector's feature series (ModelFeature::input) and writes the scores to
// the collector in libvmaf's order: each model's <name> over all frames, in
// the order of `models`, then each bootstrap collection's members and
// statistics, frame by frame. Throws twinvmaf::Error if a feature has no
// value at a frame, or an output name is already in the collector.
void score_models(std::span<const LoadedModel> models, Collector& collector,
                  std::uint64_t frame_count, unsigned subsample);

// One frame at a time, as libvmaf's C API computes model scores when asked
// (vmaf_score_at_index(), vmaf_score_at_index_model_collection()): the
// scores are written to the collector unless it has them at that frame
// already (then those are returned), so asking twice gives the same
// values. Features are read from ModelFeature::input; throws
// twinvmaf::Error naming the feature and frame when one is missing.
double score_model_frame(const Model& model, Collector& collector, std::uint64_t frame);

struct CollectionScores {
    double bagging, stddev, ci_lo, ci_hi;
};
// Writes the members (<name>_0001 ..) and the statistics (<name>_bagging,
// _stddev, _ci_p95_lo, _ci_p95_hi) of a bootstrap collection's frame.
CollectionScores score_collection_frame(const LoadedModel& loaded, Collector& collector, std::uint64_t frame);

// The pooled (mean) scores as Netflix's vmaf prints them on stderr:
//   "vmaf_v0.6.1: 80.123456"
//   "vmaf_b_v0.6.3: 80.1, ci.p95: [78.9, 81.2], stddev: 0.5" (collections,
//   after every model's plain line)
std::string pooled_summary(std::span<const LoadedModel> models, const Collector& collector,
                           std::uint64_t frame_count, unsigned subsample);

}  // namespace twinvmaf::model
