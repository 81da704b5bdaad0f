// The list of `twinvmaf --batch LIST`: one reference/distorted pair a line.
//
//   # a comment; empty lines are skipped
//   REF DIS [key=value ...]
//
// REF and DIS are paths (relative to the current directory), read as the
// -r/-d of a single run (.y4m by header or extension, compressed video by
// its container, else raw .yuv). Keys:
//
//   width=W (w=W)  height=H (h=H)  pixel_format=420|422|444 (p=)
//   bitdepth=8|10|12|16 (b=)      the raw geometry of this pair: all four
//                                 or none (then the command line's -w -h
//                                 -p -b, if given, apply)
//   ref_stream=N  dist_stream=N   the video stream of a compressed input
//                                 (as --ref_stream/--dist_stream)
//   output=PATH (o=PATH)          this pair's output file ("-": stdout)
//
// A field with spaces is quoted as in a shell: "my ref.yuv",
// output="out dir/a.json" (inside double quotes \" and \\ stand for " and
// \), or 'my ref.yuv' (single quotes take everything literally).
// Without output=, a pair's output is DIR/<name of DIS>.<format> when -o DIR
// is given (DIR an existing folder, or "-" for stdout), else DIS.<format>
// beside the distorted file (<format>: xml, json, csv or sub).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "twinvmaf/output.h"
#include "twinvmaf/picture.h"

namespace twinvmaf::cli {

struct BatchPair {
    std::size_t line = 0;  // 1-based line of the list
    std::string reference;
    std::string distorted;
    std::optional<VideoFormat> raw_format;
    std::optional<unsigned> ref_stream, dist_stream;
    std::string output;  // empty: the default (see above)
    // Why the line cannot be scored (a malformed line fails its own pair
    // only); empty when it can.
    std::string error;
};

// Every pair of the list's text, in order.
std::vector<BatchPair> parse_batch_list(const std::string& text);

// The output path of `pair`: its output=, else the default for -o
// `output_option` (may be empty) and `format`.
std::string batch_output_path(const BatchPair& pair, const std::string& output_option, OutputFormat format);

}  // namespace twinvmaf::cli
