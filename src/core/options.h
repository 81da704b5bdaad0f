// Typed feature options with Netflix's names, defaults and ranges.
//
// Each feature declares a table of OptionSpec (libvmaf's VmafOption table).
// The CLI hands the `--feature name=opt=val:opt=val` pairs to
// OptionValues::set(), which checks the name and the value and reports every
// valid option when a name is unknown. Netflix silently ignores unknown keys;
// we refuse them (docs/compat.md).
#pragma once

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "twinvmaf/options.h"

namespace twinvmaf {

enum class OptionType { kBool, kInt, kDouble, kString };

using OptionValue = std::variant<bool, int, double, std::string>;

struct OptionSpec {
    std::string name;
    OptionType type = OptionType::kBool;
    OptionValue default_value = false;
    std::string help;
    // Inclusive range for kInt and kDouble.
    double min = -std::numeric_limits<double>::max();
    double max = std::numeric_limits<double>::max();
    // libvmaf's VMAF_OPT_FLAG_FEATURE_PARAM: a non-default value is appended
    // to the output names as "_<alias>_<value>" (a bool as "_<alias>").
    bool names_output = false;
    std::string alias;  // short name in output suffixes; empty = name
};

class OptionValues {
public:
    OptionValues() = default;
    OptionValues(std::string feature, const std::vector<OptionSpec>& specs);

    // Parses `text` for option `name`. Throws twinvmaf::Error naming the
    // feature, the option and the problem (unknown option: lists the valid ones).
    void set(const std::string& name, const std::string& text);
    void set_all(const OptionList& options);

    bool get_bool(const std::string& name) const;
    int get_int(const std::string& name) const;
    double get_double(const std::string& name) const;
    const std::string& get_string(const std::string& name) const;

    // libvmaf's output-name suffix for the non-default naming options, in the
    // alphabetical order of their full names ("_egl_1.2", "_csf_2_dlmw_0.7").
    std::string output_suffix() const;

    // Same feature, same values: one extractor instance serves both.
    bool operator==(const OptionValues& other) const
    {
        return feature_ == other.feature_ && values_ == other.values_;
    }

    const std::string& feature() const { return feature_; }
    const std::vector<OptionSpec>& specs() const { return *specs_; }

private:
    const OptionSpec& spec(const std::string& name) const;
    const OptionValue& value(const std::string& name, OptionType type) const;

    std::string feature_;
    const std::vector<OptionSpec>* specs_ = nullptr;
    std::map<std::string, OptionValue> values_;
};

// Formats a value as libvmaf does in output-name suffixes (%d, %g, string).
std::string format_option_value(const OptionValue& value);

// libvmaf keeps extractor options as text in a dictionary, and stores a
// number there as the float nearest to it printed with "%g", i.e. rounded to
// six significant digits: "1.2345678" is stored, and used, as 1.23457.
//
// libvmaf_option_text: a value given as text (--feature name=opt=value,
// --model ...:extractor.opt=value); text that is not one number is kept.
// libvmaf_number_text: a number of a model file's feature_opts_dicts.
std::string libvmaf_option_text(const std::string& text);
std::string libvmaf_number_text(double value);

}  // namespace twinvmaf
