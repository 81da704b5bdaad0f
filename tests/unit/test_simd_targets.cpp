// The Highway targets src/core/simd_targets.cpp finds on this CPU, against
// an independent source: the kernel's flags in /proc/cpuinfo (which the
// kernel also clears for register state it does not save). A target wrongly
// claimed would crash on an illegal instruction; one wrongly missed would
// leave speed unused.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/simd.h"
#include "hwy/targets.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace {

std::set<std::string> cpuinfo_flags()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("flags", 0) != 0) continue;
        std::istringstream words(line.substr(line.find(':') + 1));
        std::set<std::string> flags;
        for (std::string w; words >> w;) flags.insert(w);
        return flags;
    }
    return {};
}

#if defined(__x86_64__)
// LZCNT straight from CPUID (leaf 0x80000001, ECX bit 5): Linux names it
// "abm", but a kernel under some hypervisors lists no "abm" although the
// instruction is there (seen on a 2-core AMD EPYC guest of this project),
// so the flags line alone would call every AVX2 CPU of that kind wrong.
bool cpuid_has_lzcnt()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 5)) != 0;
}
#endif

bool has_all(const std::set<std::string>& flags, const std::vector<std::string>& wanted)
{
    for (const std::string& w : wanted)
        if (!flags.count(w)) return false;
    return true;
}

}  // namespace

#if HWY_ARCH_X86_64
TEST(SimdTargets, MatchTheCpuFlagsOfTheKernel)
{
    std::set<std::string> flags = cpuinfo_flags();
    if (flags.empty()) GTEST_SKIP() << "no flags line in /proc/cpuinfo";
    if (cpuid_has_lzcnt()) flags.insert("abm");
    // Highway 1.0's groups; Linux's names ("pni" is SSE3, "abm" has LZCNT).
    const std::vector<std::string> ssse3 = {"sse", "sse2", "pni", "ssse3"};
    std::vector<std::string> sse4 = ssse3;
    sse4.insert(sse4.end(), {"sse4_1", "sse4_2", "pclmulqdq", "aes"});
    std::vector<std::string> avx2 = sse4;
    avx2.insert(avx2.end(), {"avx", "avx2", "abm", "bmi1", "bmi2", "fma", "f16c"});
    std::vector<std::string> avx3 = avx2;
    avx3.insert(avx3.end(), {"avx512f", "avx512vl", "avx512dq", "avx512bw"});
    std::vector<std::string> avx3_dl = avx3;
    avx3_dl.insert(avx3_dl.end(), {"avx512_vnni", "vpclmulqdq", "avx512vbmi", "avx512_vbmi2", "vaes",
                                   "avx512_vpopcntdq", "avx512_bitalg"});

    hwy::SetSupportedTargetsForTest(0);
    const std::int64_t found = hwy::SupportedTargets();
    EXPECT_TRUE(found & HWY_EMU128);
    EXPECT_TRUE(found & HWY_SCALAR);
    EXPECT_EQ((found & HWY_SSSE3) != 0, has_all(flags, ssse3));
    EXPECT_EQ((found & HWY_SSE4) != 0, has_all(flags, sse4));
    EXPECT_EQ((found & HWY_AVX2) != 0, has_all(flags, avx2));
    EXPECT_EQ((found & HWY_AVX3) != 0, has_all(flags, avx3));
    EXPECT_EQ((found & HWY_AVX3_DL) != 0, has_all(flags, avx3_dl));
    twinvmaf::simd::force(-1);  // back to TWINVMAF_SIMD's choice
}
#endif

// The test mock replaces the CPU's targets until it is cleared, and each
// change makes the next dispatch choose again (as Highway's own does).
TEST(SimdTargets, TestMaskReplacesTheCpuTargetsUntilCleared)
{
    hwy::SetSupportedTargetsForTest(0);
    const std::int64_t cpu = hwy::SupportedTargets();
    hwy::SetSupportedTargetsForTest(HWY_EMU128);
    EXPECT_EQ(hwy::SupportedTargets(), HWY_EMU128);
    EXPECT_EQ(hwy::GetChosenTarget().GetIndex(), 0u) << "a new mask must make the next dispatch choose again";
    hwy::SetSupportedTargetsForTest(0);
    EXPECT_EQ(hwy::SupportedTargets(), cpu);
    twinvmaf::simd::force(-1);  // back to TWINVMAF_SIMD's choice
}
