// Pictures that are already on the GPU (twinvmaf/picture.h, DeviceSurface):
// a hardware decoder's surfaces and libvmaf's CUDA pictures, copied on the
// device into the file layout the twins read (gpu/device_twin.h). No byte
// crosses PCIe; the values are the surface's, exactly (a shift undoes
// P010's high-bit packing, nothing else changes them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu/gpu_runtime.h"
#include "twinvmaf/picture.h"

namespace twinvmaf::gpu {

// Why `surface` cannot give the first `bytes` of a frame of `format` (the
// planes the twins read): "" when it can.
std::string surface_refusal(const DeviceSurface& surface, const VideoFormat& format, std::size_t bytes);

// Enqueues on `stream` the copy of `surface`'s planes that lie in the first
// `bytes` of the file layout of `format` into `frame` (device memory).
void enqueue_surface_copy(const DeviceSurface& surface, const VideoFormat& format, std::size_t bytes,
                          std::uint8_t* frame, gpuStream_t stream);

}  // namespace twinvmaf::gpu
