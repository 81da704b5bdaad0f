// Feature options as text, with Netflix's option names: `key=value` pairs in
// the order given (a later value of a key replaces an earlier one). Numbers
// are kept as libvmaf keeps them (rounded to six significant digits).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace twinvmaf {

using OptionList = std::vector<std::pair<std::string, std::string>>;

}  // namespace twinvmaf
