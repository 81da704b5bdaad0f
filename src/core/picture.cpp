#include "twinvmaf/picture.h"

#include <cstdio>
#include <cstdlib>
#include <new>

namespace twinvmaf {

const char* chroma_format_name(ChromaFormat format)
{
    switch (format) {
    case ChromaFormat::k420: return "420";
    case ChromaFormat::k422: return "422";
    case ChromaFormat::k444: return "444";
    }
    return "?";
}

unsigned VideoFormat::stored_width(int plane) const
{
    if (!plane) return width;
    const unsigned shift = chroma_shift_x();
    return (width + (1u << shift) - 1u) >> shift;
}

unsigned VideoFormat::stored_height(int plane) const
{
    if (!plane) return height;
    const unsigned shift = chroma_shift_y();
    return (height + (1u << shift) - 1u) >> shift;
}

std::size_t VideoFormat::stored_plane_bytes(int plane) const
{
    return std::size_t{stored_width(plane)} * stored_height(plane) * bytes_per_sample();
}

std::size_t VideoFormat::plane_offset(int plane) const
{
    std::size_t offset = 0;
    for (int p = 0; p < plane; ++p) offset += stored_plane_bytes(p);
    return offset;
}

std::size_t VideoFormat::frame_bytes() const { return plane_offset(3); }

std::string VideoFormat::describe() const
{
    char text[96];
    const char* chroma_text = chroma == ChromaFormat::k420 ? "4:2:0"
                            : chroma == ChromaFormat::k422 ? "4:2:2" : "4:4:4";
    std::snprintf(text, sizeof text, "%ux%u %s %u-bit", width, height, chroma_text, bitdepth);
    return text;
}

namespace {

// Heap pictures start on a cache line: rows of SIMD loads split no line
// where the row width allows, and the copy from the page cache writes whole
// lines. Not on huge pages: offered as transparent huge pages (madvise), a
// picture's first touch sometimes stalled for seconds while the kernel
// compacted memory (a 200-frame 1080p read-only run here took 6.0 s of CPU
// once instead of 0.26 s), and the scoring runs were no faster.
constexpr std::size_t kCacheLine = 64;

std::uint8_t* heap_allocate(std::size_t bytes)
{
    // aligned_alloc wants a multiple of the alignment.
    void* memory = std::aligned_alloc(kCacheLine, (bytes + kCacheLine - 1) / kCacheLine * kCacheLine);
    if (!memory) throw std::bad_alloc();
    return static_cast<std::uint8_t*>(memory);
}

}  // namespace

void PictureRelease::operator()(std::uint8_t* memory) const
{
    if (allocator) allocator->release(memory);
    else std::free(memory);
}

void Picture::reset(const VideoFormat& format)
{
    device_.reset();
    format_ = format;
    const std::size_t needed = format.frame_bytes();
    if (needed > capacity_) {
        buffer_.reset();
        capacity_ = 0;
        std::uint8_t* memory = allocator_ ? static_cast<std::uint8_t*>(allocator_->allocate(needed, allocator_->device))
                                          : heap_allocate(needed);
        buffer_ = std::unique_ptr<std::uint8_t[], PictureRelease>(memory, PictureRelease{allocator_});
        capacity_ = needed;
    }
}

void Picture::set_device_surface(const VideoFormat& format, DeviceSurface surface)
{
    format_ = format;
    device_ = std::move(surface);
}

PlaneView Picture::plane(int index) const
{
    const std::size_t offset = format_.plane_offset(index);
    PlaneView view;
    view.data = buffer_.get() + offset;
    view.stride = static_cast<std::ptrdiff_t>(format_.stored_width(index)) * format_.bytes_per_sample();
    view.width = format_.plane_width(index);
    view.height = format_.plane_height(index);
    return view;
}

}  // namespace twinvmaf
