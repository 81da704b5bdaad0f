#include "core/options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

const char* type_name(OptionType type)
{
    switch (type) {
    case OptionType::kBool: return "true|false";
    case OptionType::kInt: return "integer";
    case OptionType::kDouble: return "number";
    case OptionType::kString: return "string";
    }
    return "?";
}

std::string valid_names(const std::vector<OptionSpec>& specs)
{
    std::string names;
    for (const OptionSpec& spec : specs) {
        if (!names.empty()) names += ", ";
        names += spec.name;
    }
    return names.empty() ? "(this feature has no options)" : names;
}

std::string range_text(const OptionSpec& spec)
{
    char text[96];
    std::snprintf(text, sizeof text, "[%.17g, %.17g]", spec.min, spec.max);
    return text;
}

}  // namespace

std::string format_option_value(const OptionValue& value)
{
    char text[64];
    if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
    if (const int* i = std::get_if<int>(&value)) {
        std::snprintf(text, sizeof text, "%d", *i);
        return text;
    }
    if (const double* d = std::get_if<double>(&value)) {
        std::snprintf(text, sizeof text, "%g", *d);
        return text;
    }
    return std::get<std::string>(value);
}

std::string libvmaf_number_text(double value)
{
    // libvmaf reads the number with strtof. A JSON parser hands us the
    // correctly rounded double; rounding that to float gives strtof's float
    // except when the decimal lies within half a double ulp of a point halfway
    // between two floats, which "%g"'s six digits would then hide anyway.
    char text[64];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(static_cast<float>(value)));
    return text;
}

std::string libvmaf_option_text(const std::string& text)
{
    // libvmaf's test is sscanf(text, "%f %c") == 1: one number, then nothing
    // but white space.
    const char* begin = text.c_str();
    char* end = nullptr;
    const float number = std::strtof(begin, &end);
    if (end == begin) return text;
    while (*end && std::isspace(static_cast<unsigned char>(*end))) ++end;
    if (*end) return text;
    return libvmaf_number_text(number);
}

OptionValues::OptionValues(std::string feature, const std::vector<OptionSpec>& specs)
    : feature_(std::move(feature)), specs_(&specs)
{
    for (const OptionSpec& spec : specs) values_[spec.name] = spec.default_value;
}

const OptionSpec& OptionValues::spec(const std::string& name) const
{
    for (const OptionSpec& spec : *specs_) {
        if (spec.name == name) return spec;
    }
    throw Error("feature '" + feature_ + "' has no option '" + message_text(name) +
                "'; valid options: " + valid_names(*specs_));
}

void OptionValues::set(const std::string& name, const std::string& text)
{
    const OptionSpec& option = spec(name);
    const std::string where = "option " + feature_ + "." + name + "=" + message_text(text) + ": ";
    switch (option.type) {
    case OptionType::kBool:
        if (text == "true") values_[name] = true;
        else if (text == "false") values_[name] = false;
        else throw Error(where + "expected true or false");
        return;
    case OptionType::kInt: {
        errno = 0;
        char* end = nullptr;
        const long parsed = std::strtol(text.c_str(), &end, 10);
        if (text.empty() || *end || errno)
            throw Error(where + "expected an integer");
        if (parsed < option.min || parsed > option.max)
            throw Error(where + "out of range " + range_text(option));
        values_[name] = static_cast<int>(parsed);
        return;
    }
    case OptionType::kDouble: {
        errno = 0;
        char* end = nullptr;
        const double parsed = std::strtod(text.c_str(), &end);
        if (text.empty() || *end || errno || !std::isfinite(parsed))
            throw Error(where + "expected a number");
        if (parsed < option.min || parsed > option.max)
            throw Error(where + "out of range " + range_text(option));
        values_[name] = parsed;
        return;
    }
    case OptionType::kString:
        values_[name] = text;
        return;
    }
}

void OptionValues::set_all(const OptionList& options)
{
    for (const auto& [name, text] : options) set(name, text);
}

const OptionValue& OptionValues::value(const std::string& name, OptionType type) const
{
    const OptionSpec& option = spec(name);
    if (option.type != type)
        throw Error("internal: option " + feature_ + "." + name + " is not of type " +
                    type_name(type));
    return values_.at(name);
}

bool OptionValues::get_bool(const std::string& name) const
{
    return std::get<bool>(value(name, OptionType::kBool));
}

int OptionValues::get_int(const std::string& name) const
{
    return std::get<int>(value(name, OptionType::kInt));
}

double OptionValues::get_double(const std::string& name) const
{
    return std::get<double>(value(name, OptionType::kDouble));
}

const std::string& OptionValues::get_string(const std::string& name) const
{
    return std::get<std::string>(value(name, OptionType::kString));
}

std::string OptionValues::output_suffix() const
{
    if (!specs_) return {};
    std::vector<const OptionSpec*> naming;
    for (const OptionSpec& spec : *specs_) {
        if (spec.names_output && values_.at(spec.name) != spec.default_value)
            naming.push_back(&spec);
    }
    std::sort(naming.begin(), naming.end(),
              [](const OptionSpec* a, const OptionSpec* b) { return a->name < b->name; });
    std::string suffix;
    for (const OptionSpec* spec : naming) {
        const std::string& key = spec->alias.empty() ? spec->name : spec->alias;
        suffix += '_';
        suffix += key;
        if (spec->type != OptionType::kBool) {
            suffix += '_';
            suffix += format_option_value(values_.at(spec->name));
        }
    }
    return suffix;
}

}  // namespace twinvmaf
