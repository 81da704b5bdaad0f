// The feature and option string parsers: --feature "name=opt=val:opt=val"
// (then the extractor is made and initialised on a small frame, which checks
// the options against each other and the size) and --model's
// "path=...:name=...:extractor.opt=val".
//
// Input: one byte choosing the frame's size and format, then the text.
#include <cstdint>
#include <string>

#include "cli/cli_args.h"
#include "core/feature.h"
#include "core/options.h"
#include "fuzz_support.h"
#include "twinvmaf/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace twinvmaf;
    if (size < 1) return 0;
    const unsigned pick = data[0];
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    static const unsigned kSizes[] = {1, 2, 3, 7, 16, 33, 64, 176};
    const VideoFormat format{kSizes[pick & 7], kSizes[(pick >> 3) & 7], static_cast<ChromaFormat>((pick >> 6) % 3),
                             (pick & 0x40) ? 10u : 8u};
    try {
        const cli::FeatureRequest request = cli::parse_feature_argument(text);
        const FeatureInfo& info = find_feature(request.name);
        OptionValues values(info.name, info.options);
        values.set_all(request.options);
        (void)values.output_suffix();
        auto extractor = info.create(values);
        extractor->init(format);
        (void)extractor->output_names();
    } catch (const Error& e) {
        fuzz::check_message(e.what());
    } catch (const cli::UsageError& e) {
        fuzz::check_message(e.what());
    }
    try {
        (void)cli::parse_model_argument(text);
    } catch (const cli::UsageError& e) {
        fuzz::check_message(e.what());
    }
    (void)libvmaf_option_text(text);
    return 0;
}
