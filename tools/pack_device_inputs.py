#!/usr/bin/env python3
"""Packs what a run on the GPU machine needs and does not have into .device/
(ignored by git, carried to the machine by name):

  .device/googletest/         GoogleTest's sources (Debian's /usr/src/googletest)
  .device/include/nlohmann/   nlohmann-json's headers
  .device/hwy/                Debian's libhwy-dev and libhwy1, unpacked
                              (apt-get download, dpkg -x)
  .device/fixtures.tar.xz     the public fixtures, cut to their first frames
                              (fixture.json, ref.yuv, dis.yuv; no goldens)

On the GPU machine, tools/gpu_check.sh unpacks the fixtures (with Python's
tarfile: the machine may have no xz) and builds against the rest.

    tools/pack_device_inputs.py [--fixtures DIR] [--frames N] [--out .device]

Frames: at most N per fixture (default 6), and the 1080p fixture's 3."""
import argparse
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def frame_bytes(info):
    w, h, bits, chroma = info["width"], info["height"], info["bitdepth"], info["pixel_format"]
    cw = w if chroma == 444 else (w + 1) // 2
    ch = (h + 1) // 2 if chroma == 420 else h
    return (w * h + 2 * cw * ch) * (2 if bits > 8 else 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES",
                                                             os.path.join(ROOT, "..", "shared", "fixtures")))
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--out", default=os.path.join(ROOT, ".device"))
    args = parser.parse_args()
    os.makedirs(os.path.join(args.out, "include"), exist_ok=True)
    for source, target in (("/usr/src/googletest", "googletest"), ("/usr/include/nlohmann", "include/nlohmann")):
        destination = os.path.join(args.out, target)
        if not os.path.exists(destination):
            shutil.copytree(source, destination)
    hwy = os.path.join(args.out, "hwy")
    if not os.path.exists(hwy):
        with tempfile.TemporaryDirectory() as debs:
            subprocess.run(["apt-get", "download", "libhwy-dev", "libhwy1"], cwd=debs, check=True,
                           stdout=subprocess.DEVNULL)
            for deb in sorted(os.listdir(debs)):
                subprocess.run(["dpkg", "-x", os.path.join(debs, deb), hwy], check=True)
    archive = os.path.join(args.out, "fixtures.tar.xz")
    with tarfile.open(archive, "w:xz", preset=6) as tar:
        for name in sorted(os.listdir(args.fixtures)):
            folder = os.path.join(args.fixtures, name)
            if not os.path.exists(os.path.join(folder, "fixture.json")):
                continue
            with open(os.path.join(folder, "fixture.json")) as f:
                info = json.load(f)
            keep = args.frames * frame_bytes(info)
            tar.add(os.path.join(folder, "fixture.json"), arcname=os.path.join("fixtures", name, "fixture.json"))
            for side in ("ref.yuv", "dis.yuv"):
                with open(os.path.join(folder, side), "rb") as f:
                    data = f.read(keep)
                entry = tarfile.TarInfo(os.path.join("fixtures", name, side))
                entry.size = len(data)
                tar.addfile(entry, io.BytesIO(data))
    print("%s: %.1f MB" % (archive, os.path.getsize(archive) / 1e6))


if __name__ == "__main__":
    main()
