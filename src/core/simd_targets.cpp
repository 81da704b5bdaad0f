// Highway's run-time functions, supplied by twinvmaf on x86-64 so that
// no binary of ours loads libhwy.so.
//
// Why: libhwy.so's static initialiser (its nanobenchmark's timer
// resolution) spins for about 4 ms of CPU at every start of every process
// that loads it: the CLI, libvmaf.so in FFmpeg, the Python module, each
// test. That was four fifths of `twinvmaf --version` and a visible part of
// scoring a short clip. The kernels use only the header part of Highway
// (HWY_EXPORT tables, HWY_DYNAMIC_DISPATCH); the dispatch needs exactly
// SupportedTargets(), GetChosenTarget() and SetSupportedTargetsForTest(),
// declared in hwy/targets.h and defined here, and debug builds' checks
// (HWY_DASSERT) need Abort() from hwy/base.h. Other architectures link
// libhwy.so (CMakeLists.txt) and do not compile this file.
//
// The targets are Highway 1.0's x86 groups, from CPUID and the operating
// system's saved register state (XCR0): a target is supported only if the
// CPU has all of its group's instructions and the OS saves its registers.
// tests/unit/test_simd_targets.cpp checks the result against the CPU's own
// flags in /proc/cpuinfo.
#include <cpuid.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "hwy/targets.h"

#if !HWY_ARCH_X86_64
#error "simd_targets.cpp is for x86-64; elsewhere link Highway's libhwy (CMakeLists.txt)"
#endif

namespace hwy {

namespace {

// One CPUID leaf's registers.
struct CpuidRegisters {
    std::uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

CpuidRegisters cpuid(std::uint32_t leaf, std::uint32_t subleaf = 0)
{
    CpuidRegisters r;
    __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
    return r;
}

constexpr bool bit(std::uint32_t reg, int index) { return (reg >> index) & 1u; }

// Which of the instructions Highway's x86 targets need the CPU has.
struct X86Features {
    bool sse = false, sse2 = false, sse3 = false, ssse3 = false;
    bool sse41 = false, sse42 = false, clmul = false, aes = false;
    bool avx = false, avx2 = false, f16c = false, fma = false, lzcnt = false, bmi = false, bmi2 = false;
    bool avx512f = false, avx512vl = false, avx512dq = false, avx512bw = false;
    bool vnni = false, vpclmulqdq = false, vbmi = false, vbmi2 = false, vaes = false, popcntdq = false,
         bitalg = false;
    bool osxsave = false;
};

X86Features read_features()
{
    X86Features f;
    const std::uint32_t max_leaf = cpuid(0).eax;
    const CpuidRegisters one = cpuid(1);
    f.sse = bit(one.edx, 25);
    f.sse2 = bit(one.edx, 26);
    f.sse3 = bit(one.ecx, 0);
    f.clmul = bit(one.ecx, 1);
    f.ssse3 = bit(one.ecx, 9);
    f.fma = bit(one.ecx, 12);
    f.sse41 = bit(one.ecx, 19);
    f.sse42 = bit(one.ecx, 20);
    f.aes = bit(one.ecx, 25);
    f.osxsave = bit(one.ecx, 27);
    f.avx = bit(one.ecx, 28);
    f.f16c = bit(one.ecx, 29);
    f.lzcnt = bit(cpuid(0x80000001u).ecx, 5);
    if (max_leaf >= 7) {
        const CpuidRegisters seven = cpuid(7, 0);
        f.bmi = bit(seven.ebx, 3);
        f.avx2 = bit(seven.ebx, 5);
        f.bmi2 = bit(seven.ebx, 8);
        f.avx512f = bit(seven.ebx, 16);
        f.avx512dq = bit(seven.ebx, 17);
        f.avx512bw = bit(seven.ebx, 30);
        f.avx512vl = bit(seven.ebx, 31);
        f.vbmi = bit(seven.ecx, 1);
        f.vbmi2 = bit(seven.ecx, 6);
        f.vaes = bit(seven.ecx, 9);
        f.vpclmulqdq = bit(seven.ecx, 10);
        f.vnni = bit(seven.ecx, 11);
        f.bitalg = bit(seven.ecx, 12);
        f.popcntdq = bit(seven.ecx, 14);
    }
    return f;
}

// The register state the OS saves on a context switch (XCR0's low half);
// a vector width whose registers it does not save cannot be used.
std::uint32_t saved_register_state()
{
    std::uint32_t low = 0, high = 0;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return low;
}

std::int64_t detect_targets()
{
    // The portable targets run anywhere.
    std::int64_t targets = HWY_SCALAR | HWY_EMU128;
    const X86Features f = read_features();
    const bool ssse3 = f.sse && f.sse2 && f.sse3 && f.ssse3;
    const bool sse4 = ssse3 && f.sse41 && f.sse42 && f.clmul && f.aes;
    const bool avx2 = sse4 && f.avx && f.avx2 && f.lzcnt && f.bmi && f.bmi2 && f.fma && f.f16c;
    const bool avx3 = avx2 && f.avx512f && f.avx512vl && f.avx512dq && f.avx512bw;
    const bool avx3_dl = avx3 && f.vnni && f.vpclmulqdq && f.vbmi && f.vbmi2 && f.vaes && f.popcntdq && f.bitalg;
    // Without OSXSAVE, XCR0 cannot be read and no AVX state is saved;
    // the x87 and SSE registers are always saved on x86-64 (bits 0 and 1).
    const std::uint32_t state = f.osxsave ? saved_register_state() : 0b11u;
    const bool xmm = bit(state, 1), ymm = xmm && bit(state, 2);
    const bool zmm = ymm && bit(state, 5) && bit(state, 6) && bit(state, 7);
    if (ssse3 && xmm) targets |= HWY_SSSE3;
    if (sse4 && xmm) targets |= HWY_SSE4;
    if (avx2 && ymm) targets |= HWY_AVX2;
    if (avx3 && zmm) targets |= HWY_AVX3;
    if (avx3_dl && zmm) targets |= HWY_AVX3_DL;
    return targets;
}

// SetSupportedTargetsForTest's mask (0: none; the CPU's targets are used).
// Written by simd::configure() and the tests, on one thread, before any
// kernel runs, as Highway's own.
std::int64_t targets_for_test = 0;

}  // namespace

int64_t SupportedTargets()
{
    if (targets_for_test != 0) return targets_for_test;
    // Detected once: CPUID costs hundreds of cycles and this runs at every
    // first dispatch of a kernel table.
    static const std::int64_t detected = detect_targets();
    return detected;
}

void SetSupportedTargetsForTest(int64_t targets)
{
    targets_for_test = targets;
    // The next HWY_DYNAMIC_DISPATCH chooses again.
    GetChosenTarget().DeInit();
}

ChosenTarget& GetChosenTarget()
{
    static ChosenTarget chosen;
    return chosen;
}

// A failed Highway check (debug builds): a bug in a kernel, never bad input.
void Abort(const char* file, int line, const char* format, ...)
{
    char message[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, sizeof message, format, args);
    va_end(args);
    std::fprintf(stderr, "twinvmaf: Highway check failed at %s:%d: %s\n", file, line, message);
    std::fflush(stderr);
    std::abort();
}

}  // namespace hwy
