#!/usr/bin/env python3
"""The example report of docs/python.md (docs/report.png): four runs of one
reference, the fixture vtest_576x324_420p8's x264 encode (CRF 34) and the
reference quantised to multiples of 6, 12 and 24 (stand-ins for the rungs
of an encode ladder; no encoder is needed), scored with the default model
and psnr, written as JSON, reported with twinvmaf-report, and screenshot
in headless Chromium when it is installed.

    PYTHONPATH=build/release/python /usr/bin/python3 tools/report_example.py OUT_DIR [--png docs/report.png]
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import twinvmaf
from twinvmaf import report

ROOT = Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--fixtures", type=Path,
                        default=Path(os.environ.get("TWINVMAF_FIXTURES", ROOT.parent / "shared/fixtures")))
    parser.add_argument("--png", type=Path, help="the screenshot (the page's top 1100x1500 pixels)")
    args = parser.parse_args()

    folder = args.fixtures / "vtest_576x324_420p8"
    width, height = 576, 324
    size = width * height * 3 // 2
    ref = list(np.fromfile(folder / "ref.yuv", np.uint8).reshape(-1, size))
    dis = list(np.fromfile(folder / "dis.yuv", np.uint8).reshape(-1, size))
    engine = twinvmaf.Engine(threads=2)
    args.out.mkdir(parents=True, exist_ok=True)
    runs = [("x264 crf 34", dis)] + [(f"quantised to {q}", [(f // q * q).astype(np.uint8) for f in ref])
                                     for q in (6, 12, 24)]
    paths = []
    for label, frames in runs:
        scores = engine.score(ref, frames, width=width, height=height, pixel_format="420", features=["psnr"])
        paths.append(args.out / (label.replace(" ", "_") + ".json"))
        scores.write(paths[-1], precision="max")
    page = args.out / "report.html"
    report.write_report([report.load_run(p, label=label, reference=f"{folder.name}/ref.yuv")
                         for p, (label, _) in zip(paths, runs)], page,
                        title="twinvmaf report: vtest 576x324, four rungs")
    print(f"wrote {page}")
    if args.png:
        browser = shutil.which("chromium")
        if not browser:
            print("no chromium: no screenshot", file=sys.stderr)
            return 1
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--force-device-scale-factor=1", "--window-size=1100,1500", f"--screenshot={args.png}",
                        page.resolve().as_uri()], check=True, capture_output=True)
        try:  # a palette PNG is a third of the size and looks the same (flat colours, text)
            from PIL import Image
            Image.open(args.png).convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT).save(
                args.png, optimize=True)
        except ImportError:
            pass
        print(f"wrote {args.png} ({args.png.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
