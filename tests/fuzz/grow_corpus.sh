#!/usr/bin/env bash
# Grows the fuzzers' committed corpora (tests/fuzz/grown/NAME.tar.xz): runs
# each fuzzer for SECONDS from its seeds and its grown corpus, then keeps,
# with libFuzzer's -merge=1, the smallest set of inputs that reaches all the
# coverage seen (the seeds', the old grown corpus' and the run's) and packs
# it reproducibly (sorted names, no owners or times).
#   tests/fuzz/grow_corpus.sh [SECONDS] [fuzzer...]   (after: cmake --preset debug && cmake --build --preset debug)
# CI's short fuzz runs (tests/fuzz/CMakeLists.txt) start from these corpora,
# so that their seconds go to new inputs instead of finding again what every
# earlier run found. Commit the tarballs it changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../../build/debug/tests/fuzz
seconds=${1:-120}
shift || true
fuzzers=("$@")
((${#fuzzers[@]})) || fuzzers=(y4m raw model feature_options cli_args batch capi pipeline decode)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
for name in "${fuzzers[@]}"; do
  binary=$build/fuzz_$name
  [ -x "$binary" ] || { echo "$binary not built (cmake --build --preset debug)"; exit 2; }
  bash "$here/run_fuzzer.sh" "$binary" "$here" "$seconds" >"$name.log" 2>&1 ||
    { echo "$name: the run failed, corpus left as it was:"; grep -aE 'ERROR|SUMMARY' "$name.log" | head -3; exit 1; }
  mkdir -p "merged/$name"
  inputs=("corpus_$name" "$here/corpus/$name")
  [ -d "grown_$name" ] && inputs+=("grown_$name")
  "$binary" -merge=1 "merged/$name" "${inputs[@]}" >"$name.merge.log" 2>&1
  mkdir -p "$here/grown"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C merged -cf - "$name" |
    xz -9 >"$here/grown/$name.tar.xz"
  echo "$name: $(ls "merged/$name" | wc -l) inputs, $(grep -aE '^#[0-9]+.*DONE' "$name.log" | grep -o 'cov: [0-9]*')"
done
