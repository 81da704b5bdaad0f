#include "io/container_signature.h"

#include <cstdint>

namespace twinvmaf {

namespace {

std::uint8_t byte_at(std::string_view head, std::size_t at)
{
    return static_cast<std::uint8_t>(head[at]);
}

std::uint32_t big_endian32(std::string_view head, std::size_t at)
{
    return std::uint32_t{byte_at(head, at)} << 24 | std::uint32_t{byte_at(head, at + 1)} << 16 |
           std::uint32_t{byte_at(head, at + 2)} << 8 | byte_at(head, at + 3);
}

// ISO base media (MP4, MOV, 3GP, HEIF): a box size, then a four-letter box
// type; files start with 'ftyp' (old QuickTime ones with 'moov', 'mdat',
// 'wide', 'free', 'skip'). Four ASCII letters at bytes 4..7 of raw video are
// far-fetched; the size must fit the box too (1: a 64-bit size follows).
bool is_iso_media(std::string_view head)
{
    if (head.size() < 8) return false;
    const std::string_view type = head.substr(4, 4);
    const std::uint32_t size = big_endian32(head, 0);
    if (type == "ftyp") return size >= 8 && size <= 4096;
    for (const char* other : {"moov", "mdat", "wide", "free", "skip", "pnot"})
        if (type == other) return size == 1 || size >= 8;
    return false;
}

// MPEG transport stream: 188-byte packets (192 in M2TS/Blu-ray, behind a
// 4-byte time stamp), each starting with the sync byte 0x47. Five packets'
// sync bytes, each with the transport-error flag clear and a valid
// adaptation-field code (not 00). A flat grey picture of 0x47 fails the
// latter: its byte 3 is 0x47, whose bits 4-5 are 00.
bool is_transport_stream(std::string_view head, std::size_t first, std::size_t packet)
{
    constexpr std::size_t kPackets = 5;
    if (head.size() < first + (kPackets - 1) * packet + 4) return false;
    for (std::size_t p = 0; p < kPackets; ++p) {
        const std::size_t at = first + p * packet;
        if (byte_at(head, at) != 0x47) return false;
        if (byte_at(head, at + 1) & 0x80) return false;
        if ((byte_at(head, at + 3) & 0x30) == 0) return false;
    }
    return true;
}

}  // namespace

std::optional<std::string> container_name(std::string_view head)
{
    auto starts = [&](std::string_view magic) { return head.substr(0, magic.size()) == magic; };
    if (is_iso_media(head)) return "MP4/MOV";
    // EBML's four-byte magic, which Matroska and WebM files start with.
    if (starts("\x1A\x45\xDF\xA3")) return "Matroska/WebM";
    // "DKIF", version 0, header size 32.
    if (starts(std::string_view("DKIF\0\0\x20\0", 8))) return "IVF";
    if (is_transport_stream(head, 0, 188) || is_transport_stream(head, 4, 192)) return "MPEG-TS";
    if (starts("RIFF") && head.size() >= 12 && head.substr(8, 4) == "AVI ") return "AVI";
    if (starts(std::string_view("OggS\0", 5))) return "Ogg";
    if (starts("FLV\x01")) return "FLV";
    return std::nullopt;
}

}  // namespace twinvmaf
