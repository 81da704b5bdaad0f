#!/usr/bin/env bash
# Which of the C library's functions give other bits on aarch64 than on
# x86-64: tools/aarch64_libm_check.c built for both (gcc, and Debian's
# aarch64-linux-gnu-gcc), the aarch64 one run under qemu-aarch64-static, and
# the results compared function by function. On a CPU with FMA and AVX2 the
# x86-64 side is the libm Netflix's scores come from (docs/compat.md).
# Needs scripts/install-deps.sh --aarch64. Prints one line per function.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -ffp-contract=off "$here/aarch64_libm_check.c" -o "$work/x86" -lm
aarch64-linux-gnu-gcc -O2 -ffp-contract=off "$here/aarch64_libm_check.c" -o "$work/arm" -lm
"$work/x86" "$work/x86.bin"
qemu-aarch64-static "$work/arm" "$work/arm.bin"
python3 - "$work/x86.bin" "$work/arm.bin" <<'PY'
import sys
x86, arm = (open(p, "rb").read() for p in sys.argv[1:3])
fields = [("log10", 8), ("log", 8), ("log2", 8), ("exp", 8), ("pow", 8), ("cos", 8), ("sin", 8),
          ("log2f", 4), ("powf", 4), ("expf", 4)]
record = sum(size for _, size in fields)
count = len(x86) // record
differ = [0] * len(fields)
for i in range(count):
    a, b = x86[i * record:(i + 1) * record], arm[i * record:(i + 1) * record]
    if a == b:
        continue
    offset = 0
    for k, (_, size) in enumerate(fields):
        differ[k] += a[offset:offset + size] != b[offset:offset + size]
        offset += size
for (name, _), n in zip(fields, differ):
    print(f"{name:6} {n:8} of {count} arguments differ")
PY
