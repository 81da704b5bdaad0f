#!/usr/bin/env bash
# Runs one fuzzer for a fixed time with a fixed seed, from its hand-made seeds
# (tests/fuzz/corpus/NAME) and its grown corpus (tests/fuzz/grown/NAME.tar.xz,
# the inputs earlier runs found, unpacked here; tests/fuzz/grow_corpus.sh):
#   run_fuzzer.sh <fuzz_NAME binary> <tests/fuzz dir> <seconds> [libFuzzer flags...]
# New inputs go to a scratch corpus in the current directory (never into the
# repository); a crash is saved as crash-* here and fails the run.
set -euo pipefail
binary=$1 source=$2 seconds=$3
shift 3
name=$(basename "$binary")
name=${name#fuzz_}
scratch=corpus_$name
rm -rf "$scratch"
mkdir -p "$scratch"
flags=(-seed=1 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
       -artifact_prefix="$PWD/")
[ -f "$source/$name.dict" ] && flags+=(-dict="$source/$name.dict")
# Debian's llvm-15 has its symbolizer off PATH; stack traces want it.
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x /usr/lib/llvm-15/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-15/bin/llvm-symbolizer
fi
corpora=("$scratch" "$source/corpus/$name")
if [ -f "$source/grown/$name.tar.xz" ]; then
  rm -rf "grown_$name"
  mkdir "grown_$name"
  tar -xJf "$source/grown/$name.tar.xz" -C "grown_$name" --strip-components=1
  corpora+=("grown_$name")
fi
exec "$binary" "${flags[@]}" "$@" "${corpora[@]}"
