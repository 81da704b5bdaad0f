// The context of the C API (libvmaf.h): one twinvmaf Session, fed the
// pictures of vmaf_read_pictures(), with libvmaf's way of scoring models:
// a model's score of a frame is computed when asked for (vmaf_score_at_index
// and the pooled calls) and kept in the collector, so the output file holds
// what was asked, in the order asked. FFmpeg's libvmaf filter and Netflix's
// vmaf tool ask for every model over every frame after the flush, which
// gives the CLI's output byte for byte.
#include <cstdlib>
#include <cstring>

#include "api/session_state.h"
#include "capi/capi.h"
#include "core/feature.h"
#include "core/feature_names.h"
#include "core/message_text.h"
#include "core/picture_pool.h"
#include "core/device_cache.h"
#include "libvmaf/twinvmaf.h"
#include "model/binding.h"
#include "model/predict.h"
#include "twinvmaf/version.h"

using namespace twinvmaf;

struct VmafContext {
    std::mutex mutex;
    VmafConfiguration cfg{};
    // The twinvmaf extension (libvmaf/twinvmaf.h).
    std::optional<Backend> backend = Backend::kCpu;  // nullopt: auto
    int gpu = 0;
    Precision precision{};

    // What the session will compute, gathered by the vmaf_use_* calls.
    SessionConfig session_config;
    struct Import {
        std::string name;
        std::uint64_t index;
        double value;
    };
    std::vector<Import> pending_imports;  // before the session exists

    // From the first picture.
    std::optional<Engine> engine;
    std::optional<Session> session;
    std::optional<Scores> scores;  // after the flush
    bool flushed = false;
    std::uint64_t pictures_read = 0;

    // vmaf_preallocate_pictures()
    std::shared_ptr<PicturePool> pool;
    VideoFormat pool_format;
    // vmaf_cuda_import_state(): the caller's CUDA context and its pictures.
    std::shared_ptr<capi::CudaBinding> cuda;

    bool started() const { return session.has_value(); }
    Collector* collector() { return session ? &session->state().data->collector : nullptr; }
};

namespace {

using capi::guarded;
using capi::refuse;

std::optional<Backend> parse_backend(const std::string& text)
{
    if (text == "cpu") return Backend::kCpu;
    if (text == "cuda") return Backend::kCuda;
    if (text == "hip") return Backend::kHip;
    if (text == "auto") return std::nullopt;
    throw Error("backend \"" + message_text(text) + "\": expected cpu, cuda, hip or auto");
}

int parse_gpu(const std::string& text)
{
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end || value < 0 || value > 1023)
        throw Error("gpu \"" + message_text(text) + "\": expected a device index 0..1023");
    return static_cast<int>(value);
}

// The extension's settings, by name (libvmaf/twinvmaf.h).
void set_option(VmafContext& vmaf, const std::string& key, const std::string& value)
{
    if (key == "backend" || key == "gpu") {
        if (vmaf.started()) throw Error(key + " must be set before the first picture");
        if (key == "backend") vmaf.backend = parse_backend(value);
        else vmaf.gpu = parse_gpu(value);
    } else if (key == "precision") {
        vmaf.precision = Precision::parse(value);
    } else {
        throw Error("unknown option \"" + message_text(key) + "\"; expected backend, gpu or precision");
    }
}

void require_not_started(const VmafContext& vmaf, const char* what)
{
    if (vmaf.started())
        throw Error(std::string(what) + " after the first vmaf_read_pictures(): register every feature and model "
                                        "before the pictures");
}

// The model bound as the session binds it: ModelFeature::input names the
// collector series each feature is read from.
model::LoadedModel bound(const Model& model)
{
    model::LoadedModel copy = model.loaded();
    (void)model::bind_to_extractors(copy);
    return copy;
}

Collector& scored_collector(VmafContext& vmaf)
{
    Collector* collector = vmaf.collector();
    if (!collector) throw Error("no scores yet: no picture was read");
    return *collector;
}

// A series by the name Netflix's collector would hold it under: the output
// name, or an internal name whose alias is the output name.
std::optional<std::size_t> find_series(const Collector& collector, const std::string& name)
{
    if (auto id = collector.find(name)) return id;
    return collector.find(feature_alias(name));
}

PoolMethod pool_method(VmafPoolingMethod method)
{
    switch (method) {
    case VMAF_POOL_METHOD_MIN: return PoolMethod::kMin;
    case VMAF_POOL_METHOD_MAX: return PoolMethod::kMax;
    case VMAF_POOL_METHOD_MEAN: return PoolMethod::kMean;
    case VMAF_POOL_METHOD_HARMONIC_MEAN: return PoolMethod::kHarmonicMean;
    default: throw Error("pool_method " + std::to_string(static_cast<int>(method)) + " is not a pooling method");
    }
}

double pooled(VmafContext& vmaf, const std::string& name, VmafPoolingMethod method, unsigned low, unsigned high)
{
    const PoolMethod how = pool_method(method);
    if (low > high) throw Error("index_low " + std::to_string(low) + " > index_high " + std::to_string(high));
    Collector& collector = scored_collector(vmaf);
    const auto id = find_series(collector, name);
    if (!id) throw Error("no feature '" + message_text(name) + "'");
    const auto value = collector.pooled_range(*id, how, low, high, std::max(1u, vmaf.cfg.n_subsample));
    if (!value)
        throw Error("'" + message_text(name) + "' has no score at some picture of " + std::to_string(low) + " .. " +
                    std::to_string(high));
    return *value;
}

bool on_grid(const VmafContext& vmaf, unsigned index)
{
    return vmaf.cfg.n_subsample <= 1 || index % vmaf.cfg.n_subsample == 0;
}

// The session, opened at the first picture with what was registered.
void open_session(VmafContext& vmaf)
{
    EngineConfig engine_config;
    // A nonzero gpumask keeps libvmaf off the GPU; so it does here.
    engine_config.backend = vmaf.cfg.gpumask ? std::optional(Backend::kCpu) : vmaf.backend;
    engine_config.gpu = vmaf.gpu;
    engine_config.threads = std::max(1u, vmaf.cfg.n_threads);
    vmaf.engine.emplace(engine_config);
    Session session = vmaf.engine->open(vmaf.session_config);
    // Models are scored into the same collector when asked: no model may be
    // named like a feature's output.
    const std::vector<std::string> features = session.output_names();
    for (const Model& model : vmaf.session_config.models) {
        for (const std::string& name : model.output_names()) {
            if (std::find(features.begin(), features.end(), name) != features.end())
                throw Error("model " + message_text(model.label()) + " writes '" + message_text(name) +
                            "', which a feature writes too; give the model another name (VmafModelConfig.name)");
        }
    }
    for (const auto& import : vmaf.pending_imports) session.import_score(import.name, import.index, import.value);
    vmaf.pending_imports.clear();
    vmaf.session.emplace(std::move(session));
}

int read_pictures(VmafContext& vmaf, VmafPicture* ref, VmafPicture* dist, unsigned index)
{
    const capi::CudaScope in_callers_context(vmaf.cuda);
    const char* function = "vmaf_read_pictures";
    if (vmaf.flushed) return refuse(function, "pictures after the flush call (ref and dist NULL)");
    if (!ref != !dist) return refuse(function, "give both ref and dist, or neither (to flush)");
    if (!ref) {
        if (vmaf.session) vmaf.scores.emplace(vmaf.session->finish());
        vmaf.flushed = true;
        return 0;
    }
    if (index != vmaf.pictures_read)
        return refuse(function, "picture index " + std::to_string(index) + " out of order; twinvmaf scores pictures "
                                "in order, and the next is " + std::to_string(vmaf.pictures_read));
    std::shared_ptr<Picture> reference = capi::picture_of(ref, "ref");
    std::shared_ptr<Picture> distorted = capi::picture_of(dist, "dist");
    if (reference == distorted) return refuse(function, "ref and dist are the same picture");
    if (!vmaf.session) open_session(vmaf);
    vmaf.session->push(std::move(reference), std::move(distorted));
    ++vmaf.pictures_read;
    // The context has taken both pictures.
    vmaf_picture_unref(ref);
    vmaf_picture_unref(dist);
    return 0;
}

}  // namespace

namespace twinvmaf::capi {

void bind_cuda(VmafContext& vmaf, std::shared_ptr<CudaBinding> binding, int device)
{
    std::lock_guard lock(vmaf.mutex);
    require_not_started(vmaf, "vmaf_cuda_import_state");
    vmaf.cuda = std::move(binding);
    vmaf.backend = Backend::kCuda;
    vmaf.gpu = device;
}

std::shared_ptr<CudaBinding> cuda_binding(VmafContext& vmaf)
{
    std::lock_guard lock(vmaf.mutex);
    return vmaf.cuda;
}

void expect_device_pictures(VmafContext& vmaf)
{
    std::lock_guard lock(vmaf.mutex);
    require_not_started(vmaf, "vmaf_cuda_preallocate_pictures");
    vmaf.session_config.device_pictures = true;
}

}  // namespace twinvmaf::capi

extern "C" int vmaf_init(VmafContext** vmaf, VmafConfiguration cfg)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf) return refuse(function, "vmaf is NULL");
        *vmaf = nullptr;
        capi::set_log_level(cfg.log_level);
        auto context = std::make_unique<VmafContext>();
        context->cfg = cfg;
        context->session_config.subsample = std::max(1u, cfg.n_subsample);
        // libvmaf's way: models predict when asked (see the top of this file).
        context->session_config.predict = false;
        // The extension's defaults from the environment (FFmpeg cannot call it).
        static const std::pair<const char*, const char*> kEnvironment[] = {
            {"backend", "TWINVMAF_BACKEND"}, {"gpu", "TWINVMAF_GPU"}, {"precision", "TWINVMAF_PRECISION"}};
        for (const auto& [key, variable] : kEnvironment) {
            const char* value = std::getenv(variable);
            if (!value) continue;
            try {
                set_option(*context, key, value);
            } catch (const Error& e) {
                throw Error(std::string("$") + variable + ": " + e.what());
            }
        }
        *vmaf = context.release();
        return 0;
    });
}

extern "C" int twinvmaf_set_option(VmafContext* vmaf, const char* key, const char* value)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !key || !value) return refuse(function, "vmaf, key and value must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        set_option(*vmaf, key, value);
        return 0;
    });
}

extern "C" int vmaf_close(VmafContext* vmaf)
{
    const char* const function = __func__;
    if (!vmaf) return -EINVAL;
    return guarded(function, [&] {
        // The engine's streams and memory go in the context they were made in.
        const std::shared_ptr<capi::CudaBinding> binding = vmaf->cuda;
        const capi::CudaScope in_callers_context(binding);
        delete vmaf;
        return 0;
    });
}

extern "C" int vmaf_use_feature(VmafContext* vmaf, const char* feature_name, VmafFeatureDictionary* opts_dict)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !feature_name) return refuse(function, "vmaf and feature_name must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        require_not_started(*vmaf, function);
        FeatureRequest request{feature_name, opts_dict ? opts_dict->entries : OptionList{}};
        // Checked now, so that the call that names the feature fails.
        const FeatureInfo& info = find_feature(request.name);
        OptionValues values(info.name, info.options);
        values.set_all(request.options);
        vmaf->session_config.features.push_back(std::move(request));
        // The context has taken the dictionary.
        vmaf_feature_dictionary_free(&opts_dict);
        return 0;
    });
}

extern "C" int vmaf_use_features_from_model(VmafContext* vmaf, VmafModel* model)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !model) return refuse(function, "vmaf and model must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        require_not_started(*vmaf, function);
        (void)bound(model->model);  // a feature no extractor computes fails here
        vmaf->session_config.models.push_back(model->model);
        return 0;
    });
}

extern "C" int vmaf_use_features_from_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !model_collection) return refuse(function, "vmaf and model_collection must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        require_not_started(*vmaf, function);
        (void)bound(model_collection->model);
        vmaf->session_config.models.push_back(model_collection->model);
        return 0;
    });
}

extern "C" int vmaf_import_feature_score(VmafContext* vmaf, const char* feature_name, double value, unsigned index)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !feature_name) return refuse(function, "vmaf and feature_name must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        if (vmaf->flushed) return refuse(function, "scores imported after the flush");
        if (vmaf->session) {
            vmaf->session->import_score(feature_name, index, value);
            return 0;
        }
        for (const auto& import : vmaf->pending_imports) {
            if (import.name == feature_name && import.index == index)
                return refuse(function, "'" + message_text(feature_name) + "' already has a value at index " +
                                            std::to_string(index));
        }
        vmaf->pending_imports.push_back({feature_name, index, value});
        return 0;
    });
}

extern "C" int vmaf_read_pictures(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist, unsigned index)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf) return refuse(function, "vmaf is NULL");
        std::lock_guard lock(vmaf->mutex);
        return read_pictures(*vmaf, ref, dist, index);
    });
}

extern "C" int vmaf_score_at_index(VmafContext* vmaf, VmafModel* model, double* score, unsigned index)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !model || !score) return refuse(function, "vmaf, model and score must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        const model::LoadedModel scored = bound(model->model);
        *score = model::score_model_frame(scored.model, scored_collector(*vmaf), index);
        return 0;
    });
}

extern "C" int vmaf_score_at_index_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                                    VmafModelCollectionScore* score, unsigned index)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !model_collection || !score)
            return refuse(function, "vmaf, model_collection and score must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        const model::LoadedModel scored = bound(model_collection->model);
        const model::CollectionScores s = model::score_collection_frame(scored, scored_collector(*vmaf), index);
        score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
        score->bootstrap.bagging_score = s.bagging;
        score->bootstrap.stddev = s.stddev;
        score->bootstrap.ci.p95.lo = s.ci_lo;
        score->bootstrap.ci.p95.hi = s.ci_hi;
        return 0;
    });
}

extern "C" int vmaf_feature_score_at_index(VmafContext* vmaf, const char* feature_name, double* score, unsigned index)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !feature_name || !score) return refuse(function, "vmaf, feature_name and score must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        const Collector& collector = scored_collector(*vmaf);
        const auto id = find_series(collector, feature_name);
        if (!id || !collector.has(*id, index))
            return refuse(function, "no score of '" + message_text(feature_name) + "' at index " + std::to_string(index));
        *score = collector.get(*id, index);
        return 0;
    });
}

extern "C" int vmaf_score_pooled(VmafContext* vmaf, VmafModel* model, enum VmafPoolingMethod pool_method,
                                 double* score, unsigned index_low, unsigned index_high)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !model || !score) return refuse(function, "vmaf, model and score must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        (void)::pool_method(pool_method);
        if (index_low > index_high) return refuse(function, "index_low > index_high");
        const model::LoadedModel scored = bound(model->model);
        Collector& collector = scored_collector(*vmaf);
        for (unsigned i = index_low;; ++i) {
            if (on_grid(*vmaf, i)) (void)model::score_model_frame(scored.model, collector, i);
            if (i == index_high) break;
        }
        *score = pooled(*vmaf, scored.model.name, pool_method, index_low, index_high);
        return 0;
    });
}

extern "C" int vmaf_score_pooled_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                                  enum VmafPoolingMethod pool_method, VmafModelCollectionScore* score,
                                                  unsigned index_low, unsigned index_high)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !model_collection || !score)
            return refuse(function, "vmaf, model_collection and score must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        (void)::pool_method(pool_method);
        if (index_low > index_high) return refuse(function, "index_low > index_high");
        const model::LoadedModel scored = bound(model_collection->model);
        Collector& collector = scored_collector(*vmaf);
        for (unsigned i = index_low;; ++i) {
            if (on_grid(*vmaf, i)) (void)model::score_collection_frame(scored, collector, i);
            if (i == index_high) break;
        }
        const std::string& name = scored.model.name;
        score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
        score->bootstrap.bagging_score = pooled(*vmaf, name + "_bagging", pool_method, index_low, index_high);
        score->bootstrap.stddev = pooled(*vmaf, name + "_stddev", pool_method, index_low, index_high);
        score->bootstrap.ci.p95.lo = pooled(*vmaf, name + "_ci_p95_lo", pool_method, index_low, index_high);
        score->bootstrap.ci.p95.hi = pooled(*vmaf, name + "_ci_p95_hi", pool_method, index_low, index_high);
        return 0;
    });
}

extern "C" int vmaf_feature_score_pooled(VmafContext* vmaf, const char* feature_name,
                                         enum VmafPoolingMethod pool_method, double* score, unsigned index_low,
                                         unsigned index_high)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !feature_name || !score) return refuse(function, "vmaf, feature_name and score must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        *score = pooled(*vmaf, feature_name, pool_method, index_low, index_high);
        return 0;
    });
}

extern "C" int vmaf_preallocate_pictures(VmafContext* vmaf, VmafPictureConfiguration cfg)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf) return refuse(function, "vmaf is NULL");
        if (!cfg.pic_cnt) return refuse(function, "pic_cnt is 0");
        std::lock_guard lock(vmaf->mutex);
        const VideoFormat format = capi::video_format(cfg.pic_params.pix_fmt, cfg.pic_params.bpc, cfg.pic_params.w,
                                                      cfg.pic_params.h);
        // Page-locked when a GPU is asked for by name, so uploads need no copy.
        const Backend backend = vmaf->backend.value_or(Backend::kCpu);
        vmaf->pool = std::make_shared<PicturePool>(vmaf->cfg.gpumask ? nullptr : picture_allocator(backend, vmaf->gpu));
        vmaf->pool_format = format;
        vmaf->pool->reserve(cfg.pic_cnt, format);
        return 0;
    });
}

extern "C" int vmaf_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !pic) return refuse(function, "vmaf and pic must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        if (!vmaf->pool) return refuse(function, "no picture pool: call vmaf_preallocate_pictures() first");
        std::shared_ptr<Picture> picture = vmaf->pool->get();
        picture->reset(vmaf->pool_format);
        capi::expose_picture(pic, std::move(picture));
        return 0;
    });
}

extern "C" int vmaf_write_output(VmafContext* vmaf, const char* output_path, enum VmafOutputFormat fmt)
{
    const char* const function = __func__;
    return guarded(function, [&] {
        if (!vmaf || !output_path) return refuse(function, "vmaf and output_path must not be NULL");
        std::lock_guard lock(vmaf->mutex);
        OutputFormat format;
        switch (fmt) {
        case VMAF_OUTPUT_FORMAT_XML: format = OutputFormat::kXml; break;
        case VMAF_OUTPUT_FORMAT_JSON: format = OutputFormat::kJson; break;
        case VMAF_OUTPUT_FORMAT_CSV: format = OutputFormat::kCsv; break;
        case VMAF_OUTPUT_FORMAT_SUB: format = OutputFormat::kSub; break;
        default: return refuse(function, "fmt " + std::to_string(static_cast<int>(fmt)) + " is not an output format");
        }
        if (!vmaf->scores)
            return refuse(function, "no scores to write: read the pictures and flush (vmaf_read_pictures with ref "
                                    "and dist NULL) first");
        vmaf->scores->write(output_path, format, vmaf->precision);
        return 0;
    });
}

extern "C" const char* vmaf_version(void)
{
    static const std::string version = std::string(kNetflixReferenceVersion) + "-twinvmaf-" + kVersion;
    return version.c_str();
}
