#include <sstream>

#include "api/scores_data.h"
#include "model/predict.h"
#include "output/writers.h"
#include "twinvmaf/scores.h"
#include "twinvmaf/version.h"

namespace twinvmaf {

OutputContext detail::ScoresData::output_context(const Precision& precision) const
{
    OutputContext context{collector};
    context.frame_count = frames;
    context.subsample = subsample;
    context.width = format.width;
    context.height = format.height;
    context.fps = fps();
    context.precision = precision;
    context.version = kVersion;
    return context;
}

std::uint64_t Scores::frames() const { return data_->frames; }
unsigned Scores::subsample() const { return data_->subsample; }
const VideoFormat& Scores::format() const { return data_->format; }
Backend Scores::backend() const { return data_->backend; }
const std::string& Scores::device() const { return data_->result.device; }
unsigned Scores::threads() const { return data_->threads; }
double Scores::seconds() const { return data_->result.seconds; }
double Scores::fps() const { return data_->fps(); }

std::vector<std::string> Scores::names() const
{
    std::vector<std::string> names;
    for (const Collector::Series& series : data_->collector.series()) names.push_back(series.name);
    return names;
}

std::optional<double> Scores::at(const std::string& name, std::uint64_t frame) const
{
    const Collector& collector = data_->collector;
    const auto id = collector.find(name);
    if (!id || !collector.has(*id, frame)) return std::nullopt;
    return collector.get(*id, frame);
}

std::optional<double> Scores::pooled(const std::string& name, PoolMethod method) const
{
    const Collector& collector = data_->collector;
    const auto id = collector.find(name);
    if (!id) return std::nullopt;
    return collector.pooled(*id, method, data_->frames, data_->subsample);
}

std::vector<std::pair<std::string, double>> Scores::aggregates() const
{
    std::vector<std::pair<std::string, double>> values;
    for (const Collector::Aggregate& aggregate : data_->collector.aggregates())
        values.emplace_back(aggregate.name, aggregate.value);
    return values;
}

std::string Scores::render(OutputFormat format, const Precision& precision) const
{
    std::ostringstream out;
    write_output(out, format, data_->output_context(precision));
    return out.str();
}

void Scores::write(const std::string& path, OutputFormat format, const Precision& precision) const
{
    write_output_file(path, format, data_->output_context(precision));
}

std::string Scores::pooled_summary() const
{
    if (!data_->predict || data_->models.empty()) return {};
    return model::pooled_summary(data_->models, data_->collector, data_->frames, data_->subsample);
}

}  // namespace twinvmaf
