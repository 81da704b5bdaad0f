// Pictures: one frame of planar YUV, as read from a file.
//
// A Picture owns one contiguous buffer laid out exactly like a frame in a raw
// .yuv file (Y, then U, then V; chroma planes of ceil(w/2) samples per row for
// subsampled formats; 16-bit little-endian samples above 8 bits). The planes
// handed to features are views into that buffer with libvmaf's *scored*
// geometry: chroma is floor(w/2) x floor(h/2) (w >> 1, h >> 1), so on odd sizes
// the last stored chroma column/row is present in memory but never scored.
// See docs/compat.md, "Odd frame sizes". Keeping the file layout means a frame
// is read with one fread and uploaded to a GPU with one copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace twinvmaf {

enum class ChromaFormat : std::uint8_t { k420, k422, k444 };

// "420", "422", "444" (Netflix's --pixel_format spelling).
const char* chroma_format_name(ChromaFormat format);

struct VideoFormat {
    unsigned width = 0;
    unsigned height = 0;
    ChromaFormat chroma = ChromaFormat::k420;
    unsigned bitdepth = 8;

    unsigned bytes_per_sample() const { return bitdepth > 8 ? 2u : 1u; }
    unsigned chroma_shift_x() const { return chroma == ChromaFormat::k444 ? 0u : 1u; }
    unsigned chroma_shift_y() const { return chroma == ChromaFormat::k420 ? 1u : 0u; }

    // Geometry libvmaf scores: chroma is w >> ssx by h >> ssy.
    unsigned plane_width(int plane) const { return plane ? width >> chroma_shift_x() : width; }
    unsigned plane_height(int plane) const { return plane ? height >> chroma_shift_y() : height; }

    // Geometry stored in files: chroma is rounded up.
    unsigned stored_width(int plane) const;
    unsigned stored_height(int plane) const;
    std::size_t stored_plane_bytes(int plane) const;
    // Bytes of a stored frame before plane `plane` (0..3; 3: the whole frame).
    std::size_t plane_offset(int plane) const;
    std::size_t frame_bytes() const;

    // Largest valid sample value.
    unsigned max_sample() const { return (1u << bitdepth) - 1u; }

    bool operator==(const VideoFormat&) const = default;

    // "576x324 4:2:0 8-bit"
    std::string describe() const;
};

// A read-only view of one plane. `stride` is in bytes.
struct PlaneView {
    const std::uint8_t* data = nullptr;
    std::ptrdiff_t stride = 0;
    unsigned width = 0;
    unsigned height = 0;

    template <class Sample>
    const Sample* row(unsigned y) const
    {
        return reinterpret_cast<const Sample*>(data + static_cast<std::ptrdiff_t>(y) * stride);
    }
};

// Where a Picture's bytes live. The default is ordinary heap memory; a GPU
// backend supplies page-locked (pinned) memory so frames upload without a
// staging copy. `device` is handed to allocate(): the GPU whose context pins
// the memory (allocate() may run on any thread).
struct PictureAllocator {
    void* (*allocate)(std::size_t bytes, int device) = nullptr;
    void (*release)(void* memory) = nullptr;
    int device = 0;
};

// Frees a picture buffer through the allocator that made it.
struct PictureRelease {
    const PictureAllocator* allocator;
    void operator()(std::uint8_t* memory) const;
};

// A picture whose samples are in GPU memory: a hardware decoder's surface
// (NVDEC's NV12, P010, YUV444P16) or a libvmaf CUDA picture. The GPU
// backend copies its planes on the device into the file layout its twins
// read; no byte goes through the host. The CPU backend cannot score it.
struct DeviceSurface {
    // Device addresses of the planes (plane[2] unused when chroma is
    // interleaved) and their row pitches in bytes.
    const void* plane[3] = {};
    std::ptrdiff_t pitch[3] = {};
    // NV12/P010: U and V alternate in plane[1] (each row holds
    // stored_width(1) pairs).
    bool chroma_interleaved = false;
    // P010/P016/YUV444P16 hold `bitdepth` bits in the high bits of 16: each
    // sample is shifted right by this much (16 - bitdepth), else 0.
    unsigned sample_shift = 0;
    // Only plane[0] holds samples (FFmpeg's libvmaf_cuda filter copies
    // luma only): a run whose twins read chroma is refused.
    bool luma_only = false;
    // The GPU the memory is on.
    int device = 0;
    // Keeps the memory alive (and unchanged) while the picture is held.
    std::shared_ptr<const void> owner;
};

class Picture {
public:
    // `allocator` (nullptr: the heap) provides every buffer of this picture.
    explicit Picture(const PictureAllocator* allocator = nullptr) : allocator_(allocator) {}
    explicit Picture(const VideoFormat& format) { reset(format); }

    // (Re)allocates for `format`; keeps the buffer when it is large enough.
    // Drops a device surface.
    void reset(const VideoFormat& format);
    // Makes this a picture of `format` whose samples are `surface`'s, in GPU
    // memory (the host buffer, if any, is kept for a later reset()).
    void set_device_surface(const VideoFormat& format, DeviceSurface surface);
    // The device surface, or nullptr for a picture in host memory.
    const DeviceSurface* device_surface() const { return device_ ? &*device_ : nullptr; }

    const VideoFormat& format() const { return format_; }
    PlaneView plane(int index) const;

    // The whole frame in file layout, for readers and uploads.
    std::uint8_t* bytes() { return buffer_.get(); }
    const std::uint8_t* bytes() const { return buffer_.get(); }
    std::size_t size_bytes() const { return format_.frame_bytes(); }

private:
    const PictureAllocator* allocator_ = nullptr;
    VideoFormat format_{};
    std::size_t capacity_ = 0;
    std::unique_ptr<std::uint8_t[], PictureRelease> buffer_{nullptr, PictureRelease{nullptr}};
    std::optional<DeviceSurface> device_;
};

}  // namespace twinvmaf
