// twinvmaf_make_sample <output-dir>
//
// Writes the small sample pair that `make demo` scores: <output-dir>/ref.y4m
// and <output-dir>/dis.y4m, 160x96 4:2:0 8-bit, 12 frames at 25 fps.
//
// ref: a smooth gradient background, a scrolling texture and three moving
//      shapes, so that every metric has something to measure.
// dis: ref with a 3x3 box blur on luma plus small noise (+-2 luma, +-1 chroma).
//
// The output must be byte-identical on every run, compiler and platform, so
// the pixel generation uses integer arithmetic only and a PRNG written here
// (PCG32): std::rand and the <random> distributions differ between standard
// libraries.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace {

constexpr int kWidth = 160;
constexpr int kHeight = 96;
constexpr int kChromaWidth = kWidth / 2;
constexpr int kChromaHeight = kHeight / 2;
constexpr int kFrames = 12;
constexpr const char* kHeader = "YUV4MPEG2 W160 H96 F25:1 Ip A1:1 C420\n";

// PCG32 (O'Neill, pcg-random.org, "pcg32_random_r"): fully specified integer
// arithmetic, so the sequence is the same everywhere.
class Pcg32 {
public:
    Pcg32(std::uint64_t seed, std::uint64_t stream) : inc_((stream << 1U) | 1U) {
        next();
        state_ += seed;
        next();
    }

    std::uint32_t next() {
        const std::uint64_t old = state_;
        state_ = old * 6364136223846793005ULL + inc_;
        const auto xorshifted = static_cast<std::uint32_t>(((old >> 18U) ^ old) >> 27U);
        const auto rot = static_cast<std::uint32_t>(old >> 59U);
        return (xorshifted >> rot) | (xorshifted << ((32U - rot) & 31U));
    }

    // Uniform-enough integer in [lo, hi] (the tiny modulo bias does not matter
    // here; what matters is that it is exact and portable).
    int range(int lo, int hi) {
        const auto span = static_cast<std::uint32_t>(hi - lo + 1);
        return lo + static_cast<int>(next() % span);
    }

private:
    std::uint64_t state_ = 0;
    std::uint64_t inc_;
};

std::uint8_t clamp_u8(int v) {
    return static_cast<std::uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
}

struct Frame {
    std::vector<std::uint8_t> y = std::vector<std::uint8_t>(kWidth * kHeight);
    std::vector<std::uint8_t> u = std::vector<std::uint8_t>(kChromaWidth * kChromaHeight);
    std::vector<std::uint8_t> v = std::vector<std::uint8_t>(kChromaWidth * kChromaHeight);
};

// Which shape (if any) covers luma position (x, y) in frame t; 0 = none.
// Later shapes are drawn on top of earlier ones.
int shape_at(int x, int y, int t) {
    int shape = 0;
    // 1: a 28x20 rectangle moving right by 7 px per frame.
    const int rx = 6 + 7 * t;
    const int ry = 10;
    if (x >= rx && x < rx + 28 && y >= ry && y < ry + 20) shape = 1;
    // 2: a disc of radius 14 moving diagonally.
    const int cx = 120 - 5 * t;
    const int cy = 24 + 4 * t;
    const int dx = x - cx;
    const int dy = y - cy;
    if (dx * dx + dy * dy <= 14 * 14) shape = 2;
    // 3: a thin horizontal bar sweeping upwards.
    const int by = 88 - 6 * t;
    if (y >= by && y < by + 4 && x >= 20 && x < 140) shape = 3;
    return shape;
}

Frame make_reference(int t, const std::vector<int>& texture) {
    Frame f;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            // Gradient 40..220 plus a texture that scrolls 3 px left per frame.
            int value = 40 + (x * 120) / (kWidth - 1) + (y * 60) / (kHeight - 1);
            const int tx = (x + 3 * t) % kWidth;
            value += texture[static_cast<std::size_t>(y * kWidth + tx)];
            switch (shape_at(x, y, t)) {
                case 1: value = 200 + texture[static_cast<std::size_t>(y * kWidth + x)] / 2; break;
                case 2: value = 60 + ((x + y) & 4) * 4; break;  // small stripes inside the disc
                case 3: value = 235; break;
                default: break;
            }
            f.y[static_cast<std::size_t>(y * kWidth + x)] = clamp_u8(value);
        }
    }
    for (int y = 0; y < kChromaHeight; ++y) {
        for (int x = 0; x < kChromaWidth; ++x) {
            int u = 96 + (x * 64) / (kChromaWidth - 1);
            int v = 160 - (y * 64) / (kChromaHeight - 1);
            switch (shape_at(2 * x, 2 * y, t)) {
                case 1: u = 90; v = 200; break;   // reddish
                case 2: u = 200; v = 100; break;  // bluish
                case 3: u = 128; v = 128; break;  // grey
                default: break;
            }
            const auto i = static_cast<std::size_t>(y * kChromaWidth + x);
            f.u[i] = clamp_u8(u);
            f.v[i] = clamp_u8(v);
        }
    }
    return f;
}

// 3x3 box blur on luma (edges replicated, rounded to nearest) plus noise.
Frame degrade(const Frame& ref, Pcg32& rng) {
    Frame d;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            int sum = 0;
            for (int oy = -1; oy <= 1; ++oy) {
                for (int ox = -1; ox <= 1; ++ox) {
                    const int sy = y + oy < 0 ? 0 : (y + oy >= kHeight ? kHeight - 1 : y + oy);
                    const int sx = x + ox < 0 ? 0 : (x + ox >= kWidth ? kWidth - 1 : x + ox);
                    sum += ref.y[static_cast<std::size_t>(sy * kWidth + sx)];
                }
            }
            d.y[static_cast<std::size_t>(y * kWidth + x)] = clamp_u8((sum + 4) / 9 + rng.range(-2, 2));
        }
    }
    for (std::size_t i = 0; i < ref.u.size(); ++i) d.u[i] = clamp_u8(ref.u[i] + rng.range(-1, 1));
    for (std::size_t i = 0; i < ref.v.size(); ++i) d.v[i] = clamp_u8(ref.v[i] + rng.range(-1, 1));
    return d;
}

void write_frame(std::ofstream& out, const Frame& f) {
    out << "FRAME\n";
    out.write(reinterpret_cast<const char*>(f.y.data()), static_cast<std::streamsize>(f.y.size()));
    out.write(reinterpret_cast<const char*>(f.u.data()), static_cast<std::streamsize>(f.u.size()));
    out.write(reinterpret_cast<const char*>(f.v.data()), static_cast<std::streamsize>(f.v.size()));
}

bool open_output(std::ofstream& out, const std::filesystem::path& path) {
    out.open(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        std::fprintf(stderr, "twinvmaf_make_sample: cannot open %s for writing\n", path.string().c_str());
        return false;
    }
    out << kHeader;
    return true;
}

bool finish_output(std::ofstream& out, const std::filesystem::path& path) {
    out.close();
    if (out.fail()) {
        std::fprintf(stderr, "twinvmaf_make_sample: error while writing %s\n", path.string().c_str());
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2 || std::string(argv[1]).empty()) {
        std::fprintf(stderr,
                     "usage: twinvmaf_make_sample <output-dir>\n"
                     "Writes <output-dir>/ref.y4m and <output-dir>/dis.y4m "
                     "(160x96, 4:2:0 8-bit, %d frames).\n",
                     kFrames);
        return 1;
    }
    const std::filesystem::path dir = argv[1];
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        std::fprintf(stderr, "twinvmaf_make_sample: cannot create directory %s: %s\n", dir.string().c_str(),
                     ec ? ec.message().c_str() : "not a directory");
        return 1;
    }

    // Fixed seeds: the texture and the noise never change between runs.
    Pcg32 texture_rng(0x7477696E766D6166ULL /* "twinvmaf" */, 1);
    std::vector<int> texture(static_cast<std::size_t>(kWidth * kHeight));
    for (int& t : texture) t = texture_rng.range(-10, 10);
    Pcg32 noise_rng(0x73616D706C65ULL /* "sample" */, 2);

    const std::filesystem::path ref_path = dir / "ref.y4m";
    const std::filesystem::path dis_path = dir / "dis.y4m";
    std::ofstream ref_out;
    std::ofstream dis_out;
    if (!open_output(ref_out, ref_path) || !open_output(dis_out, dis_path)) return 1;
    for (int t = 0; t < kFrames; ++t) {
        const Frame ref = make_reference(t, texture);
        write_frame(ref_out, ref);
        write_frame(dis_out, degrade(ref, noise_rng));
    }
    if (!finish_output(ref_out, ref_path) || !finish_output(dis_out, dis_path)) return 1;
    return 0;
}
