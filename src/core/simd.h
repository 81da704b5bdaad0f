// Which instruction set the CPU kernels run on.
//
// Every hot CPU loop has two implementations: the reference, which is the
// loop over the feature's math header (<name>_math.h, THE definition, also
// compiled for the GPU), and a Highway SIMD implementation of it
// (<name>_simd.cpp), compiled once per instruction set in one source
// (HWY_DYNAMIC_DISPATCH) and returning the reference's bits. A feature
// reaches both through a table of function pointers (<name>_kernels.h):
// reference_kernels() or simd_kernels(), and kernels() picks one.
//
// By default the best Highway target of the running CPU is used. The
// environment variable TWINVMAF_SIMD caps it (docs/architecture.md):
//   TWINVMAF_SIMD=scalar   the reference loops, no Highway code at all
//   TWINVMAF_SIMD=<target> at most that Highway target, e.g. emu128, ssse3,
//                          sse4, avx2, avx3 (alias avx512), avx3_dl, neon,
//                          sve, sve2 (names as Highway's TargetName(),
//                          case-insensitive); a target better than the CPU
//                          supports caps nothing
// An unknown name is an error (configure() throws twinvmaf::Error).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace twinvmaf::simd {

// A Highway target bit (HWY_AVX2, ...), or kReference for the reference loops.
using Target = std::int64_t;
inline constexpr Target kReference = 0;

// Applies TWINVMAF_SIMD once (thread-safe; later calls do nothing, so call
// it wherever a kernel table is looked up). Throws on an unknown name.
void configure();

// Whether the reference loops are to be used (TWINVMAF_SIMD=scalar, or a
// test's force(kReference)).
bool use_reference();

// The target kernels() uses now: kReference or the Highway target chosen.
Target current();

// "scalar" for kReference, else Highway's name of the target ("AVX2", ...).
std::string name(Target target);

// For tests: every target this build has and this CPU runs, kReference
// first, then the Highway targets from the best down.
std::vector<Target> available();

// For tests: make kernels() use `target` (one of available()) until the
// next force(); force(-1) returns to TWINVMAF_SIMD's choice.
void force(Target target);

}  // namespace twinvmaf::simd
