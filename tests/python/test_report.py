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
    # By default the model's inputs and the features asked for, not the model-internal scales.
    features = [name for name in output["frames"][0]["metrics"] if name != "vmaf" and not re.search(
        r"^VMAF_|integer_(aim|adm3|adm_scale\d|motion3)$", name)]
    assert features == ["psnr_y", "psnr_cb", "psnr_cr", "integer_adm2", "integer_vif_scale0", "integer_vif_scale1",
                        "integer_vif_scale2", "integer_vif_scale3", "integer_motion2"]
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
    assert re.findall(r'<path class="series" data-label="([^"]+)"', ladders[0])[:2] == [
        "noise_33x33_420p8/dis.yuv", "ref.yuv"]
    # The pair left out is on the page too, with why; two dis.yuv of two folders get distinct labels.
    left = next(s for s in sections(text) if "Pairs not in this report (1)" in s)
    assert f"<td>4</td><td class=text>{os.path.abspath(b / 'dis.yuv')}</td><td class=text>no output {tmp_path / 'never.json'}</td>" in left
    labels = re.findall(r'<td class=text><a href="#run-\d+">([^<]+)</a>', text)
    assert labels == ["noise_33x33_420p8/dis.yuv", "ref.yuv", "noise_257x145_420p8/dis.yuv"], labels
    assert "33x33 4:2:0 8-bit" in text and "257x145 4:2:0 8-bit" in text


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
    assert result.returncode == 1
    assert result.stderr == f"twinvmaf-report: error: {tmp_path / 'missing.json'}: cannot read it: No such file or directory\n"


def test_statistics_by_hand():
    values = [float(v) for v in range(1, 201)]  # 1..200
    figures = report.run_statistics(values, threshold=50.5)
    assert figures["mean"] == 100.5
    assert math.isclose(figures["std"], math.sqrt((200 ** 2 - 1) / 12))  # a uniform 1..n: (n^2 - 1) / 12
    assert figures["p50"] == 100.5 and math.isclose(figures["p5"], 1 + 0.05 * 199)  # type 7: 1 + q (n - 1)
    assert figures["low_1pct"] == 1.5  # the lowest 1 % (2 frames): 1 and 2
    assert figures["below"] == 50


def test_bd_rate_against_a_hand_computation():
    # log10(rate) = Q / 10 for the anchor (Q from 30 to 45); the test needs
    # log10(rate) = Q / 10 + 0.01 (Q - 30) (Q from 33 to 42). Both are exact
    # cubics, so the fits are exact; the shared range is 33..42 and the mean
    # difference 0.01 (37.5 - 30) = 0.075: BD-rate = 10^0.075 - 1 = +18.850 %.
    anchor = [(10 ** (q / 10), q) for q in (30, 35, 40, 45)]
    test = [(10 ** (q / 10 + 0.01 * (q - 30)), q) for q in (33, 36, 39, 42)]
    assert math.isclose(report.bd_rate(anchor, test), (10 ** 0.075 - 1) * 100, rel_tol=1e-9)
    assert math.isclose(report.bd_rate(anchor, [(r * 0.8, q) for r, q in anchor]), -20.0, rel_tol=1e-9)
    with pytest.raises(ValueError, match="a cubic fit needs 4"):
        report.bd_rate(anchor, test[:3])


def test_rate_quality_curves_stats_fixed_axis_and_chosen_features(ladder, tmp_path):
    catalogue = tmp_path / "ladders.json"
    folder, meta = fixture(FIXTURE)
    entries = []
    for i, (name, rate) in enumerate([("a", 500), ("a", 1000), ("a", 2000), ("a", 4000),
                                      ("b", 400), ("b", 800), ("b", 1600), ("b", 3200)]):
        out = tmp_path / f"{name}{rate}.json"
        data = json.loads(ladder[i % len(ladder)].read_text())
        for f in data["frames"]:
            f["metrics"]["vmaf"] = 40 + 10 * math.log2(rate / (500 if name == "a" else 400))
        data["pooled_metrics"]["vmaf"]["mean"] = 40 + 10 * math.log2(rate / (500 if name == "a" else 400))
        out.write_text(json.dumps(data))
        entries.append({"reference": str(folder / "ref.yuv"), "distorted": str(tmp_path / f"{name}{rate}.yuv"),
                        "w": 576, "h": 324, "p": 420, "b": 8, "output": str(out), "bitrate": rate, "ladder": name})
    catalogue.write_text(json.dumps(entries))
    html = tmp_path / "rq.html"
    result = subprocess.run([REPORT, "--catalogue", str(catalogue), "-o", str(html), "--vmaf-axis", "fixed",
                             "--features", "psnr_y", "--model", "vmaf_v0.6.1", "--threshold", "45"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    text = html.read_text()
    rq = next(s for s in sections(text) if "Rate and quality" in s)
    assert rq.count('<circle class="dot"') == 8
    # b reaches each quality at 0.8 of a's rate: -20 %.
    assert re.search(r'<td class="bd-rate">([^<]+)</td>', rq).group(1) == "-20.00 %"
    assert "model vmaf_v0.6.1" in text and "576x324 4:2:0 8-bit" in text
    run = next(s for s in sections(text) if 'id="run-1"' in s)
    assert 'aria-label="psnr_y  (mean ' in run and 'aria-label="integer_adm2' not in run
    assert 'data-stat="frames below 45.00"><div class="value">24 of 24</div>' in run  # VMAF 40 everywhere
    assert 'data-stat="std deviation"><div class="value">0</div>' in run
    assert "share of frames at or below" in run
    # Fixed axis: the VMAF chart's ticks run from 0 to 100.
    vmaf_chart = re.search(r'<svg class="chart"[^>]*aria-label="VMAF per frame".*?</svg>', run, re.S).group(0)
    ticks = re.findall(r'text-anchor="end" fill="#4a5568">([^<]+)</text>', vmaf_chart)
    assert ticks[0] == "0" and ticks[-1] == "100", ticks


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
