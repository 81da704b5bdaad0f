/*
 * twinvmaf's libvmaf-compatible C API.
 *
 * Declarations as in Netflix libvmaf 3.2.0's <libvmaf/libvmaf.h> (the same
 * names, struct layouts, enum values and meaning), written for twinvmaf, so
 * that a program written for Netflix's library builds and links against
 * libvmaf.so.3 of twinvmaf unchanged. Scores equal the twinvmaf CLI's bit
 * for bit. What differs, and what is not provided: docs/compat.md
 * ("The libvmaf C API"); the twinvmaf extension (backend, GPU, output
 * precision): <libvmaf/twinvmaf.h>.
 *
 * Every int function returns 0 on success or a negative errno code
 * (-EINVAL: a bad argument or a call out of order, with a message on stderr
 * at log level ERROR and above; -ENOMEM).
 */
#ifndef __VMAF_H__
#define __VMAF_H__

#include <stdint.h>
#include <stdio.h>

#include "libvmaf/model.h"
#include "libvmaf/picture.h"
#include "libvmaf/feature.h"

#ifdef __cplusplus
extern "C" {
#endif

enum VmafLogLevel {
    VMAF_LOG_LEVEL_NONE = 0,
    VMAF_LOG_LEVEL_ERROR,
    VMAF_LOG_LEVEL_WARNING,
    VMAF_LOG_LEVEL_INFO,
    VMAF_LOG_LEVEL_DEBUG,
};

enum VmafOutputFormat {
    VMAF_OUTPUT_FORMAT_NONE = 0,
    VMAF_OUTPUT_FORMAT_XML,
    VMAF_OUTPUT_FORMAT_JSON,
    VMAF_OUTPUT_FORMAT_CSV,
    VMAF_OUTPUT_FORMAT_SUB,
};

enum VmafPoolingMethod {
    VMAF_POOL_METHOD_UNKNOWN = 0,
    VMAF_POOL_METHOD_MIN,
    VMAF_POOL_METHOD_MAX,
    VMAF_POOL_METHOD_MEAN,
    VMAF_POOL_METHOD_HARMONIC_MEAN,
    VMAF_POOL_METHOD_NB
};

/* log_level:   messages on stderr up to this level.
 * n_threads:   worker threads extracting features (0: one).
 * n_subsample: score only every n-th picture (0 and 1: all).
 * cpumask:     SIMD paths Netflix may not use; twinvmaf's give the scalar
 *              code's bits, so it changes nothing and is accepted.
 * gpumask:     nonzero: never a GPU (see <libvmaf/twinvmaf.h>). */
typedef struct VmafConfiguration {
    enum VmafLogLevel log_level;
    unsigned n_threads;
    unsigned n_subsample;
    uint64_t cpumask;
    uint64_t gpumask;
} VmafConfiguration;

typedef struct VmafContext VmafContext;

/* Opens a context; close it with vmaf_close(). */
int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg);

/* Registers the extractors a model needs, and the model itself: its score
 * is computed by vmaf_score_at_index() / vmaf_score_pooled(). Before the
 * first vmaf_read_pictures(). Features asked for twice are extracted once. */
int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model);

int vmaf_use_features_from_model_collection(VmafContext *vmaf,
                                            VmafModelCollection *model_collection);

/* Registers an extractor by name ("psnr", "float_ssim", "ciede", ...) with
 * options (NULL: defaults). Takes opts_dict when it returns 0. Before the
 * first vmaf_read_pictures(). */
int vmaf_use_feature(VmafContext *vmaf, const char *feature_name,
                     VmafFeatureDictionary *opts_dict);

/* A pre-computed score of `feature_name` at picture `index`. */
int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name,
                              double value, unsigned index);

/* Queues a picture pair for scoring and takes both pictures (they are
 * unreferenced and zeroed on success). Pictures come in order: index is
 * 0, 1, 2, ... Both have the size, pixel format and depth of the first.
 * Call once more with ref and dist NULL to flush: after that the scores of
 * every picture are there. */
int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist,
                       unsigned index);

/* The model's score of picture `index` (computed and kept on first ask). */
int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score,
                        unsigned index);

int vmaf_score_at_index_model_collection(VmafContext *vmaf,
                                         VmafModelCollection *model_collection,
                                         VmafModelCollectionScore *score,
                                         unsigned index);

/* A feature's score of picture `index`, by its output name ("psnr_y",
 * "integer_adm2", "vmaf", ...) or Netflix's internal name
 * ("VMAF_integer_feature_adm2_score"). */
int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name,
                                double *score, unsigned index);

/* Pooled over pictures index_low .. index_high (on the subsample grid). */
int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model,
                      enum VmafPoolingMethod pool_method, double *score,
                      unsigned index_low, unsigned index_high);

int vmaf_score_pooled_model_collection(VmafContext *vmaf,
                                       VmafModelCollection *model_collection,
                                       enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore *score,
                                       unsigned index_low, unsigned index_high);

int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name,
                              enum VmafPoolingMethod pool_method, double *score,
                              unsigned index_low, unsigned index_high);

/* Pictures made in advance, taken with vmaf_fetch_preallocated_picture()
 * and returned to the pool by vmaf_picture_unref() (or when read). */
typedef struct VmafPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    unsigned pic_cnt;
} VmafPictureConfiguration;

int vmaf_preallocate_pictures(VmafContext *vmaf,
                              VmafPictureConfiguration cfg);

int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

int vmaf_close(VmafContext *vmaf);

/* Writes every score as Netflix's vmaf tool does (the twinvmaf CLI's bytes
 * for the same scores), the file replaced atomically. */
int vmaf_write_output(VmafContext *vmaf, const char *output_path,
                      enum VmafOutputFormat fmt);

/* "3.2.0-twinvmaf-<twinvmaf version>": Netflix's API version first. */
const char *vmaf_version(void);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_H__ */
