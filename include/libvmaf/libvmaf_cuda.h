/*
 * twinvmaf's libvmaf-compatible CUDA API.
 *
 * Declarations as in Netflix libvmaf 3.2.0's <libvmaf/libvmaf_cuda.h> (the
 * same names, struct layouts and enum values), so that FFmpeg's
 * libvmaf_cuda filter (FFmpeg 6.1 and later) builds against twinvmaf's
 * libvmaf.so.3 and scores its CUDA frames on twinvmaf's GPU twins. Installed
 * by CUDA builds only. What differs: docs/compat.md ("The libvmaf CUDA API").
 *
 * The context (VmafCudaConfiguration.cu_ctx, else device 0's primary
 * context) is made current around every call that reaches the GPU, and the
 * twins run in it; pictures fetched with the DEVICE method are device
 * memory of that context, laid out as a raw frame (Y, U, V; zeroed when
 * allocated), which the twins copy on the device: nothing goes through
 * the host. They are taken to hold luma only, as FFmpeg's filter fills
 * them: features that read chroma are refused with them.
 */
#ifndef __VMAF_CUDA_H__
#define __VMAF_CUDA_H__

#include "libvmaf/libvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafCudaState VmafCudaState;

typedef struct VmafCudaConfiguration {
    void *cu_ctx; /* a CUcontext, or NULL: the primary context of device 0 */
} VmafCudaConfiguration;

/* A state for `cfg`'s context (the caller keeps the context alive). */
int vmaf_cuda_state_init(VmafCudaState **cu_state, VmafCudaConfiguration cfg);

/* Scores `vmaf`'s features on the state's GPU (before the first picture). */
int vmaf_cuda_import_state(VmafContext *vmaf, VmafCudaState *cu_state);

/* twinvmaf: frees a state of vmaf_cuda_state_init() (after every context
 * that imported it is closed). Netflix 3.2.0 has no such call. */
int vmaf_cuda_state_free(VmafCudaState *cu_state);

enum VmafCudaPicturePreallocationMethod {
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE = 0,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED,
};

typedef struct VmafCudaPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    enum VmafCudaPicturePreallocationMethod pic_prealloc_method;
} VmafCudaPictureConfiguration;

/* The pictures vmaf_cuda_fetch_preallocated_picture() gives: device
 * memory (DEVICE), host memory (HOST) or pinned host memory (HOST_PINNED). */
int vmaf_cuda_preallocate_pictures(VmafContext *vmaf, VmafCudaPictureConfiguration cfg);

/* One such picture; vmaf_read_pictures() takes it, vmaf_picture_unref()
 * gives it back. */
int vmaf_cuda_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_CUDA_H__ */
