// Output writers: XML (default), JSON, CSV and SUB, with Netflix libvmaf's
// structure, element and key names (libvmaf/src/output.c).
//
// Where the bytes go, and how that is kept safe (atomic for regular files,
// direct for devices, FIFOs, sockets and stdout), is output/output_file.h.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "core/collector.h"
#include "twinvmaf/output.h"

namespace twinvmaf {

struct OutputContext {
    const Collector& collector;
    std::uint64_t frame_count = 0;  // frames read; pooled metrics cover [0, frame_count)
    unsigned subsample = 1;         // write only frames that are multiples of it
    unsigned width = 0;             // XML <params qualityWidth/qualityHeight>
    unsigned height = 0;
    double fps = 0.0;               // XML <fyi fps>, JSON "fps"
    Precision precision{};
    std::string version;            // XML <VMAF version>, JSON "version"
};

// Formats one score as the precision says (no inf/nan handling).
std::string format_score(double value, const Precision& precision);

void write_output(std::ostream& out, OutputFormat format, const OutputContext& context);

// Writes to `path` ("-": stdout) as output/output_file.h says. Throws
// twinvmaf::Error naming the path and the cause if it cannot be written.
void write_output_file(const std::string& path, OutputFormat format, const OutputContext& context);

}  // namespace twinvmaf
