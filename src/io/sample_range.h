// The check that every sample of a picture of more than 8 bits lies within
// its bit depth (an out-of-range sample is an error: VideoReader::read()).
//
// Samples are 16-bit little-endian; one above the depth's maximum has a bit
// of `mask` = 0xffff << depth set. The test is an OR of every sample, so it
// is one pass over the bytes; the readers run it on each chunk of a frame
// just after reading that chunk, while it is still in the cache
// (read_checked() below), which makes it nearly free next to the read.
//
// sample_bits_reference() is the definition; sample_bits_simd() (Highway,
// sample_range_simd.cpp) returns the same for every input
// (tests/unit/test_simd_sample_range.cpp); sample_bits() is the one
// core/simd.h chooses.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "twinvmaf/picture.h"

namespace twinvmaf {

// Whether any of the `size / 2` little-endian 16-bit samples at `bytes`
// (size even) has a bit of `mask` set.
using SampleBitsFn = bool (*)(const std::uint8_t* bytes, std::size_t size, std::uint16_t mask);

bool sample_bits_reference(const std::uint8_t* bytes, std::size_t size, std::uint16_t mask);
SampleBitsFn sample_bits_simd();
SampleBitsFn sample_bits();

// The bits above `bitdepth` of a 16-bit sample (0 for depths that cannot be
// out of range: 8-bit samples are one byte and 16-bit ones use every bit).
inline std::uint16_t sample_range_mask(unsigned bitdepth)
{
    return bitdepth <= 8 || bitdepth >= 16 ? 0 : static_cast<std::uint16_t>(0xffffu << bitdepth);
}

// Throws the error for an out-of-range sample among bytes [offset, offset +
// length) of `picture`, naming the first one (`what` names the source).
[[noreturn]] void throw_sample_range_error(const Picture& picture, const std::string& what, std::uint64_t frame,
                                           std::size_t offset, std::size_t length);

// Bytes a reader reads at once before checking them: well inside a core's
// L2 cache, and large enough that the calls cost little.
inline constexpr std::size_t kCheckedChunkBytes = std::size_t{256} << 10;

// Reads bytes [offset, offset + length) of `picture` (offset and length
// even) with `read(destination, count, done)`, which reads `count` bytes
// of the part at `done` into `destination` and returns how many it read
// (fewer only at the end of the input), a chunk at a time, checking each
// chunk's samples just after it is read. Returns the bytes read; the range
// error is thrown only if all of them were read (a short read is the
// caller's error, and comes first).
template <class Read>
std::size_t read_checked(Picture& picture, std::size_t offset, std::size_t length, const std::string& what,
                         std::uint64_t frame, Read read)
{
    std::uint8_t* destination = picture.bytes() + offset;
    const std::uint16_t mask = sample_range_mask(picture.format().bitdepth);
    if (mask == 0) return read(destination, length, std::size_t{0});
    const SampleBitsFn bits = sample_bits();
    bool found = false;
    std::size_t done = 0;
    while (done < length) {
        const std::size_t want = std::min(kCheckedChunkBytes, length - done);
        const std::size_t got = read(destination + done, want, done);
        found |= bits(destination + done, got & ~std::size_t{1}, mask);
        done += got;
        if (got < want) return done;
    }
    if (found) throw_sample_range_error(picture, what, frame, offset, length);
    return done;
}

}  // namespace twinvmaf
