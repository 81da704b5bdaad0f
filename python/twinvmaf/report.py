"""twinvmaf-report: one self-contained HTML page of per-frame plots from
twinvmaf's JSON outputs (`twinvmaf --json`, `--batch --json`, or Netflix's
`vmaf --json`: the same layout).

    twinvmaf-report run.json -o report.html
    twinvmaf-report crf24.json crf30.json crf36.json -o ladder.html   # one reference, overlaid
    twinvmaf-report --catalogue pairs.txt -o catalogue.html          # grouped by reference

For every run: VMAF per frame with the pooled mean and the worst frames
marked, the worst frames' values, and each feature per frame (the worst
VMAF frames shown on each). Two or more runs of one reference (an encode
ladder) also get their curves overlaid. The runs named on the command line
are taken as runs of one reference; with --catalogue (a --batch list, .csv
or .json) each pair's output is read and the runs are grouped by reference.

The page is static: inline SVG drawn here, inline CSS, no script, and a
Content-Security-Policy that forbids every fetch. In Python:
twinvmaf.report.write_report([scores, "run.json", ...], "out.html").
"""

import argparse
import datetime
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field
from html import escape

from . import _svg

PALETTE = ["#2563eb", "#e8590c", "#2f9e44", "#c2255c", "#7048e8", "#0c8599", "#a07a00", "#495057", "#d6336c",
           "#5c940d"]
MAIN_COLOR = PALETTE[0]
MEAN_COLOR = "#1f2937"
WORST_COLOR = "#d62728"


@dataclass
class Run:
    """One output: its frames' metrics and pooled metrics."""
    label: str
    frame_numbers: list
    metrics: dict                       # name -> [value per frame], output order; NaN where missing
    pooled: dict = field(default_factory=dict)
    aggregates: dict = field(default_factory=dict)
    reference: str = ""                 # what it was scored against, when known
    source: str = ""                    # the file it was read from
    version: str = ""
    bitrate: float = None               # kbit/s, when a catalogue gives it
    ladder: str = ""                    # which ladder of its reference (a catalogue's "ladder")
    distorted: str = ""                 # the distorted input, when known
    model: str = ""                     # the model(s), when known (a Scores, or --model)
    geometry: str = ""                  # "576x324 4:2:0 8-bit", when known (a Scores, a raw pair, a .y4m)

    def mean(self, metric):
        """The pooled mean the engine wrote, else the mean of the finite values."""
        pooled = self.pooled.get(metric, {}).get("mean")
        if pooled is not None:
            return float(pooled)
        values = [v for v in self.metrics.get(metric, []) if math.isfinite(v)]
        return sum(values) / len(values) if values else math.nan

    def pooled_value(self, metric, method):
        value = self.pooled.get(metric, {}).get(method)
        return math.nan if value is None else float(value)


def _number(value):
    return math.nan if value is None else float(value)


def run_from_dict(output, label, reference="", source=""):
    """A Run from an output JSON's objects (frames, pooled_metrics, aggregate_metrics)."""
    frames = output.get("frames") or []
    names = []
    for frame in frames:
        for name in frame.get("metrics", {}):
            if name not in names:
                names.append(name)
    metrics = {name: [_number(f.get("metrics", {}).get(name)) for f in frames] for name in names}
    return Run(label=label, frame_numbers=[int(f.get("frameNum", i)) for i, f in enumerate(frames)], metrics=metrics,
               pooled=output.get("pooled_metrics") or {}, aggregates=output.get("aggregate_metrics") or {},
               reference=reference, source=source, version=str(output.get("version", "")))


def load_run(source, label=None, reference=""):
    """A Run from a JSON output's path, its parsed objects, a twinvmaf.Scores or a Run."""
    if isinstance(source, Run):
        return source
    if hasattr(source, "to_dict") and hasattr(source, "pooled"):  # twinvmaf.Scores
        run = run_from_dict(source.to_dict(), label or "scores", reference)
        run.geometry = _geometry_text(source.width, source.height, source.pixel_format, source.bitdepth)
        return run
    if isinstance(source, dict):
        return run_from_dict(source, label or "run", reference)
    path = os.fspath(source)
    try:
        with open(path, encoding="utf-8") as f:
            output = json.load(f)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not a JSON output ({e}); write runs with --json") from e
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not a JSON output (not UTF-8 text); write runs with --json") from e
    except OSError as e:
        raise ValueError(f"{path}: cannot read it: {e.strerror or e}") from e
    if not isinstance(output, dict) or "frames" not in output:
        raise ValueError(f"{path}: no \"frames\" in it: not a twinvmaf/vmaf JSON output")
    return run_from_dict(output, label or os.path.splitext(os.path.basename(path))[0], reference, path)


def _geometry_text(width, height, pixel_format, bitdepth):
    chroma = {"420": "4:2:0", "422": "4:2:2", "444": "4:4:4"}.get(str(pixel_format), str(pixel_format))
    return f"{width}x{height} {chroma} {bitdepth}-bit"


def y4m_geometry(path):
    """The geometry a .y4m file's header states, or "" (not a .y4m, unreadable)."""
    try:
        with open(path, "rb") as f:
            header = f.readline(256).decode("ascii", "replace").split()
    except OSError:
        return ""
    if not header or header[0] != "YUV4MPEG2":
        return ""
    fields = {word[0]: word[1:] for word in header[1:] if word}
    colour = fields.get("C", "420")
    match = re.match(r"(\d{3})(?:p(\d+))?", colour)
    chroma, depth = (match.group(1), int(match.group(2) or 8)) if match else ("420", 8)
    return _geometry_text(fields.get("W", "?"), fields.get("H", "?"), chroma, depth)


def primary_metric(runs, requested=None):
    """The metric plotted first: `requested`, else "vmaf", else the first
    model-like name (containing "vmaf", not a VMAF_feature_* name), else the
    first metric."""
    names = [n for r in runs for n in r.metrics]
    if requested:
        if requested not in names:
            raise ValueError(f"--metric {requested}: no run has it (metrics: {', '.join(dict.fromkeys(names))})")
        return requested
    if "vmaf" in names:
        return "vmaf"
    for name in names:
        if "vmaf" in name.lower() and not name.startswith("VMAF_"):
            return name
    return names[0] if names else None


def worst_frames(run, metric, count):
    """The `count` frames of lowest `metric` (earliest first among equals), as indices into the run's frames."""
    values = run.metrics.get(metric, [])
    finite = [(v, i) for i, v in enumerate(values) if math.isfinite(v)]
    return [i for _, i in sorted(finite)[:count]]


def percentile(values, share):
    """The `share` (0..1) quantile with linear interpolation between the
    sorted values (numpy's default, Hyndman & Fan type 7)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    place = share * (len(ordered) - 1)
    low = math.floor(place)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (place - low)


def run_statistics(values, threshold):
    """What users ask of a run's per-frame scores: the mean, the population
    standard deviation, percentiles, the 1 %-low (the mean of the lowest 1 %
    of frames, at least one frame) and how many frames are below `threshold`."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return {}
    mean = sum(finite) / len(finite)
    lowest = sorted(finite)[:max(1, len(finite) // 100)]
    return {"mean": mean, "std": math.sqrt(sum((v - mean) ** 2 for v in finite) / len(finite)),
            "p1": percentile(finite, 0.01), "p5": percentile(finite, 0.05), "p50": percentile(finite, 0.5),
            "p95": percentile(finite, 0.95), "low_1pct": sum(lowest) / len(lowest),
            "below": sum(v < threshold for v in finite), "frames": len(finite)}


def bd_rate(anchor, test):
    """Bjontegaard delta rate (VCEG-M33): the average bitrate difference, in
    per cent, of `test` against `anchor` at equal quality. Each is a list of
    (bitrate, quality) points (4 or more); log10(bitrate) is fitted as a
    cubic polynomial of quality (least squares, as VCEG-M33's polyfit; not
    the piecewise-cubic variant), both fits are integrated over the quality
    range the curves share, and 10^(mean difference) - 1 is the answer.
    Negative: the test needs less rate for the same quality."""
    import numpy as np
    curves = []
    for name, points in (("anchor", anchor), ("test", test)):
        points = [(float(r), float(q)) for r, q in points if r and r > 0 and math.isfinite(q)]
        if len(points) < 4:
            raise ValueError(f"BD-rate: the {name} ladder has {len(points)} points with a rate; a cubic fit needs 4")
        rates, qualities = np.log10([r for r, _ in points]), np.array([q for _, q in points])
        curves.append((np.polyint(np.polyfit(qualities, rates, 3)), qualities.min(), qualities.max()))
    low, high = max(curves[0][1], curves[1][1]), min(curves[0][2], curves[1][2])
    if high <= low:
        raise ValueError("BD-rate: the ladders share no quality range")
    areas = [np.polyval(integral, high) - np.polyval(integral, low) for integral, _, _ in curves]
    return (10 ** ((areas[1] - areas[0]) / (high - low)) - 1) * 100


def _fmt(value, digits=4):
    if value is None or not math.isfinite(value):
        return "–"
    if abs(value) >= 10 ** digits:
        return f"{value:.0f}"
    return f"{value:.{digits}g}" if abs(value) < 1 else f"{value:.{max(0, digits - 1 - int(math.log10(abs(value))))}f}"


# What a model's extractors write besides the model's inputs (scales, AIM,
# ADM3/motion3 of VMAF 0.6.1, raw VMAF_* names) and a bootstrap model's
# per-model outputs: not plotted by default (features="model").
_INTERNAL = re.compile(r"^(integer_)?(aim|adm3|adm_scale\d|motion|motion3)$|^VMAF_.*_score$"
                       r"|_\d{4}$|_(bagging|stddev|ci_p95_lo|ci_p95_hi)$")
# VMAF 1.0.16's inputs are CAMBI, chroma speed, ADM3 and motion3.
_V1016_INPUTS = ("integer_adm3", "integer_motion3")


def chosen_features(names, metric, features="model"):
    """The metrics plotted under "Each feature": "model" (the default) every
    metric except `metric` and the model-internal ones, "all" every one, or
    a list of names (those present, in that order)."""
    if features == "all":
        return [n for n in names if n != metric]
    if features not in (None, "model"):
        return [n for n in features if n in names and n != metric]
    v1016 = "cambi" in names
    return [n for n in names if n != metric and (not _INTERNAL.search(n) or (v1016 and n in _V1016_INPUTS))]


def _display(metric):
    return "VMAF" if metric == "vmaf" else metric


def _is_vmaf(metric):
    return "vmaf" in metric.lower() and not metric.startswith("VMAF_")


def _limits(metric):
    return (0.0, 100.0) if _is_vmaf(metric) else None


def _fixed(metric, vmaf_axis):
    """vmaf_axis="fixed": VMAF charts span 0 to 100 exactly, comparable across pages."""
    return (0.0, 100.0) if vmaf_axis == "fixed" and _is_vmaf(metric) else None


class _Page:
    """Accumulates the page's sections; numbers each chart."""

    def __init__(self):
        self.parts = []
        self.charts = 0

    def chart(self, chart):
        self.charts += 1
        return _svg.render(chart, self.charts)

    def add(self, text):
        self.parts.append(text)


def _legend(items):
    """items: (kind, color, text), kind line|dashed|mark|band."""
    out = ['<div class="legend">']
    for kind, color, text in items:
        out.append(f'<span class="key"><span class="swatch {kind}" style="--c:{color}"></span>{escape(text)}</span>')
    out.append('</div>')
    return "".join(out)


def _run_id(index):
    return f"run-{index + 1}"


def _summary_table(runs, metric):
    extra = [m for m in ("psnr_y", "float_ssim", "float_ms_ssim") if any(m in r.metrics for r in runs) and m != metric]
    head = ["Run", "Reference", "Frames", f"{_display(metric)} mean", "harmonic mean", "min", "worst frame"]
    head += [f"{m} mean" for m in extra]
    out = ['<div class="scroll"><table class="data"><thead><tr>',
           *[f'<th{" class=text" if i < 2 else ""}>{escape(h)}</th>' for i, h in enumerate(head)],
           "</tr></thead><tbody>"]
    for i, run in enumerate(runs):
        worst = worst_frames(run, metric, 1)
        cells = [f'<a href="#{_run_id(i)}">{escape(run.label)}</a>', escape(run.reference or "–"),
                 str(len(run.frame_numbers)), _fmt(run.mean(metric)), _fmt(run.pooled_value(metric, "harmonic_mean")),
                 _fmt(run.pooled_value(metric, "min")),
                 str(run.frame_numbers[worst[0]]) if worst else "–"]
        cells += [_fmt(run.mean(m)) for m in extra]
        out.append("<tr>" + "".join(f'<td{" class=text" if j < 2 else ""}>{c}</td>' for j, c in enumerate(cells))
                   + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _ladder_section(page, reference, runs, metric, options):
    colors = [PALETTE[i % len(PALETTE)] for i in range(len(runs))]
    series = [_svg.Series(f"{r.label}", c, r.frame_numbers, r.metrics.get(metric, [])) for r, c in zip(runs, colors)]
    name = reference or "the runs given"
    out = [f'<section class="card"><h2>Encode ladder: {escape(name)}</h2>',
           f'<p class="note">{len(runs)} runs of one reference, {escape(_display(metric))} per frame overlaid.</p>']
    out.append(_legend([("line", c, f"{r.label}  (mean {_fmt(r.mean(metric))})") for r, c in zip(runs, colors)]))
    out.append(page.chart(_svg.Chart(f"{_display(metric)} per frame, every run", _display(metric), series,
                                     y_limits=_limits(metric), y_fixed=_fixed(metric, options["vmaf_axis"]),
                                     height=340)))
    cdf = [_svg.Series(r.label, c, *_cdf(r.metrics.get(metric, []))) for r, c in zip(runs, colors)]
    out.append(page.chart(_svg.Chart(f"{_display(metric)}: share of frames at or below each value, every run",
                                     "% of frames", cdf, x_label=_display(metric), y_fixed=(0.0, 100.0),
                                     height=260)))
    features = chosen_features(list(dict.fromkeys(n for r in runs for n in r.metrics)), metric, options["features"])
    if features:
        out.append(f'<details><summary>Each feature per frame, every run ({len(features)}; colours as above)'
                   '</summary><div class="grid">')
        for feature in features:
            fs = [_svg.Series(r.label, c, r.frame_numbers, r.metrics[feature])
                  for r, c in zip(runs, colors) if feature in r.metrics]
            out.append(page.chart(_svg.Chart(feature, "", fs, width=520, height=230)))
        out.append("</div></details>")
    out.append("</section>")
    return "".join(out)


def _cdf(values):
    """(values sorted, % of frames at or below each): the empirical CDF."""
    finite = sorted(v for v in values if math.isfinite(v))
    return finite, [100.0 * (i + 1) / len(finite) for i in range(len(finite))]


def _facts(run):
    """What is known of how the run was made (the JSON output records none of it)."""
    facts = []
    if run.model:
        facts.append(f"model {run.model}")
    if run.geometry:
        facts.append(run.geometry)
    return facts


def _run_section(page, index, run, metric, worst_count, options):
    out = [f'<section class="card" id="{_run_id(index)}"><h2>{escape(run.label)}</h2>']
    facts = [f"{len(run.frame_numbers)} frames"]
    if run.reference:
        facts.append(f"reference {escape(run.reference)}")
    if run.source:
        facts.append(f"from {escape(run.source)}")
    facts += [escape(f) for f in _facts(run)] or ["model, size and format not recorded in the JSON output"]
    if run.bitrate:
        facts.append(f"{_fmt(run.bitrate)} kbit/s")
    out.append(f'<p class="note">{" · ".join(facts)}</p>')
    if not run.frame_numbers or metric not in run.metrics:
        out.append('<p class="note">No frames with this metric.</p></section>')
        return "".join(out)

    values = run.metrics[metric]
    worst = worst_frames(run, metric, worst_count)
    mean = run.mean(metric)
    threshold = options["threshold"]
    figures = run_statistics(values, threshold)
    stats = [("mean", _fmt(run.mean(metric))), ("harmonic mean", _fmt(run.pooled_value(metric, "harmonic_mean"))),
             ("min", _fmt(run.pooled_value(metric, "min"))), ("max", _fmt(run.pooled_value(metric, "max"))),
             ("std deviation", _fmt(figures["std"])), ("1 % low", _fmt(figures["low_1pct"])),
             ("5th percentile", _fmt(figures["p5"])), ("median", _fmt(figures["p50"])),
             ("95th percentile", _fmt(figures["p95"])),
             (f"frames below {_fmt(threshold)}", f'{figures["below"]} of {figures["frames"]}')]
    out.append('<div class="stats">' + "".join(
        f'<div class="stat" data-stat="{escape(k)}"><div class="value">{v}</div><div class="label">'
        f'{escape(_display(metric))} {escape(k)}</div></div>' for k, v in stats) + "</div>")
    marks = [(run.frame_numbers[i], values[i], f"{run.frame_numbers[i]}",
              f"frame {run.frame_numbers[i]}: {_display(metric)} {_fmt(values[i])}") for i in worst]
    out.append(_legend([("line", MAIN_COLOR, f"{_display(metric)} per frame"),
                        ("dashed", MEAN_COLOR, f"pooled mean {_fmt(mean)}"),
                        ("mark", WORST_COLOR, f"the {len(worst)} worst frames")]))
    out.append(page.chart(_svg.Chart(f"{_display(metric)} per frame", _display(metric),
                                     [_svg.Series(_display(metric), MAIN_COLOR, run.frame_numbers, values)],
                                     hlines=[(mean, f"mean {_fmt(mean)}", MEAN_COLOR)] if math.isfinite(mean) else [],
                                     marks=marks, y_limits=_limits(metric),
                                     y_fixed=_fixed(metric, options["vmaf_axis"]))))
    out.append(page.chart(_svg.Chart(f"{_display(metric)}: share of frames at or below each value", "% of frames",
                                     [_svg.Series("CDF", MAIN_COLOR, *_cdf(values))], x_label=_display(metric), y_fixed=(0.0, 100.0),
                                     hlines=[], width=1040, height=240)))

    features = chosen_features(list(run.metrics), metric, options["features"])
    out.append(f'<h3>The {len(worst)} worst frames</h3><div class="scroll"><table class="data worst"><thead><tr>'
               '<th>frame</th>' + "".join(f"<th>{escape(n)}</th>" for n in [metric, *features])
               + "</tr></thead><tbody>")
    for i in worst:
        cells = [str(run.frame_numbers[i])] + [_fmt(run.metrics[n][i], 6) for n in [metric, *features]]
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table></div>")

    if features:
        out.append('<h3>Each feature per frame</h3>')
        out.append(_legend([("line", MAIN_COLOR, "per frame"), ("dashed", MEAN_COLOR, "pooled mean"),
                            ("band", WORST_COLOR, f"the worst {_display(metric)} frames")]))
        out.append('<div class="grid">')
        guides = [run.frame_numbers[i] for i in worst]
        for feature in features:
            fmean = run.mean(feature)
            out.append(page.chart(_svg.Chart(
                f"{feature}  (mean {_fmt(fmean)})", "",
                [_svg.Series(feature, MAIN_COLOR, run.frame_numbers, run.metrics[feature], width=1.3)],
                hlines=[(fmean, "", MEAN_COLOR)] if math.isfinite(fmean) else [], guides=guides,
                width=520, height=230)))
        out.append("</div>")
    if run.aggregates:
        out.append('<h3>Whole-run metrics</h3><table class="data"><tbody>' + "".join(
            f"<tr><th>{escape(k)}</th><td>{_fmt(_number(v), 6)}</td></tr>" for k, v in run.aggregates.items())
            + "</tbody></table>")
    out.append("</section>")
    return "".join(out)


CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f3f5f9; color: #1b2330;
       font: 14px/1.45 system-ui, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; }
header { background: #14213d; color: #fff; padding: 22px 0 18px; }
header h1 { margin: 0; font-size: 22px; font-weight: 650; letter-spacing: .2px; }
header p { margin: 4px 0 0; color: #c9d3e6; }
.wrap { max-width: 1120px; margin: 0 auto; padding: 0 20px; }
main { padding: 18px 0 40px; }
.card { background: #fff; border: 1px solid #dde2ea; border-radius: 8px; padding: 16px 20px 18px; margin: 0 0 18px;
        box-shadow: 0 1px 2px rgba(20, 33, 61, .05); }
h2 { margin: 0 0 2px; font-size: 18px; }
h3 { margin: 18px 0 6px; font-size: 15px; }
.note { margin: 0 0 10px; color: #5b6678; overflow-wrap: anywhere; }
.stats { display: flex; gap: 12px; margin: 10px 0 6px; flex-wrap: wrap; }
.stat { background: #f6f8fb; border: 1px solid #e3e7ee; border-radius: 6px; padding: 8px 14px; min-width: 130px; }
.stat .value { font-size: 22px; font-weight: 650; font-variant-numeric: tabular-nums; }
.stat .label { color: #5b6678; font-size: 12px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 8px 0 2px; color: #303a4b; font-size: 13px; }
.key { display: inline-flex; align-items: center; gap: 6px; }
.swatch { display: inline-block; width: 22px; height: 0; border-top: 2.5px solid var(--c); }
.swatch.dashed { border-top-style: dashed; }
.swatch.mark { width: 11px; height: 11px; border: 2px solid var(--c); border-radius: 50%; background: #fff; }
.swatch.band { width: 6px; height: 14px; border: 0; background: var(--c); opacity: .35; }
svg.chart { display: block; width: 100%; height: auto; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 8px 18px; }
table.data { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 13px; }
table.data th, table.data td { padding: 5px 10px; border-bottom: 1px solid #e3e7ee; text-align: right;
                               white-space: nowrap; }
table.data th { background: #f6f8fb; font-weight: 600; }
table.data th:first-child, table.data td:first-child, table.data .text { text-align: left; }
table.data tbody tr:nth-child(even) { background: #fafbfd; }
.scroll { overflow-x: auto; }
details { margin-top: 10px; }
summary { cursor: pointer; font-weight: 600; }
a { color: #1d4ed8; text-decoration: none; }
footer { color: #6b7586; font-size: 12px; padding: 0 0 30px; }
"""


def _distinct_labels(runs):
    """Runs labelled alike (dis.yuv of many folders) get their folder, then a number."""
    def clashes():
        seen = {}
        for run in runs:
            seen.setdefault(run.label, []).append(run)
        return [group for group in seen.values() if len(group) > 1]
    for group in clashes():
        for run in group:
            where = os.path.basename(os.path.dirname(run.distorted or run.source))
            if where:
                run.label = f"{where}/{run.label}"
    for group in clashes():
        for n, run in enumerate(group, 1):
            run.label = f"{run.label} ({n})"
    return runs


def _rate_quality_section(page, reference, runs, metric):
    """A ladder's rate-quality curve (mean per run against its bitrate) per
    ladder of one reference, with BD-rate of each ladder against the first."""
    ladders = {}  # in the order the ladders first appear: the first is the BD-rate anchor
    for run in runs:
        if run.bitrate:
            ladders.setdefault(run.ladder or "ladder", []).append(run)
    for members in ladders.values():
        members.sort(key=lambda r: r.bitrate)
    colors = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(ladders)}
    series = [_svg.Series(name, colors[name], [r.bitrate for r in members], [r.mean(metric) for r in members],
                          dots=True) for name, members in ladders.items()]
    out = [f'<section class="card" data-kind="rate-quality"><h2>Rate and quality: {escape(reference or "the runs given")}</h2>',
           _legend([("line", colors[n], n) for n in ladders]),
           page.chart(_svg.Chart(f"{_display(metric)} mean against bitrate", _display(metric), series,
                                 x_label="kbit/s", height=320))]
    names = list(ladders)
    if len(names) > 1:
        out.append(f'<h3>BD-rate against {escape(names[0])}</h3><p class="note">Bjontegaard (VCEG-M33): '
                   f'log-rate fitted as a cubic of {escape(_display(metric))} mean, integrated over the range the '
                   'ladders share; negative: less rate for the same quality.</p><table class="data"><tbody>')
        anchor = [(r.bitrate, r.mean(metric)) for r in ladders[names[0]]]
        for name in names[1:]:
            try:
                value = f"{bd_rate(anchor, [(r.bitrate, r.mean(metric)) for r in ladders[name]]):+.2f} %"
            except ValueError as e:
                value = escape(str(e))
            out.append(f'<tr><th>{escape(name)}</th><td class="bd-rate">{value}</td></tr>')
        out.append("</tbody></table>")
    out.append("</section>")
    return "".join(out)


def _left_out_section(left_out):
    rows = "".join(f"<tr><td>{pair.line}</td><td class=text>{escape(pair.distorted or '–')}</td>"
                   f"<td class=text>{escape(why)}</td></tr>" for pair, why in left_out)
    return (f'<section class="card" data-kind="left-out"><h2>Pairs not in this report ({len(left_out)})</h2>'
            '<div class="scroll"><table class="data"><thead><tr><th>line</th><th class=text>distorted</th>'
            f'<th class=text>why</th></tr></thead><tbody>{rows}</tbody></table></div></section>')


def render_report(runs, *, title=None, metric=None, worst=5, generated=None, threshold=60.0, vmaf_axis="auto",
                  features="model", left_out=()):
    """The page's HTML text. runs: Runs, JSON paths, output dicts or
    twinvmaf.Scores (see load_run); metric: the one plotted first (default:
    vmaf); worst: how many worst frames to mark; threshold: frames below it
    are counted; vmaf_axis: "auto" or "fixed" (0 to 100); features: "model"
    (the default: not the model-internal scales), "all" or a list of names;
    left_out: (pair, why) of catalogue pairs that have no run here."""
    runs = _distinct_labels([load_run(r) for r in runs])
    options = {"threshold": threshold, "vmaf_axis": vmaf_axis, "features": features}
    if not runs:
        raise ValueError("no runs to report")
    metric = primary_metric(runs, metric)
    if metric is None:
        raise ValueError("the runs have no per-frame metrics")
    title = title or ("twinvmaf report: " + (runs[0].label if len(runs) == 1 else f"{len(runs)} runs"))
    generated = generated or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    from . import __version__

    page = _Page()
    page.add(f'<section class="card"><h2>Runs</h2>{_summary_table(runs, metric)}</section>')
    if left_out:
        page.add(_left_out_section(left_out))
    groups = {}
    for run in runs:
        groups.setdefault(run.reference, []).append(run)
    for reference, members in groups.items():
        if any(r.bitrate for r in members):
            page.add(_rate_quality_section(page, reference, members, metric))
        if len(members) >= 2:
            page.add(_ladder_section(page, reference, members, metric, options))
    for i, run in enumerate(runs):
        page.add(_run_section(page, i, run, metric, worst, options))

    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        # Self-contained by construction: the page may load nothing at all.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        f"<meta name=\"generator\" content=\"twinvmaf-report {escape(__version__)}\">",
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f'<header><div class="wrap"><h1>{escape(title)}</h1>'
        f'<p>{len(runs)} run{"s" if len(runs) != 1 else ""} · metric {escape(_display(metric))} · '
        f'generated {escape(generated)} by twinvmaf-report {escape(__version__)}</p></div></header>',
        '<main class="wrap">', *page.parts, "</main>",
        '<footer class="wrap">Values as the JSON outputs hold them; pooled values are the engine\'s. '
        'A static page: inline SVG and CSS, no script, nothing fetched.</footer>',
        "</body></html>\n"])


def write_report(runs, path, **options):
    """Writes render_report(runs, **options) to `path` (atomically)."""
    text = render_report(runs, **options)
    path = os.fspath(path)
    temporary = f"{path}.tmp{os.getpid()}"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(temporary, path)
    return path


def runs_from_catalogue(catalogue, output_dir="", format="json"):
    """(runs, left_out): the runs of a catalogue's pairs (their outputs where
    --batch wrote them), each with its reference, bitrate and ladder; and
    (pair, why) for each pair without a readable output (a warning on
    stderr, and a table on the page)."""
    from . import catalogue as _catalogue
    runs, left_out = [], []
    for pair in _catalogue.read_catalogue(catalogue, _catalogue.ScoreOptions(format=format, output_dir=output_dir)):
        why = pair.error or ("" if pair.output != "-" and os.path.exists(pair.output) else f"no output {pair.output}")
        if not why:
            try:
                run = load_run(pair.output, label=os.path.basename(pair.distorted), reference=pair.reference)
            except ValueError as e:
                why = str(e)
        if why:
            print(f"twinvmaf-report: warning: pair {pair.index + 1} (line {pair.line}) left out: {why}",
                  file=sys.stderr)
            left_out.append((pair, why))
            continue
        run.bitrate, run.ladder, run.distorted = pair.bitrate, pair.ladder, pair.distorted
        run.geometry = (_geometry_text(**pair.raw_format) if pair.raw_format else
                        y4m_geometry(pair.reference) or y4m_geometry(pair.distorted))
        runs.append(run)
    return runs, left_out


def _labelled(argument):
    """[LABEL=]PATH: a label given before an '=' that is not part of an existing path."""
    if "=" in argument and not os.path.exists(argument):
        label, path = argument.split("=", 1)
        return label, path
    return None, argument


def main(argv=None):
    parser = argparse.ArgumentParser(prog="twinvmaf-report", description=__doc__.split("\n\n")[0],
                                     epilog="Runs named here are taken as runs of one reference (their curves "
                                            "are overlaid); --catalogue groups its pairs by reference.")
    parser.add_argument("runs", nargs="*", metavar="[LABEL=]RUN.json", help="JSON outputs (twinvmaf or vmaf --json)")
    parser.add_argument("-o", "--output", default="report.html", help="the HTML page to write (default report.html)")
    parser.add_argument("--catalogue", help="a --batch list, .csv or .json: report each pair's JSON output")
    parser.add_argument("--output-dir", default="", help="with --catalogue: the -o folder --batch wrote to")
    parser.add_argument("--reference", default="", help="the reference the runs named here were scored against")
    parser.add_argument("--metric", help="the metric plotted first (default: vmaf)")
    parser.add_argument("--worst", type=int, default=5, help="how many worst frames to mark (default 5)")
    parser.add_argument("--title", help="the page's title")
    parser.add_argument("--model", default="", help="the model the runs were scored with, shown on the page "
                                                    "(a JSON output does not record it)")
    parser.add_argument("--threshold", type=float, default=60.0,
                        help="count the frames below this value of the metric (default 60)")
    parser.add_argument("--vmaf-axis", choices=("auto", "fixed"), default="auto",
                        help="auto: VMAF axes fit the data; fixed: 0 to 100, comparable across pages")
    parser.add_argument("--features", default="model",
                        help="the features plotted: model (default: all but the model-internal scales), all, "
                             "or names separated by commas")
    args = parser.parse_args(argv)
    from . import Error
    try:
        runs, left_out = [], []
        for argument in args.runs:
            label, path = _labelled(argument)
            runs.append(load_run(path, label=label, reference=args.reference))
            runs[-1].geometry = y4m_geometry(args.reference) if args.reference else ""
        if args.catalogue:
            more, left_out = runs_from_catalogue(args.catalogue, args.output_dir)
            runs += more
        for run in runs:
            run.model = run.model or args.model
        if not runs:
            if left_out:
                raise ValueError(f"{args.catalogue}: no pair has a readable output")
            parser.error("give JSON outputs or --catalogue")
        features = args.features if args.features in ("model", "all") else \
            [f.strip() for f in args.features.split(",") if f.strip()]
        write_report(runs, args.output, title=args.title, metric=args.metric, worst=max(0, args.worst),
                     threshold=args.threshold, vmaf_axis=args.vmaf_axis, features=features, left_out=left_out)
    except (OSError, ValueError, Error) as e:
        print(f"twinvmaf-report: error: {e}", file=sys.stderr)
        return 1
    print(f"twinvmaf-report: {len(runs)} run{'s' if len(runs) != 1 else ''} -> {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
