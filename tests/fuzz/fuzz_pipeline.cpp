// The whole pipeline: a tiny fuzzed frame pair (1x1 to 40x40, every chroma
// format and bit depth, one to three frames) scored by every registered
// feature that accepts its size, with fuzzed options, then written in every
// output format. Extractors that refuse the size or their options are left
// out (that refusal is tested elsewhere); anything else that fails is a
// finding. Each input is scored by the reference loops and by a SIMD target
// it picks (core/simd.h), which must give the same bytes.
//
// Input: width, height, format and SIMD target (1 byte each: the third is
// chroma + 3 * depth + 12 * (frames - 1) + 36 * target), options up to a newline
// ("psnr=enable_chroma=false vif=vif_kernelscale=0.5 ..."), then the
// samples: reference frames, then distorted frames, the input's bytes
// repeated where it is short.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_args.h"
#include "core/collector.h"
#include "core/feature.h"
#include "core/pipeline.h"
#include "core/simd.h"
#include "fuzz_support.h"
#include "io/video_reader.h"
#include "output/writers.h"
#include "twinvmaf/error.h"

namespace {

using namespace twinvmaf;

// Frames held in memory, with samples already inside the bit depth (as the
// file readers deliver them).
class MemoryReader final : public VideoReader {
public:
    MemoryReader(const VideoFormat& format, std::vector<std::string> frames, const char* name)
        : frames_(std::move(frames))
    {
        format_ = format;
        path_ = name;
    }
    std::optional<std::uint64_t> frame_count() const override { return frames_.size(); }
    bool read(Picture& picture) override
    {
        if (position_ >= frames_.size()) return false;
        picture.reset(format_);
        std::memcpy(picture.bytes(), frames_[position_].data(), frames_[position_].size());
        ++position_;
        return true;
    }
    void skip(std::uint64_t count) override
    {
        position_ = std::min<std::uint64_t>(position_ + count, frames_.size());
    }

private:
    std::vector<std::string> frames_;
};

std::string frame_bytes(const VideoFormat& format, const std::uint8_t* data, std::size_t size, std::size_t& at)
{
    std::string frame(format.frame_bytes(), '\0');
    for (char& byte : frame) byte = size ? static_cast<char>(data[at++ % size]) : '\0';
    if (format.bitdepth > 8) {
        // Little-endian samples: mask each high byte to the depth.
        const auto high = static_cast<std::uint8_t>(format.max_sample() >> 8);
        for (std::size_t i = 1; i < frame.size(); i += 2)
            frame[i] = static_cast<char>(static_cast<std::uint8_t>(frame[i]) & high);
    }
    return frame;
}

// "feature=opt=val" words that parse are applied to their feature; the
// others are ignored.
std::vector<OptionValues> configured_features(const std::string& line)
{
    std::vector<OptionValues> configs;
    for (const FeatureInfo& info : feature_registry()) configs.emplace_back(info.name, info.options);
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
        try {
            const cli::FeatureRequest request = cli::parse_feature_argument(word);
            for (OptionValues& values : configs) {
                if (values.feature() != request.name) continue;
                OptionValues changed = values;
                changed.set_all(request.options);
                values = changed;
            }
        } catch (const Error&) {
        } catch (const cli::UsageError&) {
        }
    }
    return configs;
}

// Every feature of `configs` that accepts `format`, through the pipeline;
// returns the scores in every output format, one after the other.
std::string score(const VideoFormat& format, const std::vector<OptionValues>& configs,
                  const std::vector<std::string>& ref, const std::vector<std::string>& dis)
{
    std::vector<std::unique_ptr<FeatureExtractor>> extractors;
    for (const OptionValues& values : configs) {
        const FeatureInfo& info = find_feature(values.feature());
        try {
            info.create(values)->init(format);
        } catch (const Error& e) {
            fuzz::check_message(e.what());
            continue;
        }
        extractors.push_back(info.create(values));
    }
    MemoryReader reference(format, ref, "ref");
    MemoryReader distorted(format, dis, "dis");

    Collector collector;
    PipelineConfig config;
    config.threads = 1;
    config.warn = [](const std::string& message) { fuzz::check_message(message.c_str()); };
    Pipeline pipeline(std::move(extractors), config);
    PipelineResult result;
    try {
        result = pipeline.run(reference, distorted, collector);
    } catch (const Error& e) {
        // No extractor refuses a frame it accepted at init.
        std::fprintf(stderr, "fuzz: the pipeline failed after init: %s\n", e.what());
        __builtin_trap();
    }
    OutputContext context{collector};
    context.frame_count = result.frames;
    context.width = format.width;
    context.height = format.height;
    context.precision = Precision::parse("max");
    std::ostringstream out;
    for (OutputFormat output : {OutputFormat::kXml, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kSub})
        write_output(out, output, context);
    return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 3) return 0;
    static const unsigned kDepths[] = {8, 10, 12, 16};
    const VideoFormat format{1u + data[0] % 40u, 1u + data[1] % 40u, static_cast<ChromaFormat>(data[2] % 3),
                             kDepths[(data[2] / 3) % 4]};
    const unsigned frames = 1 + (data[2] / 12) % 3;
    const unsigned data_head = data[2];
    data += 3;
    size -= 3;
    const std::uint8_t* newline = static_cast<const std::uint8_t*>(std::memchr(data, '\n', std::min<std::size_t>(size, 512)));
    std::string options;
    if (newline) {
        options.assign(reinterpret_cast<const char*>(data), static_cast<std::size_t>(newline - data));
        size -= static_cast<std::size_t>(newline - data) + 1;
        data = newline + 1;
    }

    std::size_t at = 0;
    std::vector<std::string> ref, dis;
    for (unsigned i = 0; i < frames; ++i) ref.push_back(frame_bytes(format, data, size, at));
    for (unsigned i = 0; i < frames; ++i) dis.push_back(frame_bytes(format, data, size, at));
    const std::vector<OptionValues> configs = configured_features(options);

    // The reference loops, then (when it is another) a SIMD target chosen by
    // the input: every output must be the same bytes (core/simd.h).
    const std::vector<simd::Target> targets = simd::available();
    const simd::Target target = targets[(data_head / 36) % targets.size()];
    simd::force(simd::kReference);
    const std::string reference_bytes = score(format, configs, ref, dis);
    if (target != simd::kReference) {
        simd::force(target);
        const std::string simd_bytes = score(format, configs, ref, dis);
        if (simd_bytes != reference_bytes) {
            std::fprintf(stderr, "fuzz: SIMD target %s scored differently from the reference loops\n",
                         simd::name(target).c_str());
            __builtin_trap();
        }
    }
    return 0;
}
