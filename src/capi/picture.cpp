// Pictures of the C API (libvmaf's picture.h). A VmafPicture shows a
// twinvmaf Picture: one buffer in the layout of a raw .yuv frame, which the
// pipeline scores (and a GPU uploads) as it is, without a copy. Its planes
// are what Netflix's are (w >> 1 chroma for 4:2:0 / 4:2:2, h >> 1 for
// 4:2:0); their rows are as long as the file layout's (a last chroma column
// on odd widths is stored, zero, never scored).
#include <cstring>

#include "capi/capi.h"
#include "io/raw_reader.h"

namespace twinvmaf::capi {

VideoFormat video_format(VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h)
{
    VideoFormat format;
    switch (pix_fmt) {
    case VMAF_PIX_FMT_YUV420P: format.chroma = ChromaFormat::k420; break;
    case VMAF_PIX_FMT_YUV422P: format.chroma = ChromaFormat::k422; break;
    case VMAF_PIX_FMT_YUV444P: format.chroma = ChromaFormat::k444; break;
    case VMAF_PIX_FMT_YUV400P:
        throw Error("VMAF_PIX_FMT_YUV400P: twinvmaf scores 4:2:0, 4:2:2 and 4:4:4 pictures, not 4:0:0");
    default: throw Error("unknown pixel format " + std::to_string(static_cast<int>(pix_fmt)));
    }
    if (bpc < 8 || bpc > 16) throw Error("bpc " + std::to_string(bpc) + ": expected 8..16 bits per component");
    if (!w || !h) throw Error("picture of " + std::to_string(w) + "x" + std::to_string(h) + ": no samples");
    // The frame size limit of every input (docs/compat.md, Limits): larger
    // claims would allocate (and overflow the layout's 32-bit plane sizes)
    // before anything is scored.
    if (w > kMaxFrameDimension || h > kMaxFrameDimension)
        throw Error("picture of " + std::to_string(w) + "x" + std::to_string(h) + ": at most " +
                    std::to_string(kMaxFrameDimension) + " pixels each way");
    format.width = w;
    format.height = h;
    format.bitdepth = bpc;
    return format;
}

void expose_picture(VmafPicture* pic, std::shared_ptr<Picture> picture)
{
    const VideoFormat& format = picture->format();
    std::memset(pic, 0, sizeof *pic);
    pic->pix_fmt = format.chroma == ChromaFormat::k420   ? VMAF_PIX_FMT_YUV420P
                   : format.chroma == ChromaFormat::k422 ? VMAF_PIX_FMT_YUV422P
                                                         : VMAF_PIX_FMT_YUV444P;
    pic->bpc = format.bitdepth;
    const DeviceSurface* surface = picture->device_surface();  // a CUDA picture (capi/cuda.cpp)
    for (int p = 0; p < 3; ++p) {
        pic->w[p] = format.plane_width(p);
        pic->h[p] = format.plane_height(p);
        if (surface) {
            pic->stride[p] = surface->pitch[p];
            pic->data[p] = const_cast<void*>(surface->plane[p]);
        } else {
            pic->stride[p] = picture->plane(p).stride;
            pic->data[p] = picture->bytes() + format.plane_offset(p);
        }
    }
    auto* ref = new VmafRef{std::move(picture)};
    pic->ref = ref;
    pic->priv = ref;
}

std::shared_ptr<Picture> picture_of(const VmafPicture* pic, const char* which)
{
    if (!pic->ref)
        throw Error(std::string(which) +
                    " picture holds no picture: make it with vmaf_picture_alloc() or "
                    "vmaf_fetch_preallocated_picture() (and do not pass it twice)");
    std::shared_ptr<Picture> picture = pic->ref->picture;
    const VideoFormat& format = picture->format();
    if (const DeviceSurface* surface = picture->device_surface()) {
        // A CUDA picture: its planes are wherever data[] points on the
        // device (the preallocated buffer, or the caller's own memory).
        DeviceSurface planes = *surface;
        for (int p = 0; p < 3; ++p) {
            if (!pic->data[p]) throw Error(std::string(which) + " picture: data[" + std::to_string(p) + "] is NULL");
            if (pic->stride[p] < static_cast<std::ptrdiff_t>(std::size_t{pic->w[p]} * format.bytes_per_sample()))
                throw Error(std::string(which) + " picture: stride[" + std::to_string(p) + "] is shorter than a row");
            planes.plane[p] = pic->data[p];
            planes.pitch[p] = pic->stride[p];
        }
        picture->set_device_surface(format, std::move(planes));
        return picture;
    }
    const unsigned bytes = format.bytes_per_sample();
    for (int p = 0; p < 3; ++p) {
        std::uint8_t* own = picture->bytes() + format.plane_offset(p);
        const PlaneView plane = picture->plane(p);
        if (pic->data[p] == own && pic->stride[p] == plane.stride) continue;
        // The caller pointed the plane at memory of its own: take the
        // samples from there.
        if (!pic->data[p]) throw Error(std::string(which) + " picture: data[" + std::to_string(p) + "] is NULL");
        const auto* from = static_cast<const std::uint8_t*>(pic->data[p]);
        for (unsigned y = 0; y < plane.height; ++y)
            std::memcpy(own + static_cast<std::ptrdiff_t>(y) * plane.stride, from + y * pic->stride[p],
                        std::size_t{plane.width} * bytes);
    }
    return picture;
}

}  // namespace twinvmaf::capi

using namespace twinvmaf;

extern "C" int vmaf_picture_alloc(VmafPicture* pic, enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                                  unsigned h)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] {
        if (!pic) return capi::refuse(function, "pic is NULL");
        auto picture = std::make_shared<Picture>(capi::video_format(pix_fmt, bpc, w, h));
        std::memset(picture->bytes(), 0, picture->size_bytes());
        capi::expose_picture(pic, std::move(picture));
        return 0;
    });
}

extern "C" int vmaf_picture_unref(VmafPicture* pic)
{
    if (!pic || !pic->ref) return -EINVAL;
    delete pic->ref;
    std::memset(pic, 0, sizeof *pic);
    return 0;
}
