// The feature-extractor interface and the registry of features.
//
// Shape taken from libvmaf (init / extract / flush and an option table), split
// so frames can run in parallel and still give identical bytes:
//
//   extract()  - per frame, on any worker thread, concurrently for different
//                frames. Reads the frame (and, for temporal features, the
//                `history()` previous frames) and writes raw values into a
//                FrameScores. Must not touch shared mutable state; per-thread
//                scratch memory comes from make_scratch().
//   collect()  - on the pipeline's thread, strictly in frame order. Writes the
//                frame's values to the collector; temporal state (running sums,
//                "motion2 = min of two frames") lives here.
//   flush()    - once, after the last frame.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/collector.h"
#include "core/options.h"
#include "twinvmaf/picture.h"

namespace twinvmaf {

// A frame pair and, for temporal features, the pairs before it:
// previous_ref[0] is frame index-1, previous_ref[1] is index-2, ...
struct FrameInputs {
    const Picture& ref;
    const Picture& dis;
    std::uint64_t index;
    std::span<const Picture* const> previous_ref;
    std::span<const Picture* const> previous_dis;
};

// Raw per-frame results of one extractor: doubles by output slot (see
// output_names()) and exact integers (e.g. sums of squared errors) that
// collect() turns into scores. Both grow on demand.
class FrameScores {
public:
    void clear()
    {
        values_.clear();
        integers_.clear();
    }
    void set(std::size_t slot, double value) { grow(values_, slot) = value; }
    double get(std::size_t slot) const { return values_.at(slot); }
    std::size_t size() const { return values_.size(); }

    void set_integer(std::size_t index, std::uint64_t value) { grow(integers_, index) = value; }
    std::uint64_t get_integer(std::size_t index) const { return integers_.at(index); }

private:
    template <class T>
    static T& grow(std::vector<T>& v, std::size_t index)
    {
        if (index >= v.size()) v.resize(index + 1, T{});
        return v[index];
    }
    std::vector<double> values_;
    std::vector<std::uint64_t> integers_;
};

// Writes one extractor's slots to the collector. Names are looked up on first
// write, so the collector's order is the order of first writes (Netflix's).
class SlotWriter {
public:
    SlotWriter(Collector& collector, std::vector<std::string> names);
    void write(std::size_t slot, std::uint64_t frame, double value);
    Collector& collector() { return collector_; }
    std::size_t slots() const { return names_.size(); }

private:
    Collector& collector_;
    std::vector<std::string> names_;
    std::vector<std::size_t> ids_;
    std::vector<bool> known_;
};

// Per-worker-thread scratch memory of one extractor (buffers reused per frame).
struct Scratch {
    virtual ~Scratch() = default;
};

class FeatureExtractor {
public:
    virtual ~FeatureExtractor() = default;

    // Called once before the first frame. Throws twinvmaf::Error for a format
    // or frame size the feature cannot score (same message on every backend).
    virtual void init(const VideoFormat& format) = 0;

    // Output names, suffixed with non-default options; index = slot.
    virtual std::vector<std::string> output_names() const = 0;

    // Previous frames extract() reads (0: none).
    virtual unsigned history() const { return 0; }

    // Planes 0 .. n-1 of a frame that extract() reads. The pipeline reads no
    // more of each raw frame than its extractors read (a GPU uploads no
    // more), so a luma-only feature returns 1.
    virtual int planes_read() const { return 3; }

    // libvmaf's VMAF_FEATURE_EXTRACTOR_TEMPORAL. Such a feature runs on every
    // frame even with --subsample, and its values of a frame are collected
    // before the other features' (Netflix's CLI extracts temporal features
    // first, outside its thread pool), which decides the output key order.
    virtual bool temporal() const { return false; }

    // Runs on every frame even with --subsample: temporal features and those
    // that read earlier frames (libvmaf's VMAF_FEATURE_EXTRACTOR_PREV_REF).
    virtual bool every_frame() const { return temporal(); }

    virtual std::unique_ptr<Scratch> make_scratch() const { return nullptr; }

    virtual void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const = 0;

    // Default: every slot of the frame, as extracted.
    virtual void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out);

    virtual void flush(Collector& /*collector*/) {}
};

struct FeatureInfo {
    std::string name;  // Netflix's registered extractor name, e.g. "psnr"
    std::string help;
    std::vector<OptionSpec> options;
    // Netflix's internal names of what it computes ("provided_features"),
    // which models refer to; printed through feature_alias() + option suffix.
    std::vector<std::string> provided;
    std::function<std::unique_ptr<FeatureExtractor>(const OptionValues&)> create;
};

// All features, in a fixed order.
const std::vector<FeatureInfo>& feature_registry();

// Looks a feature up by name; throws twinvmaf::Error listing valid names.
const FeatureInfo& find_feature(const std::string& name);

// The feature that provides `provided_name` (a model input), or nullptr.
const FeatureInfo* find_feature_providing(const std::string& provided_name);

}  // namespace twinvmaf
