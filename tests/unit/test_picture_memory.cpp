// Heap pictures: where their bytes start (a cache line) and that every byte
// of them is theirs, whatever the size.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "twinvmaf/picture.h"

namespace twinvmaf {
namespace {

std::uintptr_t address(const Picture& picture) { return reinterpret_cast<std::uintptr_t>(picture.bytes()); }

TEST(PictureMemory, HeapPicturesStartOnACacheLine)
{
    for (const unsigned width : {1u, 17u, 576u, 1920u, 3840u}) {
        const unsigned height = width == 1 ? 1 : width * 9 / 16;
        for (const unsigned depth : {8u, 10u}) {
            Picture picture(VideoFormat{width, height, ChromaFormat::k420, depth});
            const std::size_t size = picture.size_bytes();
            EXPECT_EQ(address(picture) % 64, 0u) << width << "x" << height << " " << depth << "-bit";
            // All of it is usable (ASan's builds check the bounds).
            std::memset(picture.bytes(), 0x5a, size);
            EXPECT_EQ(picture.bytes()[size - 1], 0x5a);
        }
    }
}

TEST(PictureMemory, GrowingKeepsTheAlignment)
{
    Picture picture(VideoFormat{64, 32, ChromaFormat::k420, 8});
    picture.reset(VideoFormat{1920, 1080, ChromaFormat::k444, 10});
    EXPECT_EQ(address(picture) % 64, 0u);
    std::memset(picture.bytes(), 1, picture.size_bytes());
    // A smaller format keeps the buffer.
    const std::uint8_t* before = picture.bytes();
    picture.reset(VideoFormat{64, 32, ChromaFormat::k420, 8});
    EXPECT_EQ(picture.bytes(), before);
}

}  // namespace
}  // namespace twinvmaf
