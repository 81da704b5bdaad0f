#include "io/raw_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include "io/sample_range.h"
#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

std::string plural(std::uint64_t count, const char* noun)
{
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace

void check_video_format(const std::string& path, const VideoFormat& format)
{
    const std::string size = std::to_string(format.width) + "x" + std::to_string(format.height);
    if (format.width == 0 || format.height == 0)
        throw Error(path + ": frame width and height must be nonzero (got " + size + ")");
    if (format.width > kMaxFrameDimension || format.height > kMaxFrameDimension)
        throw Error(path + ": frame size " + size + " is too large (at most " +
                    std::to_string(kMaxFrameDimension) + " pixels each way)");
    const unsigned depth = format.bitdepth;
    if (depth != 8 && depth != 10 && depth != 12 && depth != 16)
        throw Error(path + ": bit depth " + std::to_string(depth) +
                    " is not supported (use 8, 10, 12 or 16)");
}

InputFile::InputFile(const std::string& path)
{
    const bool standard_input = path == kStandardInputPath;
    path_ = standard_input ? "standard input" : message_text(path);
    if (standard_input) {
        if (::isatty(STDIN_FILENO))
            throw Error("standard input is a terminal, not a video: pipe one in "
                        "(e.g. ffmpeg -i in.mp4 -f yuv4mpegpipe - | twinvmaf -r - ...)");
        fd_ = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
    } else {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    }
    if (fd_ < 0) throw Error(path_ + ": cannot open: " + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd_, &info) != 0) {
        const int error = errno;
        ::close(fd_);
        throw Error(path_ + ": cannot open: " + std::strerror(error));
    }
    if (S_ISDIR(info.st_mode)) {
        ::close(fd_);
        throw Error(path_ + ": cannot open: " + std::strerror(EISDIR));
    }
    regular_ = S_ISREG(info.st_mode);
    // Offsets in a regular file count from its start: standard input
    // redirected from a file part-way through it is read as a stream.
    if (regular_ && standard_input && ::lseek(fd_, 0, SEEK_CUR) != 0) regular_ = false;
#ifdef F_SETPIPE_SZ
    // A bigger pipe means fewer wake-ups per frame; failure (limits) is harmless.
    if (S_ISFIFO(info.st_mode)) ::fcntl(fd_, F_SETPIPE_SZ, 1 << 20);
#endif
    size_ = regular_ ? static_cast<std::uint64_t>(info.st_size) : 0;
}

InputFile::~InputFile()
{
    if (fd_ >= 0) ::close(fd_);
}

InputFile::InputFile(InputFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), regular_(other.regular_),
      size_(other.size_)
{
}

namespace {

// Calls `read_some(destination, count, done)` (read(2) or pread(2) of at most
// `count` bytes after `done` bytes) until `count` bytes arrived or the file
// ended, retrying short reads (pipes) and EINTR. Returns the bytes read.
template <class ReadSome>
std::size_t read_until_full(const std::string& path, void* destination, std::size_t count, ReadSome read_some)
{
    auto* out = static_cast<std::uint8_t*>(destination);
    std::size_t done = 0;
    while (done < count) {
        // Linux caps one read at about 2 GiB; huge frames take several.
        const std::size_t chunk = std::min<std::size_t>(count - done, std::size_t{1} << 30);
        const ssize_t got = read_some(out + done, chunk, done);
        if (got > 0) {
            done += static_cast<std::size_t>(got);
        } else if (got == 0) {
            break;
        } else if (errno != EINTR) {
            throw Error(path + ": read error: " + std::strerror(errno));
        }
    }
    return done;
}

}  // namespace

std::size_t InputFile::read_fully(void* destination, std::size_t count)
{
    return read_until_full(path_, destination, count,
                           [&](void* to, std::size_t n, std::size_t) { return ::read(fd_, to, n); });
}

std::size_t InputFile::read_at(void* destination, std::size_t count, std::uint64_t offset) const
{
    return read_until_full(path_, destination, count, [&](void* to, std::size_t n, std::size_t done) {
        return ::pread(fd_, to, n, static_cast<off_t>(offset + done));
    });
}

int InputFile::release()
{
    return std::exchange(fd_, -1);
}

RawReader::RawReader(const std::string& path, const VideoFormat& format)
    : RawReader(InputFile(path), format, std::string())
{
}

RawReader::RawReader(InputFile file, const VideoFormat& format, std::string consumed)
    : file_(std::move(file)), consumed_(std::move(consumed))
{
    path_ = file_.path();
    check_video_format(path_, format);
    format_ = format;
    frame_bytes_ = format.frame_bytes();
    if (!file_.regular()) return;

    // A regular file can be re-read from the start, which is simpler than
    // serving the sniffed bytes first.
    if (::lseek(file_.fd(), 0, SEEK_SET) != 0)
        throw Error(path_ + ": cannot seek: " + std::strerror(errno));
    consumed_.clear();
    ::posix_fadvise(file_.fd(), 0, 0, POSIX_FADV_SEQUENTIAL);

    const std::uint64_t size = file_.size();
    if (size == 0) throw Error(path_ + ": empty file (0 frames)");
    const std::uint64_t whole = size / frame_bytes_;
    const std::uint64_t rest = size % frame_bytes_;
    const std::string geometry = format.describe();
    const std::string hint = "check --width/--height/--pixel_format/--bitdepth";
    if (whole == 0)
        throw Error(path_ + ": size " + std::to_string(size) + " bytes is less than one " +
                    std::to_string(frame_bytes_) + "-byte frame of " + geometry + "; " + hint);
    if (rest != 0)
        throw Error(path_ + ": size " + std::to_string(size) + " bytes is not a whole number of " +
                    std::to_string(frame_bytes_) + "-byte frames (" + plural(whole, "frame") + " + " +
                    std::to_string(rest) + " bytes) for " + geometry + "; " + hint +
                    " (Netflix's vmaf would score the " + std::to_string(whole) + " whole frame" +
                    (whole == 1 ? "" : "s") +
                    " and stop with 'Error reading YUV frame data'; twinvmaf refuses a truncated file)");
    frame_count_ = whole;
}

std::size_t RawReader::take_consumed(std::uint8_t* destination, std::size_t count)
{
    const std::size_t available = consumed_.size() - consumed_offset_;
    const std::size_t taken = std::min(available, count);
    if (destination && taken) std::memcpy(destination, consumed_.data() + consumed_offset_, taken);
    consumed_offset_ += taken;
    return taken;
}

bool RawReader::read_frame_bytes(Picture* picture)
{
    std::size_t done = 0;
    if (picture) {
        done = read_checked(*picture, 0, frame_bytes_, path_, position_,
                            [&](std::uint8_t* destination, std::size_t count, std::size_t) {
                                const std::size_t taken = take_consumed(destination, count);
                                return taken + file_.read_fully(destination + taken, count - taken);
                            });
    } else {
        // Discarding from a pipe: a bounded scratch buffer, whatever the frame size.
        done = take_consumed(nullptr, frame_bytes_);
        constexpr std::size_t kScratchBytes = std::size_t{1} << 20;
        const auto scratch = std::make_unique<std::uint8_t[]>(kScratchBytes);
        while (done < frame_bytes_) {
            const std::size_t want = std::min(kScratchBytes, frame_bytes_ - done);
            const std::size_t got = file_.read_fully(scratch.get(), want);
            done += got;
            if (got < want) break;
        }
    }
    if (done == 0) return false;
    if (done < frame_bytes_) throw_truncated_frame(path_, position_, done, frame_bytes_);
    return true;
}

bool RawReader::read(Picture& picture)
{
    // Stop at the size measured at open, so read() agrees with frame_count().
    if (frame_count_ && position_ >= *frame_count_) return false;
    if (!file_.regular() && !stream_proven_) {
        // The first frame of a pipe: nothing shows yet that the geometry's
        // frame size (up to 6 GiB) is real, so its buffer grows as it comes.
        const bool got = read_first_stream_frame(picture, format_, path_, position_, [&](std::uint8_t* to, std::size_t n) {
            const std::size_t taken = take_consumed(to, n);
            return taken + file_.read_fully(to + taken, n - taken);
        });
        if (!got) return false;
        check_sample_range(picture, path_, position_);
        stream_proven_ = true;
    } else {
        reset_for_frame(picture, format_, path_, position_);
        if (!read_frame_bytes(&picture)) return false;  // checks the samples as it reads
    }
    ++position_;
    return true;
}

void RawReader::read_frame_part_at(std::uint64_t frame, Picture& picture, std::size_t offset,
                                   std::size_t length) const
{
    if (!frame_count_ || frame >= *frame_count_ || offset + length > frame_bytes_ ||
        picture.size_bytes() != frame_bytes_)
        throw Error(path_ + ": internal: frame " + std::to_string(frame) + " read out of range");
    const std::uint64_t at = frame * frame_bytes_ + offset;
    const std::size_t got = read_checked(picture, offset, length, path_, frame,
                                         [&](std::uint8_t* destination, std::size_t count, std::size_t done) {
                                             return file_.read_at(destination, count, at + done);
                                         });
    // The size was checked at open; a file that shrank since is truncated.
    if (got < length) throw_truncated_frame(path_, frame, offset + got, frame_bytes_);
}

void RawReader::skip(std::uint64_t count)
{
    if (frame_count_) {
        const std::uint64_t target = position_ + std::min(count, *frame_count_ - position_);
        const auto offset = static_cast<off_t>(target * frame_bytes_);
        if (::lseek(file_.fd(), offset, SEEK_SET) != offset)
            throw Error(path_ + ": cannot seek: " + std::strerror(errno));
        position_ = target;
        return;
    }
    for (std::uint64_t i = 0; i < count; ++i) {
        if (!read_frame_bytes(nullptr)) return;
        ++position_;
    }
}

}  // namespace twinvmaf
