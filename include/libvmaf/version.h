/*
 * twinvmaf's libvmaf-compatible C API: the API version it provides, that of
 * Netflix libvmaf 3.2.0 (<libvmaf/version.h>).
 */
#ifndef VMAF_VERSION_H
#define VMAF_VERSION_H

#define VMAF_API_VERSION_MAJOR 3
#define VMAF_API_VERSION_MINOR 2
#define VMAF_API_VERSION_PATCH 0

#endif /* VMAF_VERSION_H */
