// The GPU engine: device frame slots, pinned result blocks, one stream.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "gpu/device_twin.h"
#include "gpu/gpu_engine.h"

namespace twinvmaf {

namespace gpu {

DevicePlane DeviceFrame::plane_of(const std::uint8_t* base, int plane) const
{
    std::size_t offset = 0;
    for (int p = 0; p < plane; ++p) offset += format.stored_plane_bytes(p);
    return DevicePlane{base + offset,
                       static_cast<std::ptrdiff_t>(format.stored_width(plane)) * format.bytes_per_sample(),
                       format.plane_width(plane), format.plane_height(plane)};
}

namespace {

void* allocate_pinned(std::size_t bytes)
{
    void* memory = nullptr;
    check(gpuHostAlloc(&memory, bytes), "pinned host allocation");
    return memory;
}

void release_pinned(void* memory) { (void)gpuFreeHost(memory); }

const PictureAllocator kPinnedAllocator{allocate_pinned, release_pinned};

// Device memory owned for the engine's lifetime.
class DeviceMemory {
public:
    explicit DeviceMemory(std::size_t bytes)
    {
        if (bytes) check(gpuMalloc(&pointer_, bytes), "device allocation");
    }
    ~DeviceMemory() { if (pointer_) (void)gpuFree(pointer_); }
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;
    std::uint8_t* get() const { return static_cast<std::uint8_t*>(pointer_); }

private:
    void* pointer_ = nullptr;
};

class PinnedMemory {
public:
    explicit PinnedMemory(std::size_t bytes) : pointer_(bytes ? allocate_pinned(bytes) : nullptr) {}
    ~PinnedMemory() { if (pointer_) release_pinned(pointer_); }
    PinnedMemory(const PinnedMemory&) = delete;
    PinnedMemory& operator=(const PinnedMemory&) = delete;
    std::uint8_t* get() const { return static_cast<std::uint8_t*>(pointer_); }

private:
    void* pointer_;
};

constexpr std::size_t kResultAlignment = 256;

std::size_t align_up(std::size_t n) { return (n + kResultAlignment - 1) / kResultAlignment * kResultAlignment; }

class Engine final : public GpuEngine {
public:
    Engine(Backend backend, int device, const VideoFormat& format, const std::vector<OptionValues>& features,
           unsigned history)
        : backend_(backend), device_(device), format_(format)
    {
        int count = 0;
        if (gpuGetDeviceCount(&count) != gpuSuccess) count = 0;
        if (device < 0 || device >= count)
            throw Error(std::string("--gpu ") + std::to_string(device) + ": " + std::to_string(count) + " " +
                        TWINVMAF_GPU_API_NAME + " device(s) present");
        check(gpuSetDevice(device), "set device");
        for (const OptionValues& options : features) {
            twins_.push_back(make_twin(options, format));
            stats_.twin_ms.emplace_back(options.feature(), 0.0);
            offsets_.push_back(result_bytes_);
            result_bytes_ += align_up(std::max<std::size_t>(twins_.back()->result_bytes(), 1));
        }
        // Slots must outnumber the frames a temporal twin looks back on.
        if (history > kMaxHistory)
            throw Error("internal: a GPU twin may look back at most " + std::to_string(kMaxHistory) + " frames");
        history_ = history;
        depth_ = std::max(3u, history + 2);
        check(gpuStreamCreate(&stream_), "stream creation");
        const std::size_t frame_bytes = format.frame_bytes();
        for (unsigned s = 0; s < depth_; ++s) {
            auto slot = std::make_unique<Slot>(frame_bytes, result_bytes_);
            check(gpuEventCreate(&slot->done, gpuEventDisableTiming), "event creation");
            if (timing_) {
                // marks[0] before the uploads, [1] after, [2 + e] after twin e,
                // last after the readback.
                slot->marks.resize(twins_.size() + 3);
                for (gpuEvent_t& mark : slot->marks) check(gpuEventCreate(&mark, 0), "event creation");
            }
            slots_.push_back(std::move(slot));
        }
    }

    ~Engine() override
    {
        if (stream_) (void)gpuStreamSynchronize(stream_);
        for (auto& slot : slots_) {
            if (slot->done) (void)gpuEventDestroy(slot->done);
            for (gpuEvent_t mark : slot->marks) (void)gpuEventDestroy(mark);
        }
        slots_.clear();
        if (stream_) (void)gpuStreamDestroy(stream_);
    }

    std::string description() const override
    {
        return std::string(TWINVMAF_GPU_API_NAME) + " device " + std::to_string(device_) + ": " +
               gpu_device_name(device_);
    }

    const PictureAllocator* picture_allocator() const override { return &kPinnedAllocator; }
    unsigned depth() const override { return depth_; }

    void submit(unsigned slot_index, std::uint64_t index, const Picture& ref, const Picture& dis,
                const std::vector<bool>& run) override
    {
        Slot& slot = *slots_.at(slot_index);
        const std::size_t bytes = format_.frame_bytes();
        mark(slot, 0);
        check(gpuMemcpyAsync(slot.ref.get(), ref.bytes(), bytes, gpuMemcpyHostToDevice, stream_), "upload");
        check(gpuMemcpyAsync(slot.dis.get(), dis.bytes(), bytes, gpuMemcpyHostToDevice, stream_), "upload");
        stats_.uploads += 2;
        mark(slot, 1);
        if (result_bytes_) check(gpuMemsetAsync(slot.device_result.get(), 0, result_bytes_, stream_), "memset");
        DeviceFrame frame{slot.ref.get(), slot.dis.get(), format_, index};
        // Earlier frames are still in their slots: a slot is overwritten only
        // by the upload of frame index + depth, enqueued after this frame.
        frame.previous_count = static_cast<unsigned>(std::min<std::uint64_t>(history_, index));
        for (unsigned k = 1; k <= frame.previous_count; ++k) {
            const Slot& earlier = *slots_[(slot_index + depth_ - k) % depth_];
            frame.previous_ref[k - 1] = earlier.ref.get();
            frame.previous_dis[k - 1] = earlier.dis.get();
        }
        for (std::size_t e = 0; e < twins_.size(); ++e) {
            if (run[e]) twins_[e]->enqueue(frame, slot.device_result.get() + offsets_[e], stream_);
            mark(slot, 2 + e);
        }
        if (result_bytes_) {
            check(gpuMemcpyAsync(slot.host_result.get(), slot.device_result.get(), result_bytes_,
                                 gpuMemcpyDeviceToHost, stream_),
                  "readback");
            ++stats_.readbacks;
        }
        mark(slot, twins_.size() + 2);
        check(gpuEventRecord(slot.done, stream_), "event record");
        ++stats_.frames;
    }

    void collect(unsigned slot_index, const std::vector<bool>& run, std::vector<FrameScores>& scores) override
    {
        Slot& slot = *slots_.at(slot_index);
        check(gpuEventSynchronize(slot.done), "frame completion");
        ++stats_.host_waits;
        if (timing_) {
            stats_.upload_ms += elapsed(slot, 0, 1);
            for (std::size_t e = 0; e < twins_.size(); ++e) stats_.twin_ms[e].second += elapsed(slot, 1 + e, 2 + e);
            stats_.readback_ms += elapsed(slot, 1 + twins_.size(), 2 + twins_.size());
        }
        for (std::size_t e = 0; e < twins_.size(); ++e) {
            if (run[e]) twins_[e]->unpack(slot.host_result.get() + offsets_[e], scores[e]);
        }
    }

    GpuStats stats() const override { return stats_; }

private:

    struct Slot {
        Slot(std::size_t frame_bytes, std::size_t result_bytes)
            : ref(frame_bytes), dis(frame_bytes), device_result(result_bytes), host_result(result_bytes)
        {
        }
        DeviceMemory ref, dis, device_result;
        PinnedMemory host_result;
        gpuEvent_t done = nullptr;
        std::vector<gpuEvent_t> marks;  // timing only
    };

    void mark(Slot& slot, std::size_t which)
    {
        if (timing_) check(gpuEventRecord(slot.marks[which], stream_), "event record");
    }
    double elapsed(Slot& slot, std::size_t from, std::size_t to)
    {
        float ms = 0;
        check(gpuEventElapsedTime(&ms, slot.marks[from], slot.marks[to]), "event timing");
        return ms;
    }

    Backend backend_;
    int device_;
    // Per-stage device timing costs a few events a frame: only on request.
    bool timing_ = std::getenv("TWINVMAF_GPU_TIMING") != nullptr;
    VideoFormat format_;
    unsigned depth_ = 0;
    unsigned history_ = 0;
    gpuStream_t stream_ = nullptr;
    std::vector<std::unique_ptr<DeviceTwin>> twins_;
    std::vector<std::size_t> offsets_;
    std::size_t result_bytes_ = 0;
    std::vector<std::unique_ptr<Slot>> slots_;
    GpuStats stats_;
};

#if defined(__HIP__)
constexpr Backend kThisBackend = Backend::kHip;
#else
constexpr Backend kThisBackend = Backend::kCuda;
#endif

}  // namespace
}  // namespace gpu

bool backend_compiled(Backend backend) { return backend == Backend::kCpu || backend == gpu::kThisBackend; }

int gpu_device_count(Backend backend)
{
    if (backend != gpu::kThisBackend) return 0;
    int count = 0;
    if (gpuGetDeviceCount(&count) != gpuSuccess) return 0;
    return count;
}

bool twin_exists(const std::string& feature, Backend backend)
{
    return backend == gpu::kThisBackend && gpu::has_twin(feature);
}

std::unique_ptr<GpuEngine> make_gpu_engine(Backend backend, int device, const VideoFormat& format,
                                           const std::vector<OptionValues>& features, unsigned history)
{
    if (backend != gpu::kThisBackend)
        throw Error(std::string("--backend ") + backend_name(backend) + ": this twinvmaf was built with " +
                    backend_name(gpu::kThisBackend) + " only");
    for (const OptionValues& options : features) {
        if (!gpu::has_twin(options.feature()))
            throw Error("feature '" + options.feature() + "' has no " + backend_name(backend) +
                        " twin yet; use --backend cpu");
    }
    return std::make_unique<gpu::Engine>(backend, device, format, features, history);
}

}  // namespace twinvmaf
