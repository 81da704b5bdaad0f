/*
 * twinvmaf's libvmaf-compatible C API: feature options.
 *
 * Declarations as in Netflix libvmaf 3.2.0's <libvmaf/feature.h> (the same
 * names, types and meaning), written for twinvmaf. See docs/compat.md.
 */
#ifndef __VMAF_FEATURE_H__
#define __VMAF_FEATURE_H__

#ifdef __cplusplus
extern "C" {
#endif

/* Options of one feature extractor: key/value text pairs, keys as Netflix
 * names them ("enable_chroma", "adm_enhn_gain_limit", ...). */
typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Sets `key` to `val` in *dict (allocating *dict when it is NULL; a key set
 * again takes the new value). A numeric value is kept as libvmaf keeps it:
 * the float nearest to it printed with "%g". 0, or -EINVAL / -ENOMEM. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key,
                                const char *val);

/* Frees *dict and sets it to NULL. Only for a dictionary no call has taken
 * (vmaf_use_feature and vmaf_model_feature_overload take theirs). */
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_FEATURE_H__ */
