#!/usr/bin/env bash
# Runs every fuzzer in turn for SECONDS each (default 600) from the fuzz
# preset's build, and prints one line per fuzzer: executions, coverage,
# corpus size, peak memory and the outcome. Logs and new corpus entries stay
# in build/debug/tests/fuzz/long/ or $TWINVMAF_FUZZ_OUT (never in the
# repository's seeds).
#   tests/fuzz/run_all.sh [SECONDS] [fuzzer...]     (after: cmake --preset debug && cmake --build --preset debug)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../../build/debug/tests/fuzz
seconds=${1:-600}
shift || true
fuzzers=("$@")
((${#fuzzers[@]})) || fuzzers=(y4m raw model feature_options cli_args batch capi pipeline decode)
out=${TWINVMAF_FUZZ_OUT:-$build/long}
mkdir -p "$out"
cd "$out" || exit 2
status=0
printf '%-16s %10s %8s %8s %8s %7s  %s\n' fuzzer executions exec/s coverage corpus rss_mb outcome
for name in "${fuzzers[@]}"; do
  log=$name.log
  bash "$here/run_fuzzer.sh" "$build/fuzz_$name" "$here" "$seconds" >"$log" 2>&1
  rc=$?
  runs=$(grep -a 'stat::number_of_executed_units' "$log" | awk '{print $2}')
  rss=$(grep -a 'stat::peak_rss_mb' "$log" | awk '{print $2}')
  last=$(grep -aE '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  corpus=$(sed -nE 's/.* corp: ([0-9]+)\/.*/\1/p' <<<"$last")
  outcome=ok
  if ((rc != 0)); then
    outcome="FAILED (rc $rc): $(grep -aE 'ERROR|fuzz: ' "$log" | head -1 | cut -c1-100)"
    status=1
  fi
  printf '%-16s %10s %8s %8s %8s %7s  %s\n' "$name" "${runs:-?}" "$(( ${runs:-0} / seconds ))" "${cov:-?}" \
         "${corpus:-?}" "${rss:-?}" "$outcome"
done
exit $status
