/*
 * The libvmaf-compatible C API from a C program, as a program written for
 * Netflix's libvmaf uses it: only <libvmaf.h> (and the twinvmaf extension
 * header), linked against libvmaf.so.
 *
 *   capi_test api MODEL_DIR OUT_DIR
 *       every function of the API, its error paths and calls out of order;
 *       exits 0 when every check holds.
 *   capi_test score REF DIS W H 420|422|444 BPC FRAMES OUT [options] [feature ...]
 *       scores raw .yuv files through the API (FRAMES: at most that many, 0
 *       all) and writes OUT with vmaf_write_output() at full precision; on
 *       stdout, each model's per-frame and pooled scores at %.17g, which
 *       tests/capi/test_capi.cpp compares with the CLI's output.
 *       options: --model VERSION (repeatable; "none" for none),
 *       --collection VERSION, --threads N, --subsample N, --prealloc,
 *       --format json|xml|csv|sub; a feature is NAME or NAME:key=value:...
 *   capi_test cuda
 *       libvmaf_cuda.h's calls: their refusals, and without a GPU (or in a
 *       build without CUDA) an error from vmaf_cuda_state_init; with one, a
 *       state imported and device pictures fetched. Prints "cuda: state" or
 *       "cuda: no state"; exits 0 when every check holds.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf.h>
#include <libvmaf/libvmaf_cuda.h>
#include <libvmaf/twinvmaf.h>
#include <libvmaf/version.h>

/* ---- the interface's facts: Netflix's struct layouts on LP64 ------------ */

_Static_assert(sizeof(VmafCudaConfiguration) == 8 && offsetof(VmafCudaPictureConfiguration, pic_params.bpc) == 8 &&
                   offsetof(VmafCudaPictureConfiguration, pic_params.pix_fmt) == 12 &&
                   offsetof(VmafCudaPictureConfiguration, pic_prealloc_method) == 16 &&
                   sizeof(VmafCudaPictureConfiguration) == 20,
               "libvmaf_cuda.h layouts");
_Static_assert(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE == 0 && VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE == 1 &&
                   VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST == 2 &&
                   VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED == 3,
               "preallocation methods");

_Static_assert(sizeof(enum VmafPixelFormat) == 4, "enum size");
_Static_assert(VMAF_PIX_FMT_UNKNOWN == 0 && VMAF_PIX_FMT_YUV420P == 1 && VMAF_PIX_FMT_YUV422P == 2 &&
                   VMAF_PIX_FMT_YUV444P == 3 && VMAF_PIX_FMT_YUV400P == 4,
               "pixel formats");
_Static_assert(offsetof(VmafPicture, pix_fmt) == 0 && offsetof(VmafPicture, bpc) == 4 &&
                   offsetof(VmafPicture, w) == 8 && offsetof(VmafPicture, h) == 20 &&
                   offsetof(VmafPicture, stride) == 32 && offsetof(VmafPicture, data) == 56 &&
                   offsetof(VmafPicture, ref) == 80 && offsetof(VmafPicture, priv) == 88 && sizeof(VmafPicture) == 96,
               "VmafPicture layout");
_Static_assert(offsetof(VmafConfiguration, log_level) == 0 && offsetof(VmafConfiguration, n_threads) == 4 &&
                   offsetof(VmafConfiguration, n_subsample) == 8 && offsetof(VmafConfiguration, cpumask) == 16 &&
                   offsetof(VmafConfiguration, gpumask) == 24 && sizeof(VmafConfiguration) == 32,
               "VmafConfiguration layout");
_Static_assert(offsetof(VmafModelConfig, name) == 0 && offsetof(VmafModelConfig, flags) == 8 &&
                   sizeof(VmafModelConfig) == 16,
               "VmafModelConfig layout");
_Static_assert(offsetof(VmafModelCollectionScore, bootstrap.bagging_score) == 8 &&
                   offsetof(VmafModelCollectionScore, bootstrap.stddev) == 16 &&
                   offsetof(VmafModelCollectionScore, bootstrap.ci.p95.lo) == 24 &&
                   offsetof(VmafModelCollectionScore, bootstrap.ci.p95.hi) == 32 &&
                   sizeof(VmafModelCollectionScore) == 40,
               "VmafModelCollectionScore layout");
_Static_assert(offsetof(VmafPictureConfiguration, pic_params.w) == 0 &&
                   offsetof(VmafPictureConfiguration, pic_params.pix_fmt) == 12 &&
                   offsetof(VmafPictureConfiguration, pic_cnt) == 16 && sizeof(VmafPictureConfiguration) == 20,
               "VmafPictureConfiguration layout");
_Static_assert(VMAF_LOG_LEVEL_NONE == 0 && VMAF_LOG_LEVEL_DEBUG == 4, "log levels");
_Static_assert(VMAF_OUTPUT_FORMAT_NONE == 0 && VMAF_OUTPUT_FORMAT_SUB == 4, "output formats");
_Static_assert(VMAF_POOL_METHOD_UNKNOWN == 0 && VMAF_POOL_METHOD_MIN == 1 && VMAF_POOL_METHOD_HARMONIC_MEAN == 4 &&
                   VMAF_POOL_METHOD_NB == 5,
               "pooling methods");
_Static_assert(VMAF_MODEL_FLAG_DISABLE_CLIP == 1 && VMAF_MODEL_FLAG_ENABLE_TRANSFORM == 2 &&
                   VMAF_MODEL_FLAG_DISABLE_TRANSFORM == 4,
               "model flags");
_Static_assert(VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP == 1, "collection score type");
_Static_assert(VMAF_API_VERSION_MAJOR == 3 && VMAF_API_VERSION_MINOR == 2 && VMAF_API_VERSION_PATCH == 0,
               "API version");

/* ---- checks ------------------------------------------------------------ */

static int checks, failures;

#define CHECK(cond)                                                           \
    do {                                                                      \
        ++checks;                                                             \
        if (!(cond)) {                                                        \
            ++failures;                                                       \
            fprintf(stderr, "capi_test:%d: check failed: %s\n", __LINE__, #cond); \
        }                                                                     \
    } while (0)

/* A picture of 8-bit samples with a pattern; `shift` makes another. */
static void fill(VmafPicture *pic, unsigned seed, unsigned shift)
{
    for (int p = 0; p < 3; p++) {
        for (unsigned y = 0; y < pic->h[p]; y++) {
            for (unsigned x = 0; x < pic->w[p]; x++) {
                const unsigned v = (x * 7 + y * 13 + seed * 31 + (x / 3 + y / 2) * shift) % 256;
                if (pic->bpc > 8)
                    ((uint16_t *)((uint8_t *)pic->data[p] + y * pic->stride[p]))[x] = (uint16_t)(v << (pic->bpc - 8));
                else
                    ((uint8_t *)pic->data[p] + y * pic->stride[p])[x] = (uint8_t)v;
            }
        }
    }
}

static int all_zero(const VmafPicture *pic)
{
    for (int p = 0; p < 3; p++)
        for (unsigned y = 0; y < pic->h[p]; y++)
            for (unsigned x = 0; x < pic->w[p] * (pic->bpc > 8 ? 2u : 1u); x++)
                if (((const uint8_t *)pic->data[p] + y * pic->stride[p])[x]) return 0;
    return 1;
}

static int read_pair(VmafContext *vmaf, unsigned w, unsigned h, unsigned index)
{
    VmafPicture ref, dis;
    if (vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, w, h)) return -1;
    if (vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, 8, w, h)) return -1;
    fill(&ref, index, 0);
    fill(&dis, index, 5);
    const int err = vmaf_read_pictures(vmaf, &ref, &dis, index);
    if (err) {
        vmaf_picture_unref(&ref);
        vmaf_picture_unref(&dis);
    }
    return err;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fclose(f);
    return 1;
}

static void api_dictionaries(void)
{
    VmafFeatureDictionary *d = NULL;
    CHECK(vmaf_feature_dictionary_set(NULL, "a", "b") == -EINVAL);
    CHECK(vmaf_feature_dictionary_set(&d, NULL, "b") == -EINVAL);
    CHECK(vmaf_feature_dictionary_set(&d, "a", NULL) == -EINVAL);
    CHECK(vmaf_feature_dictionary_set(&d, "enable_chroma", "false") == 0 && d);
    CHECK(vmaf_feature_dictionary_set(&d, "enable_chroma", "true") == 0);
    CHECK(vmaf_feature_dictionary_free(&d) == 0 && !d);
    CHECK(vmaf_feature_dictionary_free(&d) == 0);
    CHECK(vmaf_feature_dictionary_free(NULL) == -EINVAL);
}

static void api_pictures(void)
{
    VmafPicture pic;
    CHECK(vmaf_picture_alloc(NULL, VMAF_PIX_FMT_YUV420P, 8, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_UNKNOWN, 8, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV400P, 8, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 7, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 17, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, 0, 16) == -EINVAL);
    /* Beyond the frame size limit (docs/compat.md, Limits): refused before
     * anything is allocated, also where w * h would overflow 32 bits. */
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, 32769, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV444P, 16, 16, 32769) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV444P, 16, 4294967295u, 4294967295u) == -EINVAL);

    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, 33, 17) == 0);
    CHECK(pic.pix_fmt == VMAF_PIX_FMT_YUV420P && pic.bpc == 8);
    CHECK(pic.w[0] == 33 && pic.h[0] == 17 && pic.w[1] == 16 && pic.h[1] == 8 && pic.w[2] == 16 && pic.h[2] == 8);
    CHECK(pic.stride[0] >= 33 && pic.stride[1] >= 16 && pic.data[0] && pic.data[1] && pic.data[2] && pic.ref);
    CHECK(all_zero(&pic));
    CHECK(vmaf_picture_unref(&pic) == 0 && !pic.ref && !pic.data[0]);
    CHECK(vmaf_picture_unref(&pic) == -EINVAL);
    CHECK(vmaf_picture_unref(NULL) == -EINVAL);

    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV422P, 10, 20, 10) == 0);
    CHECK(pic.w[1] == 10 && pic.h[1] == 10 && pic.stride[0] >= 40 && pic.stride[1] >= 20);
    CHECK(vmaf_picture_unref(&pic) == 0);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV444P, 16, 5, 3) == 0);
    CHECK(pic.w[1] == 5 && pic.h[2] == 3 && pic.bpc == 16);
    CHECK(vmaf_picture_unref(&pic) == 0);
}

static void api_models(const char *model_dir, const char *out_dir)
{
    char path[4096];
    VmafModel *model = NULL;
    VmafModelCollection *collection = NULL;
    VmafModelConfig cfg = {.name = "vmaf", .flags = VMAF_MODEL_FLAGS_DEFAULT};

    CHECK(vmaf_model_load(NULL, &cfg, "vmaf_v0.6.1") == -EINVAL);
    CHECK(vmaf_model_load(&model, &cfg, NULL) == -EINVAL);
    CHECK(vmaf_model_load(&model, &cfg, "vmaf_v9.9.9") == -EINVAL);
    CHECK(vmaf_model_load(&model, &cfg, "vmaf_b_v0.6.3") == -EINVAL); /* a collection */
    CHECK(vmaf_model_load_from_path(&model, &cfg, "/nonexistent/model.json") == -EINVAL);
    snprintf(path, sizeof path, "%s/not_a_model.json", out_dir);
    FILE *bad = fopen(path, "w");
    if (bad) {
        fputs("{\"model_dict\": 3}", bad);
        fclose(bad);
    }
    CHECK(vmaf_model_load_from_path(&model, &cfg, path) == -EINVAL);

    CHECK(vmaf_model_load(&model, &cfg, "vmaf_v0.6.1") == 0 && model);
    VmafFeatureDictionary *d = NULL;
    vmaf_feature_dictionary_set(&d, "adm_enhn_gain_limit", "1.2");
    CHECK(vmaf_model_feature_overload(model, "no_such_extractor", d) == -EINVAL); /* d is taken anyway */
    d = NULL;
    vmaf_feature_dictionary_set(&d, "adm_enhn_gain_limit", "1.2");
    CHECK(vmaf_model_feature_overload(model, "adm", d) == 0);
    CHECK(vmaf_model_feature_overload(model, "adm", NULL) == -EINVAL);
    vmaf_model_destroy(model);
    vmaf_model_destroy(NULL);

    snprintf(path, sizeof path, "%s/vmaf_v0.6.1.json", model_dir);
    model = NULL;
    CHECK(vmaf_model_load_from_path(&model, NULL, path) == 0 && model);
    vmaf_model_destroy(model);

    model = NULL;
    CHECK(vmaf_model_collection_load(&model, &collection, &cfg, "vmaf_v0.6.1") == -EINVAL); /* not one */
    CHECK(vmaf_model_collection_load(NULL, &collection, &cfg, "vmaf_b_v0.6.3") == -EINVAL);
    CHECK(vmaf_model_collection_load(&model, &collection, &cfg, "vmaf_b_v0.6.3") == 0 && model && collection);
    d = NULL;
    vmaf_feature_dictionary_set(&d, "motion_force_zero", "true");
    CHECK(vmaf_model_collection_feature_overload(model, &collection, "motion", d) == 0);
    d = NULL;
    vmaf_feature_dictionary_set(&d, "x", "1");
    CHECK(vmaf_model_collection_feature_overload(model, &collection, "psnr", d) == -EINVAL);
    CHECK(vmaf_model_collection_feature_overload(model, NULL, "psnr", NULL) == -EINVAL);
    vmaf_model_destroy(model);
    vmaf_model_collection_destroy(collection);
    vmaf_model_collection_destroy(NULL);

    snprintf(path, sizeof path, "%s/vmaf_b_v0.6.3.json", model_dir);
    model = NULL;
    collection = NULL;
    CHECK(vmaf_model_collection_load_from_path(&model, &collection, &cfg, path) == 0 && model && collection);
    vmaf_model_destroy(model);
    vmaf_model_collection_destroy(collection);
    snprintf(path, sizeof path, "%s/vmaf_v0.6.1.json", model_dir);
    CHECK(vmaf_model_collection_load_from_path(&model, &collection, &cfg, path) == -EINVAL);
}

/* A whole run: registration, pictures (allocated and preallocated), flush,
 * every score call, output files; with the errors of each step. */
static void api_context(const char *out_dir)
{
    char path[4096];
    const unsigned w = 64, h = 48, frames = 4;
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = 2, .n_subsample = 1, .cpumask = 0};

    CHECK(vmaf_init(NULL, cfg) == -EINVAL);
    CHECK(vmaf_init(&vmaf, cfg) == 0 && vmaf);
    CHECK(twinvmaf_set_option(vmaf, "no_such_key", "1") == -EINVAL);
    CHECK(twinvmaf_set_option(vmaf, "backend", "quantum") == -EINVAL);
    CHECK(twinvmaf_set_option(vmaf, "precision", "18") == -EINVAL);
    CHECK(twinvmaf_set_option(vmaf, "backend", "cpu") == 0);
    CHECK(twinvmaf_set_option(vmaf, "precision", "max") == 0);
    CHECK(twinvmaf_set_option(NULL, "precision", "max") == -EINVAL);

    VmafModel *model = NULL;
    VmafModelCollection *collection = NULL;
    VmafModel *first = NULL;
    VmafModelConfig model_cfg = {.name = NULL};
    CHECK(vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1") == 0);
    VmafModelConfig collection_cfg = {.name = "vmaf_b"};
    CHECK(vmaf_model_collection_load(&first, &collection, &collection_cfg, "vmaf_b_v0.6.3") == 0);

    /* Registration, and its errors. */
    VmafFeatureDictionary *d = NULL;
    vmaf_feature_dictionary_set(&d, "no_such_option", "1");
    CHECK(vmaf_use_feature(vmaf, "psnr", d) == -EINVAL); /* not taken: ours to free */
    vmaf_feature_dictionary_free(&d);
    CHECK(vmaf_use_feature(vmaf, "no_such_feature", NULL) == -EINVAL);
    CHECK(vmaf_use_feature(vmaf, NULL, NULL) == -EINVAL);
    CHECK(vmaf_use_features_from_model(vmaf, NULL) == -EINVAL);
    CHECK(vmaf_use_features_from_model_collection(NULL, collection) == -EINVAL);
    d = NULL;
    vmaf_feature_dictionary_set(&d, "enable_chroma", "false");
    CHECK(vmaf_use_feature(vmaf, "psnr", d) == 0); /* taken */
    CHECK(vmaf_use_feature(vmaf, "float_ssim", NULL) == 0);
    CHECK(vmaf_use_features_from_model(vmaf, model) == 0);
    CHECK(vmaf_use_features_from_model_collection(vmaf, collection) == 0);

    /* No scores before pictures. */
    double score = 0;
    CHECK(vmaf_score_at_index(vmaf, model, &score, 0) == -EINVAL);
    CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &score, 0) == -EINVAL);
    CHECK(vmaf_write_output(vmaf, "/dev/null", VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
    CHECK(vmaf_import_feature_score(vmaf, "my_score", 0.5, 0) == 0);
    CHECK(vmaf_import_feature_score(vmaf, "my_score", 0.7, 0) == -EINVAL); /* once per index */
    CHECK(vmaf_import_feature_score(vmaf, NULL, 0.5, 1) == -EINVAL);

    /* Preallocated pictures. */
    VmafPictureConfiguration pic_cfg = {.pic_params = {.w = w, .h = h, .bpc = 8, .pix_fmt = VMAF_PIX_FMT_YUV420P},
                                        .pic_cnt = 0};
    VmafPicture ref, dis;
    CHECK(vmaf_fetch_preallocated_picture(vmaf, &ref) == -EINVAL); /* no pool yet */
    CHECK(vmaf_preallocate_pictures(vmaf, pic_cfg) == -EINVAL);    /* pic_cnt 0 */
    pic_cfg.pic_cnt = 4;
    CHECK(vmaf_preallocate_pictures(vmaf, pic_cfg) == 0);
    CHECK(vmaf_fetch_preallocated_picture(vmaf, NULL) == -EINVAL);

    /* Pictures out of order, mismatched, half a pair. */
    CHECK(vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, w, h) == 0);
    CHECK(vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, 8, w + 2, h) == 0);
    CHECK(vmaf_read_pictures(vmaf, &ref, NULL, 0) == -EINVAL);
    CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 1) == -EINVAL); /* index 1 before 0 */
    CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 0) == -EINVAL); /* sizes differ */
    CHECK(ref.ref && dis.ref);                                 /* not taken on error */
    CHECK(vmaf_read_pictures(vmaf, &ref, &ref, 0) == -EINVAL); /* one picture twice */
    CHECK(vmaf_picture_unref(&dis) == 0);
    CHECK(vmaf_read_pictures(NULL, &ref, &ref, 0) == -EINVAL);
    CHECK(vmaf_picture_unref(&ref) == 0);

    for (unsigned i = 0; i < frames; i++) {
        if (i % 2) {
            CHECK(read_pair(vmaf, w, h, i) == 0);
            continue;
        }
        CHECK(vmaf_fetch_preallocated_picture(vmaf, &ref) == 0);
        CHECK(vmaf_fetch_preallocated_picture(vmaf, &dis) == 0);
        CHECK(ref.w[0] == w && ref.h[1] == h / 2);
        fill(&ref, i, 0);
        fill(&dis, i, 5);
        CHECK(vmaf_read_pictures(vmaf, &ref, &dis, i) == 0);
        CHECK(!ref.ref && !dis.ref);                              /* taken and zeroed */
        CHECK(vmaf_read_pictures(vmaf, &ref, &dis, i + 1) == -EINVAL); /* an empty picture */
    }

    /* Calls out of order while reading. */
    CHECK(vmaf_use_feature(vmaf, "ciede", NULL) == -EINVAL);
    CHECK(vmaf_use_features_from_model(vmaf, model) == -EINVAL);
    CHECK(twinvmaf_set_option(vmaf, "backend", "cpu") == -EINVAL);
    CHECK(vmaf_import_feature_score(vmaf, "psnr_y", 1.0, 3) == -EINVAL); /* computed here */
    CHECK(vmaf_import_feature_score(vmaf, "my_score", 0.25, 1) == 0);
    CHECK(vmaf_write_output(vmaf, "/dev/null", VMAF_OUTPUT_FORMAT_JSON) == -EINVAL); /* before the flush */

    CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == 0); /* flush */
    CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == -EINVAL);
    CHECK(read_pair(vmaf, w, h, frames) == -EINVAL);
    CHECK(vmaf_import_feature_score(vmaf, "late", 1.0, 0) == -EINVAL);

    /* Scores. */
    CHECK(vmaf_score_at_index(vmaf, model, NULL, 0) == -EINVAL);
    CHECK(vmaf_score_at_index(vmaf, model, &score, frames) == -EINVAL); /* no such picture */
    double at[4] = {0};
    for (unsigned i = 0; i < frames; i++) CHECK(vmaf_score_at_index(vmaf, model, &at[i], i) == 0);
    CHECK(at[0] > 0 && at[0] <= 100);
    CHECK(vmaf_score_at_index(vmaf, model, &score, 2) == 0 && score == at[2]); /* kept */
    double vmaf_from_collector = 0;
    CHECK(vmaf_feature_score_at_index(vmaf, "vmaf", &vmaf_from_collector, 1) == 0 && vmaf_from_collector == at[1]);
    double psnr = 0, adm = 0, adm_internal = 0, imported = 0;
    CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &psnr, 0) == 0 && psnr > 0);
    CHECK(vmaf_feature_score_at_index(vmaf, "psnr_cb", &psnr, 0) == -EINVAL); /* enable_chroma=false */
    CHECK(vmaf_feature_score_at_index(vmaf, "integer_adm2", &adm, 3) == 0);
    CHECK(vmaf_feature_score_at_index(vmaf, "VMAF_integer_feature_adm2_score", &adm_internal, 3) == 0 &&
          adm_internal == adm);
    CHECK(vmaf_feature_score_at_index(vmaf, "float_ssim", &score, 0) == 0 && score > 0 && score <= 1);
    CHECK(vmaf_feature_score_at_index(vmaf, "my_score", &imported, 0) == 0 && imported == 0.5);
    CHECK(vmaf_feature_score_at_index(vmaf, "my_score", &imported, 1) == 0 && imported == 0.25);
    CHECK(vmaf_feature_score_at_index(vmaf, "no_such_feature", &score, 0) == -EINVAL);

    double mean = 0, min = 0, max = 0, harmonic = 0;
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_UNKNOWN, &mean, 0, frames - 1) == -EINVAL);
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &mean, 2, 1) == -EINVAL);
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &mean, 0, frames) == -EINVAL);
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &mean, 0, frames - 1) == 0);
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MIN, &min, 0, frames - 1) == 0);
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MAX, &max, 0, frames - 1) == 0);
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_HARMONIC_MEAN, &harmonic, 0, frames - 1) == 0);
    CHECK(min <= harmonic && harmonic <= mean && mean <= max);
    CHECK(mean == (((at[0] + at[1]) + at[2]) + at[3]) / 4);
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MAX, &score, 1, 1) == 0 && score == at[1]);
    CHECK(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MEAN, &score, 0, frames - 1) == 0);
    CHECK(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_NB, &score, 0, frames - 1) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(vmaf, "my_score", VMAF_POOL_METHOD_MEAN, &score, 0, 3) == -EINVAL); /* 2 frames */
    CHECK(vmaf_feature_score_pooled(vmaf, "my_score", VMAF_POOL_METHOD_MEAN, &score, 0, 1) == 0 && score == 0.375);

    VmafModelCollectionScore c1, c2, pooled;
    CHECK(vmaf_score_at_index_model_collection(vmaf, collection, NULL, 0) == -EINVAL);
    CHECK(vmaf_score_at_index_model_collection(vmaf, collection, &c1, 0) == 0);
    CHECK(vmaf_score_at_index_model_collection(vmaf, collection, &c2, 0) == 0); /* again: the same */
    CHECK(c1.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP && c1.bootstrap.bagging_score == c2.bootstrap.bagging_score);
    CHECK(c1.bootstrap.ci.p95.lo <= c1.bootstrap.bagging_score && c1.bootstrap.bagging_score <= c1.bootstrap.ci.p95.hi);
    CHECK(c1.bootstrap.stddev > 0);
    CHECK(vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_MEAN, &pooled, 0, frames - 1) == 0);
    CHECK(pooled.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP && pooled.bootstrap.stddev > 0);
    CHECK(vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_UNKNOWN, &pooled, 0, 1) == -EINVAL);
    CHECK(vmaf_feature_score_at_index(vmaf, "vmaf_b_0001", &score, 0) == 0);
    CHECK(vmaf_feature_score_at_index(vmaf, "vmaf_b_bagging", &score, 0) == 0 && score == c1.bootstrap.bagging_score);
    CHECK(vmaf_score_at_index(vmaf, first, &score, 0) == 0); /* model "0", not registered: scored from the features */

    /* Output files. */
    CHECK(vmaf_write_output(vmaf, NULL, VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
    CHECK(vmaf_write_output(vmaf, "/nonexistent/dir/out.json", VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
    snprintf(path, sizeof path, "%s/api_out.json", out_dir);
    CHECK(vmaf_write_output(vmaf, path, VMAF_OUTPUT_FORMAT_NONE) == -EINVAL && !file_exists(path));
    const enum VmafOutputFormat formats[] = {VMAF_OUTPUT_FORMAT_XML, VMAF_OUTPUT_FORMAT_JSON, VMAF_OUTPUT_FORMAT_CSV,
                                             VMAF_OUTPUT_FORMAT_SUB};
    const char *names[] = {"xml", "json", "csv", "sub"};
    for (int f = 0; f < 4; f++) {
        snprintf(path, sizeof path, "%s/api_out.%s", out_dir, names[f]);
        CHECK(vmaf_write_output(vmaf, path, formats[f]) == 0 && file_exists(path));
    }

    CHECK(vmaf_close(vmaf) == 0);
    CHECK(vmaf_close(NULL) == -EINVAL);
    vmaf_model_destroy(model);
    vmaf_model_destroy(first);
    vmaf_model_collection_destroy(collection);
}

/* Refusals that come with the first pictures or a later one. */
static void api_refusals(void)
{
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_NONE};
    VmafContext *vmaf = NULL;

    /* MS-SSIM needs 176x176 or more. */
    CHECK(vmaf_init(&vmaf, cfg) == 0);
    CHECK(vmaf_use_feature(vmaf, "float_ms_ssim", NULL) == 0);
    CHECK(read_pair(vmaf, 32, 32, 0) == -EINVAL);
    CHECK(read_pair(vmaf, 32, 32, 0) == -EINVAL); /* and again, saying why */
    CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == -EINVAL);
    CHECK(vmaf_close(vmaf) == 0);

    /* A 10-bit sample above 1023. */
    CHECK(vmaf_init(&vmaf, cfg) == 0);
    CHECK(vmaf_use_feature(vmaf, "psnr", NULL) == 0);
    VmafPicture ref, dis;
    CHECK(vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 10, 16, 16) == 0);
    CHECK(vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, 10, 16, 16) == 0);
    ((uint16_t *)dis.data[0])[5] = 1024;
    CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 0) == -EINVAL);
    ((uint16_t *)dis.data[0])[5] = 1023;
    CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 0) == 0);
    CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == 0);
    double score = 0;
    CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &score, 0) == 0);
    CHECK(vmaf_close(vmaf) == 0);

    /* A model named like a feature's output. */
    VmafModel *model = NULL;
    VmafModelConfig model_cfg = {.name = "psnr_y"};
    CHECK(vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1") == 0);
    CHECK(vmaf_init(&vmaf, cfg) == 0);
    CHECK(vmaf_use_feature(vmaf, "psnr", NULL) == 0);
    CHECK(vmaf_use_features_from_model(vmaf, model) == 0);
    CHECK(read_pair(vmaf, 32, 32, 0) == -EINVAL);
    CHECK(vmaf_close(vmaf) == 0);
    vmaf_model_destroy(model);

    /* A flush with no pictures, and an extension value from the environment. */
    CHECK(vmaf_init(&vmaf, cfg) == 0);
    CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == 0);
    CHECK(vmaf_write_output(vmaf, "/dev/null", VMAF_OUTPUT_FORMAT_XML) == -EINVAL);
    CHECK(vmaf_close(vmaf) == 0);
}

static int api(const char *model_dir, const char *out_dir)
{
    const char *version = vmaf_version();
    CHECK(version && strncmp(version, "3.2.0", 5) == 0 && strstr(version, "twinvmaf"));
    api_dictionaries();
    api_pictures();
    api_models(model_dir, out_dir);
    api_context(out_dir);
    api_refusals();
    printf("capi_test api: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}

/* ---- scoring files ----------------------------------------------------- */

/* Reads one frame of a raw .yuv file (chroma planes of ceil-sized rows, as
 * ffmpeg writes them) into pic's w[] x h[] planes. 1 on success. */
static int read_frame(FILE *file, VmafPicture *pic, unsigned width, unsigned height)
{
    const unsigned bytes = pic->bpc > 8 ? 2 : 1;
    const int ss_x = pic->pix_fmt != VMAF_PIX_FMT_YUV444P;
    const int ss_y = pic->pix_fmt == VMAF_PIX_FMT_YUV420P;
    for (int p = 0; p < 3; p++) {
        const unsigned stored_w = p ? (width + ss_x) >> ss_x : width;
        const unsigned stored_h = p ? (height + ss_y) >> ss_y : height;
        uint8_t row[65536];
        if (stored_w * bytes > sizeof row) return 0;
        for (unsigned y = 0; y < stored_h; y++) {
            if (fread(row, bytes, stored_w, file) != stored_w) return 0;
            if (y < pic->h[p]) memcpy((uint8_t *)pic->data[p] + y * pic->stride[p], row, pic->w[p] * bytes);
        }
    }
    return 1;
}

static enum VmafOutputFormat output_format(const char *name)
{
    if (!strcmp(name, "xml")) return VMAF_OUTPUT_FORMAT_XML;
    if (!strcmp(name, "csv")) return VMAF_OUTPUT_FORMAT_CSV;
    if (!strcmp(name, "sub")) return VMAF_OUTPUT_FORMAT_SUB;
    return VMAF_OUTPUT_FORMAT_JSON;
}

/* "name:key=value:key=value" -> vmaf_use_feature(). */
static int use_feature(VmafContext *vmaf, char *text)
{
    char *name = strtok(text, ":");
    VmafFeatureDictionary *d = NULL;
    for (char *option = strtok(NULL, ":"); option; option = strtok(NULL, ":")) {
        char *eq = strchr(option, '=');
        if (!eq) return -EINVAL;
        *eq = 0;
        if (vmaf_feature_dictionary_set(&d, option, eq + 1)) return -EINVAL;
    }
    const int err = vmaf_use_feature(vmaf, name, d);
    if (err) vmaf_feature_dictionary_free(&d);
    return err;
}

#define MAX_MODELS 8

static int score(int argc, char **argv)
{
    if (argc < 10) {
        fprintf(stderr, "usage: capi_test score REF DIS W H 420|422|444 BPC FRAMES OUT [options] [feature ...]\n");
        return 2;
    }
    const char *ref_path = argv[2], *dis_path = argv[3], *out_path = argv[9];
    const unsigned width = (unsigned)atoi(argv[4]), height = (unsigned)atoi(argv[5]);
    const enum VmafPixelFormat pix_fmt = !strcmp(argv[6], "444")   ? VMAF_PIX_FMT_YUV444P
                                         : !strcmp(argv[6], "422") ? VMAF_PIX_FMT_YUV422P
                                                                   : VMAF_PIX_FMT_YUV420P;
    const unsigned bpc = (unsigned)atoi(argv[7]);
    const unsigned max_frames = (unsigned)atoi(argv[8]);

    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_WARNING, .n_threads = 1, .n_subsample = 1};
    const char *model_versions[MAX_MODELS] = {"vmaf_v0.6.1"};
    int model_count = 1, models_given = 0, prealloc = 0;
    const char *collection_version = NULL;
    enum VmafOutputFormat format = VMAF_OUTPUT_FORMAT_JSON;
    int arg = 10;
    for (; arg < argc && !strncmp(argv[arg], "--", 2); arg++) {
        const char *option = argv[arg];
        if (!strcmp(option, "--prealloc")) {
            prealloc = 1;
            continue;
        }
        if (arg + 1 >= argc) return 2;
        const char *value = argv[++arg];
        if (!strcmp(option, "--model")) {
            if (!models_given) model_count = 0;
            models_given = 1;
            if (strcmp(value, "none") && model_count < MAX_MODELS) model_versions[model_count++] = value;
        } else if (!strcmp(option, "--collection")) {
            collection_version = value;
        } else if (!strcmp(option, "--threads")) {
            cfg.n_threads = (unsigned)atoi(value);
        } else if (!strcmp(option, "--subsample")) {
            cfg.n_subsample = (unsigned)atoi(value);
        } else if (!strcmp(option, "--format")) {
            format = output_format(value);
        } else {
            fprintf(stderr, "capi_test: unknown option %s\n", option);
            return 2;
        }
    }

    VmafContext *vmaf = NULL;
    if (vmaf_init(&vmaf, cfg) || twinvmaf_set_option(vmaf, "precision", "max")) return 1;
    VmafModel *models[MAX_MODELS] = {0};
    for (int m = 0; m < model_count; m++) {
        VmafModelConfig model_cfg = {.name = model_count > 1 ? model_versions[m] : NULL};
        if (vmaf_model_load(&models[m], &model_cfg, model_versions[m]) ||
            vmaf_use_features_from_model(vmaf, models[m]))
            return 1;
    }
    VmafModel *first = NULL;
    VmafModelCollection *collection = NULL;
    if (collection_version) {
        VmafModelConfig model_cfg = {.name = NULL};
        if (vmaf_model_collection_load(&first, &collection, &model_cfg, collection_version) ||
            vmaf_use_features_from_model(vmaf, first) || vmaf_use_features_from_model_collection(vmaf, collection))
            return 1;
    }
    for (; arg < argc; arg++)
        if (use_feature(vmaf, argv[arg])) return 1;
    if (prealloc) {
        VmafPictureConfiguration pic_cfg = {
            .pic_params = {.w = width, .h = height, .bpc = bpc, .pix_fmt = pix_fmt}, .pic_cnt = 4};
        if (vmaf_preallocate_pictures(vmaf, pic_cfg)) return 1;
    }

    FILE *ref_file = fopen(ref_path, "rb"), *dis_file = fopen(dis_path, "rb");
    if (!ref_file || !dis_file) return 1;
    unsigned frames = 0;
    for (; !max_frames || frames < max_frames; frames++) {
        VmafPicture ref, dis;
        const int err = prealloc ? vmaf_fetch_preallocated_picture(vmaf, &ref) | vmaf_fetch_preallocated_picture(vmaf, &dis)
                                 : vmaf_picture_alloc(&ref, pix_fmt, bpc, width, height) |
                                       vmaf_picture_alloc(&dis, pix_fmt, bpc, width, height);
        if (err) return 1;
        if (!read_frame(ref_file, &ref, width, height) || !read_frame(dis_file, &dis, width, height)) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
            break;
        }
        if (vmaf_read_pictures(vmaf, &ref, &dis, frames)) return 1;
    }
    fclose(ref_file);
    fclose(dis_file);
    if (!frames || vmaf_read_pictures(vmaf, NULL, NULL, 0)) return 1;

    /* As Netflix's vmaf tool and FFmpeg's filter: every model pooled over
     * every picture (which scores each picture), then the collection. */
    for (int m = 0; m < model_count; m++) {
        double mean = 0;
        if (vmaf_score_pooled(vmaf, models[m], VMAF_POOL_METHOD_MEAN, &mean, 0, frames - 1)) return 1;
        printf("model %d pooled %.17g\n", m, mean);
        for (unsigned i = 0; i < frames; i++) {
            double at = 0;
            if (cfg.n_subsample > 1 && i % cfg.n_subsample) continue;
            if (vmaf_score_at_index(vmaf, models[m], &at, i)) return 1;
            printf("model %d frame %u %.17g\n", m, i, at);
        }
    }
    if (collection) {
        double mean = 0;
        VmafModelCollectionScore pooled;
        if (vmaf_score_pooled(vmaf, first, VMAF_POOL_METHOD_MEAN, &mean, 0, frames - 1) ||
            vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_MEAN, &pooled, 0, frames - 1))
            return 1;
        printf("collection pooled %.17g bagging %.17g\n", mean, pooled.bootstrap.bagging_score);
    }
    if (vmaf_write_output(vmaf, out_path, format)) return 1;
    for (int m = 0; m < model_count; m++) vmaf_model_destroy(models[m]);
    vmaf_model_destroy(first);
    vmaf_model_collection_destroy(collection);
    return vmaf_close(vmaf) ? 1 : 0;
}

static int cuda(void)
{
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = 1};
    VmafContext *vmaf = NULL;
    VmafPicture pic;
    VmafCudaState *state = NULL;
    VmafCudaConfiguration cuda_cfg = {.cu_ctx = NULL};
    VmafCudaPictureConfiguration pic_cfg = {
        .pic_params = {.w = 64, .h = 48, .bpc = 10, .pix_fmt = VMAF_PIX_FMT_YUV420P},
        .pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
    };
    CHECK(vmaf_init(&vmaf, cfg) == 0);
    /* -EINVAL, or -ENOSYS in a build without CUDA */
    CHECK(vmaf_cuda_fetch_preallocated_picture(vmaf, &pic) < 0); /* nothing preallocated */
    CHECK(vmaf_cuda_preallocate_pictures(vmaf, pic_cfg) < 0);    /* no state imported */
    CHECK(vmaf_cuda_state_init(NULL, cuda_cfg) < 0);
    CHECK(vmaf_cuda_import_state(vmaf, NULL) < 0);
    if (vmaf_cuda_state_init(&state, cuda_cfg) != 0) {
        CHECK(state == NULL);
        printf("cuda: no state\n");
    } else {
        CHECK(vmaf_cuda_import_state(vmaf, state) == 0);
        pic_cfg.pic_prealloc_method = 7;
        CHECK(vmaf_cuda_preallocate_pictures(vmaf, pic_cfg) == -EINVAL);
        pic_cfg.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE;
        CHECK(vmaf_cuda_preallocate_pictures(vmaf, pic_cfg) == 0);
        CHECK(vmaf_cuda_fetch_preallocated_picture(vmaf, &pic) == 0);
        CHECK(pic.data[0] && pic.data[1] && pic.data[2] && pic.bpc == 10 && pic.w[0] == 64 && pic.h[1] == 24 &&
              pic.stride[0] == 128 && pic.stride[1] == 64);
        CHECK(vmaf_picture_unref(&pic) == 0);
        printf("cuda: state\n");
    }
    CHECK(vmaf_close(vmaf) == 0);
    CHECK(vmaf_cuda_state_free(state) == 0);
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "cuda")) return cuda();
    if (argc >= 4 && !strcmp(argv[1], "api")) return api(argv[2], argv[3]);
    if (argc >= 2 && !strcmp(argv[1], "score")) return score(argc, argv);
    fprintf(stderr, "usage: capi_test api MODEL_DIR OUT_DIR | capi_test score ...\n");
    return 2;
}
