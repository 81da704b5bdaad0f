// The scores of one reference/distorted pair: every per-frame value by its
// output name (Netflix's names: "vmaf", "integer_adm2", "psnr_y", ...),
// pooled values, and the output files Netflix's `vmaf` writes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "twinvmaf/backend.h"
#include "twinvmaf/output.h"
#include "twinvmaf/picture.h"

namespace twinvmaf {

namespace detail {
struct ScoresData;
}

class Scores {
public:
    // Frame pairs scored; frames are numbered 0 .. frames() - 1.
    std::uint64_t frames() const;
    // Scores are written for frames that are multiples of this only.
    unsigned subsample() const;
    const VideoFormat& format() const;

    // Where the features ran: the backend, the GPU ("CUDA device 0: ...",
    // empty on the CPU) and the CPU worker threads (0 on a GPU).
    Backend backend() const;
    const std::string& device() const;
    unsigned threads() const;
    // Wall time of the frame loop, and frames per second over it.
    double seconds() const;
    double fps() const;

    // Every per-frame series, in output order (features, then models).
    std::vector<std::string> names() const;
    // The value of `name` at `frame`; nullopt when there is none.
    std::optional<double> at(const std::string& name, std::uint64_t frame) const;
    // Pooled over every frame on the subsample grid, as the output files do
    // (libvmaf's vmaf_feature_score_pooled over 0 .. frames() - 1); nullopt
    // when a counted frame has no value.
    std::optional<double> pooled(const std::string& name, PoolMethod method) const;
    // Whole-run metrics (e.g. psnr's apsnr_y with enable_apsnr).
    std::vector<std::pair<std::string, double>> aggregates() const;

    // The output file's bytes, exactly as the CLI writes them.
    std::string render(OutputFormat format, const Precision& precision = {}) const;
    // Writes them to `path` ("-": standard output): regular files
    // atomically (a temporary file renamed over the target), devices, FIFOs
    // and sockets directly. Throws twinvmaf::Error naming the path and cause.
    void write(const std::string& path, OutputFormat format, const Precision& precision = {}) const;
    // The models' pooled means as Netflix's vmaf prints them on stderr
    // ("vmaf_v0.6.1: 80.123456\n" ...); empty without prediction.
    std::string pooled_summary() const;

    // Internal (src/api/scores_data.h): the collector, models and run
    // statistics behind these scores.
    detail::ScoresData& data() const { return *data_; }
    explicit Scores(std::shared_ptr<detail::ScoresData> data) : data_(std::move(data)) {}

private:
    std::shared_ptr<detail::ScoresData> data_;
};

}  // namespace twinvmaf
