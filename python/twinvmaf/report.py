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
        return run_from_dict(source.to_dict(), label or "scores", reference)
    if isinstance(source, dict):
        return run_from_dict(source, label or "run", reference)
    path = os.fspath(source)
    with open(path, encoding="utf-8") as f:
        try:
            output = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not a JSON output ({e}); write runs with --json") from e
    if not isinstance(output, dict) or "frames" not in output:
        raise ValueError(f"{path}: no \"frames\" in it: not a twinvmaf/vmaf JSON output")
    return run_from_dict(output, label or os.path.splitext(os.path.basename(path))[0], reference, path)


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


def _fmt(value, digits=4):
    if value is None or not math.isfinite(value):
        return "–"
    if abs(value) >= 10 ** digits:
        return f"{value:.0f}"
    return f"{value:.{digits}g}" if abs(value) < 1 else f"{value:.{max(0, digits - 1 - int(math.log10(abs(value))))}f}"


def _display(metric):
    return "VMAF" if metric == "vmaf" else metric


def _limits(metric):
    return (0.0, 100.0) if "vmaf" in metric.lower() and not metric.startswith("VMAF_") else None


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


def _ladder_section(page, reference, runs, metric):
    colors = [PALETTE[i % len(PALETTE)] for i in range(len(runs))]
    series = [_svg.Series(f"{r.label}", c, r.frame_numbers, r.metrics.get(metric, [])) for r, c in zip(runs, colors)]
    name = reference or "the runs given"
    out = [f'<section class="card"><h2>Encode ladder: {escape(name)}</h2>',
           f'<p class="note">{len(runs)} runs of one reference, {escape(_display(metric))} per frame overlaid.</p>']
    out.append(_legend([("line", c, f"{r.label}  (mean {_fmt(r.mean(metric))})") for r, c in zip(runs, colors)]))
    out.append(page.chart(_svg.Chart(f"{_display(metric)} per frame, every run", _display(metric), series,
                                     y_limits=_limits(metric), height=340)))
    features = [m for m in dict.fromkeys(n for r in runs for n in r.metrics) if m != metric]
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


def _run_section(page, index, run, metric, worst_count):
    out = [f'<section class="card" id="{_run_id(index)}"><h2>{escape(run.label)}</h2>']
    facts = [f"{len(run.frame_numbers)} frames"]
    if run.reference:
        facts.append(f"reference {escape(run.reference)}")
    if run.source:
        facts.append(f"from {escape(run.source)}")
    out.append(f'<p class="note">{" · ".join(facts)}</p>')
    if not run.frame_numbers or metric not in run.metrics:
        out.append('<p class="note">No frames with this metric.</p></section>')
        return "".join(out)

    values = run.metrics[metric]
    worst = worst_frames(run, metric, worst_count)
    mean = run.mean(metric)
    stats = [("mean", run.mean(metric)), ("harmonic mean", run.pooled_value(metric, "harmonic_mean")),
             ("min", run.pooled_value(metric, "min")), ("max", run.pooled_value(metric, "max"))]
    out.append('<div class="stats">' + "".join(
        f'<div class="stat"><div class="value">{_fmt(v)}</div><div class="label">{escape(_display(metric))} '
        f'{escape(k)}</div></div>' for k, v in stats) + "</div>")
    marks = [(run.frame_numbers[i], values[i], f"{run.frame_numbers[i]}",
              f"frame {run.frame_numbers[i]}: {_display(metric)} {_fmt(values[i])}") for i in worst]
    out.append(_legend([("line", MAIN_COLOR, f"{_display(metric)} per frame"),
                        ("dashed", MEAN_COLOR, f"pooled mean {_fmt(mean)}"),
                        ("mark", WORST_COLOR, f"the {len(worst)} worst frames")]))
    out.append(page.chart(_svg.Chart(f"{_display(metric)} per frame", _display(metric),
                                     [_svg.Series(_display(metric), MAIN_COLOR, run.frame_numbers, values)],
                                     hlines=[(mean, f"mean {_fmt(mean)}", MEAN_COLOR)] if math.isfinite(mean) else [],
                                     marks=marks, y_limits=_limits(metric))))

    features = [n for n in run.metrics if n != metric]
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


def render_report(runs, *, title=None, metric=None, worst=5, generated=None):
    """The page's HTML text. runs: Runs, JSON paths, output dicts or
    twinvmaf.Scores (see load_run); metric: the one plotted first (default:
    vmaf); worst: how many worst frames to mark."""
    runs = [load_run(r) for r in runs]
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
    groups = {}
    for run in runs:
        groups.setdefault(run.reference, []).append(run)
    for reference, members in groups.items():
        if len(members) >= 2:
            page.add(_ladder_section(page, reference, members, metric))
    for i, run in enumerate(runs):
        page.add(_run_section(page, i, run, metric, worst))

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
    """The runs of a catalogue's pairs (their outputs where --batch wrote
    them), each with its reference; pairs without an output are left out
    with a warning."""
    from . import catalogue as _catalogue
    runs = []
    for pair in _catalogue.read_catalogue(catalogue, _catalogue.ScoreOptions(format=format, output_dir=output_dir)):
        if pair.error or pair.output == "-" or not os.path.exists(pair.output):
            why = pair.error or f"no output {pair.output}"
            print(f"twinvmaf-report: warning: pair {pair.index + 1} (line {pair.line}) left out: {why}",
                  file=sys.stderr)
            continue
        runs.append(load_run(pair.output, label=os.path.basename(pair.distorted), reference=pair.reference))
    return runs


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
    args = parser.parse_args(argv)
    try:
        runs = []
        for argument in args.runs:
            label, path = _labelled(argument)
            runs.append(load_run(path, label=label, reference=args.reference))
        if args.catalogue:
            runs += runs_from_catalogue(args.catalogue, args.output_dir)
        if not runs:
            parser.error("give JSON outputs or --catalogue")
        write_report(runs, args.output, title=args.title, metric=args.metric, worst=max(0, args.worst))
    except (OSError, ValueError) as e:
        print(f"twinvmaf-report: error: {e}", file=sys.stderr)
        return 1
    print(f"twinvmaf-report: {len(runs)} run{'s' if len(runs) != 1 else ''} -> {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
