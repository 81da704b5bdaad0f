// Model loading: Netflix's JSON model format (the built-in models' format),
// read from text or from a path= file, bound to the extractors, with
// --model overrides, and scored on a collector of fuzzed feature values.
//
// Input: one byte of mode below 8 (bit 0: through a file as path= reads it;
// bit 1: disable_clip; bit 2: enable_transform; absent where the input
// starts with the text, as Netflix's model files do), then the JSON text, optionally
// followed by a NUL byte and --model overrides ("adm.opt=1:vif.opt=2") and
// the feature values (8 bytes each).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "cli/cli_args.h"
#include "core/collector.h"
#include "fuzz_support.h"
#include "model/binding.h"
#include "model/model.h"
#include "model/predict.h"
#include "twinvmaf/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace twinvmaf;
    if (size < 1) return 0;
    const bool has_mode = data[0] < 8;
    const unsigned mode = has_mode ? data[0] : 0;
    std::string_view rest(reinterpret_cast<const char*>(data + has_mode), size - has_mode);
    const std::size_t nul = rest.find('\0');
    const std::string_view json = rest.substr(0, nul);
    std::string_view overrides, values;
    if (nul != std::string_view::npos) {
        const std::string_view tail = rest.substr(nul + 1);
        const std::size_t second = tail.find('\0');
        overrides = tail.substr(0, second);
        if (second != std::string_view::npos) values = tail.substr(second + 1);
    }

    const model::LoadOptions options{.name = "vmaf", .disable_clip = (mode & 2) != 0,
                                     .enable_transform = (mode & 4) != 0};
    try {
        model::LoadedModel loaded;
        if (mode & 1) {
            fuzz::InputBytes file(json, false);
            loaded = model::load_model_file(file.path(), options);
        } else {
            loaded = model::parse_model(json, "fuzz model", options);
        }
        if (!overrides.empty()) {
            // The overrides as a --model argument gives them.
            const cli::ModelRequest request =
                cli::parse_model_argument("version=x:" + std::string(overrides));
            for (const auto& [extractor, list] : request.overrides) model::apply_override(loaded, extractor, list);
        }
        model::bind_to_extractors(loaded);

        // Two frames of feature values (from the input, else fixed ones).
        Collector collector;
        std::size_t next = 0;
        for (const model::Model* m : loaded.all_models()) {
            for (const model::ModelFeature& feature : m->features) {
                for (std::uint64_t frame = 0; frame < 2; ++frame) {
                    double value = 0.5 + static_cast<double>(frame);
                    if (next + sizeof value <= values.size()) std::memcpy(&value, values.data() + next, sizeof value);
                    next += sizeof value;
                    collector.set(feature.input, frame, value);
                }
            }
        }
        const model::LoadedModel models[] = {std::move(loaded)};
        model::score_models(models, collector, 2, 1);
        (void)model::pooled_summary(models, collector, 2, 1);
    } catch (const Error& e) {
        fuzz::check_message(e.what());
    } catch (const cli::UsageError& e) {
        fuzz::check_message(e.what());
    }
    return 0;
}
