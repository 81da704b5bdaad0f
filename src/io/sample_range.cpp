#include "io/sample_range.h"

#include <cstring>

#include "core/simd.h"
#include "io/video_reader.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

bool sample_bits_reference(const std::uint8_t* bytes, std::size_t size, std::uint16_t mask)
{
    // OR 8-byte words together (four samples at a time, a branch-free loop)
    // and fold them to one sample once.
    const std::size_t words = size / 8;
    std::uint64_t all_bits = 0;
    for (std::size_t i = 0; i < words; ++i) {
        std::uint64_t word;
        std::memcpy(&word, bytes + i * 8, sizeof word);
        all_bits |= word;
    }
    all_bits |= all_bits >> 32;
    all_bits |= all_bits >> 16;
    unsigned bits = static_cast<unsigned>(all_bits);
    for (std::size_t i = words * 8; i + 1 < size; i += 2) bits |= bytes[i] | (unsigned{bytes[i + 1]} << 8);
    return (bits & mask) != 0;
}

SampleBitsFn sample_bits() { return simd::use_reference() ? sample_bits_reference : sample_bits_simd(); }

void throw_sample_range_error(const Picture& picture, const std::string& what, std::uint64_t frame,
                              std::size_t offset, std::size_t length)
{
    const unsigned depth = picture.format().bitdepth;
    const unsigned max_value = picture.format().max_sample();
    const std::uint8_t* bytes = picture.bytes() + offset;
    for (std::size_t i = 0; i + 1 < length; i += 2) {
        const unsigned value = bytes[i] | (unsigned{bytes[i + 1]} << 8);
        if (value > max_value)
            throw Error(what + ": frame " + std::to_string(frame) + ": sample value " + std::to_string(value) +
                        " exceeds the " + std::to_string(depth) + "-bit maximum " + std::to_string(max_value) +
                        "; is --bitdepth right?");
    }
    throw Error(what + ": internal: frame " + std::to_string(frame) + ": no sample out of range after all");
}

void check_sample_range(const Picture& picture, const std::string& what, std::uint64_t frame)
{
    check_sample_range(picture, what, frame, 0, picture.size_bytes());
}

void check_sample_range(const Picture& picture, const std::string& what, std::uint64_t frame,
                        std::size_t offset, std::size_t length)
{
    const std::uint16_t mask = sample_range_mask(picture.format().bitdepth);
    // A picture in GPU memory is a decoder's (its samples are the codec's,
    // within its depth by construction) or a libvmaf CUDA picture (Netflix's
    // CUDA path checks none either): nothing here can read it.
    if (mask == 0 || picture.device_surface()) return;
    if (sample_bits()(picture.bytes() + offset, length & ~std::size_t{1}, mask))
        throw_sample_range_error(picture, what, frame, offset, length);
}

}  // namespace twinvmaf
