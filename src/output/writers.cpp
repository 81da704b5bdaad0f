#include "output/writers.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string_view>

#include "output/output_file.h"
#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

// Netflix's count_leading_zeros_d: how many times the fractional part of |x|
// must be multiplied by 10 to reach 1. Its (int) cast is undefined for |x| >=
// 2^31 and non-finite x; on the platforms Netflix runs on the cast saturates
// (x86: INT_MIN, ARM: INT_MAX) so the "fraction" is >= 1 or NaN and the count
// is 0 - we return that without the undefined cast.
int count_leading_zeros(double x)
{
    x = std::fabs(x);
    if (!(x < 2147483648.0)) return 0;
    double fraction = x - static_cast<double>(static_cast<int>(x));
    int count = 0;
    // Repeated multiplication, not log10: the rounding of each step decides
    // the borderline cases exactly as in Netflix's loop.
    while (fraction < 1.0 && fraction != 0.0) {
        fraction *= 10.0;
        ++count;
    }
    return count;
}

// Big enough for "%.16f" of the largest double (309 digits + 17 + sign).
constexpr std::size_t kNumberBuffer = 400;

// Writes `value` as the precision says into buf; returns the length.
// std::to_chars with an explicit precision is specified to print as printf
// does, and is several times faster than snprintf; non-finite values go
// through snprintf so inf/nan are spelled exactly as C's printf spells them.
std::size_t format_number(char* buf, double value, const Precision& precision)
{
    const bool legacy = precision.mode == Precision::Mode::kLegacy;
    const int digits = precision.mode == Precision::Mode::kMax ? 17 : precision.digits;
    if (!std::isfinite(value)) {
        const int n = legacy ? std::snprintf(buf, kNumberBuffer, "%.6f", value)
                             : std::snprintf(buf, kNumberBuffer, "%.*g", digits, value);
        return n > 0 ? static_cast<std::size_t>(n) : 0;
    }
    std::to_chars_result result{};
    if (legacy) {
        const int places = count_leading_zeros(value) <= 6 ? 6 : 16;
        result = std::to_chars(buf, buf + kNumberBuffer, value, std::chars_format::fixed, places);
    } else {
        result = std::to_chars(buf, buf + kNumberBuffer, value, std::chars_format::general, digits);
    }
    if (result.ec != std::errc()) throw Error("internal: cannot format a number");
    return static_cast<std::size_t>(result.ptr - buf);
}

// Accumulates output in a buffer and hands it on in large chunks, so that a
// run of 100k frames x 40 scores costs no per-value allocation or I/O call.
class Sink {
public:
    using Emit = std::function<void(const char*, std::size_t)>;
    Sink(Emit emit, const Precision& precision) : emit_(std::move(emit)), precision_(precision)
    {
        buf_.reserve(kChunk + 4096);
    }

    Sink& operator<<(std::string_view text)
    {
        buf_.append(text);
        maybe_flush();
        return *this;
    }
    Sink& integer(std::uint64_t value)
    {
        char tmp[24];
        const auto result = std::to_chars(tmp, tmp + sizeof tmp, value);
        buf_.append(tmp, static_cast<std::size_t>(result.ptr - tmp));
        return *this;
    }
    Sink& number(double value)
    {
        char tmp[kNumberBuffer];
        buf_.append(tmp, format_number(tmp, value, precision_));
        maybe_flush();
        return *this;
    }
    // fps is "%.2f" whatever the precision, as in Netflix's output.
    Sink& fps(double value)
    {
        char tmp[kNumberBuffer];
        const int n = std::snprintf(tmp, sizeof tmp, "%.2f", value);
        if (n > 0) buf_.append(tmp, std::min(static_cast<std::size_t>(n), sizeof tmp - 1));
        return *this;
    }
    void flush()
    {
        if (!buf_.empty()) emit_(buf_.data(), buf_.size());
        buf_.clear();
    }

private:
    static constexpr std::size_t kChunk = 1 << 16;
    void maybe_flush()
    {
        if (buf_.size() >= kChunk) flush();
    }

    Emit emit_;
    const Precision& precision_;
    std::string buf_;
};

constexpr PoolMethod kPoolMethods[] = {PoolMethod::kMin, PoolMethod::kMax, PoolMethod::kMean,
                                       PoolMethod::kHarmonicMean};
constexpr std::string_view kPoolNames[] = {"min", "max", "mean", "harmonic_mean"};

// Walks the frames Netflix writes: in range, on the subsample grid, and with
// at least one written score.
template <typename Fn>
void for_each_frame(const OutputContext& ctx, Fn&& fn)
{
    const auto& series = ctx.collector.series();
    const std::uint64_t span = ctx.collector.frame_span();
    for (std::uint64_t i = 0; i < span; ++i) {
        if (ctx.subsample > 1 && i % ctx.subsample) continue;
        std::size_t count = 0;
        for (std::size_t j = 0; j < series.size(); ++j) {
            if (ctx.collector.has(j, i)) ++count;
        }
        if (count) fn(i, count);
    }
}

void write_xml(Sink& out, const OutputContext& ctx)
{
    const Collector& c = ctx.collector;
    const auto& series = c.series();
    out << "<VMAF version=\"" << ctx.version << "\">\n";
    out << "  <params qualityWidth=\"";
    out.integer(ctx.width) << "\" qualityHeight=\"";
    out.integer(ctx.height) << "\" />\n";
    out << "  <fyi fps=\"";
    out.fps(ctx.fps) << "\" />\n";

    out << "  <frames>\n";
    for_each_frame(ctx, [&](std::uint64_t i, std::size_t) {
        out << "    <frame frameNum=\"";
        out.integer(i) << "\" ";
        for (std::size_t j = 0; j < series.size(); ++j) {
            if (!c.has(j, i)) continue;
            out << series[j].name << "=\"";
            out.number(series[j].values[i]) << "\" ";
        }
        out << "/>\n";
    });
    out << "  </frames>\n";

    out << "  <pooled_metrics>\n";
    for (std::size_t j = 0; j < series.size(); ++j) {
        out << "    <metric name=\"" << series[j].name << "\" ";
        for (std::size_t m = 0; m < std::size(kPoolMethods); ++m) {
            const auto value = c.pooled(j, kPoolMethods[m], ctx.frame_count, ctx.subsample);
            if (!value) continue;
            out << kPoolNames[m] << "=\"";
            out.number(*value) << "\" ";
        }
        out << "/>\n";
    }
    out << "  </pooled_metrics>\n";

    out << "  <aggregate_metrics ";
    for (const auto& a : c.aggregates()) {
        out << a.name << "=\"";
        out.number(a.value) << "\" ";
    }
    out << "/>\n";
    out << "</VMAF>\n";
}

// JSON has no inf/nan: Netflix prints null for them.
void json_number(Sink& out, double value)
{
    if (std::isfinite(value)) out.number(value);
    else out << "null";
}

void write_json(Sink& out, const OutputContext& ctx)
{
    const Collector& c = ctx.collector;
    const auto& series = c.series();
    out << "{\n";
    out << "  \"version\": \"" << ctx.version << "\",\n";
    out << "  \"fps\": ";
    if (std::isfinite(ctx.fps)) out.fps(ctx.fps);
    else out << "null";
    out << ",\n";

    // Netflix separates frames by whether the index is 0; we use "first
    // written frame", the same whenever frame 0 is written and valid JSON
    // when it is not.
    bool first_frame = true;
    out << "  \"frames\": [";
    for_each_frame(ctx, [&](std::uint64_t i, std::size_t count) {
        out << (first_frame ? "\n" : ",\n");
        first_frame = false;
        out << "    {\n";
        out << "      \"frameNum\": ";
        out.integer(i) << ",\n";
        out << "      \"metrics\": {\n";
        std::size_t written = 0;
        for (std::size_t j = 0; j < series.size(); ++j) {
            if (!c.has(j, i)) continue;
            ++written;
            const double value = series[j].values[i];
            const std::string_view comma = written < count ? "," : "";
            out << "        \"" << series[j].name << "\": ";
            // Netflix's quirk, kept on purpose: null is not followed by a
            // newline, so the next key continues on the same line.
            if (std::isfinite(value)) {
                out.number(value) << comma << "\n";
            } else {
                out << "null" << comma;
            }
        }
        out << "      }\n";
        out << "    }";
    });
    out << "\n  ],\n";

    out << "  \"pooled_metrics\": {";
    for (std::size_t j = 0; j < series.size(); ++j) {
        out << (j > 0 ? ",\n" : "\n");
        out << "    \"" << series[j].name << "\": {";
        bool first_method = true;
        for (std::size_t m = 0; m < std::size(kPoolMethods); ++m) {
            const auto value = c.pooled(j, kPoolMethods[m], ctx.frame_count, ctx.subsample);
            if (!value) continue;
            out << (first_method ? "\n" : ",\n");
            first_method = false;
            out << "      \"" << kPoolNames[m] << "\": ";
            json_number(out, *value);
        }
        out << "\n    }";
    }
    out << "\n  },\n";

    out << "  \"aggregate_metrics\": {";
    const auto& aggregates = c.aggregates();
    for (std::size_t k = 0; k < aggregates.size(); ++k) {
        out << "\n    \"" << aggregates[k].name << "\": ";
        json_number(out, aggregates[k].value);
        if (k + 1 < aggregates.size()) out << ",";
    }
    out << "\n  }\n";
    out << "}\n";
}

void write_csv(Sink& out, const OutputContext& ctx)
{
    const Collector& c = ctx.collector;
    const auto& series = c.series();
    out << "Frame,";
    for (const auto& s : series) out << s.name << ",";
    out << "\n";
    for_each_frame(ctx, [&](std::uint64_t i, std::size_t) {
        out.integer(i) << ",";
        for (std::size_t j = 0; j < series.size(); ++j) {
            if (!c.has(j, i)) continue;
            out.number(series[j].values[i]) << ",";
        }
        out << "\n";
    });
}

void write_sub(Sink& out, const OutputContext& ctx)
{
    const Collector& c = ctx.collector;
    const auto& series = c.series();
    for_each_frame(ctx, [&](std::uint64_t i, std::size_t) {
        out << "{";
        out.integer(i) << "}{";
        out.integer(i + 1) << "}frame: ";
        out.integer(i) << "|";
        for (std::size_t j = 0; j < series.size(); ++j) {
            if (!c.has(j, i)) continue;
            out << series[j].name << ": ";
            out.number(series[j].values[i]) << "|";
        }
        out << "\n";
    });
}

void write_all(Sink& out, OutputFormat format, const OutputContext& context)
{
    switch (format) {
    case OutputFormat::kXml: write_xml(out, context); break;
    case OutputFormat::kJson: write_json(out, context); break;
    case OutputFormat::kCsv: write_csv(out, context); break;
    case OutputFormat::kSub: write_sub(out, context); break;
    }
    out.flush();
}

}  // namespace

Precision Precision::parse(const std::string& text)
{
    if (text == "legacy") return Precision{Mode::kLegacy, 17};
    if (text == "max") return Precision{Mode::kMax, 17};
    int digits = 0;
    const char* end = text.data() + text.size();
    // Digits only: from_chars already refuses signs and spaces.
    const auto [ptr, ec] = std::from_chars(text.data(), end, digits);
    if (!text.empty() && ec == std::errc() && ptr == end && digits >= 1 && digits <= 17)
        return Precision{Mode::kDigits, digits};
    throw Error("--precision: expected legacy, max or 1..17, got '" + message_text(text) + "'");
}

std::string format_score(double value, const Precision& precision)
{
    char buf[kNumberBuffer];
    return std::string(buf, format_number(buf, value, precision));
}

void write_output(std::ostream& out, OutputFormat format, const OutputContext& context)
{
    Sink sink([&out](const char* data, std::size_t size) {
        out.write(data, static_cast<std::streamsize>(size));
    }, context.precision);
    write_all(sink, format, context);
    out.flush();
    if (!out) throw Error("cannot write output");
}

void write_output_file(const std::string& path, OutputFormat format, const OutputContext& context)
{
    write_output_bytes(path, [&](const ByteSink& bytes) {
        Sink sink(bytes, context.precision);
        write_all(sink, format, context);
    });
}

}  // namespace twinvmaf
