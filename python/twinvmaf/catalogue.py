"""Catalogues: lists of reference/distorted pairs, scored pair by pair.

A catalogue is
  * a `twinvmaf --batch` list (one pair a line: REF DIS [width=W height=H
    pixel_format=P bitdepth=B] [ref_stream=N dist_stream=N] [output=PATH];
    README, "Many pairs in one process"), read by the CLI's own parser;
  * a .csv file with a header naming the same columns: reference, distorted
    and optionally width, height, pixel_format, bitdepth, ref_stream,
    dist_stream, output (or the short names w, h, p, b, o);
  * a .json file: a list of such objects, or of [reference, distorted] pairs;
  * or, in Python, a list of such dicts or pairs.
Every form goes through the --batch parser, so a pair means the same in all
of them. Relative paths are taken from the current directory (made absolute
here, so that workers elsewhere see the same files); each pair's output
path is --batch's: output=, else OUTPUT_DIR/<name of DIS>.<format>, else
DIS.<format> beside the distorted file.

score_pair() scores one pair with an Engine and writes its output, exactly as
`twinvmaf --batch` does; score_catalogue() runs a whole catalogue in this
process (twinvmaf.dask.score_catalogue on a Dask cluster).
"""

import csv
import io
import json
import os
import socket
import time
from dataclasses import dataclass

from . import Engine, _frames
from ._twinvmaf import ArgumentError, ArgumentTypeError
from ._progress import Progress
from . import _twinvmaf as _core

_KEYS = {"reference": "reference", "ref": "reference", "distorted": "distorted", "dis": "distorted",
         "width": "width", "w": "width", "height": "height", "h": "height", "pixel_format": "pixel_format",
         "p": "pixel_format", "bitdepth": "bitdepth", "b": "bitdepth", "output": "output", "o": "output",
         "ref_stream": "ref_stream", "dist_stream": "dist_stream", "bitrate": "bitrate", "ladder": "ladder"}
# Keys for the report alone (twinvmaf-report's rate-quality curves), not --batch's.
_REPORT_KEYS = ("bitrate", "ladder")
_GEOMETRY = ("width", "height", "pixel_format", "bitdepth")


@dataclass
class Pair:
    """One pair of a catalogue."""
    index: int          # 0-based place in the catalogue
    line: int           # its line (list), row (CSV, header = line 1) or entry (JSON, from 1)
    reference: str
    distorted: str
    width: int = None
    height: int = None
    pixel_format: str = None
    bitdepth: int = None
    ref_stream: int = None   # compressed inputs: the N-th video stream (None: the first)
    dist_stream: int = None
    output: str = ""    # where its scores are written (set by read_catalogue)
    bitrate: float = None  # kbit/s of the distorted, when the catalogue gives it (CSV or JSON)
    ladder: str = ""    # which encode ladder of its reference it belongs to (e.g. the encoder)
    error: str = ""     # why it cannot be scored (a bad line, a duplicate output)

    @property
    def raw_format(self):
        return None if self.width is None else dict(width=self.width, height=self.height,
                                                    pixel_format=self.pixel_format, bitdepth=self.bitdepth)


@dataclass
class ScoreOptions:
    """What applies to every pair (the command-line options of --batch)."""
    models: list = None                  # None: the CLI's default (vmaf_v0.6.1)
    features: list = None
    subsample: int = 1
    no_prediction: bool = False
    frame_cnt: int = 0
    frame_skip_ref: int = 0
    frame_skip_dist: int = 0
    format: str = "xml"                  # the CLI's default output format
    precision: str = "legacy"
    output_dir: str = ""                 # -o DIR ("" : beside each distorted file)
    # -w -h -p -b for raw pairs without geometry of their own
    width: int = None
    height: int = None
    pixel_format: str = None
    bitdepth: int = None
    # compressed inputs: --scale FILTER and --pix_fmt FORMAT (docs/decoding.md)
    scale: str = None
    pix_fmt: str = None


def _quote(value):
    text = str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _report_fields(entry):
    """The entry's bitrate and ladder (not --batch's keys)."""
    if not isinstance(entry, dict):
        return {}
    fields = {_KEYS.get(str(k).strip().lower()): v for k, v in entry.items()}
    out = {}
    if fields.get("bitrate") not in (None, ""):
        try:
            out["bitrate"] = float(fields["bitrate"])
        except ValueError:
            out["error"] = f"bad line: bitrate {fields['bitrate']!r} is not a number (kbit/s)"
    if fields.get("ladder") not in (None, ""):
        out["ladder"] = str(fields["ladder"]).strip()
    return out


def _entry_line(entry):
    """One --batch list line from a dict (or a [reference, distorted] pair)."""
    if isinstance(entry, (list, tuple)):
        if len(entry) != 2:
            return "# bad entry", "expected [reference, distorted]"
        entry = {"reference": entry[0], "distorted": entry[1]}
    if not isinstance(entry, dict):
        return "# bad entry", f"expected an object with reference and distorted, not {type(entry).__name__}"
    fields = {}
    for key, value in entry.items():
        name = _KEYS.get(str(key).strip().lower())
        if name is None:
            return "# bad entry", f"unknown key \"{key}\"; expected {', '.join(sorted(set(_KEYS.values())))}"
        if value is None or str(value).strip() == "" or name in _REPORT_KEYS:
            continue
        fields[name] = str(value).strip() if name != "reference" and name != "distorted" else str(value)
    if "reference" not in fields or "distorted" not in fields:
        return "# bad entry", "expected a reference and a distorted path"
    words = [_quote(fields.pop("reference")), _quote(fields.pop("distorted"))]
    words += [f"{k}={_quote(v)}" for k, v in fields.items()]
    return " ".join(words), ""


def _pairs_from_entries(entries, first_line):
    lines, errors = [], []
    for entry in entries:
        line, error = _entry_line(entry)
        lines.append(line)
        errors.append(error)
    parsed = {p["line"]: p for p in _core.parse_batch_list("\n".join(lines))}
    pairs = []
    for i, error in enumerate(errors):
        p = parsed.get(i + 1) or {"reference": "", "distorted": "", "error": ""}
        extra = _report_fields(entries[i])
        pairs.append(dict(p, line=first_line + i, bitrate=extra.get("bitrate"), ladder=extra.get("ladder", ""),
                          error=f"bad line: {error}" if error else extra.get("error") or p["error"]))
    return pairs


def _read_pairs(source):
    if isinstance(source, (list, tuple)):
        return _pairs_from_entries(source, 1)
    if not isinstance(source, (str, os.PathLike)):
        raise ArgumentTypeError(f"catalogue={source!r}: expected a path (a --batch list, .csv or .json) or a list")
    path = os.fspath(source)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except OSError as e:
        raise _core.Error(f"{path}: cannot read the catalogue: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise _core.Error(f"{path}: cannot read the catalogue: not UTF-8 text ({e.reason} at byte {e.start})") from e
    ext = os.path.splitext(path)[1].lower()
    if ext == ".csv":
        return _pairs_from_entries(list(csv.DictReader(io.StringIO(text))), 2)
    if ext == ".json":
        try:
            entries = json.loads(text)
        except json.JSONDecodeError as e:
            raise ArgumentError(f"{path}: not JSON ({e})") from e
        if isinstance(entries, dict) and "pairs" in entries:
            entries = entries["pairs"]
        if not isinstance(entries, list):
            raise ArgumentError(f"{path}: expected a JSON list of pairs")
        return _pairs_from_entries(entries, 1)
    return _core.parse_batch_list(text)


def read_catalogue(source, options=None):
    """The pairs of a catalogue (a path or a list), each with its output path;
    a later pair writing an output an earlier one writes fails, as in --batch."""
    options = options or ScoreOptions()
    raw = _read_pairs(source)
    if not raw:
        raise ArgumentError(f"{source if not isinstance(source, (list, tuple)) else 'the catalogue'}: names no pair")
    pairs, outputs = [], {}
    for index, p in enumerate(raw):
        pair = Pair(index=index, line=p["line"], reference=p["reference"], distorted=p["distorted"],
                    error=p["error"], bitrate=p.get("bitrate"), ladder=p.get("ladder") or "")
        if p.get("width") is not None:
            pair.width, pair.height = p["width"], p["height"]
            pair.pixel_format, pair.bitdepth = str(p["pixel_format"]), p["bitdepth"]
        pair.ref_stream, pair.dist_stream = p.get("ref_stream"), p.get("dist_stream")
        if not pair.error:
            output = _core.batch_output_path(pair.distorted, p.get("output", ""), options.output_dir or "",
                                             options.format)
            for name in ("reference", "distorted"):
                setattr(pair, name, os.path.abspath(getattr(pair, name)))
            pair.output = output if output == "-" else os.path.abspath(output)
            if output != "-":
                key = os.path.realpath(output)
                if key in outputs:
                    pair.error = (f"output {output} is written by line {outputs[key]} already; "
                                  "give this pair its own output=")
                else:
                    outputs[key] = pair.line
        pairs.append(pair)
    return pairs


def _geometry(pair, options):
    if pair.raw_format:
        return pair.raw_format
    given = {k: getattr(options, k) for k in _GEOMETRY}
    if all(v is None for v in given.values()):
        return {}
    if any(v is None for v in given.values()):
        raise ArgumentError("the catalogue's default geometry needs all of width, height, pixel_format and bitdepth")
    given["pixel_format"] = _frames.pixel_format_name(given["pixel_format"])
    return given


def score_pair(engine, pair, options):
    """Scores one pair and writes its output as `twinvmaf --batch` does; the
    row of the result table: the pair, the run, and each metric's pooled mean.
    Raises twinvmaf.Error (or OSError, ValueError) when the pair fails."""
    if pair.error:
        raise _core.Error(pair.error)
    started = time.monotonic()
    session = engine.open(options.models, options.features, subsample=options.subsample,
                          no_prediction=options.no_prediction)
    # No bar per pair: a catalogue's progress counts pairs.
    scores = session.score(pair.reference, pair.distorted, frame_cnt=options.frame_cnt,
                           frame_skip_ref=options.frame_skip_ref, frame_skip_dist=options.frame_skip_dist,
                           progress=False, ref_stream=pair.ref_stream, dist_stream=pair.dist_stream,
                           scale=options.scale, pix_fmt=options.pix_fmt, **_geometry(pair, options))
    if pair.output == "-":
        print(scores.render(options.format, options.precision), end="")
    else:
        scores.write(pair.output, options.format, options.precision)
    row = {"frames": scores.num_frames, "backend": scores.backend, "device": scores.device,
           "seconds": time.monotonic() - started}
    for metric, methods in scores.pooled.items():
        if "mean" in methods:
            row[metric] = methods["mean"]
    row.update(scores.aggregates)
    return row


def pair_row(pair):
    """The columns every row starts with."""
    return {"index": pair.index, "line": pair.line, "reference": pair.reference, "distorted": pair.distorted,
            "output": pair.output}


class CatalogueResult:
    """The scores of a catalogue: one row per pair, in catalogue order.

    rows     [ {index, line, reference, distorted, output, status ("ok" or
             "failed"), error, attempts, worker, host, frames, backend, device,
             seconds, <metric>: pooled mean, ...} ]
    table    the rows as a pandas DataFrame (index: the pair's place)
    ok, failed   the rows that were scored / that failed
    """

    def __init__(self, rows):
        self.rows = sorted(rows, key=lambda r: r["index"])

    @property
    def ok(self):
        return [r for r in self.rows if r["status"] == "ok"]

    @property
    def failed(self):
        return [r for r in self.rows if r["status"] != "ok"]

    @property
    def table(self):
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("CatalogueResult.table needs pandas (Debian: python3-pandas); .rows has the same") from e
        return pd.DataFrame(self.rows).set_index("index")

    def __len__(self):
        return len(self.rows)

    def __repr__(self):
        return f"<twinvmaf CatalogueResult: {len(self.ok)} of {len(self.rows)} pairs scored, {len(self.failed)} failed>"


def run_pair(engine, pair, options, attempt, worker=""):
    """score_pair() with the failure caught: the pair's row either way."""
    row = pair_row(pair)
    row.update(status="ok", error="", attempts=attempt, worker=worker, host=socket.gethostname())
    try:
        row.update(score_pair(engine, pair, options))
    except (_core.Error, OSError, ValueError) as e:
        row.update(status="failed", error=str(e))
    return row


def score_options(options):
    """ScoreOptions from keywords, an unknown one named."""
    fields = ScoreOptions.__dataclass_fields__
    unknown = [k for k in options if k not in fields]
    if unknown:
        raise ArgumentTypeError(f"no catalogue option {unknown[0]!r}; the options are {', '.join(fields)}")
    return ScoreOptions(**options)


def score_catalogue(catalogue, engine=None, *, progress=None, **options):
    """Scores every pair of a catalogue in this process, one engine for all
    (what `twinvmaf --batch` does); options are ScoreOptions' fields. A pair
    that fails is reported in its row and the others go on. progress: as
    Engine.score's (twinvmaf._progress), counting pairs."""
    opts = score_options(options)
    pairs = read_catalogue(catalogue, opts)
    engine = engine or Engine()
    bar = Progress(progress, "pairs", "pair")
    rows, failed = [], 0
    try:
        for pair in pairs:
            rows.append(run_pair(engine, pair, opts, attempt=1))
            failed += rows[-1]["status"] != "ok"
            bar.note(failed=failed)
            bar.update(len(rows), len(pairs))
    finally:
        bar.close()
    return CatalogueResult(rows)


__all__ = ["Pair", "ScoreOptions", "CatalogueResult", "read_catalogue", "score_pair", "score_catalogue"]
