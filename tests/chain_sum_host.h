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

// How the walk went: chunks moved onto their true start, chunks followed again.
struct ChainWalk {
    std::size_t translated = 0, followed = 0;
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

}  // namespace twinvmaf::test
