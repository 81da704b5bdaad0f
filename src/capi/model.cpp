// Models of the C API (libvmaf's model.h) over twinvmaf::Model.
#include "capi/capi.h"
#include "core/message_text.h"
#include "model/model.h"

using namespace twinvmaf;

namespace {

ModelOptions model_options(const VmafModelConfig* cfg)
{
    ModelOptions options;
    if (!cfg) return options;
    if (cfg->name) options.name = cfg->name;
    options.disable_clip = cfg->flags & VMAF_MODEL_FLAG_DISABLE_CLIP;
    options.enable_transform = cfg->flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM;
    // VMAF_MODEL_FLAG_DISABLE_TRANSFORM acts at prediction only in libvmaf,
    // which its public calls never ask for; at load it changes nothing.
    return options;
}

// A collection's model "0" alone, as libvmaf's VmafModel of it.
Model first_model(const Model& collection)
{
    auto alone = std::make_shared<model::LoadedModel>(collection.loaded());
    alone->bootstrap.clear();
    return Model(std::move(alone));
}

int load_model(VmafModel** model, VmafModelConfig* cfg, const char* what, bool builtin, const char* function)
{
    if (!model || !what) return capi::refuse(function, "model and version/path must not be NULL");
    const Model loaded =
        builtin ? Model::builtin(what, model_options(cfg)) : Model::from_file(what, model_options(cfg));
    if (loaded.is_collection())
        return capi::refuse(function, message_text(loaded.label()).append(
                                          builtin ? " is a bootstrap collection of models; load it with "
                                                    "vmaf_model_collection_load()"
                                                  : " is a bootstrap collection of models; load it with "
                                                    "vmaf_model_collection_load_from_path()"));
    *model = new VmafModel{loaded};
    return 0;
}

int load_collection(VmafModel** model, VmafModelCollection** collection, VmafModelConfig* cfg, const char* what,
                    bool builtin, const char* function)
{
    if (!model || !collection || !what)
        return capi::refuse(function, "model, model_collection and version/path must not be NULL");
    const Model loaded =
        builtin ? Model::builtin(what, model_options(cfg)) : Model::from_file(what, model_options(cfg));
    if (!loaded.is_collection())
        return capi::refuse(function, message_text(loaded.label()).append(
                                          builtin ? " is a single model, not a bootstrap collection; load it with "
                                                    "vmaf_model_load()"
                                                  : " is a single model, not a bootstrap collection; load it with "
                                                    "vmaf_model_load_from_path()"));
    auto* first = new VmafModel{first_model(loaded)};
    *collection = new VmafModelCollection{loaded};
    *model = first;
    return 0;
}

// libvmaf's overloads take the dictionary whatever happens.
struct TakenDictionary {
    VmafFeatureDictionary* dict;
    ~TakenDictionary() { delete dict; }
};

}  // namespace

extern "C" int vmaf_model_load(VmafModel** model, VmafModelConfig* cfg, const char* version)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] { return load_model(model, cfg, version, true, function); });
}

extern "C" int vmaf_model_load_from_path(VmafModel** model, VmafModelConfig* cfg, const char* path)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] { return load_model(model, cfg, path, false, function); });
}

extern "C" int vmaf_model_feature_overload(VmafModel* model, const char* feature_name,
                                           VmafFeatureDictionary* opts_dict)
{
    const char* const function = __func__;
    const TakenDictionary taken{opts_dict};
    return capi::guarded(function, [&] {
        if (!model || !feature_name || !opts_dict)
            return capi::refuse(function, "model, feature_name and opts_dict must not be NULL");
        model->model.override_feature(feature_name, opts_dict->entries);
        return 0;
    });
}

extern "C" void vmaf_model_destroy(VmafModel* model) { delete model; }

extern "C" int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** model_collection,
                                          VmafModelConfig* cfg, const char* version)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] { return load_collection(model, model_collection, cfg, version, true, function); });
}

extern "C" int vmaf_model_collection_load_from_path(VmafModel** model, VmafModelCollection** model_collection,
                                                    VmafModelConfig* cfg, const char* path)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] { return load_collection(model, model_collection, cfg, path, false, function); });
}

extern "C" int vmaf_model_collection_feature_overload(VmafModel* model, VmafModelCollection** model_collection,
                                                      const char* feature_name, VmafFeatureDictionary* opts_dict)
{
    const char* const function = __func__;
    const TakenDictionary taken{opts_dict};
    return capi::guarded(function, [&] {
        if (!model || !model_collection || !*model_collection || !feature_name || !opts_dict)
            return capi::refuse(function, "model, model_collection, feature_name and opts_dict must not be NULL");
        // Both or neither: check on copies first.
        Model single = model->model;
        Model collection = (*model_collection)->model;
        single.override_feature(feature_name, opts_dict->entries);
        collection.override_feature(feature_name, opts_dict->entries);
        model->model = std::move(single);
        (*model_collection)->model = std::move(collection);
        return 0;
    });
}

extern "C" void vmaf_model_collection_destroy(VmafModelCollection* model_collection) { delete model_collection; }
