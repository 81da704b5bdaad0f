// The model files compiled into the binary (models/, embedded at build time by
// cmake/embed_models.cmake), in Netflix's order of built-in models.
#pragma once

#include <span>
#include <string_view>

namespace twinvmaf::model {

struct BuiltinModelFile {
    std::string_view version;  // what --model version= names, e.g. "vmaf_v0.6.1"
    std::string_view path;     // where it came from in the source tree
    std::string_view json;     // the file's bytes
};

std::span<const BuiltinModelFile> builtin_model_files();

}  // namespace twinvmaf::model
