#!/usr/bin/env python3
"""Makes a large benchmark input from a small 4:2:0 fixture (8-bit, or 10/12-bit
with uint16 little-endian samples): every frame scaled to WIDTHxHEIGHT (nearest
neighbour), the clip looped to FRAMES frames. The output keeps the fixture's
bit depth and sample layout.

    tools/make_upscaled.py FIXTURE_DIR WIDTHxHEIGHT FRAMES OUT_DIR

Writes OUT_DIR/ref.yuv and OUT_DIR/dis.yuv. Needs numpy."""
import json
import os
import sys

import numpy as np


def main():
    fixture, size, frames, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    width, height = (int(v) for v in size.split("x"))
    with open(os.path.join(fixture, "fixture.json")) as f:
        info = json.load(f)
    if info["pixel_format"] != 420 or info["bitdepth"] not in (8, 10, 12):
        sys.exit("only 4:2:0 8-, 10- or 12-bit fixtures")
    dtype = np.uint8 if info["bitdepth"] == 8 else np.dtype("<u2")
    w, h = info["width"], info["height"]
    cw, ch = (w + 1) // 2, (h + 1) // 2
    frame_samples = w * h + 2 * cw * ch
    ocw, och = (width + 1) // 2, (height + 1) // 2
    os.makedirs(out, exist_ok=True)

    def scale(plane, pw, ph, ow, oh):
        rows = (np.arange(oh) * ph) // oh
        cols = (np.arange(ow) * pw) // ow
        return plane.reshape(ph, pw)[rows][:, cols]

    for side in ("ref", "dis"):
        data = np.fromfile(os.path.join(fixture, side + ".yuv"), dtype=dtype)
        source_frames = len(data) // frame_samples
        scaled = []
        for i in range(source_frames):
            frame = data[i * frame_samples:(i + 1) * frame_samples]
            y = scale(frame[:w * h], w, h, width, height)
            u = scale(frame[w * h:w * h + cw * ch], cw, ch, ocw, och)
            v = scale(frame[w * h + cw * ch:], cw, ch, ocw, och)
            scaled.append(np.concatenate([y.ravel(), u.ravel(), v.ravel()]).astype(dtype).tobytes())
        with open(os.path.join(out, side + ".yuv"), "wb") as f:
            for i in range(frames):
                f.write(scaled[i % source_frames])


if __name__ == "__main__":
    main()
