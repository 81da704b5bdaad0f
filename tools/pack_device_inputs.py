#!/usr/bin/env python3
"""Packs what a run on the GPU machine needs and does not have into .device/
(ignored by git, carried to the machine by name):

  .device/googletest/         GoogleTest's sources (Debian's /usr/src/googletest)
  .device/include/nlohmann/   nlohmann-json's headers
  .device/hwy/                Debian's libhwy-dev and libhwy1, unpacked
                              (apt-get download, dpkg -x)
  .device/fixtures.tar.xz     the public fixtures, cut to their first frames
                              (fixture.json, ref.yuv, dis.yuv; no goldens)

With --ffmpeg, also what tools/build_ffmpeg.sh takes on the GPU machine:
Debian's source tarballs (trixie's orig tarballs, fetched from
deb.debian.org by hand: this tool needs no network), copied as they are
after their sha256 is checked:

  .device/ffmpeg_7.1.5.orig.tar.xz                (--ffmpeg-tarball)
  .device/nv-codec-headers_12.1.14.0.orig.tar.xz  (--nv-codec-headers-tarball)

Each is written only when missing (delete one to remake it), about 13 MB in
all. --keep-fixtures keeps an existing fixtures.tar.xz instead of packing it
again (it takes a while).

On the GPU machine, tools/gpu_check.sh unpacks the fixtures (with Python's
tarfile: the machine may have no xz) and builds against the rest.

    tools/pack_device_inputs.py [--fixtures DIR] [--frames N] [--out .device]
                                [--keep-fixtures] [--ffmpeg [--ffmpeg-tarball FILE]
                                [--nv-codec-headers-tarball FILE]]

Frames: at most N per fixture (default 6), and the 1080p fixture's 3."""
import argparse
import hashlib
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


# Debian trixie's orig tarballs (Sources: ffmpeg 7:7.1.5-0+deb13u1,
# nv-codec-headers 12.1.14.0-1).
DEBIAN_TARBALLS = {
    "ffmpeg_7.1.5.orig.tar.xz": "de668509caf9e35e3cd162473441fdb29538c6d96ed080292b3cf9e6fc5d558f",
    "nv-codec-headers_12.1.14.0.orig.tar.xz": "0ca1a0c85b149646fa6ce4d600584507fdccf5a23d58e668d8701e89cee0c3fb",
}


def pack_ffmpeg_inputs(args):
    for source in (args.ffmpeg_tarball, args.nv_codec_headers_tarball):
        target = os.path.join(args.out, os.path.basename(source))
        kept = os.path.exists(target)
        if not kept:
            with open(source, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            expected = DEBIAN_TARBALLS.get(os.path.basename(source))
            if expected and digest != expected:
                raise SystemExit("%s: sha256 %s, Debian's is %s" % (source, digest, expected))
            shutil.copyfile(source, target + ".partial")
            os.replace(target + ".partial", target)
        print("%s: %.1f MB%s" % (target, os.path.getsize(target) / 1e6, " (kept)" if kept else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES",
                                                             os.path.join(ROOT, "..", "shared", "fixtures")))
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--out", default=os.path.join(ROOT, ".device"))
    parser.add_argument("--keep-fixtures", action="store_true",
                        help="keep an existing fixtures.tar.xz instead of packing it again")
    parser.add_argument("--ffmpeg", action="store_true", help="also the sources of tools/build_ffmpeg.sh")
    parser.add_argument("--ffmpeg-tarball", default="/work/dl/ffmpeg_7.1.5.orig.tar.xz")
    parser.add_argument("--nv-codec-headers-tarball", default="/work/dl/nv-codec-headers_12.1.14.0.orig.tar.xz")
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
    if args.ffmpeg:
        pack_ffmpeg_inputs(args)
    archive = os.path.join(args.out, "fixtures.tar.xz")
    if args.keep_fixtures and os.path.exists(archive):
        print("%s: %.1f MB (kept)" % (archive, os.path.getsize(archive) / 1e6))
        return
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
