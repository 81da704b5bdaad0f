#include "gpu/device_twin.h"
#include "gpu/surface_copy.h"

namespace twinvmaf::gpu {

namespace {

// One row of one plane per blockIdx.y: sample x of the output is sample
// x * step + first of the surface's row (step 2 picks U or V out of an
// interleaved chroma plane), shifted down by `shift`.
template <class Sample>
__global__ void copy_plane(const std::uint8_t* source, std::ptrdiff_t pitch, unsigned step, unsigned first,
                           unsigned shift, Sample* target, unsigned width)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width) return;
    const unsigned y = blockIdx.y;
    const Sample* row = reinterpret_cast<const Sample*>(source + static_cast<std::ptrdiff_t>(y) * pitch);
    target[static_cast<std::size_t>(y) * width + x] = static_cast<Sample>(row[x * step + first] >> shift);
}

// Planes 0 .. n-1 are within the first `bytes` of the layout.
int planes_within(const VideoFormat& format, std::size_t bytes)
{
    int planes = 0;
    while (planes < 3 && format.plane_offset(planes) < bytes) ++planes;
    return planes;
}

}  // namespace

std::string surface_refusal(const DeviceSurface& surface, const VideoFormat& format, std::size_t bytes)
{
    const int planes = planes_within(format, bytes);
    if (surface.luma_only && planes > 1)
        return "the pictures in GPU memory hold luma only (FFmpeg's libvmaf_cuda filter copies no chroma), and a "
               "feature of this run reads chroma (psnr's chroma, ciede, SpEED's chroma as in the vmaf_v1.0.16 "
               "models); score it from host frames (FFmpeg's libvmaf filter) or with twinvmaf --hwdec cuda";
    for (int p = 0; p < planes; ++p) {
        const int source = surface.chroma_interleaved && p == 2 ? 1 : p;
        if (!surface.plane[source]) return "plane " + std::to_string(p) + " of a picture in GPU memory is missing";
    }
    if (surface.sample_shift && format.bytes_per_sample() != 2)
        return "internal: a shifted device surface of 8-bit samples";
    return "";
}

void enqueue_surface_copy(const DeviceSurface& surface, const VideoFormat& format, std::size_t bytes,
                          std::uint8_t* frame, gpuStream_t stream)
{
    constexpr unsigned kThreads = 256;
    const int planes = planes_within(format, bytes);
    for (int p = 0; p < planes; ++p) {
        const bool interleaved = surface.chroma_interleaved && p > 0;
        const int source = interleaved ? 1 : p;
        const unsigned width = format.stored_width(p);
        const unsigned height = format.stored_height(p);
        if (!width || !height) continue;
        const auto* from = static_cast<const std::uint8_t*>(surface.plane[source]);
        const unsigned step = interleaved ? 2 : 1;
        const unsigned first = interleaved ? static_cast<unsigned>(p - 1) : 0;
        const dim3 grid(blocks_for(width, kThreads), height);
        std::uint8_t* target = frame + format.plane_offset(p);
        if (format.bytes_per_sample() == 2) {
            copy_plane<std::uint16_t><<<grid, kThreads, 0, stream>>>(
                from, surface.pitch[source], step, first, surface.sample_shift,
                reinterpret_cast<std::uint16_t*>(target), width);
        } else {
            copy_plane<std::uint8_t><<<grid, kThreads, 0, stream>>>(from, surface.pitch[source], step, first, 0,
                                                                   target, width);
        }
        check_launch("copy_plane");
    }
}

}  // namespace twinvmaf::gpu
