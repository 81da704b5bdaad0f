// The GPU engine: device frame slots, pinned result blocks, overlapping streams.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/startup_timeline.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"
#include "gpu/gpu_engine.h"
#include "gpu/surface_copy.h"

namespace twinvmaf {

namespace gpu {

DevicePlane DeviceFrame::plane_of(const std::uint8_t* base, int plane) const
{
    return DevicePlane{base + format.plane_offset(plane),
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

// Pictures: page-locked like allocate_pinned(), but built from 2 MiB pages
// where the kernel offers them (transparent huge pages), which pins about
// 1.5x faster than cudaHostAlloc on the H200 machine (bench_gpu_upload: 3.1
// against 4.6 ms per 4K picture). Pinned memory for pictures is the start-up
// cost that grows with the frame size.
constexpr std::size_t kHugePage = std::size_t{2} << 20;

void* allocate_picture(std::size_t bytes, int device)
{
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* memory = std::aligned_alloc(kHugePage, rounded);
    if (!memory) throw Error("out of host memory for a " + std::to_string(bytes) + "-byte picture");
#ifdef MADV_HUGEPAGE
    (void)::madvise(memory, rounded, MADV_HUGEPAGE);
#endif
    // Fault the pages in before pinning them, on the caller's thread: this is
    // the part that scales with threads (PicturePool::reserve spreads it).
    std::memset(memory, 0, rounded);
    // The pinning needs the device's context, current on this thread (the
    // pool's helper threads start without one).
    gpuError_t status = gpuSetDevice(device);
    if (status == gpuSuccess) status = gpuHostRegister(memory, rounded);
    if (status != gpuSuccess) {
        std::free(memory);
        check(status, "pinning a picture");
    }
    return memory;
}

void release_picture(void* memory)
{
    (void)gpuHostUnregister(memory);
    std::free(memory);
}

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

// Streams: uploads on one, each twin on its own, the readback on another.
// Events order them per frame:
//
//   copy:    [wait: slot free] upload ref, dis -> uploaded
//   twin e:  [wait: uploaded] zero result, kernels -> twin_done[e]
//   result:  [wait: every twin_done] readback -> done   (host waits on done)
//
// So the upload of frame N+1 runs while the twins score frame N, and twins
// of one frame run side by side (their small scales do not fill the device
// alone). Each twin's frames still run in order on its stream, so a twin may
// keep device state from frame to frame.
class Engine final : public GpuEngine {
public:
    Engine(Backend backend, int device, const VideoFormat& format, const std::vector<OptionValues>& features,
           unsigned history, std::size_t upload_bytes)
        : backend_(backend), device_(device), format_(format),
          upload_bytes_(upload_bytes ? std::min(upload_bytes, format.frame_bytes()) : format.frame_bytes())
    {
        const auto setup_start = std::chrono::steady_clock::now();
        const int count = gpu_device_count(backend);  // before any other runtime call: it sets the queues
        if (device < 0 || device >= count)
            throw Error(std::string("--gpu ") + std::to_string(device) + ": " + std::to_string(count) + " " +
                        TWINVMAF_GPU_API_NAME + " device(s) present");
        // The device's primary context (created here), unless the caller
        // made its own context current (libvmaf's CUDA API).
        if (!gpu_caller_context) check(gpuSetDevice(device), "set device");
        startup::mark("context");
        for (const OptionValues& options : features) {
            twins_.push_back(make_twin(options, format));
            stats_.twin_ms.emplace_back(options.feature(), 0.0);
            offsets_.push_back(result_bytes_);
            result_bytes_ += align_up(std::max<std::size_t>(twins_.back()->result_bytes(), 1));
        }
        startup::mark("twins");
        // Slots must outnumber the frames a temporal twin looks back on, and
        // leave room for one frame uploading while the one before is scored:
        // the upload of frame N waits only for frame N - 2 (see submit()).
        if (history > kMaxHistory)
            throw Error("internal: a GPU twin may look back at most " + std::to_string(kMaxHistory) + " frames");
        history_ = history;
        depth_ = gpu_engine_depth(history);
        check(gpuStreamCreate(&copy_stream_), "stream creation");
        check(gpuStreamCreate(&result_stream_), "stream creation");
        twin_streams_.resize(twins_.size());
        for (gpuStream_t& stream : twin_streams_) check(gpuStreamCreate(&stream), "stream creation");
        const std::size_t frame_bytes = format.frame_bytes();
        for (unsigned s = 0; s < depth_; ++s) {
            auto slot = std::make_unique<Slot>(frame_bytes, result_bytes_);
            slot->twin_done.resize(twins_.size());
            for (gpuEvent_t* event : slot->order_events())
                check(gpuEventCreate(event, gpuEventDisableTiming), "event creation");
            if (timing_) {
                slot->marks.resize(kTwinMarks + 2 * twins_.size());
                for (gpuEvent_t& mark : slot->marks) check(gpuEventCreate(&mark, 0), "event creation");
            }
            slots_.push_back(std::move(slot));
        }
        if (timing_) check(gpuEventCreate(&first_upload_, 0), "event creation");
        check(gpuEventCreate(&legacy_done_, gpuEventDisableTiming), "event creation");
        startup::mark("streams and slots");
        stats_.setup_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - setup_start).count();
    }

    ~Engine() override
    {
        for (gpuStream_t stream : all_streams())
            if (stream) (void)gpuStreamSynchronize(stream);
        for (auto& slot : slots_) {
            for (gpuEvent_t* event : slot->order_events())
                if (*event) (void)gpuEventDestroy(*event);
            for (gpuEvent_t mark : slot->marks) (void)gpuEventDestroy(mark);
        }
        slots_.clear();
        if (first_upload_) (void)gpuEventDestroy(first_upload_);
        if (legacy_done_) (void)gpuEventDestroy(legacy_done_);
        for (gpuStream_t stream : all_streams())
            if (stream) (void)gpuStreamDestroy(stream);
    }

    std::string description() const override
    {
        return std::string(TWINVMAF_GPU_API_NAME) + " device " + std::to_string(device_) + ": " +
               gpu_device_name(device_);
    }

    void submit(unsigned slot_index, std::uint64_t index, const Picture& ref, const Picture& dis,
                const std::vector<bool>& run) override
    {
        Slot& slot = *slots_.at(slot_index);
        // The slot's frames were last read by frame index - depth + history
        // (as an earlier frame of a temporal twin); the upload waits for it.
        if (index + history_ >= depth_) {
            const Slot& last_reader = *slots_[(index + history_ - depth_) % depth_];
            check(gpuStreamWaitEvent(copy_stream_, last_reader.done), "stream wait");
        }
        const std::size_t bytes = upload_bytes_;
        if (timing_ && stats_.frames == 0) check(gpuEventRecord(first_upload_, copy_stream_), "event record");
        mark(slot, kUploadBegin, copy_stream_);
        if (ref.device_surface() || dis.device_surface()) wait_for_legacy_stream();
        bring_in(ref, slot.ref.get(), bytes);
        bring_in(dis, slot.dis.get(), bytes);
        mark(slot, kUploadEnd, copy_stream_);
        check(gpuEventRecord(slot.uploaded, copy_stream_), "event record");

        DeviceFrame frame{slot.ref.get(), slot.dis.get(), format_, index};
        // Earlier frames are still in their slots (see above); their uploads
        // precede this one on the copy stream.
        frame.previous_count = static_cast<unsigned>(std::min<std::uint64_t>(history_, index));
        for (unsigned k = 1; k <= frame.previous_count; ++k) {
            const Slot& earlier = *slots_[(slot_index + depth_ - k) % depth_];
            frame.previous_ref[k - 1] = earlier.ref.get();
            frame.previous_dis[k - 1] = earlier.dis.get();
        }
        for (std::size_t e = 0; e < twins_.size(); ++e) {
            if (!run[e]) continue;
            gpuStream_t stream = twin_streams_[e];
            check(gpuStreamWaitEvent(stream, slot.uploaded), "stream wait");
            mark(slot, kTwinMarks + 2 * e, stream);
            std::uint8_t* result = slot.device_result.get() + offsets_[e];
            check(gpuMemsetAsync(result, 0, twins_[e]->result_bytes(), stream), "memset");
            twins_[e]->enqueue(frame, result, stream);
            mark(slot, kTwinMarks + 2 * e + 1, stream);
            check(gpuEventRecord(slot.twin_done[e], stream), "event record");
            check(gpuStreamWaitEvent(result_stream_, slot.twin_done[e]), "stream wait");
        }
        // With no twin run (none can be, but keep the order), wait for the upload.
        check(gpuStreamWaitEvent(result_stream_, slot.uploaded), "stream wait");
        mark(slot, kReadbackBegin, result_stream_);
        if (result_bytes_) {
            check(gpuMemcpyAsync(slot.host_result.get(), slot.device_result.get(), result_bytes_,
                                 gpuMemcpyDeviceToHost, result_stream_),
                  "readback");
            ++stats_.readbacks;
        }
        mark(slot, kReadbackEnd, result_stream_);
        check(gpuEventRecord(slot.done, result_stream_), "event record");
        ++stats_.frames;
    }

    void collect(unsigned slot_index, const std::vector<bool>& run, std::vector<FrameScores>& scores) override
    {
        Slot& slot = *slots_.at(slot_index);
        check(gpuEventSynchronize(slot.done), "frame completion");
        ++stats_.host_waits;
        if (timing_) {
            stats_.upload_ms += elapsed(slot, kUploadBegin, kUploadEnd);
            for (std::size_t e = 0; e < twins_.size(); ++e)
                if (run[e]) stats_.twin_ms[e].second += elapsed(slot, kTwinMarks + 2 * e, kTwinMarks + 2 * e + 1);
            stats_.readback_ms += elapsed(slot, kReadbackBegin, kReadbackEnd);
            float span = 0;
            check(gpuEventElapsedTime(&span, first_upload_, slot.marks[kReadbackEnd]), "event timing");
            stats_.device_span_ms = span;
        }
        for (std::size_t e = 0; e < twins_.size(); ++e) {
            if (run[e]) twins_[e]->unpack(slot.host_result.get() + offsets_[e], scores[e]);
        }
    }

    GpuStats stats() const override { return stats_; }

private:
    // A picture into a slot's frame on the copy stream: uploaded from host
    // memory, or copied on the device from a device surface (a decoder's,
    // or a libvmaf CUDA picture), which never goes through the host.
    void bring_in(const Picture& picture, std::uint8_t* frame, std::size_t bytes)
    {
        const DeviceSurface* surface = picture.device_surface();
        if (!surface) {
            check(gpuMemcpyAsync(frame, picture.bytes(), bytes, gpuMemcpyHostToDevice, copy_stream_), "upload");
            ++stats_.uploads;
            return;
        }
        if (surface->device != device_)
            throw Error("a picture in the memory of GPU " + std::to_string(surface->device) +
                        " cannot be scored on GPU " + std::to_string(device_) + " (--gpu)");
        if (std::string why = surface_refusal(*surface, format_, bytes); !why.empty()) throw Error(why);
        enqueue_surface_copy(*surface, format_, bytes, frame, copy_stream_);
        ++stats_.device_copies;
    }
    // Hardware decoders (FFmpeg's NVDEC) write their pictures on the legacy
    // default stream, with which the engine's non-blocking streams do not
    // synchronise: the copy stream waits for what was enqueued there so far.
    void wait_for_legacy_stream()
    {
        check(gpuEventRecord(legacy_done_, nullptr), "event record");
        check(gpuStreamWaitEvent(copy_stream_, legacy_done_), "stream wait");
    }

    // Timing marks of a slot: these four, then begin/end per twin.
    enum Mark : std::size_t { kUploadBegin, kUploadEnd, kReadbackBegin, kReadbackEnd, kTwinMarks };

    struct Slot {
        Slot(std::size_t frame_bytes, std::size_t result_bytes)
            : ref(frame_bytes), dis(frame_bytes), device_result(result_bytes), host_result(result_bytes)
        {
        }
        std::vector<gpuEvent_t*> order_events()
        {
            std::vector<gpuEvent_t*> events{&uploaded, &done};
            for (gpuEvent_t& event : twin_done) events.push_back(&event);
            return events;
        }
        DeviceArray<std::uint8_t> ref, dis, device_result;
        PinnedMemory host_result;
        gpuEvent_t uploaded = nullptr;
        std::vector<gpuEvent_t> twin_done;
        gpuEvent_t done = nullptr;
        std::vector<gpuEvent_t> marks;  // timing only
    };

    std::vector<gpuStream_t> all_streams() const
    {
        std::vector<gpuStream_t> streams{copy_stream_, result_stream_};
        streams.insert(streams.end(), twin_streams_.begin(), twin_streams_.end());
        return streams;
    }
    void mark(Slot& slot, std::size_t which, gpuStream_t stream)
    {
        if (timing_) check(gpuEventRecord(slot.marks[which], stream), "event record");
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
    std::size_t upload_bytes_;  // of each picture: the planes the twins read
    unsigned depth_ = 0;
    unsigned history_ = 0;
    gpuEvent_t first_upload_ = nullptr;  // timing only: start of the device span
    gpuEvent_t legacy_done_ = nullptr;   // wait_for_legacy_stream()
    gpuStream_t copy_stream_ = nullptr;
    gpuStream_t result_stream_ = nullptr;
    std::vector<gpuStream_t> twin_streams_;
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
    // Every path to the runtime starts here, so the queues are set in time.
    gpu::limit_hardware_queues();
    int count = 0;
    if (gpuGetDeviceCount(&count) != gpuSuccess) return 0;
    startup::mark("driver");
    return count;
}

bool twin_exists(const std::string& feature, Backend backend)
{
    return backend == gpu::kThisBackend && gpu::has_twin(feature);
}

std::string gpu_refusal(Backend backend, const std::vector<OptionValues>& features)
{
    if (backend != gpu::kThisBackend)
        return std::string("--backend ") + backend_name(backend) + ": this twinvmaf was built with " +
               backend_name(gpu::kThisBackend) + " only";
    for (const OptionValues& options : features) {
        if (!gpu::has_twin(options.feature()))
            return "feature '" + options.feature() + "' has no " + backend_name(backend) +
                   " twin yet; use --backend cpu";
        if (std::string why = gpu::twin_option_refusal(options); !why.empty())
            return why + "; use --backend cpu";
    }
    return "";
}

PictureAllocator pinned_picture_allocator(Backend backend, int device)
{
    if (backend != gpu::kThisBackend) return {};
    return PictureAllocator{gpu::allocate_picture, gpu::release_picture, device};
}

std::unique_ptr<GpuEngine> make_gpu_engine(Backend backend, int device, const VideoFormat& format,
                                           const std::vector<OptionValues>& features, unsigned history,
                                           std::size_t upload_bytes)
{
    if (std::string why = gpu_refusal(backend, features); !why.empty()) throw Error(why);
    return std::make_unique<gpu::Engine>(backend, device, format, features, history, upload_bytes);
}

}  // namespace twinvmaf
