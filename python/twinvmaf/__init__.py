"""twinvmaf: VMAF and the features around it, Netflix libvmaf's scores bit for bit.

    import twinvmaf
    engine = twinvmaf.Engine(threads=4)                 # or backend="cuda", gpu=0
    scores = engine.score("ref.y4m", "dis.y4m", features=["psnr"])
    print(scores.pooled["vmaf"]["mean"], scores.frames[0]["psnr_y"])
    scores.to_dataframe()                               # with pandas

An Engine is opened once (backend, device, threads) and scores any number of
pairs: files (.y4m, or raw .yuv with width/height/pixel_format/bitdepth) or
numpy frames (see Session.push). Models and features go by Netflix's names
and options, as with the twinvmaf and Netflix vmaf commands; the scores are
the CLI's, bit for bit. Errors are twinvmaf.Error with the engine's message.
The GIL is released while frames are scored. Long runs show progress (a
tqdm bar, else a line on stderr) when stderr is a terminal or in a
notebook; progress=False turns it off (twinvmaf._progress).
"""

import os as _os
import sys as _sys
import warnings as _warnings
from itertools import islice as _islice


def _missing_numpy(error):
    python = _sys.executable or "python3"
    return ImportError(
        f"twinvmaf needs numpy, which {python} (Python {_sys.version.split()[0]}) cannot import ({error}). "
        f"Install it for this interpreter: `{python} -m pip install numpy`; or use Debian's /usr/bin/python3 "
        "with `apt-get install python3-numpy`, or a venv made with `/usr/bin/python3 -m venv "
        "--system-site-packages`, which sees Debian's numpy (README, Python).", name="numpy")


def _extension_does_not_load(error):
    here = _os.path.dirname(_os.path.abspath(__file__))
    built = sorted(f for f in _os.listdir(here) if f.startswith("_twinvmaf") and f.endswith(".so"))
    python = _sys.executable or "python3"
    return ImportError(
        f"twinvmaf's extension module ({', '.join(built) or 'none found in ' + here}) does not load in {python} "
        f"(Python {_sys.version.split()[0]}): {error}. It is built for one Python version; build and install "
        f"it for this interpreter with `make install PYTHON={python}` (README, Python).", name="twinvmaf._twinvmaf")


try:
    import numpy as _numpy  # noqa: F401  (numpy frames; checked here so that the import says what is missing)
except ImportError as _error:
    raise _missing_numpy(_error) from None
try:
    from . import _twinvmaf as _core
except ImportError as _error:
    raise _extension_does_not_load(_error) from None

from . import _checks, _frames
from ._progress import Progress as _Progress
from ._twinvmaf import (ArgumentError, ArgumentTypeError, Error, Model, __version__, builtin_models, compiled,
                        devices, netflix_reference_version)

__all__ = ["Engine", "Session", "Scores", "Model", "Error", "ArgumentError", "ArgumentTypeError", "MetricError",
           "score", "builtin_models", "compiled", "devices", "__version__", "netflix_reference_version"]

_DEFAULT_MODEL = "vmaf_v0.6.1"
_BACKENDS = ("auto", "cpu", "cuda", "hip")
_GPU_API = {"cuda": "CUDA", "hip": "HIP"}


class MetricError(Error, KeyError):
    """scores[name] of a metric the scores do not have (also a KeyError)."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


def _option_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _option_list(options, where):
    """[(name, text)] from a dict, a list of pairs or None; values as text."""
    if options is None:
        return []
    if isinstance(options, dict):
        items = list(options.items())
    elif isinstance(options, (list, tuple)) and all(isinstance(o, (list, tuple)) and len(o) == 2 for o in options):
        items = list(options)
    else:
        raise ArgumentTypeError(f"{where}: options are a dict or a list of (name, value) pairs, not {options!r}")
    return [(str(k), _option_text(v)) for k, v in items]


def _override_feature(self, extractor, options):
    """Netflix's vmaf_model_feature_overload: options for this model's `extractor`,
    e.g. model.override_feature("adm", {"adm_enhn_gain_limit": 1.2})."""
    _checks.text("extractor", extractor)
    self._override_feature_list(extractor, _option_list(options, f"override_feature({extractor!r})"))
    return self


def _model_constructor(core, takes_path, doc):
    def construct(source, name="vmaf", disable_clip=False, enable_transform=False):
        source = _checks.path("path", source) if takes_path else _checks.text("version", source)
        return core(source, _checks.text("name", name), _checks.flag("disable_clip", disable_clip),
                    _checks.flag("enable_transform", enable_transform))
    construct.__doc__ = doc
    return staticmethod(construct)


def _parse_model(text):
    """A model from a --model argument: 'version=vmaf_v0.6.1:name=vmaf', 'path=m.json', ..."""
    return Model._parse(_checks.text("model", text))


Model._override_feature_list = Model.override_feature
Model.override_feature = _override_feature
Model._parse, Model._builtin, Model._from_file = Model.parse, Model.builtin, Model.from_file
Model.parse = staticmethod(_parse_model)
Model.builtin = _model_constructor(
    Model._builtin, False, "A built-in model by version ('vmaf_v0.6.1', ...; builtin_models()), named `name` in "
    "the scores.")
Model.from_file = _model_constructor(
    Model._from_file, True, "A model from a JSON model file (Netflix's format), named `name` in the scores.")


def _model(spec):
    """A Model from a built-in version ("vmaf_v0.6.1"), a --model argument
    ("version=vmaf_v0.6.1:name=v061", "path=m.json:adm.adm_enhn_gain_limit=1.0"),
    a model file path (os.PathLike or ending in .json), or a Model."""
    if isinstance(spec, Model):
        return spec
    if isinstance(spec, _os.PathLike):
        return Model.from_file(_os.fspath(spec))
    if isinstance(spec, str):
        if "=" in spec:
            return Model.parse(spec)
        if spec.endswith(".json"):
            return Model.from_file(spec)
        return Model.builtin(spec)
    raise ArgumentTypeError(f"models: a model is a name, a --model string, a path or a twinvmaf.Model, not {spec!r}")


def _models(models, no_prediction):
    """The Models of models=None (the CLI's default), a single model or a list."""
    if models is None:
        return [] if no_prediction else [_model(_DEFAULT_MODEL)]
    if isinstance(models, (str, Model, _os.PathLike)):
        models = [models]
    if not isinstance(models, (list, tuple)):
        raise ArgumentTypeError(f"models={models!r}: expected None, a model or a list of models")
    return [_model(m) for m in models]


def _feature_requests(features):
    """[(name, [(option, text)])] from features given as "psnr",
    "psnr=enable_chroma=false:enable_apsnr=true" (Netflix's --feature syntax),
    ("psnr", {"enable_chroma": False}) or a dict {name: options}."""
    if features is None:
        return []
    if isinstance(features, (str, tuple)):
        features = [features]
    if isinstance(features, dict):
        features = list(features.items())
    if not isinstance(features, list):
        raise ArgumentTypeError(f"features={features!r}: expected a feature, a list of them or a dict")
    requests = []
    for feature in features:
        if isinstance(feature, str):
            name, options = _core.parse_feature(feature)
            requests.append((name, list(options)))
        elif isinstance(feature, (tuple, list)) and len(feature) == 2 and isinstance(feature[0], str):
            requests.append((feature[0], _option_list(feature[1], f"feature {feature[0]!r}")))
        else:
            raise ArgumentTypeError(f"features: a feature is 'name', 'name=opt=val:...' or (name, options), "
                                    f"not {feature!r}")
    return requests


def _is_path(value):
    return isinstance(value, (str, bytes, _os.PathLike))


_FORMATS = ("xml", "json", "csv", "sub")


class Scores:
    """The scores of one pair.

    frames          [ {metric: value} ] for every frame written (frame numbers:
                    frame_numbers; with subsample only multiples of it)
    pooled          {metric: {"min", "max", "mean", "harmonic_mean": value}}
    aggregates      whole-run metrics (e.g. psnr's apsnr_y with enable_apsnr)
    names           every per-frame metric, in output order
    num_frames      the frames read (with subsample=N, len(frames) is every Nth)
    to_dataframe()  pandas DataFrame, one row per frame, indexed by frameNum
    to_dict()       the CLI's JSON output as Python objects
    render(), write()  the CLI's output file bytes (xml, json, csv, sub)
    """

    def __init__(self, core):
        self._core = core
        self._frames = None

    def _table(self):
        if self._frames is None:
            self._frame_numbers, self._frames = self._core.frame_table()
        return self._frame_numbers, self._frames

    @property
    def frames(self):
        return self._table()[1]

    @property
    def frame_numbers(self):
        return self._table()[0]

    @property
    def pooled(self):
        return self._core.pooled()

    @property
    def aggregates(self):
        return self._core.aggregates()

    def __getitem__(self, metric):
        """Every written frame's value of `metric`, in frame order."""
        if metric not in self.names:
            raise MetricError(f"no metric {metric!r} in these scores (metrics: {', '.join(self.names)})")
        return [frame.get(metric, float("nan")) for frame in self.frames]

    def to_dataframe(self):
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("Scores.to_dataframe() needs pandas: `python3 -m pip install pandas`, or on Debian "
                              "`apt-get install python3-pandas`; Scores.frames has the same values") from e
        index = pd.Index(self.frame_numbers, name="frameNum")
        return pd.DataFrame(self._core.columns(), index=index)

    def to_dict(self):
        numbers, frames = self._table()
        return {
            "version": __version__,
            "fps": self.fps,
            "frames": [{"frameNum": n, "metrics": dict(m)} for n, m in zip(numbers, frames)],
            "pooled_metrics": self.pooled,
            "aggregate_metrics": self.aggregates,
        }

    def render(self, format="json", precision="legacy"):
        """The output file's text, as the CLI writes it (precision: "legacy",
        the CLI's default %.6f; "max", %.17g; or 1..17 digits)."""
        return self._core.render(_checks.text("format", format, _FORMATS), _checks.precision(precision))

    def write(self, path, format=None, precision="legacy"):
        """Writes the CLI's output file (atomically); format from the
        extension when not given (else xml, the CLI's default); precision
        as render()'s."""
        path = _checks.path("path", path)
        if format is None:
            ext = _os.path.splitext(path)[1].lstrip(".").lower()
            format = ext if ext in _FORMATS else "xml"
        self._core.write(path, _checks.text("format", format, _FORMATS), _checks.precision(precision))

    def pooled_summary(self):
        return self._core.pooled_summary()

    def __getattr__(self, name):
        # num_frames, subsample, width, height, pixel_format, bitdepth, backend,
        # device, threads, seconds, fps, names
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._core, name)

    def __repr__(self):
        vmaf = self.pooled.get("vmaf", {}).get("mean")
        main = f" vmaf={vmaf:.6f}" if vmaf is not None else ""
        held = len(self.frame_numbers)
        frames = f"{held} frames" if self.subsample == 1 else \
            f"{held} frames of {self.num_frames} (subsample={self.subsample})"
        return (f"<twinvmaf.Scores {frames} {self.width}x{self.height} {self.pixel_format} "
                f"{self.bitdepth}-bit on {self.backend}{main}>")


_FILE_INPUTS = ("width", "height", "pixel_format", "bitdepth", "frame_cnt", "frame_skip_ref", "frame_skip_dist",
                "progress", "ref_stream", "dist_stream", "scale", "pix_fmt", "hwdec")
_FRAME_INPUTS = ("width", "height", "pixel_format", "bitdepth", "frame_cnt", "frame_skip_ref", "frame_skip_dist",
                 "progress")
_END = object()


def _geometry(width, height, pixel_format, bitdepth):
    """(width, height, pixel_format, bitdepth) checked, None where not given."""
    return (_checks.optional_integer("width", width, 1), _checks.optional_integer("height", height, 1),
            None if pixel_format is None else _frames.pixel_format_name(pixel_format),
            None if bitdepth is None else _frames.checked_bitdepth(bitdepth))


class Session:
    """One reference/distorted pair: score() two files, or push() frames one
    by one and finish(). Opened by Engine.open()."""

    def __init__(self, core):
        self._core = core
        self._format = None

    @property
    def backend(self):
        return self._core.backend

    @property
    def output_names(self):
        return self._core.output_names

    @property
    def frames_pushed(self):
        return self._core.frames_pushed

    def score(self, reference, distorted, *, width=None, height=None, pixel_format=None, bitdepth=None,
              frame_cnt=0, frame_skip_ref=0, frame_skip_dist=0, progress=None, ref_stream=None,
              dist_stream=None, scale=None, pix_fmt=None, hwdec=None):
        """Scores two files (.y4m; raw .yuv needs width, height, pixel_format,
        bitdepth; compressed video such as .mp4, .mkv, .webm, .ivf is decoded
        with FFmpeg's libraries, every frame in presentation order).
        For compressed files: ref_stream / dist_stream pick the N-th video
        stream (as ffmpeg's -map 0:V:N; default the first); scale names the
        libswscale filter ("bicubic", "lanczos", ...) that scales a distorted
        of another size to the reference's; pix_fmt ("yuv420p", ...)
        converts pictures of another pixel format; hwdec ("none", "cuda",
        "auto": the default) says where to decode, "cuda" being NVDEC into
        GPU memory for backend="cuda" (the CLI's --ref_stream,
        --dist_stream, --scale, --pix_fmt, --hwdec; docs/decoding.md).
        progress: None (a bar when stderr is a terminal or in a notebook),
        True, False, or a callable(frames_done, total_or_None); see twinvmaf._progress."""
        reference, distorted = _checks.path("reference", reference), _checks.path("distorted", distorted)
        geometry = _geometry(width, height, pixel_format, bitdepth)
        raw = None
        if any(g is not None for g in geometry):
            if any(g is None for g in geometry):
                missing = [k for k, g in zip(("width", "height", "pixel_format", "bitdepth"), geometry) if g is None]
                raise ArgumentError(f"raw .yuv input needs all of width, height, pixel_format and bitdepth "
                                    f"({', '.join(missing)} not given)")
            raw = geometry
        counts = [_checks.integer(k, v, 0, _checks.COUNT_MAX) for k, v in
                  (("frame_cnt", frame_cnt), ("frame_skip_ref", frame_skip_ref), ("frame_skip_dist", frame_skip_dist))]
        streams = [_checks.optional_integer(k, v) for k, v in (("ref_stream", ref_stream), ("dist_stream", dist_stream))]
        scale, pix_fmt = _checks.optional_text("scale", scale), _checks.optional_text("pix_fmt", pix_fmt)
        hwdec = _checks.optional_text("hwdec", hwdec)
        if hwdec not in (None, "none", "cuda", "auto"):
            raise ArgumentError(f"hwdec={hwdec!r}: expected 'none', 'cuda' or 'auto'")
        relay = _Progress(_checks.progress(progress), _os.path.basename(distorted), "frame")
        try:
            core = self._core.score(reference, distorted, raw, *counts, relay, *streams, scale or "", pix_fmt or "",
                                    hwdec or "")
        finally:
            relay.close()
        return Scores(core)

    def start(self, width, height, pixel_format="420", bitdepth=8):
        """Sets the frames' format (push() does it from the first frame otherwise)."""
        self._format = _geometry(width, height, pixel_format, bitdepth)
        self._core.start(*self._format)

    def push(self, reference, distorted, **format_hints):
        """The next frame pair (see twinvmaf._frames for what a frame is).
        The first push sets the format from the frame and `format_hints`
        (width, height, pixel_format, bitdepth)."""
        _checks.keywords("push()", format_hints, ("width", "height", "pixel_format", "bitdepth"))
        if self._format is None:
            self.start(*_frames.infer_format(reference, **format_hints))
        self._core.push(_frames.as_planes_or_flat(reference), _frames.as_planes_or_flat(distorted))

    def finish(self):
        return Scores(self._core.finish())

    def score_frames(self, reference, distorted, *, width=None, height=None, pixel_format=None, bitdepth=None,
                     frame_cnt=0, frame_skip_ref=0, frame_skip_dist=0, progress=None):
        """Scores two iterables of frames (lists, generators, a 4-D or 2-D
        array of frames ...), pair by pair, as score() does for files: when
        one ends first, the frames both have are scored and a RuntimeWarning
        says so, as for two files of unequal length."""
        for name, frames in (("reference", reference), ("distorted", distorted)):
            if not hasattr(frames, "__iter__"):
                raise ArgumentTypeError(f"{name}={frames!r}: expected a file path or an iterable of frames")
        frame_cnt, skip_ref, skip_dist = (_checks.integer(k, v, 0, _checks.COUNT_MAX) for k, v in
                                          (("frame_cnt", frame_cnt), ("frame_skip_ref", frame_skip_ref),
                                           ("frame_skip_dist", frame_skip_dist)))
        ref = _islice(iter(reference), skip_ref, None)
        dis = _islice(iter(distorted), skip_dist, None)
        total = None
        try:
            total = max(0, min(len(reference) - skip_ref, len(distorted) - skip_dist))
        except TypeError:
            pass
        if frame_cnt:
            ref, dis = _islice(ref, frame_cnt), _islice(dis, frame_cnt)
            total = frame_cnt if total is None else min(total, frame_cnt)
        hints = dict(width=width, height=height, pixel_format=pixel_format, bitdepth=bitdepth)
        relay = _Progress(_checks.progress(progress), "frames", "frame")
        try:
            while True:
                r, d = next(ref, _END), next(dis, _END)
                if r is _END or d is _END:
                    break
                self.push(r, d, **hints)
                relay(self.frames_pushed, total)
        finally:
            relay.close()
        if (r is _END) != (d is _END) and self.frames_pushed:
            ended, other = ("reference", "distorted") if r is _END else ("distorted", "reference")
            _warnings.warn(f"twinvmaf: the {ended} frames ended before the {other} frames; scored the first "
                           f"{self.frames_pushed} frames", RuntimeWarning, stacklevel=3)
        return self.finish()

    def import_score(self, name, frame, value):
        """A pre-computed per-frame score (libvmaf's vmaf_import_feature_score)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
            raise ArgumentTypeError(f"value={value!r}: expected a number")
        self._core.import_score(_checks.text("name", name), _checks.integer("frame", frame, 0, _checks.COUNT_MAX),
                                float(value))


def _check_engine(backend, gpu):
    """The CLI's checks of --backend and --gpu, when the engine is made."""
    if backend == "cpu" and gpu is not None:
        raise ArgumentError(f"gpu={gpu} picks a GPU device; it cannot apply with backend='cpu'")
    if backend in _GPU_API:
        if not compiled(backend):
            raise ArgumentError(f"backend={backend!r}: this twinvmaf was built without it (no "
                                f"{'nvcc' if backend == 'cuda' else 'hipcc'} at build time); use backend='cpu'")
        count, index = devices(backend), gpu or 0
        if index >= count:
            have = (f"no {_GPU_API[backend]} device; use backend='cpu'" if count == 0 else
                    f"{count} {_GPU_API[backend]} device(s), gpu=0 to {count - 1}")
            raise ArgumentError(f"backend={backend!r}, gpu={index}: this machine has {have}")
    if backend == "auto" and gpu is not None and devices("cuda") <= gpu and devices("hip") <= gpu:
        # An explicit gpu= with backend="auto" must name a device that exists,
        # or it would be silently ignored (the CPU would run).
        raise ArgumentError(f"gpu={gpu}: there is no such GPU (CUDA devices: {devices('cuda')}, HIP devices: "
                            f"{devices('hip')})")


class Engine:
    """Opened once: backend ("auto", "cpu", "cuda", "hip"), GPU device index
    (gpu=None: device 0, and with backend="auto" the CPU where there is no
    GPU) and CPU worker threads (0: every core). Scores any number of pairs;
    on a GPU what a run sets up is kept for the next pair of the same shape."""

    def __init__(self, backend="auto", gpu=None, threads=0):
        backend = _checks.text("backend", backend, _BACKENDS)
        gpu = _checks.optional_integer("gpu", gpu, 0, 2**31 - 1)
        threads = _checks.integer("threads", threads, 0, 2**16, "0: every core")
        _check_engine(backend, gpu)
        self._core = _core.Engine(backend, 0 if gpu is None else gpu, threads)

    @property
    def backend(self):
        return self._core.backend

    @property
    def gpu(self):
        return self._core.gpu

    @property
    def threads(self):
        return self._core.threads

    def open(self, models=None, features=None, *, subsample=1, no_prediction=False):
        """A Session for one pair. models: None for the CLI's default
        (vmaf_v0.6.1, or none with no_prediction), [] for none, else names /
        --model strings / Models; features: names, --feature strings,
        (name, options) pairs or {name: options}; subsample: score every
        Nth frame (1: all); no_prediction: the models choose features but
        predict nothing (the CLI's --no_prediction)."""
        subsample = _checks.integer("subsample", subsample, 1, meaning="1: every frame")
        no_prediction = _checks.flag("no_prediction", no_prediction)
        loaded = _models(models, no_prediction)
        return Session(self._core.open(loaded, _feature_requests(features), subsample, not no_prediction))

    def score(self, reference, distorted, *, models=None, features=None, subsample=1, no_prediction=False,
              **inputs):
        """Scores a pair: two file paths, or two iterables of numpy frames.
        inputs: width, height, pixel_format, bitdepth (raw .yuv or 1-D
        frames), frame_cnt, frame_skip_ref, frame_skip_dist, progress; for
        compressed files ref_stream, dist_stream, scale, pix_fmt (Session.score)."""
        files = _is_path(reference) and _is_path(distorted)
        if not files and (_is_path(reference) or _is_path(distorted)):
            raise ArgumentTypeError("score() takes two files or two iterables of frames, not one of each")
        _checks.keywords("score() of two files" if files else "score() of numpy frames", inputs,
                         _FILE_INPUTS if files else _FRAME_INPUTS)
        session = self.open(models, features, subsample=subsample, no_prediction=no_prediction)
        if files:
            return session.score(reference, distorted, **inputs)
        return session.score_frames(reference, distorted, **inputs)

    def __repr__(self):
        return f"<twinvmaf.Engine backend={self.backend} gpu={self.gpu} threads={self.threads}>"


def score(reference, distorted, *, backend="auto", gpu=None, threads=0, **options):
    """Scores one pair with an engine of its own (see Engine.score)."""
    return Engine(backend, gpu, threads).score(reference, distorted, **options)
