#!/usr/bin/env bash
# Runs one stage of `make build` / `make test` and appends its wall-clock and
# CPU time to build/stage-times.tsv, which .ci/run prints at the end: CI's
# cost per stage is then on record in every log, not estimated.
#
# Usage: scripts/timed_stage.sh NAME COMMAND [ARG...]
# The command's exit status is returned unchanged; a failed stage is logged
# with its status, so the summary also shows where a run stopped.
set -uo pipefail

name=$1
shift
mkdir -p build
start=$(date +%s%N)
cpu=-
if [ -x /usr/bin/time ]; then
  # GNU time's user and system seconds cover every descendant the command
  # waited for (compilers under ninja, tests under ctest).
  times=$(mktemp)
  /usr/bin/time -f '%U %S' -o "$times" "$@"
  status=$?
  cpu=$(tail -n 1 "$times" | awk '{printf "%.0f", $1 + $2}')
  rm -f "$times"
else
  # A fresh machine before install-deps.sh has put GNU time there.
  "$@"
  status=$?
fi
wall=$(( ($(date +%s%N) - start) / 1000000000 ))
printf '%s\t%s\t%s\t%s\n' "$name" "$wall" "$cpu" "$status" >> build/stage-times.tsv
exit "$status"
