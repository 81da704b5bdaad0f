// gpu/chain_sum.h's steps on the host, for the tests: chunk totals from 0,
// guessed starts (their sums in order, a grouping other than the chain's),
// a record per chunk from its guess, then the walk with the true starts
// (translated end, or the chunk again). The kernels run exactly these
// core/chain_sum.h functions, one chunk per thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/chain_sum.h"

namespace twinvmaf::test {

// How the walk went: chunks moved onto their true start, chunks followed
// again; for the grouped walk also groups taken whole and groups walked
// again chunk by chunk, and super-groups taken whole.
struct ChainWalk {
    std::size_t translated = 0, followed = 0;
    std::size_t groups_taken = 0, groups_walked = 0;
    std::size_t supers_taken = 0;
};

template <class T>
std::vector<T> chain_guesses(const std::vector<T>& terms, std::size_t chunk)
{
    std::vector<T> guesses;
    T before = T(0);
    for (std::size_t first = 0; first < terms.size(); first += chunk) {
        guesses.push_back(before);
        const std::size_t last = std::min(terms.size(), first + chunk);
        before = before + tv::chain_sum::follow(T(0), first, last, [&](std::size_t i) { return terms[i]; });
    }
    return guesses;
}

template <class T>
T chunked_chain(const std::vector<T>& terms, std::size_t chunk, const std::vector<T>& guesses, ChainWalk& walk)
{
    const auto term = [&](std::size_t i) { return terms[i]; };
    std::vector<tv::chain_sum::Record<T>> records;
    for (std::size_t k = 0, first = 0; first < terms.size(); ++k, first += chunk)
        records.push_back(tv::chain_sum::follow_recorded(guesses[k], first, std::min(terms.size(), first + chunk), term));
    T s = T(0);
    for (std::size_t k = 0, first = 0; first < terms.size(); ++k, first += chunk) {
        T end;
        if (tv::chain_sum::translated_end(records[k], s, end)) {
            ++walk.translated;
        } else {
            end = tv::chain_sum::follow(s, first, std::min(terms.size(), first + chunk), term);
            ++walk.followed;
        }
        s = end;
    }
    return s;
}

// The device's grouped walk (gpu/chain_sum.h, kernels 3-6): chunk records
// from the guesses, a group record per `group` chunks from its first chunk's
// guess (group_record) and its window (window_of); with `super` > 0 a record
// per `super` groups composed from the groups' records in the same way (the
// groups' records are records: the lemma applies to them as to chunks), and
// its window; then the walk with the true start over the top level
// (window_end), a super-group it cannot take walked group by group, and a
// group chunk by chunk (translated_end, or the chunk again).
template <class T>
T grouped_chain(const std::vector<T>& terms, std::size_t chunk, std::size_t group, const std::vector<T>& guesses,
                ChainWalk& walk, std::size_t super = 0)
{
    const auto term = [&](std::size_t i) { return terms[i]; };
    std::vector<tv::chain_sum::Record<T>> records;
    for (std::size_t k = 0, first = 0; first < terms.size(); ++k, first += chunk)
        records.push_back(tv::chain_sum::follow_recorded(guesses[k], first, std::min(terms.size(), first + chunk), term));
    const auto compose = [](const std::vector<tv::chain_sum::Record<T>>& parts, std::size_t size) {
        std::vector<tv::chain_sum::Record<T>> whole;
        for (std::size_t first = 0; first < parts.size(); first += size) {
            const std::size_t count = std::min(size, parts.size() - first);
            whole.push_back(tv::chain_sum::group_record(parts[first].start, count,
                                                        [&](std::size_t j) { return parts[first + j]; }));
        }
        return whole;
    };
    const std::vector<tv::chain_sum::Record<T>> groups = compose(records, group);
    const std::vector<tv::chain_sum::Record<T>> supers =
        super ? compose(groups, super) : std::vector<tv::chain_sum::Record<T>>{};
    const auto chunks_of_group = [&](std::size_t gi, T& s) {
        ++walk.groups_walked;
        for (std::size_t k = gi * group; k < std::min(records.size(), (gi + 1) * group); ++k) {
            T end;
            if (tv::chain_sum::translated_end(records[k], s, end)) {
                ++walk.translated;
            } else {
                end = tv::chain_sum::follow(s, k * chunk, std::min(terms.size(), (k + 1) * chunk), term);
                ++walk.followed;
            }
            s = end;
        }
    };
    const auto walk_group = [&](std::size_t gi, T& s) {
        T end;
        if (tv::chain_sum::window_end(tv::chain_sum::window_of(groups[gi]), s, end)) {
            ++walk.groups_taken;
            s = end;
        } else {
            chunks_of_group(gi, s);
        }
    };
    T s = T(0);
    if (!super) {
        for (std::size_t gi = 0; gi < groups.size(); ++gi) walk_group(gi, s);
        return s;
    }
    for (std::size_t si = 0; si < supers.size(); ++si) {
        T end;
        if (tv::chain_sum::window_end(tv::chain_sum::window_of(supers[si]), s, end)) {
            ++walk.supers_taken;
            s = end;
            continue;
        }
        for (std::size_t gi = si * super; gi < std::min(groups.size(), (si + 1) * super); ++gi) walk_group(gi, s);
    }
    return s;
}

}  // namespace twinvmaf::test
