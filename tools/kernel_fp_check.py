#!/usr/bin/env python3
"""Proves from compiled device code that no strict GPU kernel fuses a
multiply-add or calls a device math library function (issue 14, item 6).
Needs no GPU: it reads what the compilers wrote.

    tools/kernel_fp_check.py --ptx FILE.ptx ...     (nvcc -ptx, strict flags)
    tools/kernel_fp_check.py --llvm FILE.ll ...     (hipcc device IR, front end)

PTX (CUDA). Under the strict flags nvcc writes division and square root as
single correctly rounded instructions (div.rn, sqrt.rn), so a strict kernel's
PTX holds no floating-point fma/mad at all, except the fused multiply-adds a
reference algorithm has by itself (glibc's libm as built for x86-64 with FMA,
ported in src/core/glibc_*.h): those come from tv::fused_multiply_add's inline
PTX, whose line carries the marker EXPLICIT_FMA_MARKER, and are counted.
libdevice's functions (exp, pow, log, sin ...) are inlined into PTX as
unmarked fma sequences, so a device libm call is caught here too.

LLVM IR (HIP). The AMDGPU back end lowers a correctly rounded division or
square root into Newton steps that use v_fma (the hardware has no single
instruction for them), so the ISA holds FMAs that are not contractions; the
proof is one level up, in the IR hipcc's front end hands to LLVM
(-Xclang -disable-llvm-passes): no llvm.fmuladd / llvm.fma and no fast-math
flag (contract, reassoc, afn, fast) on any operation of ours, and no call to a
device library function other than the exact ones below. OCML's own
correctly rounded sqrt (inlined from the device library) is allowed to use
llvm.fma inside its own body, and so is tv::fused_multiply_add (the one place
an explicit fused multiply-add of a reference algorithm is written).
tools/hip_check.sh also checks the ISA of the a*b+c probe: zero FMAs under
the strict flags.

Prints one line per file and exits 1 if any file breaks the rule."""
import argparse
import re
import sys

PTX_FUSED = re.compile(r"^\s*(?:@!?%p\d+\s+)?(fma|mad)(\.[a-z0-9]+)*\.f(16|32|64)\b", re.M)
EXPLICIT_FMA_MARKER = "// twinvmaf: explicit fma"
PTX_DIV_SQRT = re.compile(r"\b(div|sqrt)\.rn\.f(32|64)\b")

LLVM_DEFINE = re.compile(r"^define [^@]*@([\w.$]+)\(")
LLVM_FUSED = re.compile(r"@llvm\.(fmuladd|fma)\.")
LLVM_FAST_FLAGS = re.compile(r"= (fadd|fsub|fmul|fdiv|frem|fneg|call)( nnan| ninf| nsz| arcp)*"
                             r" (contract|reassoc|afn|fast)\b")
LLVM_DEVICE_LIB_CALL = re.compile(r"call [^@]*@(__ocml_\w+|__nv_\w+)")
# Exact (or correctly rounded) device-library functions a twin may call.
EXACT_DEVICE_LIB = re.compile(r"__ocml_(sqrt|fabs|floor|ceil|trunc|rint|fmin|fmax|copysign|ldexp)_f(32|64)$")
# Bodies that may use llvm.fma: the library's correctly rounded square root.
FMA_ALLOWED_IN = re.compile(r"__ocml_sqrt_f(32|64)$|fused_multiply_add")


def check_ptx(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    lines = [m.group(0) + text[m.end():text.find("\n", m.end())] for m in PTX_FUSED.finditer(text)]
    explicit = sum(1 for line in lines if EXPLICIT_FMA_MARKER in line)
    fused = len(lines) - explicit
    exact = len(PTX_DIV_SQRT.findall(text))
    problems = [f"{fused} floating-point fma/mad instruction(s) not written as tv::fused_multiply_add"] if fused else []
    return problems, f"{exact} div.rn/sqrt.rn, 0 contracted fma, {explicit} explicit fma" if not fused else ""


def check_llvm(path):
    problems = []
    function = None
    fma_allowed = 0
    for number, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        defined = LLVM_DEFINE.match(line)
        if defined:
            function = defined.group(1)
            continue
        if line.startswith("}"):
            function = None
            continue
        if function is None or line.startswith("declare"):
            continue
        if LLVM_FUSED.search(line):
            if FMA_ALLOWED_IN.search(function):
                fma_allowed += 1
            else:
                problems.append(f"line {number}: fused multiply-add in {function}")
        if LLVM_FAST_FLAGS.search(line):
            problems.append(f"line {number}: fast-math flag in {function}")
        called = LLVM_DEVICE_LIB_CALL.search(line)
        if called and not EXACT_DEVICE_LIB.match(called.group(1)):
            problems.append(f"line {number}: {function} calls the device library's {called.group(1)}")
    return problems, f"no fused operation of ours ({fma_allowed} inside the library's sqrt or tv::fused_multiply_add)"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    kind = parser.add_mutually_exclusive_group(required=True)
    kind.add_argument("--ptx", action="store_true")
    kind.add_argument("--llvm", action="store_true")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    check = check_ptx if args.ptx else check_llvm
    failed = False
    for path in args.files:
        problems, summary = check(path)
        if problems:
            failed = True
            print(f"FAIL {path}: " + "; ".join(problems[:5]) + (" ..." if len(problems) > 5 else ""))
        else:
            print(f"ok   {path}: {summary}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
