#!/usr/bin/env bash
# Speed of twinvmaf's twins of the lusoris/vmaf fork's extractors against the
# fork's own CPU build, side by side on this machine:
#
#   bench/fork_extractors.sh FORK_VMAF TWINVMAF REF DIS W H P B [REPEATS]
#
# For each feature (motion_v2, ssim, the fork's float_ms_ssim as twinvmaf's
# lusoris_float_ms_ssim) and thread count (1, all cores), runs
# both CLIs REPEATS times (default 5), alternating, and prints the best wall
# and CPU (user + sys) times of each and the ratios fork / twinvmaf (> 1:
# twinvmaf faster). Both
# print %.17g JSON to /dev/null; twinvmaf runs on the CPU backend.
set -euo pipefail
[ $# -ge 8 ] || { echo "usage: $0 FORK_VMAF TWINVMAF REF DIS W H P B [REPEATS]" >&2; exit 2; }
fork=$1 ours=$2 ref=$3 dis=$4 w=$5 h=$6 p=$7 b=$8 reps=${9:-5}
cores=$(nproc)
common=(-r "$ref" -d "$dis" -w "$w" -h "$h" -p "$p" -b "$b" --no_prediction --precision max --json -o /dev/null)
# One run of "$@": "wall cpu" seconds (cpu = user + sys, which the other
# loads of a shared machine disturb less than the wall clock).
one() {
  local TIMEFORMAT='%R %U %S' out
  out=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
  set -- $out
  echo "$1 $(echo "$2 + $3" | bc -l)"
}
min() { echo "if ($1 < $2) $1 else $2" | bc -l; }
# FEATURES: "fork_name[:twinvmaf_name] ..." (default below).
for pair in ${FEATURES:-motion_v2 ssim float_ms_ssim:lusoris_float_ms_ssim}; do
  feature=${pair%%:*} ours_feature=${pair#*:}
  for threads in 1 "$cores"; do
    fw=999999 fc=999999 ow=999999 oc=999999
    for _ in $(seq "$reps"); do  # alternate single runs so both see the same load
      read -r w c < <(one "$fork" "${common[@]}" --threads "$threads" --feature "$feature"); fw=$(min "$w" "$fw"); fc=$(min "$c" "$fc")
      read -r w c < <(one "$ours" "${common[@]}" --threads "$threads" --backend cpu --feature "$ours_feature"); ow=$(min "$w" "$ow"); oc=$(min "$c" "$oc")
    done
    printf '%-10s threads=%-3s wall: fork %.3f s twinvmaf %.3f s (fork/twinvmaf %.2f)  cpu: fork %.3f s twinvmaf %.3f s (%.2f)\n' \
      "$feature" "$threads" "$fw" "$ow" "$(echo "$fw / $ow" | bc -l)" "$fc" "$oc" "$(echo "$fc / $oc" | bc -l)"
  done
done
