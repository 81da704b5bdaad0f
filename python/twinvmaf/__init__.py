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

import os
from itertools import islice

from . import _frames
from ._progress import Progress as _Progress
from ._twinvmaf import Error, Model, __version__, builtin_models, compiled, devices, netflix_reference_version
from . import _twinvmaf as _core

__all__ = ["Engine", "Session", "Scores", "Model", "Error", "score", "builtin_models", "compiled", "devices",
           "__version__", "netflix_reference_version"]

DEFAULT_MODEL = "vmaf_v0.6.1"


def _option_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _option_list(options):
    """[(name, text)] from a dict, a list of pairs or None; values as text."""
    if options is None:
        return []
    items = options.items() if isinstance(options, dict) else options
    return [(str(k), _option_text(v)) for k, v in items]


def _override_feature(self, extractor, options):
    """Netflix's vmaf_model_feature_overload: options for this model's `extractor`,
    e.g. model.override_feature("adm", {"adm_enhn_gain_limit": 1.2})."""
    self._override_feature_list(extractor, _option_list(options))
    return self


Model._override_feature_list = Model.override_feature
Model.override_feature = _override_feature


def model(spec):
    """A Model from a built-in version ("vmaf_v0.6.1"), a --model argument
    ("version=vmaf_v0.6.1:name=v061", "path=m.json:adm.adm_enhn_gain_limit=1.0"),
    a model file path (os.PathLike or ending in .json), or a Model."""
    if isinstance(spec, Model):
        return spec
    if isinstance(spec, os.PathLike):
        return Model.from_file(os.fspath(spec))
    if isinstance(spec, str):
        if "=" in spec:
            return Model.parse(spec)
        if spec.endswith(".json"):
            return Model.from_file(spec)
        return Model.builtin(spec)
    raise TypeError(f"a model is a name, a --model string, a path or a twinvmaf.Model, not {type(spec).__name__}")


def feature_requests(features):
    """[(name, [(option, text)])] from features given as "psnr",
    "psnr=enable_chroma=false:enable_apsnr=true" (Netflix's --feature syntax),
    ("psnr", {"enable_chroma": False}) or a dict {name: options}."""
    if features is None:
        return []
    if isinstance(features, (str, tuple)):
        features = [features]
    if isinstance(features, dict):
        features = list(features.items())
    requests = []
    for feature in features:
        if isinstance(feature, str):
            name, options = _core.parse_feature(feature)
            requests.append((name, list(options)))
        elif isinstance(feature, (tuple, list)) and len(feature) == 2 and isinstance(feature[0], str):
            requests.append((feature[0], _option_list(feature[1])))
        else:
            raise TypeError(f"a feature is 'name', 'name=opt=val:...' or (name, options), not {feature!r}")
    return requests


def _is_path(value):
    return isinstance(value, (str, bytes, os.PathLike))


class Scores:
    """The scores of one pair.

    frames          [ {metric: value} ] for every frame written (frame numbers:
                    frame_numbers; with subsample only multiples of it)
    pooled          {metric: {"min", "max", "mean", "harmonic_mean": value}}
    aggregates      whole-run metrics (e.g. psnr's apsnr_y with enable_apsnr)
    names           every per-frame metric, in output order
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
            raise KeyError(metric)
        return [frame.get(metric, float("nan")) for frame in self.frames]

    def to_dataframe(self):
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("Scores.to_dataframe() needs pandas (Debian: python3-pandas)") from e
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

    def render(self, format="json", precision="max"):
        """The output file's text, as the CLI writes it (precision: "legacy",
        "max" or 1..17 digits)."""
        return self._core.render(format, str(precision))

    def write(self, path, format=None, precision="legacy"):
        """Writes the CLI's output file (atomically); format from the
        extension when not given."""
        path = os.fspath(path)
        if format is None:
            ext = os.path.splitext(path)[1].lstrip(".").lower()
            format = ext if ext in ("xml", "json", "csv", "sub") else "xml"
        self._core.write(path, format, str(precision))

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
        return (f"<twinvmaf.Scores {self.num_frames} frames {self.width}x{self.height} {self.pixel_format} "
                f"{self.bitdepth}-bit on {self.backend}{main}>")


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
              dist_stream=None, scale=None, pix_fmt=None):
        """Scores two files (.y4m; raw .yuv needs width, height, pixel_format,
        bitdepth; compressed video such as .mp4, .mkv, .webm, .ivf is decoded
        with FFmpeg's libraries, every frame in presentation order).
        For compressed files: ref_stream / dist_stream pick the N-th video
        stream (as ffmpeg's -map 0:V:N; default the first); scale names the
        libswscale filter ("bicubic", "lanczos", ...) that scales a distorted
        of another size to the reference's; pix_fmt ("yuv420p", ...)
        converts pictures of another pixel format (the CLI's --ref_stream,
        --dist_stream, --scale, --pix_fmt; docs/decoding.md).
        progress: None (a bar when stderr is a terminal or in a notebook),
        True, False, or a callable(frames_done, total_or_None); see twinvmaf._progress."""
        geometry = (width, height, pixel_format, bitdepth)
        raw = None
        if any(g is not None for g in geometry):
            if any(g is None for g in geometry):
                raise ValueError("raw .yuv input needs all of width, height, pixel_format and bitdepth")
            raw = (int(width), int(height), _frames.pixel_format_name(pixel_format), int(bitdepth))
        relay = _Progress(progress, os.path.basename(os.fspath(distorted)), "frame")
        try:
            core = self._core.score(os.fspath(reference), os.fspath(distorted), raw, int(frame_cnt),
                                    int(frame_skip_ref), int(frame_skip_dist), relay,
                                    None if ref_stream is None else int(ref_stream),
                                    None if dist_stream is None else int(dist_stream),
                                    scale or "", pix_fmt or "")
        finally:
            relay.close()
        return Scores(core)

    def start(self, width, height, pixel_format="420", bitdepth=8):
        """Sets the frames' format (push() does it from the first frame otherwise)."""
        self._format = (int(width), int(height), _frames.pixel_format_name(pixel_format), int(bitdepth))
        self._core.start(*self._format)

    def push(self, reference, distorted, **format_hints):
        """The next frame pair (see twinvmaf._frames for what a frame is).
        The first push sets the format from the frame and `format_hints`
        (width, height, pixel_format, bitdepth)."""
        if self._format is None:
            self.start(*_frames.infer_format(reference, **format_hints))
        self._core.push(_frames.as_planes_or_flat(reference), _frames.as_planes_or_flat(distorted))

    def finish(self):
        return Scores(self._core.finish())

    def score_frames(self, reference, distorted, *, width=None, height=None, pixel_format=None, bitdepth=None,
                     frame_cnt=0, frame_skip_ref=0, frame_skip_dist=0, progress=None):
        """Scores two iterables of frames (lists, generators, a 4-D or 2-D
        array of frames ...), pair by pair, as score() does for files."""
        ref = islice(iter(reference), int(frame_skip_ref), None)
        dis = islice(iter(distorted), int(frame_skip_dist), None)
        total = None
        try:
            total = min(len(reference) - int(frame_skip_ref), len(distorted) - int(frame_skip_dist))
        except TypeError:
            pass
        if frame_cnt:
            ref, dis = islice(ref, int(frame_cnt)), islice(dis, int(frame_cnt))
            total = int(frame_cnt) if total is None else min(total, int(frame_cnt))
        hints = dict(width=width, height=height, pixel_format=pixel_format, bitdepth=bitdepth)
        relay = _Progress(progress, "frames", "frame")
        try:
            for r, d in zip(ref, dis):
                self.push(r, d, **hints)
                relay(self.frames_pushed, total)
        finally:
            relay.close()
        return self.finish()

    def import_score(self, name, frame, value):
        """A pre-computed per-frame score (libvmaf's vmaf_import_feature_score)."""
        self._core.import_score(name, int(frame), float(value))


class Engine:
    """Opened once: backend ("auto", "cpu", "cuda", "hip"), GPU device index
    and CPU worker threads (0: every core). Scores any number of pairs; on a
    GPU what a run sets up is kept for the next pair of the same shape."""

    def __init__(self, backend="auto", gpu=0, threads=0):
        self._core = _core.Engine(backend, int(gpu), int(threads))

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
        --model strings / Models; features: see feature_requests();
        no_prediction: the models choose features but predict nothing (the
        CLI's --no_prediction)."""
        if models is None:
            models = [] if no_prediction else [DEFAULT_MODEL]
        elif isinstance(models, (str, Model, os.PathLike)):
            models = [models]
        loaded = [model(m) for m in models]
        return Session(self._core.open(loaded, feature_requests(features), int(subsample), not no_prediction))

    def score(self, reference, distorted, *, models=None, features=None, subsample=1, no_prediction=False,
              **inputs):
        """Scores a pair: two file paths, or two iterables of numpy frames.
        inputs: width, height, pixel_format, bitdepth (raw .yuv or 1-D
        frames), frame_cnt, frame_skip_ref, frame_skip_dist, progress; for
        compressed files ref_stream, dist_stream, scale, pix_fmt (Session.score)."""
        session = self.open(models, features, subsample=subsample, no_prediction=no_prediction)
        if _is_path(reference) and _is_path(distorted):
            return session.score(reference, distorted, **inputs)
        if _is_path(reference) or _is_path(distorted):
            raise TypeError("score() takes two files or two iterables of frames, not one of each")
        return session.score_frames(reference, distorted, **inputs)

    def __repr__(self):
        return f"<twinvmaf.Engine backend={self.backend} gpu={self.gpu} threads={self.threads}>"


def score(reference, distorted, *, backend="auto", gpu=0, threads=0, **options):
    """Scores one pair with an engine of its own (see Engine.score)."""
    return Engine(backend, gpu, threads).score(reference, distorted, **options)
