#include "core/simd.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <mutex>

#include "hwy/targets.h"
#include "twinvmaf/error.h"

namespace twinvmaf::simd {

namespace {

std::atomic<bool> reference{false};
// Highway targets the CPU supports, before any cap (read once).
std::int64_t cpu_targets = 0;

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// Every single Highway target bit that has a name on this architecture.
std::vector<Target> named_targets()
{
    std::vector<Target> all;
    for (int bit = 0; bit < 63; ++bit) {
        const Target t = Target{1} << bit;
        const std::string n = hwy::TargetName(t);
        if (n != "Unknown") all.push_back(t);
    }
    return all;
}

// Targets no better than `cap` (Highway's better targets have lower bits).
std::int64_t at_most(Target cap) { return cpu_targets & ~(cap - 1); }

// Makes Highway's dispatch choose among `mask` (0: every supported target).
void select_highway(std::int64_t mask)
{
    hwy::SetSupportedTargetsForTest(mask);
    hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

// TWINVMAF_SIMD's choice.
Target env_choice = -1;  // -1: no cap

void apply(Target choice)
{
    if (choice == kReference) {
        reference = true;
        select_highway(0);
    } else {
        reference = false;
        select_highway(choice < 0 ? 0 : at_most(choice));
    }
}

void configure_once()
{
    hwy::SetSupportedTargetsForTest(0);
    cpu_targets = hwy::SupportedTargets();
    const char* value = std::getenv("TWINVMAF_SIMD");
    if (value && *value) {
        const std::string wanted = lower(value);
        if (wanted == "scalar" || wanted == "reference") {
            env_choice = kReference;
        } else {
            const std::string highway_name = wanted == "avx512" ? "avx3" : wanted;
            for (Target t : named_targets())
                if (lower(hwy::TargetName(t)) == highway_name) env_choice = t;
            if (env_choice < 0 || env_choice == HWY_SCALAR) {
                std::string known = "scalar";
                for (Target t : named_targets())
                    if ((HWY_TARGETS & t) && t != HWY_SCALAR) known += ", " + lower(hwy::TargetName(t));
                if (HWY_TARGETS & HWY_AVX3) known += " (alias avx512)";
                if (env_choice < 0)
                    throw Error("TWINVMAF_SIMD=" + std::string(value) + ": unknown instruction set (this build has " +
                                known + ")");
            }
        }
    }
    apply(env_choice);
}

std::once_flag once;
std::exception_ptr configure_error;

}  // namespace

void configure()
{
    std::call_once(once, [] {
        try {
            configure_once();
        } catch (...) {
            configure_error = std::current_exception();
        }
    });
    if (configure_error) std::rethrow_exception(configure_error);
}

bool use_reference()
{
    configure();
    return reference;
}

Target current()
{
    configure();
    if (reference) return kReference;
    // The best (lowest) bit of what the CPU runs and this build has; Highway's
    // one-lane fallback runs the reference kernels.
    const std::int64_t runnable = hwy::SupportedTargets() & HWY_TARGETS;
    const Target best = runnable & -runnable;
    return best == 0 || best == HWY_SCALAR ? kReference : best;
}

std::string name(Target target) { return target == kReference ? "scalar" : hwy::TargetName(target); }

std::vector<Target> available()
{
    configure();
    std::vector<Target> targets{kReference};
    for (int bit = 0; bit < 63; ++bit) {
        const Target t = Target{1} << bit;
        // HWY_SCALAR (Highway's fallback where it has no SIMD; gcc < 12.3
        // also uses it instead of HWY_EMU128) runs the reference kernels.
        if ((cpu_targets & t) && (HWY_TARGETS & t) && t != HWY_SCALAR) targets.push_back(t);
    }
    return targets;
}

void force(Target target)
{
    configure();
    apply(target < 0 ? env_choice : target);
    if (target > 0) select_highway(target);
}

}  // namespace twinvmaf::simd
