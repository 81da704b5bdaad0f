/*
 * twinvmaf's libvmaf-compatible C API: VMAF models.
 *
 * Declarations as in Netflix libvmaf 3.2.0's <libvmaf/model.h> (the same
 * struct layouts, enum values and meaning), written for twinvmaf.
 */
#ifndef __VMAF_MODEL_H__
#define __VMAF_MODEL_H__

#include <stdint.h>

#include "feature.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafModel VmafModel;

enum VmafModelFlags {
    VMAF_MODEL_FLAGS_DEFAULT = 0,
    VMAF_MODEL_FLAG_DISABLE_CLIP = (1 << 0),
    VMAF_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1),
    VMAF_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2),
};

/* name: what the model's per-frame score is called (NULL: "vmaf").
 * flags: enum VmafModelFlags. */
typedef struct VmafModelConfig {
    const char *name;
    uint64_t flags;
} VmafModelConfig;

/* A built-in model by version ("vmaf_v0.6.1", "vmaf_4k_v0.6.1",
 * "vmaf_v1.0.16_3d0h", ...), or a model file (Netflix's JSON format).
 * 0, or -EINVAL (unknown version, unreadable or invalid file, a bootstrap
 * collection: load that with vmaf_model_collection_load*). */
int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg,
                    const char *version);

int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg,
                              const char *path);

/* Merges `opts_dict` into the options of every feature of `model` that the
 * extractor `feature_name` ("adm", "vif", "motion", ...) computes. Takes
 * opts_dict (freed, also on error). 0, or -EINVAL when the model uses no
 * such extractor. */
int vmaf_model_feature_overload(VmafModel *model, const char *feature_name,
                                VmafFeatureDictionary *opts_dict);

void vmaf_model_destroy(VmafModel *model);

/* A bootstrap collection of models (e.g. vmaf_b_v0.6.3). */
typedef struct VmafModelCollection VmafModelCollection;

enum VmafModelCollectionScoreType {
    VMAF_MODEL_COLLECTION_SCORE_UNKNOWN = 0,
    VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP,
};

typedef struct VmafModelCollectionScore {
    enum VmafModelCollectionScoreType type;
    struct {
        double bagging_score;
        double stddev;
        struct {
            struct { double lo, hi; } p95;
        } ci;
    } bootstrap;
} VmafModelCollectionScore;

/* A bootstrap collection file: *model is its model "0" (named cfg->name),
 * *model_collection the rest (named <name>_0001, ...). -EINVAL for a file
 * that is not a collection. */
int vmaf_model_collection_load(VmafModel **model,
                               VmafModelCollection **model_collection,
                               VmafModelConfig *cfg,
                               const char *version);

int vmaf_model_collection_load_from_path(VmafModel **model,
                                         VmafModelCollection **model_collection,
                                         VmafModelConfig *cfg,
                                         const char *path);

/* vmaf_model_feature_overload() for `model` and every model of the
 * collection. Takes opts_dict. */
int vmaf_model_collection_feature_overload(VmafModel *model,
                                           VmafModelCollection **model_collection,
                                           const char *feature_name,
                                           VmafFeatureDictionary *opts_dict);

void vmaf_model_collection_destroy(VmafModelCollection *model_collection);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_MODEL_H__ */
