#include "io/video_reader.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "io/raw_reader.h"
#include "io/y4m_reader.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

bool has_y4m_extension(const std::string& path)
{
    if (path.size() < 4) return false;
    std::string tail = path.substr(path.size() - 4);
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return tail == ".y4m";
}

}  // namespace

void VideoReader::read_frame_part_at(std::uint64_t, Picture&, std::size_t, std::size_t) const
{
    throw Error(path_ + ": internal: this input cannot be read out of order");
}

std::unique_ptr<VideoReader> open_video(const std::string& path,
                                        const std::optional<VideoFormat>& raw_format)
{
    InputFile file(path);
    // Sniff by reading rather than peeking: a pipe cannot be re-read, so the
    // bytes travel on to the reader.
    std::string head(kY4mMagicBytes, '\0');
    head.resize(file.read_fully(head.data(), head.size()));

    if (head == kY4mMagic) {
        auto reader = std::make_unique<Y4mReader>(std::move(file), head);
        if (raw_format && *raw_format != reader->format())
            throw Error(path + ": the Y4M header says " + reader->format().describe() +
                        " but --width/--height/--pixel_format/--bitdepth say " +
                        raw_format->describe());
        return reader;
    }
    if (has_y4m_extension(path)) throw Error(path + ": .y4m file without YUV4MPEG2 header");
    if (!raw_format)
        throw Error(path + ": raw YUV input needs --width, --height, --pixel_format and --bitdepth");
    return std::make_unique<RawReader>(std::move(file), *raw_format, std::move(head));
}

}  // namespace twinvmaf
