#include "core/collector.h"

#include "twinvmaf/error.h"

namespace twinvmaf {

std::size_t Collector::id(const std::string& name)
{
    if (auto found = find(name)) return *found;
    series_.push_back(Series{name, {}, {}});
    return series_.size() - 1;
}

std::optional<std::size_t> Collector::find(const std::string& name) const
{
    for (std::size_t i = 0; i < series_.size(); ++i) {
        if (series_[i].name == name) return i;
    }
    return std::nullopt;
}

void Collector::set(std::size_t id, std::uint64_t frame, double value)
{
    Series& s = series_.at(id);
    if (frame >= s.values.size()) {
        s.values.resize(frame + 1, 0.0);
        s.written.resize(frame + 1, false);
    }
    s.values[frame] = value;
    s.written[frame] = true;
}

bool Collector::has(std::size_t id, std::uint64_t frame) const
{
    const Series& s = series_.at(id);
    return frame < s.written.size() && s.written[frame];
}

double Collector::get(std::size_t id, std::uint64_t frame) const
{
    if (!has(id, frame))
        throw Error("internal: no value of " + series_.at(id).name + " at frame " +
                    std::to_string(frame));
    return series_[id].values[frame];
}

void Collector::move_to_end(std::size_t id)
{
    Series moved = std::move(series_.at(id));
    series_.erase(series_.begin() + static_cast<std::ptrdiff_t>(id));
    series_.push_back(std::move(moved));
}

void Collector::set_aggregate(const std::string& name, double value)
{
    for (Aggregate& a : aggregates_) {
        if (a.name == name) {
            a.value = value;
            return;
        }
    }
    aggregates_.push_back(Aggregate{name, value});
}

std::uint64_t Collector::frame_span() const
{
    std::uint64_t span = 0;
    for (const Series& s : series_) {
        if (s.values.size() > span) span = s.values.size();
    }
    return span;
}

std::optional<double> Collector::pooled(std::size_t id, PoolMethod method,
                                        std::uint64_t frame_count, unsigned subsample) const
{
    if (frame_count == 0) return std::nullopt;
    return pooled_range(id, method, 0, frame_count - 1, subsample);
}

std::optional<double> Collector::pooled_range(std::size_t id, PoolMethod method, std::uint64_t first,
                                              std::uint64_t last, unsigned subsample) const
{
    if (first > last) return std::nullopt;
    // Same order of additions as libvmaf, so the sums round identically.
    std::uint64_t counted = 0;
    double min = 0.0, max = 0.0, sum = 0.0, inverse_sum = 0.0;
    for (std::uint64_t i = first;; ++i) {
        if (subsample <= 1 || i % subsample == 0) {
            if (!has(id, i)) return std::nullopt;
            const double s = series_[id].values[i];
            const bool first_counted = counted == 0;
            ++counted;
            sum += s;
            inverse_sum += 1.0 / (s + 1.0);
            if (first_counted || s < min) min = s;
            if (first_counted || s > max) max = s;
        }
        if (i == last) break;
    }
    if (!counted) return std::nullopt;
    switch (method) {
    case PoolMethod::kMin: return min;
    case PoolMethod::kMax: return max;
    case PoolMethod::kMean: return sum / static_cast<double>(counted);
    case PoolMethod::kHarmonicMean: return static_cast<double>(counted) / inverse_sum - 1.0;
    }
    return std::nullopt;
}

}  // namespace twinvmaf
