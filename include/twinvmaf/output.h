// Output formats, number precision and pooling methods, as Netflix's `vmaf`
// has them (libvmaf/src/output.c).
#pragma once

#include <string>

namespace twinvmaf {

enum class OutputFormat { kXml, kJson, kCsv, kSub };

// How numbers are printed.
//   legacy (default): exactly as Netflix's vmaf: "%.6f", or "%.16f" when the
//                     fraction has more than 6 leading zeros.
//   max:              "%.17g" - round-trips every double exactly.
//   N (1..17):        "%.Ng" - N significant digits.
struct Precision {
    enum class Mode { kLegacy, kMax, kDigits } mode = Mode::kLegacy;
    int digits = 17;

    // Parses "legacy", "max" or 1..17; throws twinvmaf::Error otherwise.
    static Precision parse(const std::string& text);
};

// libvmaf's temporal pooling of per-frame scores.
enum class PoolMethod { kMin, kMax, kMean, kHarmonicMean };

}  // namespace twinvmaf
