#include "twinvmaf/picture.h"

#include <cstdio>

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

void PictureRelease::operator()(std::uint8_t* memory) const
{
    if (allocator) allocator->release(memory);
    else delete[] memory;
}

void Picture::reset(const VideoFormat& format)
{
    format_ = format;
    const std::size_t needed = format.frame_bytes();
    if (needed > capacity_) {
        buffer_.reset();
        capacity_ = 0;
        std::uint8_t* memory = allocator_ ? static_cast<std::uint8_t*>(allocator_->allocate(needed, allocator_->device))
                                          : new std::uint8_t[needed];
        buffer_ = std::unique_ptr<std::uint8_t[], PictureRelease>(memory, PictureRelease{allocator_});
        capacity_ = needed;
    }
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
