// TV_MULTIVERSIONED: compile a hot CPU function once per x86-64 level
// (baseline, x86-64-v3 = AVX2, x86-64-v4 = AVX-512) and pick the best one for
// the running CPU when the program loads (gcc's target_clones, an ifunc).
// `flatten` inlines everything the function calls into each version, so the
// shared TV_HD arithmetic below it is vectorised for that level too.
//
// The versions compute the same bits: put it only on code whose results do
// not depend on the instruction set - integer arithmetic, and floating point
// that is not contracted into FMA (-ffp-contract=off for the whole build).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TV_MULTIVERSIONED __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), flatten))
#else
#define TV_MULTIVERSIONED
#endif
