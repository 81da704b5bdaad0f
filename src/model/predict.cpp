#include "model/predict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf::model {

namespace {

// ---- one prediction, step by step -----------------------------------------

double normalize(const Model& model, double slope, double intercept, double value)
{
    return model.normalization == Normalization::kLinearRescale ? slope * value + intercept : value;
}

double denormalize(const Model& model, double slope, double intercept, double value)
{
    return model.normalization == Normalization::kLinearRescale ? (value - intercept) / slope : value;
}

// libvmaf's post_process_feature_from_another(): when the speed_chroma input
// is exactly 0 (after a round trip through the normalisation), it is replaced
// by c - c * adm3. The load checked there is one feature of each.
void correct_chroma(const Model& model, std::span<double> normalized)
{
    const double c = *model.chroma_correction;
    std::optional<double> guiding;
    std::optional<std::size_t> guided;
    for (std::size_t i = 0; i < model.features.size(); ++i) {
        const ModelFeature& feature = model.features[i];
        const double value = denormalize(model, feature.slope, feature.intercept, normalized[i]);
        if (feature.name.find("adm3") != std::string::npos) guiding = value;
        if (feature.name.find("speed_chroma") != std::string::npos) {
            if (value != 0.0) return;
            guided = i;
        }
    }
    const ModelFeature& target = model.features[*guided];
    normalized[*guided] = normalize(model, target.slope, target.intercept, (-c * *guiding) + c);
}

// libvmaf's find_linear_function_parameters() for a rising segment.
void line_through(KnotPoint p1, KnotPoint p2, double& slope, double& offset)
{
    if (p1.x == 0) {
        offset = p1.y;
        slope = (p2.y - offset) / p2.x;
    } else {
        slope = (p2.y - p1.y) / (p2.x - p1.x);
        offset = p1.y - p1.x * slope;
    }
}

// libvmaf's piecewise_linear_mapping(), for knots the load checked rise. Every
// segment is visited and a later one overrides an earlier at a shared knot;
// beyond the ends the first / last segment is extended.
double map_through_knots(double x, std::span<const KnotPoint> knots)
{
    const std::size_t segments = knots.size() - 1;
    double y = 0.0;
    for (std::size_t i = 0; i < segments; ++i) {
        const KnotPoint a = knots[i];
        const KnotPoint b = knots[i + 1];
        const bool inside = a.x <= x && x <= b.x;
        const bool below = i == 0 && x < a.x;
        const bool above = i == segments - 1 && x > b.x;
        if (a.y == b.y) {
            if (inside) y = a.y;
            if (below) y = a.y;
            if (above) y = a.y;
        } else {
            double slope = 0.0, offset = 0.0;
            line_through(a, b, slope, offset);
            if (inside || below || above) y = slope * x + offset;
        }
    }
    return y;
}

double transform(const ScoreTransform& t, double in)
{
    double out = in;
    if (t.p0 || t.p1 || t.p2) {
        out = 0.0;
        if (t.p0) out += *t.p0;
        if (t.p1) out += *t.p1 * in;
        if (t.p2) out += *t.p2 * in * in;
    }
    if (t.knots.size() >= 2) out = map_through_knots(out, t.knots);
    if (t.out_lte_in) out = out > in ? in : out;
    if (t.out_gte_in) out = out < in ? in : out;
    return out;
}

double clip(const Model::Clip& range, double value)
{
    value = value < range.min ? range.min : value;
    return value > range.max ? range.max : value;
}

// Feature values (overwritten with their normalised form) -> the
// denormalised SVM prediction, before transform and clip.
double raw_prediction(const Model& model, std::span<double> values)
{
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = normalize(model, model.features[i].slope, model.features[i].intercept, values[i]);
    if (model.chroma_correction) correct_chroma(model, values);
    const double svm = model.svm.predict(values);
    return denormalize(model, model.slope, model.intercept, svm);
}

double finish(const Model& model, double prediction, PredictOptions options)
{
    if (model.transform.enabled && !options.skip_transform) prediction = transform(model.transform, prediction);
    if (model.score_clip && !options.skip_clip) prediction = clip(*model.score_clip, prediction);
    return prediction;
}

// ---- reading features from the collector ----------------------------------

// Predicts one model frame by frame; reuses its buffer across frames.
class FrameScorer {
public:
    FrameScorer(const Model& model, const Collector& collector)
        : model_(model), collector_(collector), values_(model.features.size())
    {
        for (const ModelFeature& feature : model.features) ids_.push_back(collector.find(feature.input));
    }

    const Model& model() const { return model_; }

    double raw(std::uint64_t frame)
    {
        for (std::size_t i = 0; i < values_.size(); ++i) {
            if (!ids_[i] || !collector_.has(*ids_[i], frame))
                throw Error("model " + message_text(model_.name) + ": no value of feature '" +
                            message_text(model_.features[i].input) + "' (" + message_text(model_.features[i].name) +
                            ") at frame " + std::to_string(frame));
            values_[i] = collector_.get(*ids_[i], frame);
        }
        return raw_prediction(model_, values_);
    }

private:
    const Model& model_;
    const Collector& collector_;
    std::vector<std::optional<std::size_t>> ids_;
    std::vector<double> values_;
};

// The bootstrap statistics' names, in the order libvmaf writes them.
const char* const kStatisticSuffixes[] = {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"};

struct BootstrapStatistics {
    double bagging, stddev, ci_lo, ci_hi;
};

// libvmaf's percentile(): linear interpolation between the sorted scores.
double percentile(std::span<const double> sorted, double percent)
{
    const double p = percent * static_cast<double>(sorted.size() - 1) / 100.;
    const int low = static_cast<int>(std::floor(p));
    const int high = static_cast<int>(std::ceil(p));
    if (low == high) return sorted[low];
    return sorted[low] * (high - p) + sorted[high] * (p - low);
}

// libvmaf's vmaf_bootstrap_predict_score_at_index() from the members' raw
// predictions; `reference` (member "1") transforms and clips the results.
BootstrapStatistics bootstrap_statistics(const Model& reference, std::span<double> scores)
{
    const double count = static_cast<double>(scores.size());
    double sum = 0.;
    for (const double s : scores) sum += s;
    const double mean = sum / count;

    const double delta = 0.01;
    double plus_delta = mean + delta;
    double minus_delta = mean - delta;

    double ssd = 0.;
    for (const double s : scores) {
        const double d = s - mean;  // libvmaf: pow(d, 2), which is exactly d * d
        ssd += d * d;
    }
    double stddev = std::sqrt(ssd / count);

    std::sort(scores.begin(), scores.end());
    BootstrapStatistics stats{};
    stats.bagging = finish(reference, mean, {});
    stats.ci_lo = finish(reference, percentile(scores, 2.5), {});
    stats.ci_hi = finish(reference, percentile(scores, 97.5), {});
    plus_delta = finish(reference, plus_delta, {});
    minus_delta = finish(reference, minus_delta, {});
    // The spread is carried through the transform by its local slope.
    const double slope = (plus_delta - minus_delta) / (2.0 * delta);
    stats.stddev = stddev * slope;
    return stats;
}

// One frame of a bootstrap collection: each member's score as written (into
// `written`) and the statistics of their untransformed, unclipped scores.
BootstrapStatistics collection_frame(std::vector<FrameScorer>& members, std::uint64_t frame, std::vector<double>& raw,
                                     std::vector<double>& written)
{
    for (std::size_t m = 0; m < members.size(); ++m) {
        // libvmaf predicts each member twice, once with transform and clip
        // off (for the statistics) and once as the member says (written);
        // the SVM part is the same both times.
        raw[m] = members[m].raw(frame);
        written[m] = finish(members[m].model(), raw[m], {});
    }
    return bootstrap_statistics(members.front().model(), raw);
}

// Writes `value` unless `name` has a value at `frame` already.
double keep_first(Collector& collector, const std::string& name, std::uint64_t frame, double value)
{
    const std::size_t id = collector.id(name);
    if (collector.has(id, frame)) return collector.get(id, frame);
    collector.set(id, frame, value);
    return value;
}

bool on_grid(std::uint64_t frame, unsigned subsample)
{
    return subsample <= 1 || frame % subsample == 0;
}

std::size_t new_series(Collector& collector, const std::string& name)
{
    if (collector.find(name))
        throw Error("model output '" + message_text(name) + "' is already written by a feature or another "
                    "model; give the model another name with --model ...:name=");
    return collector.id(name);
}

void score_plain(const LoadedModel& loaded, Collector& collector, std::uint64_t frame_count,
                 unsigned subsample)
{
    FrameScorer scorer(loaded.model, collector);
    const std::size_t id = new_series(collector, loaded.model.name);
    for (std::uint64_t frame = 0; frame < frame_count; ++frame) {
        if (!on_grid(frame, subsample)) continue;
        collector.set(id, frame, finish(loaded.model, scorer.raw(frame), {}));
    }
}

void score_collection(const LoadedModel& loaded, Collector& collector, std::uint64_t frame_count,
                      unsigned subsample)
{
    std::vector<FrameScorer> members;
    std::vector<std::size_t> member_ids;
    for (const Model& member : loaded.bootstrap) {
        members.emplace_back(member, collector);
        member_ids.push_back(new_series(collector, member.name));
    }
    std::size_t statistic_ids[std::size(kStatisticSuffixes)];
    for (std::size_t s = 0; s < std::size(kStatisticSuffixes); ++s)
        statistic_ids[s] = new_series(collector, loaded.model.name + kStatisticSuffixes[s]);

    std::vector<double> raw(members.size()), written(members.size());
    for (std::uint64_t frame = 0; frame < frame_count; ++frame) {
        if (!on_grid(frame, subsample)) continue;
        const BootstrapStatistics stats = collection_frame(members, frame, raw, written);
        for (std::size_t m = 0; m < members.size(); ++m) collector.set(member_ids[m], frame, written[m]);
        const double values[] = {stats.bagging, stats.stddev, stats.ci_lo, stats.ci_hi};
        for (std::size_t s = 0; s < std::size(values); ++s) collector.set(statistic_ids[s], frame, values[s]);
    }
}

double pooled_mean(const Collector& collector, const std::string& name, std::uint64_t frame_count,
                   unsigned subsample)
{
    const auto id = collector.find(name);
    const auto mean = id ? collector.pooled(*id, PoolMethod::kMean, frame_count, subsample) : std::nullopt;
    if (!mean) throw Error("no pooled score of " + name);
    return *mean;
}

}  // namespace

double predict(const Model& model, std::span<const double> features, PredictOptions options)
{
    if (features.size() != model.features.size())
        throw Error("model " + message_text(model.name) + " takes " + std::to_string(model.features.size()) +
                    " features, given " + std::to_string(features.size()));
    std::vector<double> values(features.begin(), features.end());
    return finish(model, raw_prediction(model, values), options);
}

std::vector<std::string> output_names(const LoadedModel& loaded)
{
    std::vector<std::string> names;
    for (const Model* model : loaded.all_models()) names.push_back(model->name);
    if (loaded.is_collection()) {
        for (const char* suffix : kStatisticSuffixes) names.push_back(loaded.model.name + suffix);
    }
    return names;
}

void score_models(std::span<const LoadedModel> models, Collector& collector,
                  std::uint64_t frame_count, unsigned subsample)
{
    for (const LoadedModel& loaded : models) score_plain(loaded, collector, frame_count, subsample);
    for (const LoadedModel& loaded : models) {
        if (loaded.is_collection()) score_collection(loaded, collector, frame_count, subsample);
    }
}

double score_model_frame(const Model& model, Collector& collector, std::uint64_t frame)
{
    if (const auto id = collector.find(model.name); id && collector.has(*id, frame)) return collector.get(*id, frame);
    FrameScorer scorer(model, collector);
    const double score = finish(model, scorer.raw(frame), {});
    collector.set(model.name, frame, score);
    return score;
}

CollectionScores score_collection_frame(const LoadedModel& loaded, Collector& collector, std::uint64_t frame)
{
    if (!loaded.is_collection()) throw Error("model " + loaded.label + " is not a bootstrap collection");
    std::vector<FrameScorer> members;
    for (const Model& member : loaded.bootstrap) members.emplace_back(member, collector);
    std::vector<double> raw(members.size()), written(members.size());
    const BootstrapStatistics stats = collection_frame(members, frame, raw, written);
    for (std::size_t m = 0; m < members.size(); ++m) keep_first(collector, loaded.bootstrap[m].name, frame, written[m]);
    const double values[] = {stats.bagging, stats.stddev, stats.ci_lo, stats.ci_hi};
    CollectionScores kept{};
    double* out[] = {&kept.bagging, &kept.stddev, &kept.ci_lo, &kept.ci_hi};
    for (std::size_t s = 0; s < std::size(values); ++s)
        *out[s] = keep_first(collector, loaded.model.name + kStatisticSuffixes[s], frame, values[s]);
    return kept;
}

std::string pooled_summary(std::span<const LoadedModel> models, const Collector& collector,
                           std::uint64_t frame_count, unsigned subsample)
{
    auto mean = [&](const std::string& name) { return pooled_mean(collector, name, frame_count, subsample); };
    auto number = [](double value) {
        char text[400];  // "%f" of the largest double fits
        std::snprintf(text, sizeof text, "%f", value);
        return std::string(text);
    };
    std::string text;
    for (const LoadedModel& loaded : models)
        text += loaded.label + ": " + number(mean(loaded.model.name)) + "\n";
    for (const LoadedModel& loaded : models) {
        if (!loaded.is_collection()) continue;
        const std::string& name = loaded.model.name;
        text += loaded.label + ": " + number(mean(name + "_bagging")) + ", ci.p95: [" +
                number(mean(name + "_ci_p95_lo")) + ", " + number(mean(name + "_ci_p95_hi")) +
                "], stddev: " + number(mean(name + "_stddev")) + "\n";
    }
    return text;
}

}  // namespace twinvmaf::model
