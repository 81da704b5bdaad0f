/*
 * twinvmaf's extension of the libvmaf C API: settings Netflix's
 * VmafConfiguration has no field for, given by name so that the ABI of the
 * Netflix structs stays as it is. Programs that use it check
 * TWINVMAF_LIBVMAF_EXTENSION (or strstr(vmaf_version(), "twinvmaf")).
 *
 *   key          values                 default
 *   "backend"    "cpu" "cuda" "hip" "auto"  $TWINVMAF_BACKEND, else "cpu"
 *   "gpu"        device index "0", "1"  $TWINVMAF_GPU, else "0"
 *   "precision"  "legacy" "max" "1".."17"  $TWINVMAF_PRECISION, else "legacy"
 *
 * backend and gpu: where features run ("auto": a GPU when there is one and
 * every registered feature has a twin there); scores are the same bits on
 * every backend. A nonzero VmafConfiguration.gpumask keeps the CPU.
 * Set them before the first vmaf_read_pictures().
 * precision: how vmaf_write_output() prints numbers, as the CLI's
 * --precision ("max": %.17g, the exact doubles).
 *
 * The environment variables let a program that knows nothing of this
 * header (FFmpeg's libvmaf filter) choose too:
 *   TWINVMAF_BACKEND=cuda ffmpeg -i dis.mp4 -i ref.mp4 -lavfi libvmaf -f null -
 */
#ifndef TWINVMAF_LIBVMAF_EXTENSION_H
#define TWINVMAF_LIBVMAF_EXTENSION_H

#include "libvmaf/libvmaf.h"

#define TWINVMAF_LIBVMAF_EXTENSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* 0, or -EINVAL for an unknown key, a bad value, or a backend set after
 * the first picture. */
int twinvmaf_set_option(VmafContext *vmaf, const char *key, const char *value);

#ifdef __cplusplus
}
#endif

#endif /* TWINVMAF_LIBVMAF_EXTENSION_H */
