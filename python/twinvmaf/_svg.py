"""Line charts as inline SVG for the HTML report (twinvmaf.report): axes
with round-number ticks, grid, labelled reference lines, marked points and
faint vertical guides. No dependency, no script, no fetch: text in the page.

Coordinates are in the viewBox (CSS pixels at 100 % zoom); the SVG scales
to its container's width.
"""

import math
from dataclasses import dataclass, field
from html import escape

CHAR_WIDTH = 6.8  # a 12 px sans-serif character, on average (for margins and label spacing)
CHAR_WIDTH_BOLD = 7.8
FONT = "system-ui, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif"


@dataclass
class Series:
    label: str
    color: str
    xs: list
    ys: list            # NaN (or None) leaves a gap
    width: float = 1.6  # stroke
    dots: bool = False  # a dot at each point (a rate-quality curve)


@dataclass
class Chart:
    title: str
    y_label: str
    series: list
    x_label: str = "frame"
    hlines: list = field(default_factory=list)   # (value, label, color): dashed, labelled at the right
    marks: list = field(default_factory=list)    # (x, y, label, tooltip): circled points, labelled
    guides: list = field(default_factory=list)   # x values: faint vertical lines (e.g. the worst frames)
    y_limits: tuple = None                       # (lo, hi) that the axis must not go beyond
    y_fixed: tuple = None                        # (lo, hi) the axis spans exactly, whatever the data
    width: int = 1040
    height: int = 300


def nice_step(span, target_ticks):
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about target_ticks ticks."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / max(1, target_ticks)
    power = 10.0 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * power >= raw * 0.999:
            return m * power
    return 10 * power


def ticks(lo, hi, target=6):
    """(axis lo, axis hi, [tick values]): [lo, hi] widened to whole steps."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        lo, hi = 0.0, 1.0
    if hi == lo:
        pad = abs(lo) * 0.05 or 0.5
        lo, hi = lo - pad, hi + pad
    step = nice_step(hi - lo, target)
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    values = [round(i * step, 12) for i in range(first, last + 1)]
    return values[0], values[-1], values


def tick_text(value, step):
    decimals = max(0, -int(math.floor(math.log10(step) + 1e-9))) if step < 1 else 0
    if step * 10 ** decimals % 1:  # 2.5, 0.25 ...
        decimals += 1
    text = f"{value:.{decimals}f}"
    return "0" if text in ("-0", "-0.0") else text


def _finite(values):
    return [v for v in values if v is not None and math.isfinite(v)]


def _decimate(xs, ys, columns):
    """At most ~2 points per pixel column: each column's first, min, max and
    last in order, so that every dip and peak survives a long run."""
    if len(xs) <= 2 * columns:
        return xs, ys
    span = (xs[-1] - xs[0]) or 1
    out_x, out_y, bucket = [], [], []

    def flush():
        finite = [p for p in bucket if p[1] is not None and math.isfinite(p[1])]
        if len(finite) < len(bucket) or not finite:
            out_x.extend(p[0] for p in bucket)  # keep the gaps where they are
            out_y.extend(p[1] for p in bucket)
            return
        keep = {id(bucket[0]), id(bucket[-1]), id(min(finite, key=lambda p: p[1])), id(max(finite, key=lambda p: p[1]))}
        for p in bucket:
            if id(p) in keep:
                out_x.append(p[0])
                out_y.append(p[1])

    current = None
    for x, y in zip(xs, ys):
        column = int((x - xs[0]) / span * columns)
        if column != current and bucket:
            flush()
            bucket = []
        current = column
        bucket.append((x, y))
    if bucket:
        flush()
    return out_x, out_y


def _polyline_paths(xs, ys, sx, sy):
    """SVG path data, one subpath per run of finite values."""
    parts, pen_down = [], False
    for x, y in zip(xs, ys):
        if y is None or not math.isfinite(y):
            pen_down = False
            continue
        parts.append(f"{'L' if pen_down else 'M'}{sx(x):.1f},{sy(y):.1f}")
        pen_down = True
    return "".join(parts)


def render(chart, uid):
    """The chart as an <svg> element (text); uid: unique in the page (its clip path's id)."""
    w, h = chart.width, chart.height
    all_x = [x for s in chart.series for x in s.xs]
    all_y = _finite([y for s in chart.series for y in s.ys]) + [v for v, _, _ in chart.hlines]
    x_lo, x_hi = (min(all_x), max(all_x)) if all_x else (0, 1)
    if x_hi == x_lo:
        x_hi = x_lo + 1
    y_lo, y_hi = (min(all_y), max(all_y)) if all_y else (0, 1)
    pad = (y_hi - y_lo) * 0.04
    y_lo, y_hi = y_lo - pad, y_hi + pad
    if chart.y_limits:
        y_lo, y_hi = max(y_lo, chart.y_limits[0]), min(y_hi, chart.y_limits[1])
    if chart.y_fixed:
        y_lo, y_hi = chart.y_fixed
    y_lo, y_hi, y_ticks = ticks(y_lo, y_hi, 5 if h >= 260 else 4)
    y_step = y_ticks[1] - y_ticks[0] if len(y_ticks) > 1 else 1
    y_texts = [tick_text(t, y_step) for t in y_ticks]
    x_step = nice_step(x_hi - x_lo, 10 if w >= 800 else 6)
    first = math.ceil(x_lo / x_step - 1e-9)
    x_ticks = [i * x_step for i in range(first, first + int((x_hi - x_lo) / x_step + 1e-9) + 2)]
    x_ticks = [t for t in x_ticks if t <= x_hi + 1e-9]

    # Margins from what they hold: tick labels, the axis label, the reference lines' labels.
    left = round(14 + max(len(t) for t in y_texts) * CHAR_WIDTH + (22 if chart.y_label else 0))
    right = round(16 + max([len(label) * CHAR_WIDTH_BOLD for _, label, _ in chart.hlines] + [4]))
    top, bottom = 34, 44
    pw, ph = w - left - right, h - top - bottom

    def sx(x):
        return left + (x - x_lo) / (x_hi - x_lo) * pw

    def sy(y):
        return top + (y_hi - y) / (y_hi - y_lo) * ph

    out = [f'<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{escape(chart.title)}" '
           f'font-family="{escape(FONT)}" font-size="12">']
    out.append(f'<text x="{left}" y="20" font-size="14" font-weight="600" fill="#1b2330">{escape(chart.title)}</text>')
    # Grid and axes.
    for t, text in zip(y_ticks, y_texts):
        y = sy(t)
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e3e7ee"/>')
        out.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end" fill="#4a5568">{text}</text>')
    for t in x_ticks:
        x = sx(t)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top + ph}" y2="{top + ph + 5}" stroke="#8a94a6"/>')
        out.append(f'<text x="{x:.1f}" y="{top + ph + 18}" text-anchor="middle" fill="#4a5568">'
                   f'{tick_text(t, x_step)}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#8a94a6"/>')
    out.append(f'<text x="{left + pw / 2:.1f}" y="{h - 6}" text-anchor="middle" fill="#1b2330">'
               f'{escape(chart.x_label)}</text>')
    if chart.y_label:
        out.append(f'<text transform="translate(16 {top + ph / 2:.1f}) rotate(-90)" text-anchor="middle" '
                   f'fill="#1b2330">{escape(chart.y_label)}</text>')
    # Everything drawn inside the plot is clipped to it.
    clip = f"plot-area-{uid}"
    out.append(f'<clipPath id="{clip}"><rect x="{left}" y="{top}" width="{pw}" height="{ph}"/></clipPath>')
    out.append(f'<g clip-path="url(#{clip})">')
    for x in chart.guides:
        out.append(f'<line class="guide" data-frame="{x}" x1="{sx(x):.1f}" x2="{sx(x):.1f}" y1="{top}" '
                   f'y2="{top + ph}" stroke="#d62728" stroke-opacity="0.28" stroke-width="3"/>')
    for s in chart.series:
        xs, ys = _decimate(s.xs, s.ys, pw)
        d = _polyline_paths(xs, ys, sx, sy)
        if d:
            out.append(f'<path class="series" data-label="{escape(s.label)}" d="{d}" fill="none" stroke="{s.color}" '
                       f'stroke-width="{s.width}" stroke-linejoin="round" stroke-linecap="round"/>')
        if s.dots:
            out.extend(f'<circle class="dot" cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3.5" fill="{s.color}"/>'
                       for x, y in zip(s.xs, s.ys) if y is not None and math.isfinite(y))
    out.append('</g>')
    for value, label, color in chart.hlines:
        y = sy(value)
        out.append(f'<line class="hline" x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="{color}" '
                   f'stroke-width="1.4" stroke-dasharray="6 4"/>')
        if label:
            out.append(f'<text x="{left + pw + 6}" y="{y + 4:.1f}" fill="{color}" font-weight="600">'
                       f'{escape(label)}</text>')
    placed = []  # the mark labels' boxes so far: a label goes below its point, else above, else further out
    for x, y, label, tooltip in sorted(chart.marks):
        cx, cy = sx(x), sy(y)
        half = len(label) * CHAR_WIDTH / 2 + 2
        for ty in (cy + 19, cy - 10, cy + 32, cy - 23):
            ty = max(top + 12, min(ty, top + ph - 3))
            if not any(abs(cx - px) < half + other and abs(ty - py) < 12 for px, py, other in placed):
                break
        placed.append((cx, ty, half))
        out.append(f'<g class="mark" data-frame="{x}"><title>{escape(tooltip)}</title>'
                   f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="#fff" stroke="#d62728" stroke-width="2"/>'
                   f'<text x="{cx:.1f}" y="{ty:.1f}" text-anchor="middle" fill="#b3161f" '
                   f'font-size="11" font-weight="600">{escape(label)}</text></g>')
    out.append('</svg>')
    return "".join(out)
