// vmaf_feature_dictionary_set / _free (libvmaf's feature.h).
#include <algorithm>

#include "capi/capi.h"
#include "core/options.h"

using namespace twinvmaf;

extern "C" int vmaf_feature_dictionary_set(VmafFeatureDictionary** dict, const char* key, const char* val)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] {
        if (!dict || !key || !val) return capi::refuse(function, "dict, key and val must not be NULL");
        if (!*dict) *dict = new VmafFeatureDictionary;
        // libvmaf normalises what reads as one number ("1.20" -> "1.2").
        std::string value = libvmaf_option_text(val);
        auto& entries = (*dict)->entries;
        auto same = std::find_if(entries.begin(), entries.end(), [&](const auto& kv) { return kv.first == key; });
        if (same != entries.end()) same->second = std::move(value);
        else entries.emplace_back(key, std::move(value));
        return 0;
    });
}

extern "C" int vmaf_feature_dictionary_free(VmafFeatureDictionary** dict)
{
    if (!dict) return -EINVAL;
    delete *dict;
    *dict = nullptr;
    return 0;
}
