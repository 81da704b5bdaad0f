// Device memory owned by the host object that holds it: `count` elements of
// T, freed with the owner. The engine's frame slots and every twin's buffers
// use it, so an allocation failure reads the same everywhere.
#pragma once

#include <cstddef>
#include <utility>

#include "gpu/gpu_runtime.h"

namespace twinvmaf::gpu {

template <class T>
class DeviceArray {
public:
    DeviceArray() = default;
    // `what` names the buffer in the error if the device is out of memory.
    explicit DeviceArray(std::size_t count, const char* what = "device allocation")
    {
        if (count) check(gpuMalloc(reinterpret_cast<void**>(&pointer_), count * sizeof(T)), what);
    }
    ~DeviceArray()
    {
        if (pointer_) (void)gpuFree(pointer_);
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    DeviceArray(DeviceArray&& other) noexcept : pointer_(std::exchange(other.pointer_, nullptr)) {}
    DeviceArray& operator=(DeviceArray&& other) noexcept
    {
        std::swap(pointer_, other.pointer_);
        return *this;
    }
    T* get() const { return pointer_; }

private:
    T* pointer_ = nullptr;
};

}  // namespace twinvmaf::gpu
