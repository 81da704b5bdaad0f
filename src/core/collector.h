// The feature collector: every per-frame score by output name, plus the
// aggregate (whole-run) metrics.
//
// Names are kept in the order of their first write. The pipeline writes in a
// fixed order (frame by frame, extractor by extractor), so that order - which
// is also Netflix's output order - is the same for any thread count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "twinvmaf/output.h"

namespace twinvmaf {

class Collector {
public:
    struct Series {
        std::string name;
        std::vector<double> values;
        std::vector<bool> written;
    };
    struct Aggregate {
        std::string name;
        double value;
    };

    // Returns the id of `name`, adding it (at the end of the order) if new.
    std::size_t id(const std::string& name);
    std::optional<std::size_t> find(const std::string& name) const;

    void set(std::size_t id, std::uint64_t frame, double value);
    void set(const std::string& name, std::uint64_t frame, double value) { set(id(name), frame, value); }
    bool has(std::size_t id, std::uint64_t frame) const;
    double get(std::size_t id, std::uint64_t frame) const;

    void set_aggregate(const std::string& name, double value);

    // Moves a series to the end of the order, as if first written now (a
    // value Netflix writes only at its flush, e.g. float_motion's motion3 of
    // a one-frame run). The ids of the series after it shift down by one, so
    // call it only once no writer holds ids (in an extractor's flush()).
    void move_to_end(std::size_t id);

    const std::vector<Series>& series() const { return series_; }
    const std::vector<Aggregate>& aggregates() const { return aggregates_; }

    // One past the highest frame index written by any series.
    std::uint64_t frame_span() const;

    // libvmaf's vmaf_feature_score_pooled over frames [0, frame_count) that
    // are multiples of `subsample`; nullopt if a counted frame lacks a value.
    std::optional<double> pooled(std::size_t id, PoolMethod method, std::uint64_t frame_count,
                                 unsigned subsample) const;
    // The same over frames [first, last] (libvmaf's index_low, index_high).
    // min and max start from the first frame counted (Netflix's start from
    // 0 when index_low is off the subsample grid; the same otherwise).
    std::optional<double> pooled_range(std::size_t id, PoolMethod method, std::uint64_t first, std::uint64_t last,
                                       unsigned subsample) const;

private:
    std::vector<Series> series_;
    std::vector<Aggregate> aggregates_;
};

}  // namespace twinvmaf
