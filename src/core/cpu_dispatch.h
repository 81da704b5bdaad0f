// TV_CPU_CLONES compiles a hot CPU function several times - for AVX-512
// (x86-64-v4), AVX2 (x86-64-v3) and the baseline x86-64 - and lets the loader
// pick the best for the running CPU (GCC/Clang function multiversioning via
// glibc ifunc). It lets plain, auto-vectorised C++ loops use wide vectors
// while the binary still runs on any x86-64. Put it on a non-template
// function; `flatten` inlines the loop's helpers so they are compiled for the
// same instruction set.
//
// Results do not depend on the clone: integer arithmetic is exact, and with
// -ffp-contract=off and no fast-math the compiler neither fuses nor reorders
// floating-point operations when it vectorises.
#pragma once

#if defined(__clang__)
// Clang 15 (the fuzz preset's) refuses `flatten` beside target_clones and,
// without it, leaves calls to the clones' inlined helpers unresolved at link
// time: a clang build is not multiversioned (the baseline code only).
#define TV_CPU_CLONES
#elif defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
#define TV_CPU_CLONES \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), flatten))
#else
#define TV_CPU_CLONES
#endif
