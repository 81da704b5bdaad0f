/*
 * twinvmaf's libvmaf-compatible C API: pictures.
 *
 * Declarations as in Netflix libvmaf 3.2.0's <libvmaf/picture.h> (the same
 * struct layout, enum values and meaning), written for twinvmaf.
 */
#ifndef __VMAF_PICTURE_H__
#define __VMAF_PICTURE_H__

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P, /* accepted by the header; twinvmaf refuses it (-EINVAL) */
};

/* The picture's reference count (opaque). */
typedef struct VmafRef VmafRef;

/* One picture: planes Y, U, V of w[i] x h[i] samples, rows stride[i] bytes
 * apart; samples of more than 8 bits take two bytes (native endian, value
 * in the low bits). Fill data[] through stride[]; ref and priv belong to
 * the library. */
typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/* Allocates a zeroed picture of w x h (chroma w >> 1 by h >> 1 for 4:2:0,
 * w >> 1 by h for 4:2:2) with bpc bits per component (8..16).
 * 0, or -EINVAL / -ENOMEM. */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt,
                       unsigned bpc, unsigned w, unsigned h);

/* Drops this reference to the picture and zeroes *pic. 0, or -EINVAL for a
 * picture that holds no reference. */
int vmaf_picture_unref(VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_PICTURE_H__ */
