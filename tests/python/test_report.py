"""twinvmaf-report: the page marks what the JSON says (the worst frames, the
pooled mean, every feature), overlays the runs of one reference, loads
nothing, and renders in headless Chromium without a console message."""

import json
import math
import os
import re
import shutil
import struct
import subprocess

import numpy as np
import pytest

import twinvmaf
from twinvmaf import report
from conftest import cli_geometry, fixture, run_cli

REPORT = os.environ.get("TWINVMAF_REPORT", "twinvmaf-report")
FIXTURE = "vtest_576x324_420p8"
FRAMES = 24


def quantised(frames, step):
    return [(f // step * step).astype(np.uint8) for f in frames]


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    """Four runs of one reference: the fixture's x264 encode scored by the
    CLI, and the reference quantised three ways scored from numpy frames."""
    folder, meta = fixture(FIXTURE)
    out = tmp_path_factory.mktemp("ladder")
    paths = [out / "x264_crf34.json"]
    run_cli(["-r", str(folder / "ref.yuv"), "-d", str(folder / "dis.yuv"), *cli_geometry(meta), "--feature", "psnr",
             "--frame_cnt", str(FRAMES), "--threads", "2", "--json", "--precision", "max", "-q", "-o", str(paths[0])])
    size = meta["width"] * meta["height"] * 3 // 2
    ref = list(np.fromfile(folder / "ref.yuv", np.uint8, count=FRAMES * size).reshape(FRAMES, size))
    engine = twinvmaf.Engine(backend="cpu", threads=2)
    for step in (8, 24):
        scores = engine.score(ref, quantised(ref, step), width=meta["width"], height=meta["height"],
                              pixel_format="420", features=["psnr"])
        paths.append(out / f"quantised_{step}.json")
        scores.write(paths[-1], precision="max")
    return paths


def page_of(paths, tmp_path, *args):
    html = tmp_path / "report.html"
    result = subprocess.run([REPORT, *map(str, paths), "-o", str(html), *args], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return html, html.read_text()


def sections(text):
    return re.findall(r'<section class="card"[^>]*>.*?</section>', text, re.S)


def test_worst_frames_mean_and_every_feature_as_the_json_says(ladder, tmp_path):
    output = json.loads(ladder[0].read_text())
    _, text = page_of(ladder[:1], tmp_path, "--worst", "4")
    run = sections(text)[1]
    vmaf = [(f["metrics"]["vmaf"], f["frameNum"]) for f in output["frames"]]
    worst = sorted(n for _, n in sorted(vmaf)[:4])
    assert [int(x) for x in re.findall(r'<g class="mark" data-frame="(\d+)"', run)] == worst
    # The worst frames are the bands of every feature chart, and the rows of the table.
    features = [name for name in output["frames"][0]["metrics"] if name != "vmaf"]
    guides = re.findall(r'<line class="guide" data-frame="(\d+)"', run)
    assert len(guides) == 4 * len(features) and sorted(set(int(g) for g in guides)) == worst
    for name in features:
        assert f'aria-label="{name}  (mean ' in run, name
    mean = output["pooled_metrics"]["vmaf"]["mean"]
    assert f"mean {mean:.2f}</text>" in run
    # Every frame is a point of the VMAF line (48 points: no decimation).
    path = re.search(r'<path class="series" data-label="VMAF" d="([^"]+)"', run).group(1)
    assert path.count("M") + path.count("L") == FRAMES


def test_runs_of_one_reference_are_overlaid(ladder, tmp_path):
    labels = ["crf 34", "q8", "q24"]
    _, text = page_of([f"{label}={path}" for label, path in zip(labels, ladder)], tmp_path)
    ladder_section = next(s for s in sections(text) if "Encode ladder" in s)
    overlay = re.search(r"<svg.*?</svg>", ladder_section, re.S).group(0)
    assert re.findall(r'<path class="series" data-label="([^"]+)"', overlay) == labels
    assert len(sections(text)) == 1 + 1 + len(ladder)  # runs table, ladder, one per run


def test_a_catalogue_groups_runs_by_reference(tmp_path):
    a, meta_a = fixture("noise_33x33_420p8")
    b, meta_b = fixture("noise_257x145_420p8")

    def line(folder, meta, dis, out):
        return (f'"{folder / "ref.yuv"}" "{folder / dis}" w={meta["width"]} h={meta["height"]} '
                f'p={meta["pixel_format"]} b={meta["bitdepth"]} output="{tmp_path / out}"')

    pairs = tmp_path / "pairs.txt"
    pairs.write_text("\n".join([line(a, meta_a, "dis.yuv", "a1.json"), line(a, meta_a, "ref.yuv", "a2.json"),
                                line(b, meta_b, "dis.yuv", "b1.json"), line(b, meta_b, "dis.yuv", "never.json")]))
    run_cli(["--batch", str(pairs), "--json", "-q", "--frame_cnt", "3"])
    (tmp_path / "never.json").unlink(missing_ok=True)  # a pair whose output is missing is left out
    html = tmp_path / "catalogue.html"
    result = subprocess.run([REPORT, "--catalogue", str(pairs), "-o", str(html)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "pair 4 (line 4) left out" in result.stderr
    text = html.read_text()
    ladders = [s for s in sections(text) if "Encode ladder" in s]
    assert len(ladders) == 1 and f"Encode ladder: {os.path.abspath(a / 'ref.yuv')}</h2>" in ladders[0]
    assert re.findall(r'<path class="series" data-label="([^"]+)"', ladders[0])[:2] == ["dis.yuv", "ref.yuv"]


def test_the_page_loads_nothing(ladder, tmp_path):
    _, text = page_of(ladder, tmp_path)
    assert "Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"" in text
    for forbidden in ("http:", "https:", "src=", "<link", "<script", "@import", "url(http", "href=\"//"):
        assert forbidden not in text, forbidden
    assert set(re.findall(r"url\(([^)]*)\)", text)) <= {f"#plot-area-{i}" for i in range(1, 1000)}


def test_errors_name_the_file(tmp_path):
    bad = tmp_path / "scores.xml"
    bad.write_text("<VMAF/>")
    result = subprocess.run([REPORT, str(bad), "-o", str(tmp_path / "r.html")], capture_output=True, text=True)
    assert result.returncode == 1
    assert f"twinvmaf-report: error: {bad}: not a JSON output" in result.stderr
    result = subprocess.run([REPORT, str(tmp_path / "missing.json")], capture_output=True, text=True)
    assert result.returncode == 1 and "missing.json" in result.stderr


def test_python_api_and_long_runs_keep_their_dips():
    frames = 20000
    values = [80.0 + math.sin(i / 50.0) for i in range(frames)]
    values[12345] = 20.0
    run = report.run_from_dict({"frames": [{"frameNum": i, "metrics": {"vmaf": v}} for i, v in enumerate(values)],
                                "pooled_metrics": {"vmaf": {"mean": sum(values) / frames}}}, "long")
    text = report.render_report([run], worst=1)
    assert re.findall(r'<g class="mark" data-frame="(\d+)"', text) == ["12345"]
    path = re.search(r'<path class="series" data-label="VMAF" d="([^"]+)"', text).group(1)
    points = path.count("L") + path.count("M")
    assert points < 4000  # decimated to the plot's width...
    ys = [float(p.split(",")[1]) for p in re.split("[ML]", path)[1:]]
    assert max(ys) > 200  # ...keeping the dip (the lowest point is drawn lowest, y grows downwards)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("Chromium is not installed (Debian: apt-get install chromium, or scripts/install-deps.sh "
                "--browser, which `make test` runs): the page's rendering is not checked")


def headless(browser, profile, *args):
    # A profile of its own: nothing written to $HOME, no lock shared with another Chromium.
    result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             f"--user-data-dir={profile}", "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
                             *args],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    assert not console, console  # a blocked fetch (the CSP) or a bad element would be logged here
    return result.stdout


def test_renders_in_headless_chromium(ladder, tmp_path):
    browser = chromium()
    html, text = page_of(ladder, tmp_path)
    dom = headless(browser, tmp_path / "profile", "--dump-dom", html.as_uri())
    assert dom.count('<svg class="chart"') == text.count('<svg class="chart"') > 10
    assert "<title>twinvmaf report: 3 runs</title>" in dom
    png = tmp_path / "report.png"
    headless(browser, tmp_path / "profile", f"--screenshot={png}", "--window-size=1280,1800", html.as_uri())
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1280, 1800)
    assert len(data) > 60_000  # charts and text drawn, not an empty page


@pytest.mark.parametrize("lo,hi", [(77.3, 82.5), (0.0321, 0.0458), (-0.4, 2.3), (31.5, 33.5), (5.0, 5.0), (0, 47)])
def test_axis_ticks_are_round_and_cover_the_data(lo, hi):
    from twinvmaf import _svg
    axis_lo, axis_hi, values = _svg.ticks(lo, hi, 5)
    assert axis_lo <= lo and axis_hi >= hi and values[0] == axis_lo and values[-1] == axis_hi
    step = round(values[1] - values[0], 12)
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert any(math.isclose(mantissa, m) for m in (1, 2, 2.5, 5)), step
    assert 3 <= len(values) <= 9
    texts = [_svg.tick_text(v, step) for v in values]
    assert len(set(texts)) == len(texts)  # enough decimals to tell the ticks apart
    assert all(math.isclose(float(t), v, abs_tol=step / 1000) for t, v in zip(texts, values))
