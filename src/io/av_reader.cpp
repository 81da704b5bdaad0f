#include "io/av_reader.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

#include "io/av_decoder.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

using av::Library;

// decode_options.cpp's table holds libswscale's SWS_* values without its header.
static_assert(kScaleBicubic == SWS_BICUBIC);

// The chroma format of a descriptor's subsampling (4:2:0, 4:2:2, 4:4:4),
// if it is one of those.
std::optional<ChromaFormat> chroma_of(const AVPixFmtDescriptor& d)
{
    if (d.log2_chroma_w == 1 && d.log2_chroma_h == 1) return ChromaFormat::k420;
    if (d.log2_chroma_w == 1 && d.log2_chroma_h == 0) return ChromaFormat::k422;
    if (d.log2_chroma_w == 0 && d.log2_chroma_h == 0) return ChromaFormat::k444;
    return std::nullopt;
}

// The planar YUV layout twinvmaf scores (a raw .yuv frame's: three planes,
// samples of 1 byte, or 2 little-endian bytes holding 10, 12 or 16 bits),
// when `format` has it. yuvj420p and its kin (full-range JPEG) are laid out
// as yuv420p and are taken as it (ffmpeg's Y4M output writes them as they are).
std::optional<std::pair<ChromaFormat, unsigned>> planar_yuv(const Library& av, int format)
{
    const AVPixFmtDescriptor* d = av.av_pix_fmt_desc_get(static_cast<AVPixelFormat>(format));
    if (!d) return std::nullopt;
    constexpr std::uint64_t kNotPlainYuv = AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM |
                                           AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_ALPHA |
                                           AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT;
    if ((d->flags & kNotPlainYuv) || !(d->flags & AV_PIX_FMT_FLAG_PLANAR) || d->nb_components != 3)
        return std::nullopt;
    const unsigned depth = static_cast<unsigned>(d->comp[0].depth);
    if (depth != 8 && depth != 10 && depth != 12 && depth != 16) return std::nullopt;
    for (int c = 0; c < 3; ++c) {
        const AVComponentDescriptor& comp = d->comp[c];
        if (comp.plane != c || comp.shift != 0 || comp.offset != 0 || static_cast<unsigned>(comp.depth) != depth ||
            comp.step != (depth > 8 ? 2 : 1))
            return std::nullopt;
    }
    if (const auto chroma = chroma_of(*d)) return std::pair(*chroma, depth);
    return std::nullopt;
}

AVPixelFormat av_format_of(ChromaFormat chroma, unsigned bitdepth)
{
    static constexpr AVPixelFormat kFormats[3][4] = {
        {AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV420P16LE},
        {AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV422P16LE},
        {AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P10LE, AV_PIX_FMT_YUV444P12LE, AV_PIX_FMT_YUV444P16LE},
    };
    const int depth = bitdepth == 8 ? 0 : bitdepth == 10 ? 1 : bitdepth == 12 ? 2 : 3;
    return kFormats[static_cast<int>(chroma)][depth];
}

std::string format_name(const Library& av, int format)
{
    const char* name = av.av_get_pix_fmt_name(static_cast<AVPixelFormat>(format));
    return name ? name : "unknown (" + std::to_string(format) + ")";
}

std::string size_text(unsigned width, unsigned height) { return std::to_string(width) + "x" + std::to_string(height); }

struct ScalerDeleter {
    void operator()(SwsContext* context) const { av::library("").sws_freeContext(context); }
};

class AvReader final : public VideoReader {
public:
    AvReader(InputFile file, std::string head, const DecodeOptions& options);

    std::optional<std::uint64_t> frame_count() const override { return std::nullopt; }
    bool read(Picture& picture) override;
    void skip(std::uint64_t count) override;
    bool decoded() const override { return true; }
    bool device_pictures() const override { return on_device_; }

private:
    // NVDEC's CUDA frames: the layout of their samples (set_up_device()),
    // and each one handed over as a DeviceSurface (read()).
    void set_up_device(const DecodeOptions& options);
    void hand_over(Picture& picture);
    // The next decoded picture into frame_; false at the end.
    bool next_picture();
    void check_same_as_first() const;
    void check_constant_rate();
    void make_scaler();
    void convert(Picture& picture);

    const Library& av_;
    av::AvDemuxer demuxer_;
    av::AvVideoDecoder decoder_;
    av::FramePtr frame_;
    av::FramePtr scaled_;
    bool pending_ = false;  // frame_ holds the first picture, decoded at open
    // The first picture's geometry; every later one must have it.
    int source_format_ = 0;
    unsigned source_width_ = 0, source_height_ = 0;
    // libswscale's step, when one is asked for and needed.
    std::unique_ptr<SwsContext, ScalerDeleter> scaler_;
    unsigned scale_flags_ = 0;
    int scaler_range_ = AVCOL_RANGE_UNSPECIFIED;
    // The stream's frame rate as a period in its time base's ticks (0: no
    // rate stated), and the first timestamped picture: the constant-rate
    // grid the pictures must keep (check_constant_rate()).
    double frame_period_ = 0;
    double frame_rate_ = 0;
    std::int64_t grid_origin_ = AV_NOPTS_VALUE;
    std::uint64_t grid_origin_picture_ = 0;
    // CUDA frames (--hwdec cuda): how their planes hold the samples.
    bool on_device_ = false;
    int gpu_ = 0;
    bool chroma_interleaved_ = false;
    unsigned sample_shift_ = 0;
};

AvReader::AvReader(InputFile file, std::string head, const DecodeOptions& options)
    : av_(av::library(file.path())),
      demuxer_(std::move(file), std::move(head), options.stream, options.stream_option),
      decoder_(demuxer_, options.threads,
               av::HardwareChoice{options.hardware == HardwareDecoding::kCuda, options.gpu, options.hardware_fallback}),
      frame_(av::make_frame(demuxer_.path()))
{
    path_ = demuxer_.path();
    // The first picture says what the stream holds (a header may not).
    if (!decoder_.receive(frame_.get()))
        throw Error(path_ + ": the video stream (" + decoder_.codec_name() + " in " + demuxer_.container() +
                    ") has no picture");
    pending_ = true;
    // The rate ffmpeg's constant-rate output would keep (its real base rate,
    // else the average), in ticks of the stream's time base.
    const AVStream& stream = demuxer_.stream();
    const AVRational rate = stream.r_frame_rate.num > 0 && stream.r_frame_rate.den > 0 ? stream.r_frame_rate
                                                                                       : stream.avg_frame_rate;
    if (rate.num > 0 && rate.den > 0 && stream.time_base.num > 0 && stream.time_base.den > 0) {
        frame_rate_ = static_cast<double>(rate.num) / rate.den;
        frame_period_ = static_cast<double>(rate.den) * stream.time_base.den /
                        (static_cast<double>(rate.num) * stream.time_base.num);
    }
    check_constant_rate();
    source_format_ = frame_->format;
    source_width_ = static_cast<unsigned>(frame_->width);
    source_height_ = static_cast<unsigned>(frame_->height);
    if (frame_->width <= 0 || frame_->height <= 0)
        throw Error(path_ + ": the decoder gave a picture of no size");

    if (source_format_ == AV_PIX_FMT_CUDA) {
        set_up_device(options);
        return;
    }
    VideoFormat format{source_width_, source_height_, ChromaFormat::k420, 8};
    const auto native = planar_yuv(av_, source_format_);
    // The pixel format libswscale writes, if it runs: the source's own when
    // only the size changes (yuvj420p stays full range, as in ffmpeg's scale
    // filter), else the one asked for (from yuvj420p, --pix_fmt yuv420p
    // converts the range, as ffmpeg -pix_fmt yuv420p does).
    int out_format = source_format_;
    bool converted = false;
    if (options.convert_to) {
        format.chroma = options.convert_to->chroma;
        format.bitdepth = options.convert_to->bitdepth;
        out_format = av_format_of(format.chroma, format.bitdepth);
        converted = source_format_ != out_format;
    } else if (native) {
        format.chroma = native->first;
        format.bitdepth = native->second;
    } else {
        throw Error(path_ + ": pixel format " + format_name(av_, source_format_) +
                    " is not one twinvmaf scores (planar YUV 4:2:0, 4:2:2 or 4:4:4 of 8, 10, 12 or 16 bits, "
                    "e.g. yuv420p, yuv420p10le); give --pix_fmt yuv420p (or another) to convert it");
    }
    bool scaled = false;
    if (options.scale_to && (options.scale_to->first != format.width || options.scale_to->second != format.height)) {
        format.width = options.scale_to->first;
        format.height = options.scale_to->second;
        scaled = true;
    }
    check_video_format(path_, format);
    format_ = format;
    if (converted || scaled) {
        // FFmpeg's scale filter without flags= scales with bicubic, and
        // so does a conversion alone (ffmpeg -pix_fmt).
        scale_flags_ = options.scale_flags ? options.scale_flags : kScaleBicubic;
        scaled_ = av::make_frame(path_);
        scaled_->format = out_format;
        scaled_->width = static_cast<int>(format.width);
        scaled_->height = static_cast<int>(format.height);
        const int status = av_.av_frame_get_buffer(scaled_.get(), 0);
        if (status < 0) throw Error(path_ + ": out of memory for a scaled picture: " + av::error_text(status));
    }
}

// NVDEC's frames hold NV12 (4:2:0 8-bit: luma, then U and V interleaved),
// P010/P016 (the same in 16-bit samples, the codec's 10 or 12 bits in their
// high bits), YUV444P or YUV444P16 (three planes; high bits again), and with
// newer FFmpeg and GPUs their 4:2:2 kin. The codec's own format (its
// software format) says the bit depth; the frames' layout says where the
// samples are.
void AvReader::set_up_device(const DecodeOptions& options)
{
    if (options.scale_to || options.convert_to)
        throw Error(path_ + ": --hwdec cuda keeps the pictures on the GPU, where they are not scaled or converted; "
                            "give --hwdec none with --scale or --pix_fmt");
    const auto* frames = reinterpret_cast<const AVHWFramesContext*>(frame_->hw_frames_ctx->data);
    const AVPixFmtDescriptor* layout = av_.av_pix_fmt_desc_get(frames->sw_format);
    const AVPixFmtDescriptor* codec = av_.av_pix_fmt_desc_get(static_cast<AVPixelFormat>(decoder_.software_format()));
    if (!layout || !codec || layout->nb_components != 3 || (layout->flags & AV_PIX_FMT_FLAG_BE))
        throw Error(path_ + ": NVDEC gave frames of a layout twinvmaf does not read (" +
                    format_name(av_, frames->sw_format) + ")");
    const unsigned depth = static_cast<unsigned>(codec->comp[0].depth);
    const unsigned container_bits = 8u * static_cast<unsigned>(layout->comp[0].step);
    if ((depth != 8 && depth != 10 && depth != 12 && depth != 16) || depth > container_bits ||
        (container_bits != 8 && container_bits != 16) || (depth > 8) != (container_bits == 16))
        throw Error(path_ + ": NVDEC gave " + format_name(av_, frames->sw_format) + " frames of a " +
                    std::to_string(depth) + "-bit stream, which twinvmaf does not read");
    const auto chroma = chroma_of(*layout);
    if (!chroma)
        throw Error(path_ + ": NVDEC gave frames of an unknown chroma layout (" + format_name(av_, frames->sw_format) +
                    ")");
    const VideoFormat format{source_width_, source_height_, *chroma, depth};
    check_video_format(path_, format);
    format_ = format;
    chroma_interleaved_ = layout->comp[1].plane == layout->comp[2].plane;
    sample_shift_ = container_bits - depth;
    on_device_ = true;
    gpu_ = options.gpu;
}

void AvReader::hand_over(Picture& picture)
{
    DeviceSurface surface;
    for (int p = 0; p < 3; ++p) {
        surface.plane[p] = frame_->data[p];
        surface.pitch[p] = frame_->linesize[p];
    }
    surface.chroma_interleaved = chroma_interleaved_;
    surface.sample_shift = sample_shift_;
    surface.device = gpu_;
    // A new reference to the frame's buffers: the decoder reuses frame_
    // while the picture is scored.
    AVFrame* held = av_.av_frame_clone(frame_.get());
    if (!held) throw Error(path_ + ": frame " + std::to_string(position_) + ": out of memory for a decoded frame");
    surface.owner = std::shared_ptr<const void>(held, [](AVFrame* frame) { av::library("").av_frame_free(&frame); });
    picture.set_device_surface(format_, std::move(surface));
}

bool AvReader::next_picture()
{
    if (pending_) {
        pending_ = false;
        return true;
    }
    av_.av_frame_unref(frame_.get());
    if (!decoder_.receive(frame_.get())) return false;
    check_same_as_first();
    check_constant_rate();
    return true;
}

// Pictures are paired by number. That is what decoding first gives (ffmpeg
// -f yuv4mpegpipe, at a constant rate) only while each picture's timestamp
// stays on the constant-rate grid: ffmpeg repeats or drops pictures where
// they drift more than a frame from it (a variable frame rate), and pairing
// by number would then compare pictures of other times. So a picture half
// a frame or more off the grid of the first one is an error naming it (the
// rounding of a container's timestamps, 1 ms in Matroska, is far less).
// Pictures without a timestamp (some elementary streams) are not checked.
void AvReader::check_constant_rate()
{
    const std::int64_t pts = frame_->best_effort_timestamp;
    if (frame_period_ <= 0 || pts == AV_NOPTS_VALUE) return;
    if (grid_origin_ == AV_NOPTS_VALUE) {
        grid_origin_ = pts;
        grid_origin_picture_ = position_;
        return;
    }
    const double on_grid = static_cast<double>(pts - grid_origin_) / frame_period_;
    const double expected = static_cast<double>(position_ - grid_origin_picture_);
    if (std::fabs(on_grid - expected) < 0.5) return;
    char text[160];
    std::snprintf(text, sizeof text, "at the stream's constant %.6g fps its timestamp is frame %.2f's", frame_rate_,
                  on_grid + static_cast<double>(grid_origin_picture_));
    throw Error(path_ + ": frame " + std::to_string(position_) + ": variable frame rate (" + text +
                "); twinvmaf pairs pictures by number: make the rate constant first (e.g. ffmpeg -i IN "
                "-fps_mode cfr -f yuv4mpegpipe OUT.y4m)");
}

void AvReader::check_same_as_first() const
{
    if (frame_->format == source_format_ && static_cast<unsigned>(frame_->width) == source_width_ &&
        static_cast<unsigned>(frame_->height) == source_height_)
        return;
    throw Error(path_ + ": frame " + std::to_string(position_) + ": the stream changes from " +
                size_text(source_width_, source_height_) + " " + format_name(av_, source_format_) + " to " +
                size_text(frame_->width, frame_->height) + " " + format_name(av_, frame_->format) +
                " (twinvmaf scores one size and format per input)");
}

// The libswscale context FFmpeg 5.1's scale filter (vf_scale.c) sets up for
// this step, option by option, so that the bytes are ffmpeg's: the flags,
// one thread, the source range when the picture states it, and the MPEG-2
// chroma siting it forces on yuv420p (vertical position 128/256) on either
// side.
void AvReader::make_scaler()
{
    SwsContext* context = av_.sws_alloc_context();
    if (!context) throw Error(path_ + ": out of memory for libswscale");
    scaler_.reset(context);
    const int out_format = scaled_->format;
    av_.av_opt_set_int(context, "srcw", source_width_, 0);
    av_.av_opt_set_int(context, "srch", source_height_, 0);
    av_.av_opt_set_int(context, "src_format", source_format_, 0);
    av_.av_opt_set_int(context, "dstw", scaled_->width, 0);
    av_.av_opt_set_int(context, "dsth", scaled_->height, 0);
    av_.av_opt_set_int(context, "dst_format", out_format, 0);
    av_.av_opt_set_int(context, "sws_flags", scale_flags_, 0);
    av_.av_opt_set_int(context, "param0", SWS_PARAM_DEFAULT, 0);
    av_.av_opt_set_int(context, "param1", SWS_PARAM_DEFAULT, 0);
    av_.av_opt_set_int(context, "threads", 1, 0);
    scaler_range_ = frame_->color_range;
    if (scaler_range_ != AVCOL_RANGE_UNSPECIFIED)
        av_.av_opt_set_int(context, "src_range", scaler_range_ == AVCOL_RANGE_JPEG, 0);
    constexpr int kUnset = -513;  // vf_scale's default: libswscale chooses
    av_.av_opt_set_int(context, "src_h_chr_pos", kUnset, 0);
    av_.av_opt_set_int(context, "src_v_chr_pos", source_format_ == AV_PIX_FMT_YUV420P ? 128 : kUnset, 0);
    av_.av_opt_set_int(context, "dst_h_chr_pos", kUnset, 0);
    av_.av_opt_set_int(context, "dst_v_chr_pos", out_format == AV_PIX_FMT_YUV420P ? 128 : kUnset, 0);
    const int status = av_.sws_init_context(context, nullptr, nullptr);
    if (status < 0)
        throw Error(path_ + ": libswscale cannot convert " + format_name(av_, source_format_) + " " +
                    size_text(source_width_, source_height_) + " to " + format_name(av_, out_format) + " " +
                    size_text(scaled_->width, scaled_->height) + ": " + av::error_text(status));
}

void AvReader::convert(Picture& picture)
{
    const AVFrame* from = frame_.get();
    if (scaled_) {
        if (!scaler_ || frame_->color_range != scaler_range_) make_scaler();
        // As vf_scale does for each picture that states its range.
        if (frame_->color_range != AVCOL_RANGE_UNSPECIFIED) {
            int *inverse_table = nullptr, *table = nullptr;
            int source_full = 0, destination_full = 0, brightness = 0, contrast = 0, saturation = 0;
            av_.sws_getColorspaceDetails(scaler_.get(), &inverse_table, &source_full, &table, &destination_full,
                                         &brightness, &contrast, &saturation);
            source_full = frame_->color_range == AVCOL_RANGE_JPEG;
            av_.sws_setColorspaceDetails(scaler_.get(), inverse_table, source_full, table, destination_full,
                                         brightness, contrast, saturation);
        }
        const int status = av_.sws_scale_frame(scaler_.get(), scaled_.get(), frame_.get());
        if (status < 0)
            throw Error(path_ + ": frame " + std::to_string(position_) + ": libswscale failed: " +
                        av::error_text(status));
        from = scaled_.get();
    }
    reset_for_frame(picture, format_, path_, position_);
    for (int plane = 0; plane < 3; ++plane) {
        std::uint8_t* to = picture.bytes() + format_.plane_offset(plane);
        const std::size_t row_bytes = std::size_t{format_.stored_width(plane)} * format_.bytes_per_sample();
        const unsigned rows = format_.stored_height(plane);
        const std::uint8_t* row = from->data[plane];
        for (unsigned y = 0; y < rows; ++y, row += from->linesize[plane], to += row_bytes)
            std::memcpy(to, row, row_bytes);
    }
}

bool AvReader::read(Picture& picture)
{
    if (!next_picture()) return false;
    if (on_device_) {
        hand_over(picture);
        ++position_;
        return true;
    }
    convert(picture);
    check_sample_range(picture, path_, position_);
    ++position_;
    return true;
}

void AvReader::skip(std::uint64_t count)
{
    for (std::uint64_t i = 0; i < count; ++i) {
        if (!next_picture()) return;
        ++position_;
    }
}

}  // namespace

std::unique_ptr<VideoReader> open_decoded_video(InputFile file, std::string head, const DecodeOptions& options)
{
    return std::make_unique<AvReader>(std::move(file), std::move(head), options);
}

bool is_not_video(const std::exception& error) { return dynamic_cast<const av::NotVideo*>(&error) != nullptr; }

}  // namespace twinvmaf
