// A serial chain of floating-point additions, s = RN(s + t[i]) for i = 0, 1,
// ... (the order a CPU reference adds its terms in: float_ssim's means,
// psnr_hvs's plane sums), computed in parallel with the same bits. The
// functions here are the arithmetic, for host and device (TV_HD); the GPU
// kernels that run them are gpu/chain_sum.h, and tests/unit/test_chain_sum.cpp
// runs the same steps on the host against the plain chain.
//
// The chain is cut into chunks. Each chunk is followed from a guessed start
// (the chunks' own sums added up in any order), all chunks at once, keeping
// a Record: the end, the least and greatest partial sum, and whether any
// step was a tie. Then one thread walks the chunks in order with the true
// start S of each; where the record proves it (translated_end()), the
// chunk's true end is the recorded end moved by D = S - G, one addition;
// elsewhere that one chunk is followed again from S, as the CPU does.
//
// Why a translated end is exact. Let u = 2^(e - p + 1) be the spacing of the
// binade [B, 2B) = [2^e, 2^(e+1)) (p = 53 for double, 24 for float). If
// every partial sum r of the guessed chain satisfies B + u <= r <= 2B - u,
// the exact value x = s + t of every step lies in [r - u/2, r + u/2] inside
// [B, 2B] (were x below B, RN(x) <= B; above 2B, RN(x) >= 2B), where
// rounding is to the nearest multiple of u, ties to an even multiple. If
// the true start S and the guess G both lie in [B, 2B), D = S - G is a
// multiple m u of the spacing, and if also B + u <= r + D <= 2B - u for
// every r, then by induction every true partial sum is the guessed one plus
// D: x' = x + D lies in [B, 2B] too, and RN(x + m u) = RN(x) + m u unless x
// is a tie and m is odd (an odd shift turns the even neighbour into the odd
// one). So the record keeps whether a tie occurred (TwoSum's exact error is
// half a spacing), and a tie with m odd is refused. The end and D are
// multiples of u in the binade, so end + D is exact. Negative chains are
// the mirror image (RN(-x) = -RN(x)); a chunk whose sums change sign, touch
// a power of two, leave the normal range or are not finite is refused and
// followed again. A start equal to the guess bit for bit needs no proof.
//
// How often a chunk is followed again: where the chain's sum crosses a power
// of two (about log2 of the total's range times a chunk or two), rare ties
// with m odd, and wherever the guess is in another binade than the true
// start. The result is the chain's bits in every case; only the speed
// depends on the data.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/host_device.h"

namespace tv::chain_sum {

template <class T>
struct Format;
template <>
struct Format<double> {
    using Bits = std::uint64_t;
    static constexpr int kPrecision = 53;
    static constexpr Bits kExponentMask = 0x7ff0000000000000ULL;
};
template <>
struct Format<float> {
    using Bits = std::uint32_t;
    static constexpr int kPrecision = 24;
    static constexpr Bits kExponentMask = 0x7f800000u;
};

// Record::flags.
inline constexpr unsigned kTie = 1;     // some step was a tie
inline constexpr unsigned kUnsure = 2;  // a sum not finite, zero or tiny: no proof

template <class T>
struct Record {
    T start;   // the guessed start the chunk was followed from
    T end;     // the chain's value after the chunk, from `start`
    T lo, hi;  // the least and the greatest partial sum after a step
    unsigned flags;
};

// Half the spacing of the binade of a normal y, or 0 where y is zero,
// subnormal or so small that half its spacing is not a normal number.
template <class T>
TV_HD T half_spacing(T y)
{
    using F = Format<T>;
    constexpr int kMantissaBits = F::kPrecision - 1;
    const typename F::Bits field = (tv::bit_cast<typename F::Bits>(y) & F::kExponentMask) >> kMantissaBits;
    if (field <= static_cast<typename F::Bits>(F::kPrecision)) return T(0);
    return tv::bit_cast<T>(static_cast<typename F::Bits>(field - F::kPrecision) << kMantissaBits);
}

// The chain from `start` over term(i), first <= i < last.
template <class T, class Term>
TV_HD T follow(T start, std::size_t first, std::size_t last, const Term& term)
{
    T s = start;
    for (std::size_t i = first; i < last; ++i) s = s + term(i);
    return s;
}

// The chain from `start` over term(i), first < last, with its record.
template <class T, class Term>
TV_HD Record<T> follow_recorded(T start, std::size_t first, std::size_t last, const Term& term)
{
    Record<T> r{start, start, start, start, 0};
    T s = start;
    bool some = false;
    for (std::size_t i = first; i < last; ++i) {
        const T t = term(i);
        const T sum = s + t;
        // TwoSum: sum + error = s + t exactly (while nothing overflows).
        const T back = sum - s;
        const T error = (s - (sum - back)) + (t - back);
        const T half = half_spacing(sum);
        if (half == T(0) || !(sum - sum == T(0))) r.flags |= kUnsure;
        if (error == half || error == -half) r.flags |= kTie;
        if (!some || sum < r.lo) r.lo = sum;
        if (!some || sum > r.hi) r.hi = sum;
        some = true;
        s = sum;
    }
    r.end = s;
    return r;
}

// The chain's value after the chunk of `r` from the true start `start`,
// into `end`, where the record proves it (see above); false where the chunk
// must be followed again from `start`.
template <class T>
TV_HD bool translated_end(const Record<T>& r, T start, T& end)
{
    using F = Format<T>;
    if (tv::bit_cast<typename F::Bits>(start) == tv::bit_cast<typename F::Bits>(r.start)) {
        end = r.end;
        return true;
    }
    if (r.flags & kUnsure) return false;
    // The mirror image of a negative chunk: magnitudes, the same proof.
    const bool negative = r.hi < T(0);
    const T lo = negative ? -r.hi : r.lo, hi = negative ? -r.lo : r.hi;
    const T s = negative ? -start : start, g = negative ? -r.start : r.start;
    if (!(lo > T(0))) return false;  // also NaN
    const T binade = tv::bit_cast<T>(tv::bit_cast<typename F::Bits>(lo) & F::kExponentMask);  // B
    const T spacing = half_spacing(lo) * T(2);                                                // u
    if (spacing == T(0)) return false;
    if (!(s >= binade && s < binade * T(2) && g >= binade && g < binade * T(2))) return false;
    // In units of u (exact: multiples of u below 2^(p+1) u): B is 2^(p-1).
    const auto units = [&](T x) { return static_cast<long long>(x / spacing); };
    const long long base = 1LL << (F::kPrecision - 1);
    const long long m = units(s) - units(g);
    if (units(lo) + (m < 0 ? m : 0) < base + 1) return false;
    if (units(hi) + (m > 0 ? m : 0) > 2 * base - 1) return false;
    if ((r.flags & kTie) && (m & 1)) return false;
    end = r.end + (start - r.start);  // both exact
    return true;
}

}  // namespace tv::chain_sum
