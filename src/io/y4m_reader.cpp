#include "io/y4m_reader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "io/sample_range.h"
#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

// Real headers are well under 100 bytes; the limits only stop a runaway read
// of binary data that happens to lack a newline.
constexpr std::size_t kMaxHeaderBytes = 4096;
constexpr std::size_t kMaxFrameHeaderBytes = 4096;

// Big enough that small frames come several per read(2); glibc reads frames
// larger than the buffer straight into the Picture.
constexpr std::size_t kStdioBufferBytes = std::size_t{1} << 20;

constexpr char kFrameMarker[] = "FRAME";
constexpr std::size_t kFrameMarkerBytes = sizeof kFrameMarker - 1;
constexpr char kPlainFrameHeader[] = "FRAME\n";
constexpr std::size_t kPlainFrameHeaderBytes = sizeof kPlainFrameHeader - 1;

struct Y4mChroma {
    const char* tag;  // value of the C tag
    ChromaFormat chroma;
    unsigned bitdepth;
};

// The 4:2:0 variants differ only in chroma siting, which scoring ignores.
constexpr Y4mChroma kY4mChromas[] = {
    {"420", ChromaFormat::k420, 8},      {"420jpeg", ChromaFormat::k420, 8},
    {"420paldv", ChromaFormat::k420, 8}, {"420mpeg2", ChromaFormat::k420, 8},
    {"422", ChromaFormat::k422, 8},      {"444", ChromaFormat::k444, 8},
    {"420p10", ChromaFormat::k420, 10},  {"420p12", ChromaFormat::k420, 12},
    {"420p16", ChromaFormat::k420, 16},  {"422p10", ChromaFormat::k422, 10},
    {"422p12", ChromaFormat::k422, 12},  {"422p16", ChromaFormat::k422, 16},
    {"444p10", ChromaFormat::k444, 10},  {"444p12", ChromaFormat::k444, 12},
    {"444p16", ChromaFormat::k444, 16},
};

std::string accepted_chroma_tags()
{
    std::string list;
    for (const Y4mChroma& entry : kY4mChromas) {
        if (!list.empty()) list += ", ";
        list += "C";
        list += entry.tag;
    }
    return list;
}

}  // namespace

Y4mReader::Y4mReader(const std::string& path) : Y4mReader(InputFile(path), std::string()) {}

Y4mReader::Y4mReader(InputFile file, const std::string& consumed)
{
    path_ = file.path();
    regular_ = file.regular();
    file_size_ = file.size();
    stdio_buffer_ = std::make_unique<char[]>(kStdioBufferBytes);
    const int fd = file.release();
    file_.reset(::fdopen(fd, "rb"));
    if (!file_) {
        const int error = errno;
        ::close(fd);
        throw Error(path_ + ": cannot open: " + std::strerror(error));
    }
    std::setvbuf(file_.get(), stdio_buffer_.get(), _IOFBF, kStdioBufferBytes);
    parse_header(consumed);
    count_plain_frames();
}

void Y4mReader::throw_read_error() const
{
    throw Error(path_ + ": read error: " + std::strerror(errno));
}

void Y4mReader::throw_frame_error(const std::string& problem) const
{
    throw Error(path_ + ": frame " + std::to_string(position_) + ": " + problem);
}

void Y4mReader::throw_truncated(std::size_t got) const
{
    throw_truncated_frame(path_, position_, got, frame_bytes_);
}

void Y4mReader::parse_header(const std::string& consumed)
{
    std::FILE* file = file_.get();
    std::string magic = consumed;
    while (magic.size() < kY4mMagicBytes) {
        const int c = std::getc(file);
        if (c == EOF) break;
        magic.push_back(static_cast<char>(c));
    }
    if (magic != kY4mMagic) throw Error(path_ + ": not a Y4M file (no 'YUV4MPEG2 ' signature)");

    std::string line;
    for (;;) {
        const int c = std::getc(file);
        if (c == EOF) {
            if (std::ferror(file)) throw_read_error();
            throw Error(path_ + ": Y4M header is not terminated by a newline");
        }
        if (c == '\n') break;
        line.push_back(static_cast<char>(c));
        if (kY4mMagicBytes + line.size() > kMaxHeaderBytes)
            throw Error(path_ + ": Y4M header is longer than " + std::to_string(kMaxHeaderBytes) +
                        " bytes");
    }
    offset_ = kY4mMagicBytes + line.size() + 1;

    auto parse_dimension = [&](const std::string& token, const char* name) {
        const std::string digits = token.substr(1);
        const bool numeric = !digits.empty() && digits.size() <= 9 &&
                             std::all_of(digits.begin(), digits.end(),
                                         [](char c) { return c >= '0' && c <= '9'; });
        if (!numeric)
            throw Error(path_ + ": Y4M header has a bad " + name + " tag '" + message_text(token) + "'");
        const unsigned long value = std::stoul(digits);  // at most 9 digits: fits unsigned
        if (value == 0) throw Error(path_ + ": Y4M header has a zero " + name + " (" + token + ")");
        return static_cast<unsigned>(value);
    };

    VideoFormat format;
    bool has_width = false;
    bool has_height = false;
    std::size_t start = 0;
    while (start <= line.size()) {
        std::size_t end = line.find(' ', start);
        if (end == std::string::npos) end = line.size();
        const std::string token = line.substr(start, end - start);
        start = end + 1;
        if (token.empty()) continue;
        switch (token[0]) {
        case 'W':
            format.width = parse_dimension(token, "width");
            has_width = true;
            break;
        case 'H':
            format.height = parse_dimension(token, "height");
            has_height = true;
            break;
        case 'C': {
            const std::string value = token.substr(1);
            if (value.rfind("mono", 0) == 0)
                throw Error(path_ + ": monochrome Y4M (" + message_text(token) +
                            ") is not supported: VMAF needs Y, Cb and Cr planes");
            const auto* entry = std::find_if(std::begin(kY4mChromas), std::end(kY4mChromas),
                                             [&](const Y4mChroma& e) { return value == e.tag; });
            if (entry == std::end(kY4mChromas))
                throw Error(path_ + ": unsupported Y4M chroma format '" + message_text(token) +
                            "'; accepted: " + accepted_chroma_tags());
            format.chroma = entry->chroma;
            format.bitdepth = entry->bitdepth;
            break;
        }
        default:
            // F (rate), I (interlacing: frames are scored as stored), A (aspect),
            // X (comments) and unknown tags do not affect the samples.
            break;
        }
    }
    if (!has_width) throw Error(path_ + ": Y4M header has no width (W tag)");
    if (!has_height) throw Error(path_ + ": Y4M header has no height (H tag)");
    check_video_format(path_, format);
    format_ = format;
    frame_bytes_ = format.frame_bytes();
}

void Y4mReader::count_plain_frames()
{
    if (!regular_ || file_size_ < offset_) return;
    const std::uint64_t per_frame = kPlainFrameHeaderBytes + frame_bytes_;
    const std::uint64_t remaining = file_size_ - offset_;
    if (remaining % per_frame != 0) return;
    const std::uint64_t frames = remaining / per_frame;
    // Checking every header would cost a seek per frame; parameters on some
    // frames would have to add up to exactly whole frames to fool this.
    const int fd = ::fileno(file_.get());
    for (const std::uint64_t index : {std::uint64_t{0}, frames - 1}) {
        if (frames == 0) break;
        char header[kPlainFrameHeaderBytes];
        const auto at = static_cast<off_t>(offset_ + index * per_frame);
        if (::pread(fd, header, sizeof header, at) != static_cast<ssize_t>(sizeof header)) return;
        if (std::memcmp(header, kPlainFrameHeader, sizeof header) != 0) return;
    }
    frame_count_ = frames;
}

bool Y4mReader::read_frame_header()
{
    std::FILE* file = file_.get();
    int c = std::getc(file);
    if (c == EOF) {
        if (std::ferror(file)) throw_read_error();
        return false;
    }
    for (std::size_t i = 0;;) {
        if (c != kFrameMarker[i]) throw_frame_error("bad frame header (expected 'FRAME')");
        if (++i == kFrameMarkerBytes) break;
        c = std::getc(file);
        if (c == EOF) {
            if (std::ferror(file)) throw_read_error();
            throw_frame_error("truncated frame header");
        }
    }
    std::size_t header_bytes = kFrameMarkerBytes + 1;
    c = std::getc(file);
    if (c == ' ') {
        // Frame parameters (e.g. per-frame interlacing) do not change the samples.
        do {
            c = std::getc(file);
            if (c == EOF) break;
            if (++header_bytes > kMaxFrameHeaderBytes)
                throw_frame_error("frame header is longer than " +
                                  std::to_string(kMaxFrameHeaderBytes) + " bytes");
        } while (c != '\n');
        frame_count_.reset();  // the count assumed plain headers
    }
    if (c == EOF) {
        if (std::ferror(file)) throw_read_error();
        throw_frame_error("truncated frame header");
    }
    if (c != '\n') throw_frame_error("bad frame header (expected 'FRAME')");
    offset_ += header_bytes;
    return true;
}

void Y4mReader::check_file_holds_frame()
{
    if (!regular_ || offset_ + frame_bytes_ <= file_size_) return;
    // The file may have grown since it was opened (an encoder still writing it).
    struct stat info {};
    if (::fstat(::fileno(file_.get()), &info) == 0) file_size_ = static_cast<std::uint64_t>(info.st_size);
    if (offset_ + frame_bytes_ > file_size_) throw_truncated(file_size_ > offset_ ? file_size_ - offset_ : 0);
}

bool Y4mReader::read(Picture& picture)
{
    if (!read_frame_header()) return false;
    // A header may claim frames of gigabytes; a regular file shows whether
    // it holds one before a byte of it is allocated.
    check_file_holds_frame();
    auto read_some = [&](std::uint8_t* to, std::size_t n) {
        const std::size_t got = std::fread(to, 1, n, file_.get());
        if (got < n && std::ferror(file_.get())) throw_read_error();
        return got;
    };
    if (!regular_ && !stream_proven_) {
        // A pipe's first frame: its buffer grows as the bytes come (the
        // header's frame size is only a claim until then).
        if (!read_first_stream_frame(picture, format_, path_, position_, read_some)) throw_truncated(0);
        check_sample_range(picture, path_, position_);
        stream_proven_ = true;
    } else {
        reset_for_frame(picture, format_, path_, position_);
        // Each chunk's samples are checked just after it is read.
        const std::size_t got = read_checked(picture, 0, frame_bytes_, path_, position_,
                                             [&](std::uint8_t* to, std::size_t n, std::size_t) { return read_some(to, n); });
        if (got != frame_bytes_) throw_truncated(got);
    }
    offset_ += frame_bytes_;
    ++position_;
    return true;
}

void Y4mReader::discard_frame_data()
{
    std::FILE* file = file_.get();
    if (regular_ && offset_ + frame_bytes_ <= file_size_) {
        if (::fseeko(file, static_cast<off_t>(frame_bytes_), SEEK_CUR) != 0)
            throw Error(path_ + ": cannot seek: " + std::strerror(errno));
        offset_ += frame_bytes_;
        return;
    }
    constexpr std::size_t kScratchBytes = std::size_t{1} << 16;
    char scratch[kScratchBytes];
    std::size_t done = 0;
    while (done < frame_bytes_) {
        const std::size_t want = std::min(kScratchBytes, frame_bytes_ - done);
        const std::size_t got = std::fread(scratch, 1, want, file);
        done += got;
        if (got < want) {
            if (std::ferror(file)) throw_read_error();
            throw_truncated(done);
        }
    }
    offset_ += frame_bytes_;
}

void Y4mReader::skip(std::uint64_t count)
{
    for (std::uint64_t i = 0; i < count; ++i) {
        if (!read_frame_header()) return;
        discard_frame_data();
        ++position_;
    }
}

}  // namespace twinvmaf
