#include "cli/batch.h"

#include <charconv>
#include <filesystem>

#include "core/message_text.h"
#include "io/raw_reader.h"
#include "twinvmaf/error.h"

namespace twinvmaf::cli {

namespace {

// Splits a line at unquoted blanks, as a shell would: "..." groups (with \"
// and \\ inside), '...' groups literally.
std::vector<std::string> split_fields(const std::string& line)
{
    std::vector<std::string> fields;
    std::string field;
    bool in_field = false;
    char quote = 0;  // the quote open, if any
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote == '"' && c == '\\' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) {
            field += line[++i];
        } else if (quote && c == quote) {
            quote = 0;
        } else if (quote) {
            field += c;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            if (in_field) fields.push_back(std::move(field));
            field.clear();
            in_field = false;
        } else if (c == '"' || c == '\'') {
            quote = c;
            in_field = true;
        } else {
            field += c;
            in_field = true;
        }
    }
    if (quote) throw Error(std::string("a ") + (quote == '"' ? "double" : "single") + " quote is not closed");
    if (in_field) fields.push_back(std::move(field));
    return fields;
}

unsigned parse_number(const std::string& key, const std::string& value)
{
    unsigned number = 0;
    const char* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, number);
    if (value.empty() || ec != std::errc() || ptr != end || number == 0)
        throw Error(message_text(key + "=" + value) + ": expected a positive integer");
    return number;
}

// width= / height=: 1 .. kMaxFrameDimension, as -w / -h.
unsigned parse_dimension(const std::string& key, const std::string& value)
{
    const unsigned number = parse_number(key, value);
    if (number > kMaxFrameDimension)
        throw Error(message_text(key + "=" + value) + ": at most " + std::to_string(kMaxFrameDimension));
    return number;
}

struct Geometry {
    std::optional<unsigned> width, height, bitdepth;
    std::optional<ChromaFormat> chroma;
};

void set_field(BatchPair& pair, Geometry& geometry, const std::string& key, const std::string& value)
{
    if (key == "width" || key == "w") {
        geometry.width = parse_dimension(key, value);
    } else if (key == "height" || key == "h") {
        geometry.height = parse_dimension(key, value);
    } else if (key == "pixel_format" || key == "p") {
        if (value == "420") geometry.chroma = ChromaFormat::k420;
        else if (value == "422") geometry.chroma = ChromaFormat::k422;
        else if (value == "444") geometry.chroma = ChromaFormat::k444;
        else throw Error(message_text(key + "=" + value) + ": expected 420, 422 or 444");
    } else if (key == "bitdepth" || key == "b") {
        const unsigned bits = parse_number(key, value);
        if (bits != 8 && bits != 10 && bits != 12 && bits != 16)
            throw Error(message_text(key + "=" + value) + ": expected 8, 10, 12 or 16");
        geometry.bitdepth = bits;
    } else if (key == "ref_stream" || key == "dist_stream") {
        unsigned stream = 0;
        const char* end = value.data() + value.size();
        const auto [ptr, ec] = std::from_chars(value.data(), end, stream);
        if (value.empty() || ec != std::errc() || ptr != end || stream > 1023)
            throw Error(message_text(key + "=" + value) + ": expected a stream number 0..1023");
        (key == "ref_stream" ? pair.ref_stream : pair.dist_stream) = stream;
    } else if (key == "output" || key == "o") {
        if (value.empty()) throw Error("output= needs a path");
        pair.output = value;
    } else {
        throw Error("unknown key \"" + message_text(key) +
                    "\"; expected width, height, pixel_format, bitdepth, ref_stream, dist_stream or output");
    }
}

BatchPair parse_line(const std::string& line, std::size_t number)
{
    BatchPair pair;
    pair.line = number;
    try {
        const std::vector<std::string> fields = split_fields(line);
        if (fields.size() < 2) throw Error("expected a reference and a distorted path");
        pair.reference = fields[0];
        pair.distorted = fields[1];
        // An empty quoted field ('' or "") is a field, but names no file.
        if (pair.reference.empty() || pair.distorted.empty())
            throw Error(std::string("the ") + (pair.reference.empty() ? "reference" : "distorted") +
                        " path is empty");
        if (pair.reference == kStandardInputPath && pair.distorted == kStandardInputPath)
            throw Error("- and - cannot both read standard input; give one of them a file");
        Geometry geometry;
        for (std::size_t i = 2; i < fields.size(); ++i) {
            const std::size_t at = fields[i].find('=');
            if (at == std::string::npos || at == 0)
                throw Error("unexpected field \"" + message_text(fields[i]) + "\"; after the two paths only key=value");
            set_field(pair, geometry, fields[i].substr(0, at), fields[i].substr(at + 1));
        }
        const int given = geometry.width.has_value() + geometry.height.has_value() + geometry.chroma.has_value() +
                          geometry.bitdepth.has_value();
        if (given == 4)
            pair.raw_format = VideoFormat{*geometry.width, *geometry.height, *geometry.chroma, *geometry.bitdepth};
        else if (given)
            throw Error("raw geometry needs all of width, height, pixel_format and bitdepth");
    } catch (const Error& e) {
        pair.error = std::string("bad line: ") + e.what();
    }
    return pair;
}

const char* extension(OutputFormat format)
{
    switch (format) {
    case OutputFormat::kXml: return "xml";
    case OutputFormat::kJson: return "json";
    case OutputFormat::kCsv: return "csv";
    case OutputFormat::kSub: return "sub";
    }
    return "out";
}

}  // namespace

std::vector<BatchPair> parse_batch_list(const std::string& text)
{
    std::vector<BatchPair> pairs;
    std::size_t start = 0, number = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        ++number;
        const std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        pairs.push_back(parse_line(line, number));
    }
    return pairs;
}

std::string batch_output_path(const BatchPair& pair, const std::string& output_option, OutputFormat format)
{
    if (!pair.output.empty()) return pair.output;
    if (output_option == "-") return "-";
    const std::filesystem::path distorted(pair.distorted);
    const std::string name = distorted.filename().string() + "." + extension(format);
    if (output_option.empty()) return (distorted.parent_path() / name).string();
    return (std::filesystem::path(output_option) / name).string();
}

}  // namespace twinvmaf::cli
