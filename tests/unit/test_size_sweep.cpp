// Every feature on every small frame size against Netflix (issue 29).
//
// tests/data/size_sweep/netflix.txt holds, per feature, option set, format
// and frame size, what Netflix's `vmaf` CLI (libvmaf 3.2.0, f85a8536, its
// plain C path, %.17g) gives on clips that tools/size_sweep.py makes from
// splitmix64: the FNV-1a hash of its values (all frames, %.17g, Netflix's key
// order), the values themselves on a few lines, or "refused" where Netflix
// crashes, writes no scores or reads outside its buffers. clip_pictures()
// makes the same pictures in memory; each case runs the feature's extractor
// in-process (init, every frame with its history, collect, flush) and must
// give Netflix's values, or refuse with an error that names the feature and
// says the frame is too small. The README beside the data file says how it
// was made.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/feature.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;

namespace {

constexpr unsigned kFrames = 3;
constexpr unsigned kSanitizerSide = 40;  // the largest side checked under the sanitizers

// tools/size_sweep.py's samples(): per plane, ref uniform in [0, max], dis =
// ref + uniform noise in [-24, 24] << (bitdepth - 8), clipped; chroma planes
// of Netflix's size (w >> sx, h >> sy) at the top left of ours, whose extra
// column or row (never scored) stays mid-grey.
std::pair<Picture, Picture> clip_pictures(const VideoFormat& format, unsigned frame)
{
    const unsigned max = format.max_sample(), mid = 1u << (format.bitdepth - 1);
    const std::int64_t amp = std::int64_t{24} << (format.bitdepth - 8);
    Picture ref = test::constant_picture(format, mid), dis = test::constant_picture(format, mid);
    const unsigned sx = format.chroma == ChromaFormat::k444 ? 0 : 1;
    const unsigned sy = format.chroma == ChromaFormat::k420 ? 1 : 0;
    for (int plane = 0; plane < 3; ++plane) {
        const unsigned pw = plane ? format.width >> sx : format.width;
        const unsigned ph = plane ? format.height >> sy : format.height;
        std::uint64_t state = (std::uint64_t{format.width} << 40) ^ (std::uint64_t{format.height} << 24) ^
                              (std::uint64_t{format.bitdepth} << 16) ^ frame ^ (std::uint64_t(plane) << 56);
        for (unsigned y = 0; y < ph; ++y) {
            for (unsigned x = 0; x < pw; ++x) {
                const std::uint64_t r = test::splitmix64(state);
                const std::int64_t value = static_cast<std::int64_t>(r % (max + 1));
                const std::int64_t noise = static_cast<std::int64_t>((r >> 32) % (2 * amp + 1)) - amp;
                test::set_sample(ref, plane, x, y, static_cast<unsigned>(value));
                test::set_sample(dis, plane, x, y,
                                 static_cast<unsigned>(std::clamp<std::int64_t>(value + noise, 0, max)));
            }
        }
    }
    return {std::move(ref), std::move(dis)};
}

std::uint64_t fnv1a64(const std::string& bytes)
{
    std::uint64_t h = 0xCBF29CE484222325u;
    for (const unsigned char c : bytes) h = (h ^ c) * 0x100000001B3u;
    return h;
}

std::string text(double value)
{
    if (!std::isfinite(value)) return "null";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
}

// One group of the data file: "@ FEATURE SET OPTIONS FORMAT KEYS...".
struct Group {
    std::string feature, set, format_name;
    OptionList options;
    std::vector<std::string> keys;
    VideoFormat format(unsigned w, unsigned h) const
    {
        const ChromaFormat chroma = format_name.rfind("420", 0) == 0   ? ChromaFormat::k420
                                    : format_name.rfind("422", 0) == 0 ? ChromaFormat::k422
                                                                       : ChromaFormat::k444;
        return VideoFormat{w, h, chroma, static_cast<unsigned>(std::stoul(format_name.substr(4)))};
    }
};

Group parse_group(const std::string& line)
{
    std::istringstream fields(line.substr(1));
    Group g;
    std::string options;
    fields >> g.feature >> g.set >> options >> g.format_name;
    if (options != "-") {
        std::istringstream items(options);
        for (std::string item; std::getline(items, item, ':');)
            g.options.emplace_back(item.substr(0, item.find('=')), item.substr(item.find('=') + 1));
    }
    for (std::string key; fields >> key;)
        if (key != "-") g.keys.push_back(key);
    return g;
}

// What twinvmaf does with a case: its values per frame and key (%.17g), or
// the refusal's message.
struct Outcome {
    std::string refusal;
    std::vector<std::vector<std::string>> values;  // [frame][key]
    std::string missing;                            // a key twinvmaf does not write
};

Outcome run_case(const Group& g, unsigned w, unsigned h)
{
    Outcome out;
    const VideoFormat format = g.format(w, h);
    try {
        auto extractor = test::make_extractor(g.feature, g.options);
        extractor->init(format);
        std::vector<Picture> refs, dis;
        for (unsigned f = 0; f < kFrames; ++f) {
            auto [r, d] = clip_pictures(format, f);
            refs.push_back(std::move(r));
            dis.push_back(std::move(d));
        }
        const Collector c = test::score_frames(*extractor, refs, dis);
        out.values.assign(kFrames, {});
        for (const std::string& key : g.keys) {
            const auto slot = c.find(key);
            if (!slot) {
                out.missing = key;
                continue;
            }
            for (unsigned f = 0; f < kFrames; ++f) out.values[f].push_back(text(c.get(*slot, f)));
        }
    } catch (const Error& e) {
        out.refusal = e.what();
    }
    return out;
}

std::uint64_t hash_of(const Outcome& out)
{
    std::string blob;
    for (const auto& frame : out.values) {
        for (std::size_t k = 0; k < frame.size(); ++k) blob += (k ? " " : "") + frame[k];
        blob += "\n";
    }
    return fnv1a64(blob);
}

std::filesystem::path data_file()
{
    return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "size_sweep" / "netflix.txt";
}

}  // namespace

TEST(SizeSweep, EveryFeatureEqualsNetflixOrRefusesWhereNetflixFails)
{
    std::ifstream in(data_file());
    ASSERT_TRUE(in) << "cannot read " << data_file();
    Group group;
    std::map<std::string, int> counts;  // per outcome kind, reported at the end
    std::string last_size;
    Outcome last;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        if (line[0] == '@') {
            group = parse_group(line);
            last_size.clear();
            continue;
        }
        std::istringstream fields(line);
        std::string size, kind;
        fields >> size >> kind;
        const unsigned w = std::stoul(size.substr(0, size.find('x')));
        const unsigned h = std::stoul(size.substr(size.find('x') + 1));
        // Under AddressSanitizer, the frames of up to 40 on each side: there a
        // loop's tail, a border or a plane's end is read past if at all. The
        // larger sizes are 70 % of the sweep's pixels (five minutes under the
        // sanitizers); the release run checks every case.
        if (test::kAddressSanitizer && (w > kSanitizerSide || h > kSanitizerSide)) {
            if (size != last_size) ++counts["left to the release run (sanitizers: a side over 40)"];
            last_size = size;
            last = Outcome{};
            continue;
        }
        if (size != last_size) {  // "=" lines follow their size's hash line
            last = run_case(group, w, h);
            last_size = size;
        }
        const std::string where = group.feature + " " + group.set + " " + group.format_name + " " + size;
        if (kind == "refused") {
            std::string reason;
            fields >> reason;
            ++counts["refused (netflix: " + reason + ")"];
            EXPECT_NE(last.refusal, "") << where << ": Netflix " << reason << ", we scored";
            if (!last.refusal.empty()) {
                // Clear: it names the feature, and the frame's size or that a
                // size is too small.
                EXPECT_EQ(last.refusal.rfind(group.feature + ": ", 0), 0u) << where << ": " << last.refusal;
                EXPECT_TRUE(last.refusal.find("too small") != std::string::npos ||
                            last.refusal.find(size) != std::string::npos)
                    << where << ": " << last.refusal;
            }
        } else if (kind == "=") {
            unsigned frame = 0;
            fields >> frame;
            ASSERT_EQ(last.refusal, "") << where;
            for (std::size_t k = 0; k < group.keys.size(); ++k) {
                std::string expected;
                fields >> expected;
                ASSERT_LT(k, last.values[frame].size()) << where << ": no " << group.keys[k];
                EXPECT_EQ(last.values[frame][k], expected) << where << " frame " << frame << " " << group.keys[k];
            }
        } else {
            ++counts["scored"];
            ASSERT_EQ(last.refusal, "") << where << ": Netflix scores, we refused";
            EXPECT_EQ(last.missing, "") << where << ": we write no " << last.missing;
            char hex[17];
            std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash_of(last)));
            EXPECT_EQ(std::string(hex), kind) << where << ": values differ from Netflix's";
        }
    }
    for (const auto& [what, n] : counts) std::cout << "[ size sweep ] " << what << ": " << n << "\n";
    EXPECT_GT(counts["scored"], 0);
}
