#pragma once

namespace twinvmaf {

// Our own version. Output files carry it where Netflix's carry libvmaf's.
inline constexpr const char* kVersion = "0.1.0";

// The Netflix libvmaf release whose numbers twinvmaf reproduces
// (commit f85a8536, libvmaf 3.2.0; see docs/compat.md).
inline constexpr const char* kNetflixReferenceVersion = "3.2.0";

}  // namespace twinvmaf
