// Pictures already in GPU memory (DeviceSurface: NVDEC's NV12/P010/YUV444P16
// frames, libvmaf's CUDA pictures) are copied on the device into the twins'
// layout: the scores equal the CPU's on the same frames bit for bit, no
// picture is uploaded, and each is counted as a device copy. The surfaces
// here are made from the fixtures in each layout a decoder gives (rows
// padded to a pitch, chroma interleaved, samples in the high bits), so
// every path of the copy is checked without a hardware decoder. CUDA only;
// skipped without a device.
#include <gtest/gtest.h>

#include <cstring>

#include "api/scores_data.h"
#include "gpu/gpu_engine.h"
#include "io/video_reader.h"
#include "test_support.h"
#include "twinvmaf/engine.h"

#if defined(TWINVMAF_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

namespace fs = std::filesystem;
using namespace twinvmaf;
using twinvmaf::test::fixtures_dir;

namespace device_pictures_test {

#if defined(TWINVMAF_HAVE_CUDA)

// How a decoder lays a frame out in device memory.
struct Layout {
    bool interleaved;  // NV12/P010: U and V alternate in one chroma plane
    bool high_bits;    // P010/YUV444P16: samples << (16 - bitdepth)
};

// `picture` (host, file layout) as a device surface of `layout`, each plane
// in its own allocation with rows padded to a pitch.
std::shared_ptr<const Picture> on_device(const Picture& picture, Layout layout)
{
    const VideoFormat& f = picture.format();
    const unsigned bytes = f.bytes_per_sample();
    const unsigned shift = layout.high_bits ? 16 - f.bitdepth : 0;
    DeviceSurface surface;
    std::vector<void*> allocations;
    auto sample = [&](int plane, unsigned x, unsigned y) -> unsigned {
        const std::uint8_t* row = picture.bytes() + f.plane_offset(plane) + std::size_t{y} * f.stored_width(plane) * bytes;
        return bytes == 2 ? (row[2 * x] | (row[2 * x + 1] << 8)) : row[x];
    };
    const int planes = layout.interleaved ? 2 : 3;
    for (int p = 0; p < planes; ++p) {
        const unsigned per_row = f.stored_width(p) * (layout.interleaved && p == 1 ? 2 : 1);
        const unsigned rows = f.stored_height(p);
        const std::size_t pitch = (std::size_t{per_row} * bytes + 255) / 256 * 256 + 256;  // padded, as decoders do
        std::vector<std::uint8_t> host(pitch * rows, 0xAB);
        for (unsigned y = 0; y < rows; ++y) {
            for (unsigned i = 0; i < per_row; ++i) {
                const unsigned value = layout.interleaved && p == 1 ? sample(1 + i % 2, i / 2, y) : sample(p, i, y);
                std::uint8_t* to = host.data() + y * pitch + std::size_t{i} * bytes;
                if (bytes == 2) {
                    const unsigned stored = value << shift;
                    to[0] = static_cast<std::uint8_t>(stored);
                    to[1] = static_cast<std::uint8_t>(stored >> 8);
                } else {
                    to[0] = static_cast<std::uint8_t>(value);
                }
            }
        }
        void* memory = nullptr;
        EXPECT_EQ(cudaMalloc(&memory, host.size()), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(memory, host.data(), host.size(), cudaMemcpyHostToDevice), cudaSuccess);
        allocations.push_back(memory);
        surface.plane[p] = memory;
        surface.pitch[p] = static_cast<std::ptrdiff_t>(pitch);
    }
    surface.chroma_interleaved = layout.interleaved;
    surface.sample_shift = shift;
    surface.owner = std::shared_ptr<const void>(nullptr, [allocations](const void*) {
        for (void* memory : allocations) (void)cudaFree(memory);
    });
    auto device = std::make_shared<Picture>();
    device->set_device_surface(f, surface);
    return device;
}

std::string json(const Scores& scores)
{
    return twinvmaf::test::strip_fps(scores.render(OutputFormat::kJson, Precision::parse("max")));
}

struct Case {
    const char* fixture;
    VideoFormat format;
    Layout layout;
};

TEST(DevicePictures, EveryDecoderLayoutEqualsTheCpu)
{
    if (gpu_device_count(Backend::kCuda) == 0) GTEST_SKIP() << "no CUDA device: device pictures not tested";
    const Case cases[] = {
        {"vtest_576x324_420p8", {576, 324, ChromaFormat::k420, 8}, {true, false}},      // NV12
        {"noise_257x145_420p10", {257, 145, ChromaFormat::k420, 10}, {true, true}},     // P010, odd size
        {"vtest_576x324_420p12", {576, 324, ChromaFormat::k420, 12}, {true, true}},     // P016 of 12 bits
        {"cup_640x480_444p8", {640, 480, ChromaFormat::k444, 8}, {false, false}},       // YUV444P
        {"box_640x480_422p10", {640, 480, ChromaFormat::k422, 10}, {false, true}},      // three planes, high bits
        {"noise_33x33_420p8", {33, 33, ChromaFormat::k420, 8}, {false, false}},         // planar, padded rows
    };
    // A model (luma), features that read chroma (psnr, ciede) and a temporal one.
    const SessionConfig config{.models = {Model::builtin("vmaf_v0.6.1")},
                               .features = {{"psnr", {}}, {"float_ssim", {}}, {"ciede", {}}, {"float_motion", {}}},
                               .device_pictures = true};
    // ciede refuses a 4:2:0 frame of odd height (its last row's chroma is
    // past the plane, where Netflix reads outside its picture), on the CPU
    // as on the GPU: that size is scored without it.
    SessionConfig without_ciede = config;
    std::erase_if(without_ciede.features, [](const FeatureRequest& feature) { return feature.name == "ciede"; });
    const Engine gpu({.backend = Backend::kCuda});
    const Engine cpu({.backend = Backend::kCpu, .threads = 2});
    for (const Case& c : cases) {
        SCOPED_TRACE(c.fixture);
        const fs::path dir = fixtures_dir() / c.fixture;
        const Inputs inputs{.reference = (dir / "ref.yuv").string(),
                            .distorted = (dir / "dis.yuv").string(),
                            .raw_format = c.format,
                            .frame_cnt = 4};
        const bool ciede_refuses = c.format.chroma == ChromaFormat::k420 && c.format.height % 2 == 1;
        const SessionConfig& run = ciede_refuses ? without_ciede : config;
        const Scores expected = cpu.open(run).score(inputs);

        auto ref = open_video(inputs.reference, c.format);
        auto dis = open_video(inputs.distorted, c.format);
        Session session = gpu.open(run);
        Picture a, b;
        for (int frame = 0; frame < 4 && ref->read(a) && dis->read(b); ++frame)
            session.push(on_device(a, c.layout), on_device(b, c.layout));
        const Scores scored = session.finish();
        EXPECT_EQ(json(scored), json(expected));
        const GpuStats& stats = scored.data().result.gpu_stats;
        EXPECT_EQ(stats.uploads, 0u);
        EXPECT_EQ(stats.device_copies, 2 * scored.frames());
        EXPECT_EQ(stats.pinned_pictures, 0u);
    }
}

// FFmpeg's libvmaf_cuda filter copies luma only: a run whose twins read
// chroma is refused, one on luma (a VMAF model) is scored.
TEST(DevicePictures, LumaOnlySurfacesServeLumaTwinsOnly)
{
    if (gpu_device_count(Backend::kCuda) == 0) GTEST_SKIP() << "no CUDA device: device pictures not tested";
    const VideoFormat format{576, 324, ChromaFormat::k420, 8};
    const fs::path dir = fixtures_dir() / "vtest_576x324_420p8";
    auto ref = open_video((dir / "ref.yuv").string(), format);
    Picture host;
    ASSERT_TRUE(ref->read(host));
    auto luma_only = [&] {
        auto picture = std::const_pointer_cast<Picture>(on_device(host, {false, false}));
        DeviceSurface surface = *picture->device_surface();
        surface.luma_only = true;
        surface.plane[1] = surface.plane[2] = nullptr;
        picture->set_device_surface(format, surface);
        return std::shared_ptr<const Picture>(picture);
    };
    const Engine gpu({.backend = Backend::kCuda});
    Session vmaf = gpu.open({.models = {Model::builtin("vmaf_v0.6.1")}, .device_pictures = true});
    vmaf.push(luma_only(), luma_only());
    EXPECT_EQ(vmaf.finish().frames(), 1u);

    Session psnr = gpu.open({.features = {{"psnr", {}}}, .predict = false, .device_pictures = true});
    const std::string error = twinvmaf::test::error_of([&] {
        psnr.push(luma_only(), luma_only());
        (void)psnr.finish();
    });
    EXPECT_NE(error.find("hold luma only"), std::string::npos) << error;
}

#endif

// On the CPU a picture in GPU memory cannot be read: a clear error, in any build.
TEST(DevicePictures, TheCpuRefusesThem)
{
    auto picture = std::make_shared<Picture>();
    DeviceSurface surface;
    int dummy = 0;
    surface.plane[0] = surface.plane[1] = surface.plane[2] = &dummy;
    picture->set_device_surface(VideoFormat{64, 64, ChromaFormat::k420, 8}, surface);
    const Engine cpu({.backend = Backend::kCpu, .threads = 1});
    Session session = cpu.open({.features = {{"psnr", {}}}, .predict = false});
    const std::string error = twinvmaf::test::error_of([&] { session.push(picture, picture); });
    EXPECT_NE(error.find("the cpu backend cannot read"), std::string::npos) << error;
}

}  // namespace device_pictures_test
