// The libvmaf-compatible C API (include/libvmaf/): its entry points called
// in a fuzzed order with fuzzed strings and numbers, as a program linking
// libvmaf.so.3 (FFmpeg's libvmaf filter, say) could call them. Every call
// must return 0 or a negative errno code; a crash, a sanitizer report, a
// hang or an allocation beyond the limits is a finding.
//
// Input: a 16-byte header, then NUL-separated fields.
//   header: flags (bit 0 model from a file, bit 1 a bootstrap collection,
//           bit 2 preallocated pictures), pixel format, bpc, width, height
//           (2 bytes each), pictures (0..3), n_subsample (4 bytes), the
//           queried index, the pooling method and the output format
//   field 0: the model (a built-in version, or the file's text), or empty
//   then commands, one a field, by their first letter:
//     f<name>[=k=v:k=v]   vmaf_use_feature with a dictionary
//     o<name>[=k=v:k=v]   vmaf_model_feature_overload (and the collection's)
//     s<key>=<value>      twinvmaf_set_option
//     i<name>             vmaf_import_feature_score (value and index from the header)
//     q<name>             vmaf_feature_score_at_index and _pooled, after the flush
//   the last field: the pictures' samples (repeated where short).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/twinvmaf.h"

namespace {

using twinvmaf::fuzz::take;

std::vector<std::string> split(std::string_view text, char at)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(at, start);
        parts.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) return parts;
        start = end + 1;
    }
}

// "name=k=v:k=v" -> name and a dictionary (NULL when there are no pairs).
std::string name_and_dictionary(const std::string& text, VmafFeatureDictionary** dict)
{
    const std::size_t at = text.find('=');
    if (at == std::string::npos) return text;
    for (const std::string& pair : split(std::string_view(text).substr(at + 1), ':')) {
        const std::size_t eq = pair.find('=');
        if (eq == std::string::npos) continue;
        vmaf_feature_dictionary_set(dict, pair.substr(0, eq).c_str(), pair.substr(eq + 1).c_str());
    }
    return text.substr(0, at);
}

// A scratch folder for the model file and vmaf_write_output, made once and
// removed when the fuzzer exits.
const std::string& output_folder()
{
    // A plain array: the exit handler runs after static strings are gone.
    static char name[] = "/tmp/twinvmaf-fuzz-capi-XXXXXX";
    static const std::string folder = [] {
        if (!::mkdtemp(name)) std::abort();
        std::atexit([] {
            char path[sizeof name + 16];
            for (const char* file : {"/model.json", "/out"}) {
                std::snprintf(path, sizeof path, "%s%s", name, file);
                ::unlink(path);
            }
            ::rmdir(name);
        });
        return std::string(name);
    }();
    return folder;
}

void fill(VmafPicture& pic, const std::string& samples, std::size_t& at)
{
    for (int p = 0; p < 3; ++p) {
        const unsigned bytes = pic.bpc > 8 ? 2 : 1;
        for (unsigned y = 0; y < pic.h[p]; ++y) {
            auto* row = static_cast<std::uint8_t*>(pic.data[p]) + y * pic.stride[p];
            for (unsigned x = 0; x < pic.w[p]; ++x) {
                unsigned value = samples.empty() ? 0 : static_cast<std::uint8_t>(samples[at++ % samples.size()]);
                if (bytes == 2) {
                    value = (value * 257u) & ((1u << pic.bpc) - 1);
                    std::memcpy(row + 2 * x, &value, 2);  // little-endian host
                } else {
                    row[x] = static_cast<std::uint8_t>(value);
                }
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 16) return 0;
    const unsigned flags = static_cast<unsigned>(take(data, size, 1));
    const auto pix_fmt = static_cast<VmafPixelFormat>(take(data, size, 1) % 6);
    const unsigned bpc = 6 + static_cast<unsigned>(take(data, size, 1) % 12);
    // Mostly small pictures; now and then a claim the API must refuse.
    const unsigned w = static_cast<unsigned>(take(data, size, 2));
    const unsigned h = static_cast<unsigned>(take(data, size, 2));
    const unsigned width = w & 0x8000 ? w << 8 : w % 72;
    const unsigned height = h & 0x8000 ? h << 8 : h % 72;
    const unsigned pictures = static_cast<unsigned>(take(data, size, 1) % 4);
    const unsigned subsample = static_cast<unsigned>(take(data, size, 4));
    const unsigned index = static_cast<unsigned>(take(data, size, 2));
    const auto pool = static_cast<VmafPoolingMethod>(take(data, size, 1) % 6);
    const auto format = static_cast<VmafOutputFormat>(take(data, size, 1) % 6);

    std::vector<std::string> fields = split(std::string_view(reinterpret_cast<const char*>(data), size), '\0');
    const std::string samples = fields.size() > 1 ? fields.back() : std::string();
    if (fields.size() > 1) fields.pop_back();

    VmafContext* vmaf = nullptr;
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    cfg.n_threads = 1;
    cfg.n_subsample = subsample;
    cfg.gpumask = 1;  // the CPU, whatever the environment says
    if (vmaf_init(&vmaf, cfg) != 0) std::abort();

    VmafModel* model = nullptr;
    VmafModelCollection* collection = nullptr;
    VmafModelConfig model_cfg{.name = (flags & 8) ? "vmaf" : "psnr_y", .flags = (flags >> 4) & 7};
    const std::string& model_text = fields[0];
    if (!model_text.empty()) {
        std::string where = model_text;
        std::string file;
        if (flags & 1) {
            file = output_folder() + "/model.json";
            const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            if (fd < 0 || ::write(fd, model_text.data(), model_text.size()) != static_cast<ssize_t>(model_text.size()))
                std::abort();
            ::close(fd);
            where = file;
        }
        int loaded;
        if (flags & 2)
            loaded = (flags & 1) ? vmaf_model_collection_load_from_path(&model, &collection, &model_cfg, where.c_str())
                                 : vmaf_model_collection_load(&model, &collection, &model_cfg, where.c_str());
        else
            loaded = (flags & 1) ? vmaf_model_load_from_path(&model, &model_cfg, where.c_str())
                                 : vmaf_model_load(&model, &model_cfg, where.c_str());
        if (loaded != 0 && (model || collection)) std::abort();
    }

    double value = 0;
    std::vector<std::string> queries;
    for (std::size_t i = 1; i < fields.size(); ++i) {
        const std::string& field = fields[i];
        if (field.empty()) continue;
        const std::string rest = field.substr(1);
        VmafFeatureDictionary* dict = nullptr;
        switch (field[0]) {
        case 'f': {
            const std::string name = name_and_dictionary(rest, &dict);
            if (vmaf_use_feature(vmaf, name.c_str(), dict) != 0) vmaf_feature_dictionary_free(&dict);
            break;
        }
        case 'o': {
            const std::string name = name_and_dictionary(rest, &dict);
            if (!dict) break;
            if (collection) vmaf_model_collection_feature_overload(model, &collection, name.c_str(), dict);
            else if (model) vmaf_model_feature_overload(model, name.c_str(), dict);
            else vmaf_feature_dictionary_free(&dict);
            break;
        }
        case 's': {
            const std::size_t eq = rest.find('=');
            if (eq != std::string::npos)
                twinvmaf_set_option(vmaf, rest.substr(0, eq).c_str(), rest.substr(eq + 1).c_str());
            break;
        }
        case 'i': vmaf_import_feature_score(vmaf, rest.c_str(), index * 0.25, index % 5); break;
        case 'q': queries.push_back(rest); break;
        default: break;
        }
    }
    if (collection) vmaf_use_features_from_model_collection(vmaf, collection);
    else if (model) vmaf_use_features_from_model(vmaf, model);

    if (flags & 4) {
        const VmafPictureConfiguration pool_cfg{{width, height, bpc, pix_fmt}, 1 + (flags >> 7)};
        vmaf_preallocate_pictures(vmaf, pool_cfg);
    }
    std::size_t at = 0;
    for (unsigned i = 0; i < pictures; ++i) {
        VmafPicture ref{}, dist{};
        const bool pooled_pictures = flags & 4;
        const int made = pooled_pictures ? vmaf_fetch_preallocated_picture(vmaf, &ref) |
                                               vmaf_fetch_preallocated_picture(vmaf, &dist)
                                         : vmaf_picture_alloc(&ref, pix_fmt, bpc, width, height) |
                                               vmaf_picture_alloc(&dist, pix_fmt, bpc, width, height);
        if (made != 0) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dist);
            break;
        }
        fill(ref, samples, at);
        fill(dist, samples, at);
        if (vmaf_read_pictures(vmaf, &ref, &dist, i) != 0) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dist);
            break;
        }
    }
    vmaf_read_pictures(vmaf, nullptr, nullptr, 0);

    for (const std::string& name : queries) {
        vmaf_feature_score_at_index(vmaf, name.c_str(), &value, index % 4);
        vmaf_feature_score_pooled(vmaf, name.c_str(), pool, &value, index % 4, index);
    }
    if (model) {
        vmaf_score_at_index(vmaf, model, &value, index % 4);
        vmaf_score_pooled(vmaf, model, pool, &value, index % 4, index);
    }
    if (collection) {
        VmafModelCollectionScore score{};
        vmaf_score_at_index_model_collection(vmaf, collection, &score, index % 4);
        vmaf_score_pooled_model_collection(vmaf, collection, pool, &score, index % 4, index);
    }
    vmaf_write_output(vmaf, (output_folder() + "/out").c_str(), format);

    if (vmaf_close(vmaf) != 0) std::abort();
    if (collection) vmaf_model_collection_destroy(collection);
    vmaf_model_destroy(model);
    return 0;
}
