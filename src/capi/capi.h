// The libvmaf-compatible C API (include/libvmaf/) over the C++ API
// (include/twinvmaf/): the opaque structs behind Netflix's handles and the
// one way every entry point turns exceptions into error codes.
#pragma once

#include <cerrno>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libvmaf/libvmaf.h"
#include "twinvmaf/engine.h"

// Options of one extractor, as libvmaf's dictionary holds them: key, then
// the value's text (numbers normalised as libvmaf does), in order of first set.
struct VmafFeatureDictionary {
    twinvmaf::OptionList entries;
};

// A reference to a picture's buffer: the library takes one in
// vmaf_read_pictures(), the caller holds the other until it unrefs.
struct VmafRef {
    std::shared_ptr<twinvmaf::Picture> picture;
};


struct VmafModel {
    twinvmaf::Model model;  // a single model (a collection's model "0")
};

struct VmafModelCollection {
    twinvmaf::Model model;  // the whole collection: model "0" and its members
};

namespace twinvmaf::capi {

// libvmaf's CUDA API (libvmaf_cuda.h, src/capi/cuda.cpp): the caller's CUDA
// context a VmafContext scores in, and its preallocated device pictures.
struct CudaBinding;

// Makes `binding`'s context current on this thread while it lives (nothing
// for no binding or the primary context), so that the GPU engine is made,
// fed and torn down in the caller's context.
class CudaScope {
public:
    explicit CudaScope(const std::shared_ptr<CudaBinding>& binding);
    ~CudaScope();
    CudaScope(const CudaScope&) = delete;
    CudaScope& operator=(const CudaScope&) = delete;

private:
    [[maybe_unused]] bool pushed_ = false;  // (a build without CUDA has nothing to push)
    [[maybe_unused]] bool was_caller_context_ = false;
};

// context.cpp's side of the binding: the context scores on the binding's
// GPU from the first picture on (throws after it).
void bind_cuda(VmafContext& vmaf, std::shared_ptr<CudaBinding> binding, int device);
std::shared_ptr<CudaBinding> cuda_binding(VmafContext& vmaf);
// The pictures will be device pictures: none is pinned for uploads.
void expect_device_pictures(VmafContext& vmaf);

// The level set by the last vmaf_init() (libvmaf keeps one for the process).
void set_log_level(VmafLogLevel level);
// "libvmaf (twinvmaf) ERROR <function>: <message>" on stderr, up to the level.
void log(VmafLogLevel level, const char* function, const std::string& message);

// Runs `body` (returning 0 or a negative errno code); an exception becomes
// -EINVAL (-ENOMEM for std::bad_alloc) and a message naming `function`.
template <class Body>
int guarded(const char* function, Body&& body) noexcept
{
    try {
        return body();
    } catch (const std::bad_alloc&) {
        log(VMAF_LOG_LEVEL_ERROR, function, "out of memory");
        return -ENOMEM;
    } catch (const std::exception& e) {
        log(VMAF_LOG_LEVEL_ERROR, function, e.what());
        return -EINVAL;
    } catch (...) {
        log(VMAF_LOG_LEVEL_ERROR, function, "unknown error");
        return -EINVAL;
    }
}

// An argument or call the API refuses: -EINVAL with the message.
inline int refuse(const char* function, const std::string& message)
{
    log(VMAF_LOG_LEVEL_ERROR, function, message);
    return -EINVAL;
}

// Fills `pic` (Netflix's plane fields) to show `picture` (its host buffer,
// or its device surface) and hold a reference to it.
void expose_picture(VmafPicture* pic, std::shared_ptr<Picture> picture);
// The pixel format and depth as a twinvmaf VideoFormat; throws for what
// twinvmaf does not score (4:0:0, depths outside 8..16, a zero size).
VideoFormat video_format(VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h);
// The picture behind `pic`, with the samples the caller put at data[] (a
// caller that pointed data[] elsewhere is copied from there). Throws for a
// picture vmaf_picture_alloc() or vmaf_fetch_preallocated_picture() did not
// make.
std::shared_ptr<Picture> picture_of(const VmafPicture* pic, const char* which);

}  // namespace twinvmaf::capi
