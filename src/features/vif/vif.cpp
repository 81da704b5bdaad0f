#include "features/vif/vif.h"

#include <cmath>
#include <string>

#include "core/feature_names.h"
#include "features/common/vif_debug_outputs.h"
#include "twinvmaf/error.h"

namespace twinvmaf::vif {

namespace {

// Netflix's internal names, in its order of writing (integer_vif.c).
const std::vector<std::string>& provided_names()
{
    static const std::vector<std::string> names = {
        "VMAF_integer_feature_vif_scale0_score",
        "VMAF_integer_feature_vif_scale1_score",
        "VMAF_integer_feature_vif_scale2_score",
        "VMAF_integer_feature_vif_scale3_score",
        // debug=true only:
        "integer_vif",
        "integer_vif_num",
        "integer_vif_den",
        "integer_vif_num_scale0",
        "integer_vif_den_scale0",
        "integer_vif_num_scale1",
        "integer_vif_den_scale1",
        "integer_vif_num_scale2",
        "integer_vif_den_scale2",
        "integer_vif_num_scale3",
        "integer_vif_den_scale3",
    };
    return names;
}

constexpr std::size_t kScoreNames = kScaleCount;  // the first four provided names

// A scale's numerator and denominator, as Netflix stores them: computed in
// double from the integer counters, kept as float.
struct NumDen {
    float num;
    float den;
};

NumDen scale_num_den(const ScaleSums& s)
{
    const double num = s.num_log / 2048.0 + (s.den_non_log - (s.num_non_log / 16384.0) / 65025.0);
    const double den = s.den_log / 2048.0 + s.den_non_log;
    return {static_cast<float>(num), static_cast<float>(den)};
}

}  // namespace

const std::vector<OptionSpec>& option_specs()
{
    static const std::vector<OptionSpec> specs = {
        {.name = "debug", .type = OptionType::kBool, .default_value = false,
         .help = "debug mode: enable additional output"},
        {.name = "vif_enhn_gain_limit", .type = OptionType::kDouble, .default_value = 100.0,
         .help = "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is completely disabled",
         .min = 1.0, .max = 100.0, .names_output = true, .alias = "egl"},
        {.name = "vif_skip_scale0", .type = OptionType::kBool, .default_value = false,
         .help = "when set, skip scale 0 calculations", .names_output = true, .alias = "ssclz"},
    };
    return specs;
}

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.debug = values.get_bool("debug");
    s.enhn_gain_limit = values.get_double("vif_enhn_gain_limit");
    s.skip_scale0 = values.get_bool("vif_skip_scale0");
    return s;
}

const std::uint16_t* log2_table()
{
    // Netflix's log_generate(): log2f in float, scaled (exactly) by 2048 and
    // rounded half away from zero. No entry lies near a rounding tie, so the
    // table is that of a correctly rounded log2f, not of this C library's
    // (tests/unit/test_vif.cpp checks it against log2l). GPU twins get these
    // values as data.
    static const std::vector<std::uint16_t> table = [] {
        // 4 entries of padding: SIMD gathers read 8 bytes at an entry.
        std::vector<std::uint16_t> t(kLog2TableSize + 4);
        for (unsigned i = 0; i < kLog2TableSize; ++i)
            t[i] = static_cast<std::uint16_t>(std::round(std::log2f(static_cast<float>(kLog2TableFirst + i)) * 2048));
        return t;
    }();
    return table.data();
}

VifExtractor::VifExtractor(const Settings& settings, const OptionValues& options) : settings_(settings)
{
    const std::size_t count = settings.debug ? provided_names().size() : kScoreNames;
    for (std::size_t i = 0; i < count; ++i) names_.push_back(output_name(provided_names()[i], options));
}

void VifExtractor::init(const VideoFormat& format)
{
    // Netflix does not check: below 8 rows its 4th scale is empty and it
    // crashes. Below 8 columns it scores (NaN, 0 / 0, for a scale with no
    // columns), valgrind-clean: see statistics() in vif_cpu.cpp.
    if (format.height < kMinFrameHeight) {
        throw Error("vif: frame " + std::to_string(format.width) + "x" + std::to_string(format.height) +
                    " is too small; VIF needs at least " + std::to_string(kMinFrameHeight) +
                    " rows (its 4th scale is width/8 x height/8)");
    }
    format_ = format;
    log2_table();  // built once, before frames run in parallel
}

void VifExtractor::store_sums(const std::array<ScaleSums, kScaleCount>& sums, FrameScores& scores)
{
    for (int s = 0; s < kScaleCount; ++s) {
        const ScaleSums& v = sums[s];
        scores.set_integer(4 * s + 0, static_cast<std::uint64_t>(v.num_log));
        scores.set_integer(4 * s + 1, static_cast<std::uint64_t>(v.den_log));
        scores.set_integer(4 * s + 2, static_cast<std::uint64_t>(v.num_non_log));
        scores.set_integer(4 * s + 3, static_cast<std::uint64_t>(v.den_non_log));
    }
}

void VifExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    std::array<NumDen, kScaleCount> scale{};
    for (int s = 0; s < kScaleCount; ++s) {
        ScaleSums sums;
        sums.num_log = static_cast<std::int64_t>(scores.get_integer(4 * s + 0));
        sums.den_log = static_cast<std::int64_t>(scores.get_integer(4 * s + 1));
        sums.num_non_log = static_cast<std::int64_t>(scores.get_integer(4 * s + 2));
        sums.den_non_log = static_cast<std::int64_t>(scores.get_integer(4 * s + 3));
        scale[s] = scale_num_den(sums);
    }
    const bool skip0 = settings_.skip_scale0;
    const int first = skip0 ? 1 : 0;

    // Each scale's score is a float division, as in Netflix.
    std::size_t slot = 0;
    for (int s = 0; s < kScaleCount; ++s)
        out.write(slot++, index, s < first ? 0.0f : scale[s].num / scale[s].den);
    if (!settings_.debug) return;

    std::array<double, kScaleCount> num{}, den{};
    for (int s = 0; s < kScaleCount; ++s) {
        num[s] = scale[s].num;
        den[s] = scale[s].den;
    }
    vif_debug::write(out, slot, index, num, den, first);
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "vif",
        .help = "integer VIF at four scales (integer_vif_scale0..3)",
        .options = option_specs(),
        .provided = provided_names(),
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<VifCpu>(Settings::from(values), values);
        },
    };
}

}  // namespace twinvmaf::vif
