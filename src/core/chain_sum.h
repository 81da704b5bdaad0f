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
// one). A tie with m odd: x = (k + 1/2) u rounds to the even one of k u and
// (k + 1) u, and x + m u, k + m of the other parity, to the other one: one
// spacing further up where x was rounded down (TwoSum's exact error is +u/2),
// one down where it was rounded up (-u/2). From there on the shift is
// m + 1 or m - 1, even, and later ties round alike in both chains. So the
// record keeps whether a tie occurred and which way the first one rounded
// (the only one an odd shift changes), and the translation is by m u up to
// the first tie and by (m +- 1) u from it on, each partial sum kept inside
// [B + u, 2B - u]. The end and the shifts are multiples of u in the binade,
// so end + D is exact. Negative chains are
// the mirror image (RN(-x) = -RN(x)); a chunk whose sums change sign, touch
// a power of two, leave the normal range or are not finite is refused and
// followed again. A start equal to the guess bit for bit needs no proof.
//
// How often a chunk is followed again: where the chain's sum crosses a power
// of two (about log2 of the total's range times a chunk or two) and
// wherever the guess is in another binade than the true start. (Before the
// tie rule above, ties with m odd refused about half the chunks of sums of
// terms finer than the sum's spacing: ssimulacra2's edge maps.) The result is the chain's bits in every case; only the speed
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

// Positions per chunk on the device (gpu/chain_sum.h): a thread's serial
// work in the parallel steps, and a chunk's when it is followed again.
inline constexpr std::size_t kChunk = 512;

// Record::flags.
inline constexpr unsigned kTie = 1;     // some step was a tie
inline constexpr unsigned kUnsure = 2;  // a sum not finite, zero or tiny: no proof
inline constexpr unsigned kBroken = 4;  // a group record whose end is not known: never translated
inline constexpr unsigned kFirstTieDown = 8;  // the first tie rounded down (error +u/2), else up

template <class T>
struct Record {
    T start;   // the guessed start the chunk was followed from
    T end;     // the chain's value after the chunk, from `start`
    T lo, hi;  // bounds of the partial sums after a step: the least and the
               // greatest where recorded, bounds once moved (translated_record)
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

// Terms read ahead of their additions: kAhead at a time into registers, so
// that a GPU thread waits once per group for memory, not once per term (the
// additions keep their order).
inline constexpr std::size_t kAhead = 8;

// The chain from `start` over term(i), first <= i < last.
template <class T, class Term>
TV_HD T follow(T start, std::size_t first, std::size_t last, const Term& term)
{
    T s = start;
    std::size_t i = first;
    for (; i + kAhead <= last; i += kAhead) {
        T t[kAhead];
        for (std::size_t j = 0; j < kAhead; ++j) t[j] = term(i + j);
        for (std::size_t j = 0; j < kAhead; ++j) s = s + t[j];
    }
    for (; i < last; ++i) s = s + term(i);
    return s;
}

// A record kept step by step: begin(start), then step(t) per term in order
// (follow_recorded below; the device's records kernel keeps one per chain
// and reads each position's terms once for all of them).
template <class T>
struct Recorder {
    Record<T> r;
    bool some;
    TV_HD void begin(T start)
    {
        r = Record<T>{start, start, start, start, 0};
        some = false;
    }
    TV_HD void step(T t)
    {
        const T s = r.end;
        const T sum = s + t;
        // TwoSum: sum + error = s + t exactly (while nothing overflows).
        const T back = sum - s;
        const T error = (s - (sum - back)) + (t - back);
        const T half = half_spacing(sum);
        if (half == T(0) || !(sum - sum == T(0))) r.flags |= kUnsure;
        if (error == half || error == -half) {
            if (!(r.flags & kTie) && error > T(0)) r.flags |= kFirstTieDown;
            r.flags |= kTie;
        }
        if (!some || sum < r.lo) r.lo = sum;
        if (!some || sum > r.hi) r.hi = sum;
        some = true;
        r.end = sum;
    }
};

// The chain from `start` over term(i), first < last, with its record.
template <class T, class Term>
TV_HD Record<T> follow_recorded(T start, std::size_t first, std::size_t last, const Term& term)
{
    Recorder<T> rec;
    rec.begin(start);
    std::size_t i = first;
    for (; i + kAhead <= last; i += kAhead) {
        T t[kAhead];
        for (std::size_t j = 0; j < kAhead; ++j) t[j] = term(i + j);
        for (std::size_t j = 0; j < kAhead; ++j) rec.step(t[j]);
    }
    for (; i < last; ++i) rec.step(term(i));
    return rec.r;
}

// How the chunk of a record moves onto another start (translate() below):
// its end, and the shifts of its partial sums, `before` up to the first tie
// and `after` from it on (equal without a tie or with an even shift).
template <class T>
struct Translation {
    T end, before, after;
    bool flips_first_tie;  // an odd shift: the moved chain's first tie rounds the other way
};

// The chunk of `r` followed from the true start `start`, where the record
// proves it (see above); false where it must be followed again from `start`.
// Not for a start equal to r.start bit for bit (no shift is formed there).
template <class T>
TV_HD bool translate(const Record<T>& r, T start, Translation<T>& t)
{
    using F = Format<T>;
    if (r.flags & (kUnsure | kBroken)) return false;
    // The mirror image of a negative chunk: magnitudes, the same proof.
    const bool negative = r.hi < T(0);
    const T lo = negative ? -r.hi : r.lo, hi = negative ? -r.lo : r.hi;
    const T s = negative ? -start : start, g = negative ? -r.start : r.start;
    if (!(lo > T(0))) return false;  // also NaN
    using Bits = typename F::Bits;
    constexpr int kMantissaBits = F::kPrecision - 1;
    const T binade = tv::bit_cast<T>(tv::bit_cast<Bits>(lo) & F::kExponentMask);  // B
    const T spacing = half_spacing(lo) * T(2);                                   // u
    if (spacing == T(0)) return false;
    if (!(s >= binade && s < binade * T(2) && g >= binade && g < binade * T(2))) return false;
    // hi in the binade too, before its units are formed: a greater one
    // would overflow the integer conversion (undefined on the host).
    if (!(hi < binade * T(2))) return false;
    // In units of u: x times 1/u, a power of two (its exponent field is the
    // negation of u's), so exact for these multiples of u below 2^(p+1) u
    // (a division would be too, but costs a GPU thread dozens of steps).
    // B is 2^(p-1) units.
    constexpr Bits kBias = (F::kExponentMask >> kMantissaBits) >> 1;
    const Bits spacing_field = tv::bit_cast<Bits>(spacing) >> kMantissaBits;
    const T per_unit = tv::bit_cast<T>(static_cast<Bits>(2 * kBias - spacing_field) << kMantissaBits);  // 1/u
    const auto units = [&](T x) { return static_cast<long long>(x * per_unit); };
    const long long base = 1LL << (F::kPrecision - 1);
    const long long m = units(s) - units(g);
    // A tie and m odd: from the first tie on the shift is m + step, one
    // spacing up where it rounded down (in the mirrored frame: the other way).
    long long step = 0;
    if ((r.flags & kTie) && (m & 1)) step = (((r.flags & kFirstTieDown) != 0) != negative) ? 1 : -1;
    const long long least = m < m + step ? m : m + step, most = m > m + step ? m : m + step;
    if (units(lo) + (least < 0 ? least : 0) < base + 1) return false;
    if (units(hi) + (most > 0 ? most : 0) > 2 * base - 1) return false;
    // The start moved by the step in the binade as well, so that a window
    // (an interval of starts, window_of()) accepts exactly these starts.
    if (step != 0 && (units(s) + step < base || units(s) + step > 2 * base - 1)) return false;
    const T shift = start - r.start;  // exact: both in one binade
    const T tie_step = static_cast<T>(negative ? -step : step) * spacing;
    t.before = shift;
    t.after = shift + tie_step;  // exact: a multiple of u below B
    t.end = r.end + t.after;     // exact: a multiple of u in the binade
    t.flips_first_tie = step != 0;
    return true;
}

// The chain's value after the chunk of `r` from the true start `start`,
// into `end`, where the record proves it (see above); false where the chunk
// must be followed again from `start`.
template <class T>
TV_HD bool translated_end(const Record<T>& r, T start, T& end)
{
    using F = Format<T>;
    if (r.flags & kBroken) return false;
    if (tv::bit_cast<typename F::Bits>(start) == tv::bit_cast<typename F::Bits>(r.start)) {
        end = r.end;
        return true;
    }
    Translation<T> t;
    if (!translate(r, start, t)) return false;
    end = t.end;
    return true;
}

// Groups of chunks (the device's second level). A group is kGroup
// consecutive chunks; its record is composed from theirs, in parallel over
// the groups, and the one serial walk per chain then steps over groups, not
// chunks (a group it cannot prove is walked again chunk by chunk).
//
// Why a composed record is the group's record. Follow the group's chain
// from its guessed start G (its first chunk's guess), chunk after chunk:
// where translated_end() proves chunk j's end from the running sum s_j, the
// chain over that chunk from s_j IS the chunk's guessed chain moved by
// d_j = s_j - g_j (the proof above, step by step), so
//   - its partial sums are the recorded ones plus d_j, each an exact
//     addition (both multiples of the binade's spacing u, the sum inside the
//     binade), so lo_j + d_j and hi_j + d_j are its least and greatest sums
//     (with an odd shift and a tie: d_j up to the first tie and d_j +- u
//     from it on, the lesser and the greater of the two giving bounds);
//     with s_j equal to g_j bit for bit it is the recorded chain itself
//     (d_j is not formed: inf - inf is no shift);
//   - its ties are the recorded ones: x + d_j is a tie exactly where x is
//     (d_j a multiple of u, both in the one binade of spacing u), and the
//     tie flag of the moved chain is the recorded one; so is the way its
//     first tie rounds, but where d_j is an odd number of spacings (then
//     the other way); likewise kUnsure (the moved sums are normal, nonzero
//     and finite where the recorded are);
// so translated_record() returns the Record that follow_recorded() would
// keep from s_j (lo and hi as bounds). The group's record is then the
// chunks' records joined: least of the lo, greatest of the hi, the flags
// or-ed but for the first tie's way (the first chunk's with a tie), the
// last end; which is follow_recorded() over the group's positions from G,
// with lo and hi as bounds (all the proof needs). So
// translated_end() proves a group's end by the very argument it proves a
// chunk's, with the group's shift m = (S - G) / u and its ties. Where some
// chunk does not translate from the group's running sum, the group's
// record is marked kBroken (its end is not known, so not even a start equal
// to G may take it) and the serial walk follows that group chunk by chunk.
//
// The rules a composed record needs (tests/unit/test_chain_sum.cpp fails
// without each): the moved lo/hi (not the recorded ones), the or of the
// chunks' flags (ties and kUnsure), the first tie's way from the first chunk
// with a tie, turned by an odd shift, kBroken where a chunk does not
// translate, and no shift formed where the start is taken bit for bit.
inline constexpr std::size_t kGroup = 32;

// The record of the chunk of `r` followed from `start`, where
// translated_end() proves it (see above); false where it does not.
template <class T>
TV_HD bool translated_record(const Record<T>& r, T start, Record<T>& moved)
{
    using Bits = typename Format<T>::Bits;
    if (r.flags & kBroken) return false;
    moved = r;
    if (tv::bit_cast<Bits>(start) == tv::bit_cast<Bits>(r.start)) return true;
    Translation<T> t;
    if (!translate(r, start, t)) return false;
    moved.start = start;
    moved.end = t.end;
    moved.lo = r.lo + (t.before < t.after ? t.before : t.after);  // exact, as the end
    moved.hi = r.hi + (t.before > t.after ? t.before : t.after);
    if (t.flips_first_tie) moved.flags ^= kFirstTieDown;
    return true;
}

// The record of the chain from `start` over the chunks of record(0) ..
// record(count - 1) (consecutive, count >= 1), composed from theirs; kBroken
// where one does not translate.
template <class T, class RecordAt>
TV_HD Record<T> group_record(T start, std::size_t count, const RecordAt& record)
{
    Record<T> g{start, start, start, start, 0};
    for (std::size_t j = 0; j < count; ++j) {
        Record<T> moved;
        if (!translated_record(record(j), g.end, moved)) {
            g.flags |= kBroken;
            return g;
        }
        if (j == 0 || moved.lo < g.lo) g.lo = moved.lo;
        if (j == 0 || moved.hi > g.hi) g.hi = moved.hi;
        // The group's first tie is its first chunk's with a tie.
        const unsigned way = (g.flags & kTie) ? (g.flags & kFirstTieDown) : (moved.flags & kFirstTieDown);
        g.flags = ((g.flags | moved.flags) & ~kFirstTieDown) | way;
        g.end = moved.end;
    }
    return g;
}

// A record made ready for the serial walk: translated_end()'s test is a
// function of the true start S alone, so it is worked out once, in
// parallel, as the set of starts it accepts:
//   S equal to `start` bit for bit (unless kBroken), or
//   from <= S <= to, and, where a tie was recorded and S's lowest bit is not
//   start's (an odd shift), from <= S + tie_step <= to as well;
// then the end is `end`, end + (S - start), or with that odd shift
// end + ((S - start) + tie_step), as translated_end() gives it.
// Derivation, in the mirrored frame of a negative record: with k(x) = x / u
// the integer significand of x in [B, 2B) (B = 2^(p-1) u), translated_end()
// accepts S not equal to G exactly when k(lo) >= 2^(p-1) + 1,
// k(hi) <= 2^p - 1, G in [B, 2B) and k(S) lies in
//   [max(2^(p-1), k(G) + 2^(p-1) + 1 - k(lo)), min(2^p - 1, k(G) + 2^p - 1 - k(hi))]
// (its tests with m = k(S) - k(G), and S in [B, 2B)), and, with a tie and m
// odd (k(S) and k(G) of different parity: the lowest bit of the
// significand field, 2^(p-1) being even, is the lowest bit of the number),
// k(S) + step in that interval too, step = +-1 the first tie's way
// (translate()): in the real frame S + tie_step, tie_step = +u where the
// first tie rounded down, -u where up, whatever the sign. Both
// bounds are multiples of u in [B, 2B), exact as k u; an S of the interval
// is in [B, 2B) and a multiple of u where k(S) is in the integer interval.
// A record with no such S gets an empty interval (from > to).
template <class T>
struct Window {
    T start, end, from, to;
    T tie_step;      // with kTie: the further shift from the first tie on, under an odd shift
    unsigned flags;  // kTie: the odd-shift test; kBroken: nothing accepted
};

template <class T>
TV_HD Window<T> window_of(const Record<T>& r)
{
    using F = Format<T>;
    using Bits = typename F::Bits;
    constexpr int kMantissaBits = F::kPrecision - 1;
    const Bits exponent_mask = F::kExponentMask;  // a copy: bit_cast takes a reference
    const T inf = tv::bit_cast<T>(exponent_mask);
    Window<T> w{r.start, r.end, inf, -inf, T(0), r.flags & (kTie | kBroken)};
    if (r.flags & (kUnsure | kBroken)) return w;
    const bool negative = r.hi < T(0);
    const T lo = negative ? -r.hi : r.lo, hi = negative ? -r.lo : r.hi;
    const T g = negative ? -r.start : r.start;
    if (!(lo > T(0))) return w;
    const T binade = tv::bit_cast<T>(tv::bit_cast<Bits>(lo) & F::kExponentMask);
    const T spacing = half_spacing(lo) * T(2);
    if (spacing == T(0)) return w;
    if (!(g >= binade && g < binade * T(2) && hi < binade * T(2))) return w;
    w.tie_step = (r.flags & kFirstTieDown) ? spacing : -spacing;
    constexpr Bits kBias = (F::kExponentMask >> kMantissaBits) >> 1;
    const Bits spacing_field = tv::bit_cast<Bits>(spacing) >> kMantissaBits;
    const T per_unit = tv::bit_cast<T>(static_cast<Bits>(2 * kBias - spacing_field) << kMantissaBits);
    const auto units = [&](T x) { return static_cast<long long>(x * per_unit); };
    const long long base = 1LL << (F::kPrecision - 1);
    if (units(lo) < base + 1 || units(hi) > 2 * base - 1) return w;
    long long first = units(g) + base + 1 - units(lo), last = units(g) + 2 * base - 1 - units(hi);
    if (first < base) first = base;
    if (last > 2 * base - 1) last = 2 * base - 1;
    if (first > last) return w;
    const T a = static_cast<T>(first) * spacing, b = static_cast<T>(last) * spacing;  // exact
    w.from = negative ? -b : a;
    w.to = negative ? -a : b;
    return w;
}

// translated_end() through a window: the same answer and the same end.
template <class T>
TV_HD bool window_end(const Window<T>& w, T start, T& end)
{
    using Bits = typename Format<T>::Bits;
    const Bits sb = tv::bit_cast<Bits>(start), gb = tv::bit_cast<Bits>(w.start);
    if (w.flags & kBroken) return false;
    if (sb == gb) {
        end = w.end;
        return true;
    }
    if (!(start >= w.from && start <= w.to)) return false;
    const T shift = start - w.start;
    if ((w.flags & kTie) && ((sb ^ gb) & 1)) {
        const T stepped = start + w.tie_step;  // exact: one spacing, at most onto a binade's edge
        if (!(stepped >= w.from && stepped <= w.to)) return false;
        end = w.end + (shift + w.tie_step);
        return true;
    }
    end = w.end + shift;
    return true;
}

}  // namespace tv::chain_sum
