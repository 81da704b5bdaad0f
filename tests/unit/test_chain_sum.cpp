// core/chain_sum.h against the plain serial chain: the GPU's steps
// (gpu/chain_sum.h: chunk totals, guessed starts, records, the walk with
// translated ends) run here on the host, and the result must be the chain's
// bits for every input: sums of one sign over many binades, mixed signs and
// sums through zero, ties at every step, tiny and huge terms, infinities and
// NaN, and guesses that are right, off by a few spacings (odd and even) or
// in another binade. The counts of translated chunks show that the fast path
// is the common one on ordinary data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "chain_sum_host.h"
#include "core/chain_sum.h"

namespace {

using tv::chain_sum::Record;

template <class T>
T serial_chain(const std::vector<T>& terms)
{
    T s = T(0);
    for (T t : terms) s = s + t;
    return s;
}

using twinvmaf::test::chain_guesses;
using twinvmaf::test::chunked_chain;
using twinvmaf::test::grouped_chain;
using Walk = twinvmaf::test::ChainWalk;

template <class T>
std::uint64_t bits(T x)
{
    if constexpr (sizeof(T) == 8) return tv::bit_cast<std::uint64_t>(x);
    else return tv::bit_cast<std::uint32_t>(x);
}

// A composed record against the recorded one: start, end and flags (the
// first tie's way included) bit for bit; lo and hi too where no tie was
// recorded, bounds of the recorded ones where one was (an odd shift moves
// the sums after the first tie one spacing further than those before it).
template <class T>
bool same_record(const Record<T>& composed, const Record<T>& recorded)
{
    const bool bounds = (recorded.flags & tv::chain_sum::kTie)
                            ? composed.lo <= recorded.lo && composed.hi >= recorded.hi
                            : bits(composed.lo) == bits(recorded.lo) && bits(composed.hi) == bits(recorded.hi);
    return bits(composed.start) == bits(recorded.start) && bits(composed.end) == bits(recorded.end) && bounds &&
           composed.flags == recorded.flags;
}

// The composition lemma (core/chain_sum.h, "Groups of chunks"): a group
// record that is not kBroken is the record follow_recorded() keeps over the
// group's positions from the group's start, bit for bit (end, least and
// greatest partial sum, or bounds of them after a tie; the tie, first tie's
// way and unsure flags), and so is a record composed from such records
// (the device's super-groups); and a window accepts exactly
// the starts translated_end() accepts, with its end. Starts tried: the
// guess, the true start, their neighbours by 1..3 spacings, the window's
// bounds and their neighbours, zeros and the negated guess.
template <class T>
void expect_groups_are_records(const std::vector<T>& terms, std::size_t chunk,
                               const std::vector<std::vector<T>>& guess_sets)
{
    const auto term = [&](std::size_t i) { return terms[i]; };
    const T inf = std::numeric_limits<T>::infinity();
    for (const std::vector<T>& guesses : guess_sets) {
        std::vector<Record<T>> records;
        for (std::size_t k = 0, first = 0; first < terms.size(); ++k, first += chunk)
            records.push_back(
                tv::chain_sum::follow_recorded(guesses[k], first, std::min(terms.size(), first + chunk), term));
        for (std::size_t group : {std::size_t(2), std::size_t(5)})
            for (std::size_t first = 0; first < records.size(); first += group) {
                const std::size_t count = std::min(group, records.size() - first);
                const Record<T> g = tv::chain_sum::group_record(records[first].start, count,
                                                                [&](std::size_t j) { return records[first + j]; });
                if (!(g.flags & tv::chain_sum::kBroken)) {
                    const Record<T> direct = tv::chain_sum::follow_recorded(
                        records[first].start, first * chunk, std::min(terms.size(), (first + count) * chunk), term);
                    EXPECT_TRUE(same_record(g, direct)) << "group of " << count << " chunks at chunk " << first;
                }
            }
        // The second level: records of 3 groups of 2 chunks composed from
        // the groups' records (a composed record is a record).
        std::vector<Record<T>> pairs;
        for (std::size_t first = 0; first < records.size(); first += 2)
            pairs.push_back(tv::chain_sum::group_record(records[first].start, std::min<std::size_t>(2, records.size() - first),
                                                        [&](std::size_t j) { return records[first + j]; }));
        for (std::size_t first = 0; first < pairs.size(); first += 3) {
            const std::size_t count = std::min<std::size_t>(3, pairs.size() - first);
            const Record<T> g = tv::chain_sum::group_record(pairs[first].start, count,
                                                            [&](std::size_t j) { return pairs[first + j]; });
            if (!(g.flags & tv::chain_sum::kBroken)) {
                const Record<T> direct = tv::chain_sum::follow_recorded(
                    pairs[first].start, first * 2 * chunk, std::min(terms.size(), (first + count) * 2 * chunk), term);
                EXPECT_TRUE(same_record(g, direct)) << "super-group of " << count << " groups at group " << first;
            }
        }
        for (const Record<T>& r : records) {
            const tv::chain_sum::Window<T> w = tv::chain_sum::window_of(r);
            std::vector<T> starts{r.start, -r.start, T(0), -T(0), w.from, w.to};
            for (T base : {r.start, w.from, w.to})
                for (T x = base, y = base, n = 0; n < 3; ++n) {
                    x = std::nextafter(x, inf);
                    y = std::nextafter(y, -inf);
                    starts.push_back(x);
                    starts.push_back(y);
                }
            for (T start : starts) {
                T by_record = T(0), by_window = T(0);
                const bool a = tv::chain_sum::translated_end(r, start, by_record);
                const bool b = tv::chain_sum::window_end(w, start, by_window);
                EXPECT_EQ(a, b) << "start " << start << " guess " << r.start;
                if (a && b) {
                    EXPECT_EQ(bits(by_record), bits(by_window));
                }
            }
        }
    }
}

// The chain by chunks equals the serial chain for these chunk sizes and
// guesses; returns the walk of the last.
template <class T>
Walk expect_chain(const std::vector<T>& terms, const char* what)
{
    const T expected = serial_chain(terms);
    Walk last;
    for (std::size_t chunk : {5u, 64u, 512u}) {
        SCOPED_TRACE(testing::Message() << what << ", chunk " << chunk);
        Walk walk;
        EXPECT_EQ(bits(chunked_chain(terms, chunk, chain_guesses(terms, chunk), walk)), bits(expected));
        last = walk;
        // Guesses off by a few spacings either way (odd and even shifts),
        // and in another binade.
        std::vector<T> true_starts;
        T s = T(0);
        for (std::size_t first = 0; first < terms.size(); first += chunk) {
            true_starts.push_back(s);
            s = tv::chain_sum::follow(s, first, std::min(terms.size(), first + chunk),
                                      [&](std::size_t i) { return terms[i]; });
        }
        std::vector<std::vector<T>> guess_sets{chain_guesses(terms, chunk)};
        for (int shift : {1, -1, 2, 3, -6, 40}) {
            std::vector<T> off = true_starts;
            for (T& g : off)
                for (int n = 0; n < std::abs(shift); ++n)
                    g = std::nextafter(g, shift > 0 ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity());
            Walk w;
            EXPECT_EQ(bits(chunked_chain(terms, chunk, off, w)), bits(expected)) << "shift " << shift;
            guess_sets.push_back(off);
        }
        // Guesses far off (x3: mostly another binade; within 1/64 or 2^-20:
        // mostly the same binade, so the groups' moved partial sums matter).
        for (T factor : {T(3), T(1) + T(1) / T(64), T(1) - T(1) / T(64), T(1) + std::ldexp(T(1), -20)}) {
            std::vector<T> far = true_starts;
            for (T& g : far) g = g * factor;
            Walk w;
            EXPECT_EQ(bits(chunked_chain(terms, chunk, far, w)), bits(expected)) << "guesses x" << factor;
            guess_sets.push_back(far);
        }
        // The grouped walk of the device (groups of chunks, their windows).
        // (Groups of chunks, super-groups of groups; 0: no second level.)
        const std::pair<std::size_t, std::size_t> levels[] = {
            {1, 0}, {2, 0}, {3, 0}, {tv::chain_sum::kGroup, 0}, {2, 3}, {3, 2}, {tv::chain_sum::kGroup, tv::chain_sum::kGroup}};
        for (const auto& [group, super] : levels)
            for (std::size_t set = 0; set < guess_sets.size(); ++set) {
                Walk w;
                EXPECT_EQ(bits(grouped_chain(terms, chunk, group, guess_sets[set], w, super)), bits(expected))
                    << "grouped walk, group " << group << ", super-group " << super << ", guesses " << set;
            }
        expect_groups_are_records(terms, chunk, guess_sets);
    }
    return last;
}

TEST(ChainSum, PositiveDoublesOverManyBinades)
{
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<double> terms(150000);
    for (double& t : terms) t = unit(rng);
    const Walk walk = expect_chain(terms, "uniform [0, 1)");
    // The fast path carries almost every chunk (of 512: 293 chunks; the
    // binade crossings of a sum up to 7.5e4 are 7).
    EXPECT_GT(walk.translated, 270u);
}

TEST(ChainSum, SsimLikeTermsAndMixedSigns)
{
    std::mt19937_64 rng(2);
    std::normal_distribution<double> near_one(0.9, 0.2);
    std::vector<double> terms(100000);
    for (double& t : terms) t = near_one(rng);  // some negative
    expect_chain(terms, "ssim-like");
    std::normal_distribution<double> centred(0.0, 1.0);
    for (double& t : terms) t = centred(rng);  // the sum wanders through zero
    expect_chain(terms, "centred");
    for (std::size_t i = 0; i < terms.size(); ++i) terms[i] = -std::ldexp(1.0 + (i % 97) / 97.0, static_cast<int>(i % 9));
    expect_chain(terms, "negative");
}

TEST(ChainSum, TiesAtEveryStep)
{
    // A sum at 2^40 (spacing 2^-12) and terms that are odd multiples of half
    // a spacing: every step rounds a tie, to even.
    std::mt19937_64 rng(3);
    std::vector<double> terms{std::ldexp(1.0, 40)};
    for (int i = 0; i < 50000; ++i) terms.push_back(std::ldexp(static_cast<double>(2 * (rng() % 1000) + 1), -13));
    expect_chain(terms, "ties");
    std::vector<float> float_terms{std::ldexp(1.0f, 20)};
    for (int i = 0; i < 50000; ++i) float_terms.push_back(std::ldexp(static_cast<float>(2 * (rng() % 100) + 1), -4));
    expect_chain(float_terms, "float ties");
}

// A tie under an odd shift (core/chain_sum.h): chunk 1, {2u, u/2, u, u/2},
// recorded from the guess 1 + 4u ties at its second step (1 + 6.5u rounds
// down to the even 1 + 6u); from the true start 1 + 5u the same step,
// 1 + 7.5u, rounds up to 1 + 8u, so the chain is moved by u before the tie
// and by 2u after it (its second tie rounds alike in both). From the guess
// 1 + 5u the first tie rounds up instead, and an odd shift moves the rest
// one spacing less. Both signs, shifts of -1, 1, 2 and 3 spacings: every
// chunk is translated, with the chain's bits.
TEST(ChainSum, TiesUnderAnOddShiftMoveTheRestOneSpacingMore)
{
    const double u = std::ldexp(1.0, -52);
    for (double sign : {1.0, -1.0})
        for (double guess : {1.0 + 4 * u, 1.0 + 5 * u})
            for (int m : {1, -1, 3, 2}) {
                const double start = guess + m * u;
                const std::vector<double> terms{sign * start, 0.0,          0.0,      0.0,
                                                sign * 2 * u, sign * u / 2, sign * u, sign * u / 2};
                Walk walk;
                EXPECT_EQ(bits(chunked_chain(terms, 4, {0.0, sign * guess}, walk)), bits(serial_chain(terms)))
                    << "sign " << sign << ", guess 1 + " << (guess - 1) / u << "u, shift " << m << "u";
                EXPECT_EQ(walk.translated, 2u) << "sign " << sign << ", guess 1 + " << (guess - 1) / u
                                               << "u, shift " << m << "u";
            }
    // Terms finer than the sum's spacing, as ssimulacra2's edge maps: a tie
    // in most chunks. With every guess one spacing off (an odd shift), the
    // rule keeps the fast path for nearly all of them (without it, none of
    // the chunks with a tie).
    std::mt19937_64 rng(5);
    std::vector<double> terms{std::ldexp(1.0, 40)};
    for (int i = 0; i < 40000; ++i) terms.push_back(std::ldexp(static_cast<double>(rng() % 4096), -20));
    std::vector<double> off;
    double s = 0.0;
    for (std::size_t first = 0; first < terms.size(); first += 512) {
        off.push_back(std::nextafter(s, 0.0));
        for (std::size_t i = first; i < std::min(terms.size(), first + 512); ++i) s = s + terms[i];
    }
    Walk walk;
    EXPECT_EQ(bits(chunked_chain(terms, 512, off, walk)), bits(serial_chain(terms)));
    EXPECT_GT(walk.translated, 75u) << "followed again: " << walk.followed;
    Walk grouped;
    EXPECT_EQ(bits(grouped_chain(terms, 512, 8, off, grouped)), bits(serial_chain(terms)));
    EXPECT_GT(grouped.groups_taken, 8u) << "groups walked again: " << grouped.groups_walked;
    Walk supers;
    EXPECT_EQ(bits(grouped_chain(terms, 512, 2, off, supers, 2)), bits(serial_chain(terms)));
    EXPECT_GT(supers.supers_taken, 17u) << "groups walked: " << supers.groups_taken + supers.groups_walked;
}

TEST(ChainSum, PsnrHvsLikeFloats)
{
    std::mt19937_64 rng(4);
    std::exponential_distribution<float> error(0.01f);
    std::vector<float> terms(200000);
    for (std::size_t i = 0; i < terms.size(); ++i) terms[i] = (i % 3 == 0) ? 0.0f : error(rng);
    const Walk walk = expect_chain(terms, "psnr_hvs-like");
    EXPECT_GT(walk.translated, walk.followed * 10);
}

TEST(ChainSum, ExtremeTerms)
{
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> base(5000);
    for (std::size_t i = 0; i < base.size(); ++i) base[i] = 1.0 + static_cast<double>(i % 13);
    for (double special : {inf, -inf, std::numeric_limits<double>::quiet_NaN(), 1e308, -1e308,
                           std::numeric_limits<double>::denorm_min(), 1e-300, 0.0, -0.0}) {
        std::vector<double> terms = base;
        terms[2500] = special;
        terms[4000] = special;
        expect_chain(terms, "special");
    }
    std::vector<double> tiny(3000);
    for (std::size_t i = 0; i < tiny.size(); ++i) tiny[i] = std::ldexp(1.0 + i % 5, -1060);  // subnormal sums
    expect_chain(tiny, "subnormal");
    std::vector<float> zeros(2000, 0.0f);
    expect_chain(zeros, "zeros");
    zeros[1000] = -0.0f;
    expect_chain(zeros, "signed zeros");
}

// A guessed chunk whose last step rounds up onto a power of two, 2B, from
// above it (x = 2 + 0.75u with u the spacing below 2), while the true start
// is one spacing lower: the true step, x' = 2 - 0.25u, rounds to 2 as well,
// not to the translated 2 - u. The record must refuse the translation (its
// greatest sum is not below 2B - u).
TEST(ChainSum, SumsOnAPowerOfTwoAreFollowedAgain)
{
    const double u = std::ldexp(1.0, -52);
    const std::vector<double> terms{2.0 - 3 * u, 0.0, u, 1.75 * u};
    Walk walk;
    EXPECT_EQ(bits(chunked_chain(terms, 2, {0.0, 2.0 - 2 * u}, walk)), bits(serial_chain(terms)));
    EXPECT_EQ(walk.followed, 1u);
    EXPECT_EQ(serial_chain(terms), 2.0);
}

TEST(ChainSum, HalfSpacing)
{
    EXPECT_EQ(tv::chain_sum::half_spacing(1.0), std::ldexp(1.0, -53));
    EXPECT_EQ(tv::chain_sum::half_spacing(-3.0), std::ldexp(1.0, -52));
    EXPECT_EQ(tv::chain_sum::half_spacing(1.0f), std::ldexp(1.0f, -24));
    EXPECT_EQ(tv::chain_sum::half_spacing(0.0), 0.0);
    EXPECT_EQ(tv::chain_sum::half_spacing(std::numeric_limits<double>::denorm_min()), 0.0);
}

}  // namespace
