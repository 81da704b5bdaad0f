#!/usr/bin/env python3
"""Compares two VMAF JSON logs (Netflix's format) value for value.

    compare_vmaf_logs.py A.json B.json [--ffmpeg-log FILE --models vmaf,...]

Every frame's metrics, every pooled metric and every aggregate metric must
be the same text in both (numbers are compared as written, so two logs
printed with %.17g agree only on the identical doubles), the keys in the
same order; the files must also be the same bytes apart from the "fps"
line. With --ffmpeg-log, the "VMAF score: " lines FFmpeg's libvmaf filter
printed there (one per model, in order) must be B's pooled means of
--models printed with %f. Prints one summary line; exits 1 on any
difference.
"""
import argparse
import json
import re
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # Numbers kept as their text: equal text is equal bits at %.17g.
    data = json.loads(text, parse_float=str, parse_int=str, object_pairs_hook=list)
    return text, data


def as_dict(pairs):
    return {k: v for k, v in pairs}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--ffmpeg-log", default=None)
    parser.add_argument("--models", default="vmaf")
    args = parser.parse_args()

    text_a, a = load(args.a)
    text_b, b = load(args.b)
    problems = []
    a, b = as_dict(a), as_dict(b)

    frames_a = [as_dict(f) for f in a.get("frames", [])]
    frames_b = [as_dict(f) for f in b.get("frames", [])]
    if len(frames_a) != len(frames_b):
        problems.append(f"{len(frames_a)} frames against {len(frames_b)}")
    values = 0
    for fa, fb in zip(frames_a, frames_b):
        if fa["frameNum"] != fb["frameNum"]:
            problems.append(f"frame {fa['frameNum']} against {fb['frameNum']}")
            continue
        ma, mb = fa["metrics"], fb["metrics"]
        if [k for k, _ in ma] != [k for k, _ in mb]:
            problems.append(f"frame {fa['frameNum']}: keys {[k for k, _ in ma]} against {[k for k, _ in mb]}")
        for (ka, va), (kb, vb) in zip(ma, mb):
            values += 1
            if ka == kb and va != vb:
                problems.append(f"frame {fa['frameNum']} {ka}: {va} against {vb}")
    for section in ("pooled_metrics", "aggregate_metrics"):
        sa, sb = a.get(section, []), b.get(section, [])
        if [k for k, _ in sa] != [k for k, _ in sb]:
            problems.append(f"{section}: keys differ")
        for (ka, va), (kb, vb) in zip(sa, sb):
            values += len(va) if isinstance(va, list) else 1
            if va != vb:
                problems.append(f"{section} {ka}: {va} against {vb}")

    def without_fps(text):
        return re.sub(r'"fps": [^,\n]*', '"fps"', text)

    same_bytes = without_fps(text_a) == without_fps(text_b)
    if not same_bytes:
        problems.append("the files differ beyond the fps line")

    printed = []
    if args.ffmpeg_log is not None:
        with open(args.ffmpeg_log, encoding="utf-8", errors="replace") as f:
            printed = re.findall(r"VMAF score: [-0-9.a-z]+", f.read())
        pooled = as_dict(b["pooled_metrics"])
        expected = ["VMAF score: %f" % float(as_dict(pooled[m])["mean"]) for m in args.models.split(",")]
        if printed != expected:
            problems.append(f"FFmpeg printed {printed}, the CLI's pooled means are {expected}")

    for p in problems[:20]:
        print("  DIFFERENT:", p)
    summary = (f"{len(frames_a)} frames, {values} values: "
               + ("identical" if not problems else f"{len(problems)} differences")
               + (", same bytes apart from fps" if same_bytes else ""))
    if printed and not problems:
        summary += ", printed " + ", ".join(f"'{p}'" for p in printed) + " = the CLI's pooled mean"
    print(summary)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
