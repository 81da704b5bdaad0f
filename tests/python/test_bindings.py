"""The twinvmaf Python package over the C++ API: the CLI's bits, numpy frames
scored as files are, errors, the GIL, pandas."""

import io
import json
import re
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import twinvmaf
from conftest import cli_geometry, fixture, geometry, load_json, run_cli, same_value, strip_fps

# (fixture, CLI arguments, the same for Python): models and features by
# Netflix's names and options, a model file, a bootstrap model, subsampling,
# aggregate metrics, 4:2:2 and 4:4:4, 8 to 12 bits.
RUNS = [
    ("vtest_576x324_420p8", ["--feature", "psnr"], dict(features=["psnr"])),
    ("box_640x480_422p10",
     ["--model", "version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.2", "--feature", "float_ssim=enable_db=true"],
     dict(models=["version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.2"],
          features=[("float_ssim", {"enable_db": True})])),
    ("cup_640x480_444p8", ["--model", "version=vmaf_b_v0.6.3", "--feature", "ciede", "--subsample", "2"],
     dict(models=[twinvmaf.Model.builtin("vmaf_b_v0.6.3")], features={"ciede": {}}, subsample=2)),
    ("vtest_576x324_420p12",
     ["--no_prediction", "--feature", "psnr=enable_apsnr=true:enable_mse=true", "--feature", "float_ms_ssim"],
     dict(no_prediction=True, features=["psnr=enable_apsnr=true:enable_mse=true", "float_ms_ssim"])),
    ("megamind_720x528_420p8", ["--model", "version=vmaf_v1.0.16_3d0h", "--model", "version=vmaf_4k_v0.6.1:name=4k"],
     dict(models=["vmaf_v1.0.16_3d0h", twinvmaf.Model.builtin("vmaf_4k_v0.6.1", name="4k")])),
]


@pytest.fixture(scope="module")
def engine():
    return twinvmaf.Engine(backend="cpu", threads=2)


@pytest.mark.parametrize("name,cli_args,options", RUNS, ids=[r[0] for r in RUNS])
def test_every_value_equals_the_cli(engine, tmp_path, name, cli_args, options):
    folder, meta = fixture(name)
    out = tmp_path / "cli.json"
    run_cli(["-r", str(folder / "ref.yuv"), "-d", str(folder / "dis.yuv"), *cli_geometry(meta), *cli_args,
             "--threads", "2", "--json", "--precision", "max", "-q", "-o", str(out)])
    cli = load_json(out.read_text())
    scores = engine.score(folder / "ref.yuv", folder / "dis.yuv", **geometry(meta), **options)

    assert scores.frame_numbers == [f["frameNum"] for f in cli["frames"]]
    assert len(scores.frames) == len(cli["frames"]) > 0
    for frame, expected in zip(scores.frames, cli["frames"]):
        assert list(frame) == list(expected["metrics"])
        for metric, value in expected["metrics"].items():
            assert same_value(value, frame[metric]), (expected["frameNum"], metric, value, frame[metric])
    assert list(scores.pooled) == list(cli["pooled_metrics"])
    for metric, methods in cli["pooled_metrics"].items():
        assert list(scores.pooled[metric]) == list(methods)
        for method, value in methods.items():
            assert same_value(value, scores.pooled[metric][method]), (metric, method)
    assert list(scores.aggregates) == list(cli["aggregate_metrics"])
    for metric, value in cli["aggregate_metrics"].items():
        assert same_value(value, scores.aggregates[metric]), metric
    # The output file itself, byte for byte apart from fps.
    assert strip_fps(scores.render("json", "max")) == strip_fps(out.read_text())


def raw_frames(folder, meta):
    """The fixture's frames as (N, samples) arrays of the .yuv layout."""
    dtype = np.uint8 if meta["bitdepth"] == 8 else np.uint16
    samples = meta["frame_size_bytes"] // np.dtype(dtype).itemsize
    return [np.fromfile(folder / f, dtype).reshape(-1, samples) for f in ("ref.yuv", "dis.yuv")]


def planes(frame, meta):
    w, h = meta["width"], meta["height"]
    sx, sy = {420: (1, 1), 422: (1, 0), 444: (0, 0)}[meta["pixel_format"]]
    cw, ch = (w + sx) >> sx, (h + sy) >> sy
    y = frame[: w * h].reshape(h, w)
    u = frame[w * h: w * h + cw * ch].reshape(ch, cw)
    v = frame[w * h + cw * ch:].reshape(ch, cw)
    return y, u, v


@pytest.mark.parametrize("name", ["vtest_576x324_420p10", "cup_640x480_444p8", "noise_33x33_420p8"])
def test_numpy_frames_score_as_the_files_do(engine, name):
    folder, meta = fixture(name)
    options = dict(features=["psnr", "float_ssim"])
    files = engine.score(folder / "ref.yuv", folder / "dis.yuv", **geometry(meta), **options)
    ref, dis = raw_frames(folder, meta)
    expected = strip_fps(files.render("json", "max"))
    # Whole frames in file layout (1-D), then three planes per frame from a generator.
    flat = engine.score(ref, dis, **geometry(meta), **options)
    assert strip_fps(flat.render("json", "max")) == expected
    by_planes = engine.score((planes(f, meta) for f in ref), (planes(f, meta) for f in dis),
                             bitdepth=meta["bitdepth"], **options)
    assert strip_fps(by_planes.render("json", "max")) == expected
    if meta["pixel_format"] == 444:  # (3, H, W) arrays
        stacked = [np.stack(planes(f, meta)) for f in ref], [np.stack(planes(f, meta)) for f in dis]
        assert strip_fps(engine.score(*stacked, **options).render("json", "max")) == expected


def test_strided_planes_and_a_session_fed_by_hand(engine):
    rng = np.random.default_rng(7)
    h, w = 36, 64
    big = rng.integers(0, 256, size=(4, 2 * h, 2 * w), dtype=np.uint8)

    def frame(i, shift):  # every other row and column of a larger array: not contiguous
        y = big[i, ::2, ::2]
        u = np.ascontiguousarray(big[i, :h // 2, :w // 2] // 2 + shift)
        return y, u, u.copy()

    session = engine.open(models=[], features=["psnr"])
    for i in range(4):
        session.push(frame(i, 0), frame((i + 1) % 4, 1))
    pushed = session.finish()
    dense = [tuple(np.ascontiguousarray(p) for p in frame(i, 0)) for i in range(4)]
    shifted = [tuple(np.ascontiguousarray(p) for p in frame((i + 1) % 4, 1)) for i in range(4)]
    again = engine.score(dense, shifted, models=[], features=["psnr"])
    assert pushed.frames == again.frames and pushed.num_frames == 4
    assert pushed.names == ["psnr_y", "psnr_cb", "psnr_cr"]


def test_errors_raise_with_the_engines_message(engine, sample):
    ref, dis = sample / "ref.y4m", sample / "dis.y4m"
    with pytest.raises(twinvmaf.Error, match="unknown feature 'no_such_feature'"):
        engine.score(ref, dis, features=["no_such_feature"])
    with pytest.raises(twinvmaf.Error, match="feature 'psnr' has no option 'bogus'"):
        engine.score(ref, dis, features=[("psnr", {"bogus": 1})])
    with pytest.raises(twinvmaf.Error, match="missing.y4m: cannot open"):
        engine.score(ref, sample / "missing.y4m")
    with pytest.raises(twinvmaf.Error, match="vmaf_v9"):
        engine.score(ref, dis, models=["vmaf_v9"])
    with pytest.raises(twinvmaf.Error, match="give exactly one of path= or version="):
        twinvmaf.Model.parse("name=x")
    with pytest.raises(twinvmaf.Error, match="no_such_extractor"):
        twinvmaf.Model.builtin("vmaf_v0.6.1").override_feature("no_such_extractor", {"x": 1})
    bad = np.full(96 * 160 * 3 // 2, 2000, np.uint16)
    with pytest.raises(twinvmaf.Error, match="exceeds the 10-bit maximum"):
        engine.score([bad], [bad], width=160, height=96, pixel_format="420", bitdepth=10)
    good = np.zeros((96, 160), np.uint8), np.zeros((48, 80), np.uint8), np.zeros((48, 80), np.uint8)
    with pytest.raises(ValueError, match=r"distorted frame 0, plane U: shape \(48, 79\)"):
        engine.score([good], [(good[0], good[1][:, :79], good[2])])
    with pytest.raises(ValueError, match="uint16 samples: give bitdepth"):
        engine.score([tuple(p.astype(np.uint16) for p in good)] * 2, [good] * 2)
    with pytest.raises(ValueError, match="needs all of width, height"):
        engine.score(ref, dis, width=160)
    # A failed session leaves the engine usable.
    assert engine.score(ref, dis, models=[], features=["psnr"]).num_frames == 12


def _error_of(call):
    """The exception `call()` raises (it must raise)."""
    try:
        call()
    except BaseException as e:  # noqa: B902 - any class, checked by the caller
        return e
    raise AssertionError("no exception raised")


def test_bad_arguments_are_errors_at_once_naming_the_keyword(engine, sample, tmp_path):
    """Each wrong argument fails where it is given, as a twinvmaf.Error
    (ArgumentError, also a ValueError; ArgumentTypeError, also a TypeError)
    whose message names the Python keyword and no CLI flag."""
    ref, dis = sample / "ref.y4m", sample / "dis.y4m"
    folder, meta = fixture("vtest_576x324_420p8")
    raw = folder / "ref.yuv", folder / "dis.yuv"
    frames = [(np.zeros((96, 160), np.uint8), np.zeros((48, 80), np.uint8), np.zeros((48, 80), np.uint8))]
    scores = engine.score(ref, dis, models=[], features=["psnr"])
    cuda_message = (r"backend='cuda': this twinvmaf was built without it" if not twinvmaf.compiled("cuda") else
                    r"backend='cuda', gpu=0: this machine has no CUDA device")
    cases = [
        (lambda: twinvmaf.Engine(backend="cpu", gpu=5), twinvmaf.ArgumentError,
         r"^gpu=5 picks a GPU device; it cannot apply with backend='cpu'$"),
        (lambda: twinvmaf.Engine(backend="gpu"), twinvmaf.ArgumentError,
         r"^backend='gpu': expected 'auto', 'cpu', 'cuda', 'hip'$"),
        (lambda: twinvmaf.Engine(threads=-1), twinvmaf.ArgumentError, r"^threads=-1: expected 0 to 65536 \(0: every core\)$"),
        (lambda: twinvmaf.Engine(threads=2.0), twinvmaf.ArgumentTypeError, r"^threads=2.0: expected an integer, not float$"),
        (lambda: engine.open(subsample=0), twinvmaf.ArgumentError, r"^subsample=0: expected 1 or more \(1: every frame\)$"),
        (lambda: engine.open(no_prediction="yes"), twinvmaf.ArgumentTypeError, r"^no_prediction='yes': expected True or False"),
        (lambda: engine.score(*raw, width="576", height=324, pixel_format=420, bitdepth=8), twinvmaf.ArgumentTypeError,
         r"^width='576': expected an integer, not str$"),
        (lambda: engine.score(*raw, width=576.0, height=324, pixel_format=420, bitdepth=8), twinvmaf.ArgumentTypeError,
         r"^width=576.0: expected an integer, not float$"),
        (lambda: engine.score(*raw, width=-576, height=324, pixel_format=420, bitdepth=8), twinvmaf.ArgumentError,
         r"^width=-576: expected 1 or more$"),
        (lambda: engine.score(*raw, width=576, height=324, pixel_format="411", bitdepth=8), twinvmaf.ArgumentError,
         r"^pixel_format='411': expected 420, 422 or 444$"),
        (lambda: engine.score(*raw, width=576, height=324, pixel_format=420, bitdepth=9), twinvmaf.ArgumentError,
         r"^bitdepth=9: expected 8, 10, 12 or 16$"),
        (lambda: engine.score(*raw, width=576), twinvmaf.ArgumentError,
         r"^raw .yuv input needs all of width, height, pixel_format and bitdepth \(height, pixel_format, bitdepth "
         r"not given\)$"),
        (lambda: engine.score(*raw), twinvmaf.Error,
         r"ref.yuv: raw YUV input needs width, height, pixel_format and bitdepth$"),
        (lambda: engine.score(ref, dis, frame_cnt=-1), twinvmaf.ArgumentError, r"^frame_cnt=-1: expected 0 or more$"),
        (lambda: engine.score(ref, dis, progress="yes"), twinvmaf.ArgumentTypeError, r"^progress='yes': expected None"),
        (lambda: engine.score(frames, frames, scale="bicubic"), twinvmaf.ArgumentTypeError,
         r"^score\(\) of numpy frames has no keyword 'scale'; it takes width, height,"),
        (lambda: engine.score(5, 6), twinvmaf.ArgumentTypeError,
         r"^reference=5: expected a file path or an iterable of frames$"),
        (lambda: engine.score(ref, frames), twinvmaf.ArgumentTypeError, r"two files or two iterables of frames"),
        (lambda: engine.score(ref, dis, models=5), twinvmaf.ArgumentTypeError, r"^models=5: expected None, a model"),
        (lambda: engine.score(ref, dis, features=[5]), twinvmaf.ArgumentTypeError, r"^features: a feature is"),
        (lambda: engine.score(ref, dis, features=[("psnr", 5)]), twinvmaf.ArgumentTypeError,
         r"^feature 'psnr': options are a dict or a list of \(name, value\) pairs, not 5$"),
        (lambda: twinvmaf.Model.builtin(5), twinvmaf.ArgumentTypeError, r"^version=5: expected a string, not int$"),
        (lambda: twinvmaf.Model.builtin("vmaf_v0.6.1", disable_clip=1), twinvmaf.ArgumentTypeError,
         r"^disable_clip=1: expected True or False, not int$"),
        (lambda: twinvmaf.Model.parse(None), twinvmaf.ArgumentTypeError, r"^model=None: expected a string"),
        (lambda: twinvmaf.compiled("gpu"), twinvmaf.ArgumentError, r"^backend='gpu': expected 'auto'"),
        (lambda: scores["vmaf"], twinvmaf.MetricError, r"^no metric 'vmaf' in these scores \(metrics: psnr_y, psnr_cb, psnr_cr\)$"),
        (lambda: scores.write(tmp_path / "x.json", format="pdf"), twinvmaf.ArgumentError,
         r"^format='pdf': expected 'xml', 'json', 'csv', 'sub'$"),
        (lambda: scores.render(precision=18), twinvmaf.ArgumentError, r"^precision=18: expected 1 to 17 \(or 'legacy', 'max'\)$"),
        (lambda: scores.render(precision="most"), twinvmaf.ArgumentError, r"^precision='most': expected 'legacy', 'max'$"),
        (lambda: scores.write(3), twinvmaf.ArgumentTypeError, r"^path=3: expected a file path, not int$"),
        (lambda: engine.score(ref, dis, models=["version=vmaf_v0.6.1", "version=vmaf_v0.6.1"]), twinvmaf.Error,
         r"name models apart with models=\[\"...:name=...\"\]"),
        (lambda: engine.score(ref, dis, features=["psnr=x"]), twinvmaf.Error, r"^feature psnr=x: bad option string"),
        (lambda: engine.score(ref, dis, hwdec="nvdec"), twinvmaf.ArgumentError,
         r"^hwdec='nvdec': expected 'none', 'cuda' or 'auto'$"),
        (lambda: twinvmaf.Engine(backend="cpu").score(ref, dis, hwdec="cuda"), twinvmaf.Error,
         r"^hwdec=\"cuda\": NVDEC's pictures stay in GPU memory, which only backend=\"cuda\" scores \(this run is "
         r"on cpu\)$"),
    ]
    if not twinvmaf.devices("cuda"):
        cases.append((lambda: twinvmaf.Engine(backend="cuda"), twinvmaf.ArgumentError, cuda_message))
        cases.append((lambda: twinvmaf.Engine(gpu=0), twinvmaf.ArgumentError,
                      r"^gpu=0: there is no such GPU \(CUDA devices: 0, HIP devices: \d+\)$"))
    from twinvmaf import catalogue
    cases.append((lambda: catalogue.score_catalogue([[str(ref), str(dis)]], engine, output_dri="x"),
                  twinvmaf.ArgumentTypeError, r"^no catalogue option 'output_dri'; the options are models, "))
    cases.append((lambda: catalogue.score_catalogue(tmp_path / "none.txt", engine), twinvmaf.Error,
                  r"none.txt: cannot read the catalogue: No such file or directory$"))
    for call, kind, message in cases:
        error = _error_of(call)
        assert type(error) is kind, (message, type(error), error)
        assert isinstance(error, twinvmaf.Error)
        assert re.search(message, str(error)), (message, str(error))
        assert "--" not in str(error), str(error)
    # What Python code expects of such errors holds too.
    assert isinstance(_error_of(lambda: twinvmaf.Engine(threads=-1)), ValueError)
    assert isinstance(_error_of(lambda: twinvmaf.Engine(threads="2")), TypeError)
    assert isinstance(_error_of(lambda: scores["vmaf"]), KeyError)
    # numpy integers are integers.
    assert twinvmaf.Engine(backend="cpu", threads=np.int64(1)).threads == 1


def test_unequal_numpy_sequences_warn_as_files_do(engine, tmp_path):
    folder, meta = fixture("vtest_576x324_420p8")
    ref, dis = raw_frames(folder, meta)
    short = tmp_path / "dis.yuv"
    dis[:3].tofile(short)
    with pytest.warns(RuntimeWarning, match=r"^twinvmaf: \"[^\"]*dis.yuv\" ended before \"[^\"]*ref.yuv\"; "
                                            r"scored the first 3 frames$"):
        files = engine.score(folder / "ref.yuv", short, **geometry(meta), models=[], features=["psnr"])
    with pytest.warns(RuntimeWarning, match=r"^twinvmaf: the distorted frames ended before the reference frames; "
                                            r"scored the first 3 frames$"):
        arrays = engine.score(list(ref), iter(dis[:3]), **geometry(meta), models=[], features=["psnr"])
    assert arrays.frames == files.frames and arrays.num_frames == 3
    with pytest.warns(RuntimeWarning, match=r"the reference frames ended before the distorted frames; "
                                            r"scored the first 2 frames$"):
        engine.score(iter(ref[:2]), list(dis), **geometry(meta), models=[], features=["psnr"])
    # Cut to the same length by frame_cnt: nothing to say.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert engine.score(list(ref), list(dis[:3]), **geometry(meta), models=[], features=["psnr"],
                            frame_cnt=3).num_frames == 3


def test_default_precision_repr_and_module_facts(engine, tmp_path):
    folder, meta = fixture("cup_640x480_444p8")
    scores = engine.score(folder / "ref.yuv", folder / "dis.yuv", **geometry(meta), subsample=2)
    # write() and render() default to the CLI's precision (%.6f).
    scores.write(tmp_path / "out.json")
    assert scores.render() == scores.render("json", "legacy") == (tmp_path / "out.json").read_text()
    assert f'"mean": {scores.pooled["vmaf"]["mean"]:.6f},' in scores.render()
    # The repr counts the frames held (every 2nd), and of how many.
    held = len(scores.frames)
    assert held == (scores.num_frames + 1) // 2
    assert repr(scores).startswith(f"<twinvmaf.Scores {held} frames of {scores.num_frames} (subsample=2) "
                                   "640x480 444 8-bit on cpu vmaf=")
    # devices() and compiled() say what they do and default to CUDA.
    for function in (twinvmaf.devices, twinvmaf.compiled):
        assert "default 'cuda'" in function.__doc__
    assert twinvmaf.compiled() == twinvmaf.compiled("cuda") and twinvmaf.compiled("cpu") is True
    assert twinvmaf.devices() == twinvmaf.devices("cuda") and twinvmaf.devices("cpu") == 0
    # The namespace holds the API and nothing else (no os, islice, helpers).
    listed = subprocess.run([sys.executable, "-c", "import json, twinvmaf; print(json.dumps([sorted(n for n in "
                             "vars(twinvmaf) if not n.startswith('_')), sorted(twinvmaf.__all__)]))"],
                            capture_output=True, text=True, check=True).stdout
    public, exported = json.loads(listed)
    exported.remove("__version__")
    assert public == exported == ["ArgumentError", "ArgumentTypeError", "Engine", "Error", "MetricError", "Model",
                                  "Scores", "Session", "builtin_models", "compiled", "devices",
                                  "netflix_reference_version", "score"]


def test_gil_is_released_while_frames_are_scored(sample):
    # Progress is reported with the GIL taken back; between the first and the
    # last report the main thread must have run Python code all along.
    engine = twinvmaf.Engine(threads=1)
    counts = []
    counter = [0]

    def progress(done, total):
        counts.append(counter[0])

    thread = threading.Thread(target=lambda: engine.score(
        sample / "ref.y4m", sample / "dis.y4m", models=["vmaf_b_v0.6.3"], features=["float_ssim", "float_vif"],
        progress=progress))
    thread.start()
    while thread.is_alive():
        counter[0] += 1
    thread.join()
    assert len(counts) >= 2
    assert counts[-1] - counts[0] > 1000, counts


def test_progress_callback_and_dataframe(engine, sample):
    seen = []
    scores = engine.score(sample / "ref.y4m", sample / "dis.y4m", features=["psnr"],
                          progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (12, 12)  # the last report once the run has ended (a .y4m's length is not known before)
    assert all(a[0] < b[0] for a, b in zip(seen, seen[1:]))
    pd = pytest.importorskip("pandas")
    df = scores.to_dataframe()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == scores.names and list(df.index) == list(range(12))
    assert df.index.name == "frameNum"
    for i, frame in enumerate(scores.frames):
        for metric, value in frame.items():
            assert df.at[i, metric] == value
    assert df["vmaf"].mean() == pytest.approx(scores.pooled["vmaf"]["mean"], rel=1e-12)
    assert scores["psnr_y"] == list(df["psnr_y"])
    as_dict = scores.to_dict()
    assert as_dict["frames"][3]["metrics"] == scores.frames[3] and as_dict["pooled_metrics"] == scores.pooled


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_or_when_asked(engine, sample, capsys, monkeypatch):
    pair = (sample / "ref.y4m", sample / "dis.y4m")
    # By default nothing is drawn where nobody sees it (pytest's stderr is not a terminal).
    engine.score(*pair, features=["psnr"])
    assert capsys.readouterr().err == ""
    # Without tqdm: one line, redrawn in place, ending on the total.
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    engine.score(*pair, progress=True)
    err = capsys.readouterr().err
    assert err.startswith("\rdis.y4m: ") and err.endswith("\rdis.y4m: 12/12 frames\n")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    engine.score(*pair)  # a terminal: on by default ...
    assert terminal.getvalue().endswith("12/12 frames\n")
    monkeypatch.setenv("TWINVMAF_PROGRESS", "0")
    engine.score(*pair)  # ... unless asked not to
    engine.score(*pair, progress=False)
    monkeypatch.delenv("TWINVMAF_PROGRESS")
    engine.score(*pair, progress=False)
    assert terminal.getvalue().count("12/12") == 1
    # numpy frames count as they are pushed, with the total when the iterables have a length.
    frames = [[np.full((96, 160), 16 + i, np.uint8), np.full((48, 80), 128, np.uint8),
               np.full((48, 80), 128, np.uint8)] for i in range(5)]
    engine.score(frames, frames, features=["psnr"], no_prediction=True, progress=True)
    assert terminal.getvalue().endswith("\rframes: 5/5 frames\n")
    # With tqdm: its bar.
    monkeypatch.delitem(sys.modules, "tqdm.auto")
    pytest.importorskip("tqdm")
    engine.score(*pair, progress=True)
    assert "12/12" in terminal.getvalue().splitlines()[-1] and "frame/s" in terminal.getvalue()


def test_write_and_module_facts(engine, sample, tmp_path):
    scores = engine.score(sample / "ref.y4m", sample / "dis.y4m")
    scores.write(tmp_path / "out.xml")
    scores.write(tmp_path / "out.csv")
    assert (tmp_path / "out.xml").read_text().startswith("<VMAF version=")
    assert (tmp_path / "out.csv").read_text().startswith("Frame,")
    assert "vmaf_v0.6.1" in twinvmaf.builtin_models() and twinvmaf.compiled("cpu")
    assert twinvmaf.__version__ and twinvmaf.netflix_reference_version == "3.2.0"
    assert scores.backend == "cpu" and scores.threads == 2 and scores.width == 160
    assert "vmaf_v0.6.1: " in scores.pooled_summary()


def test_compressed_files_score_as_the_cli_and_as_decoding_first(engine, tmp_path):
    """MP4 and MKV paths (issue 27): the Python session decodes them as the
    CLI does, and both equal the pair decoded first by ffmpeg."""
    import shutil
    if shutil.which("ffmpeg") is None:
        pytest.skip("ffmpeg is not installed")
    if "Compressed input: FFmpeg" not in run_cli(["--version"]).stdout:
        pytest.skip("twinvmaf was built without FFmpeg's libraries")

    def ffmpeg(*args):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *args], check=True)

    source = ["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:duration=0.32", "-pix_fmt", "yuv420p"]
    ffmpeg(*source, "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "600k", str(tmp_path / "ref.mkv"))
    ffmpeg(*source, "-s", "48x32", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "40k", str(tmp_path / "dis.mp4"))
    ffmpeg("-i", str(tmp_path / "ref.mkv"), "-f", "yuv4mpegpipe", str(tmp_path / "ref.y4m"))
    ffmpeg("-i", str(tmp_path / "dis.mp4"), "-vf", "scale=96:64:flags=bicubic", "-f", "yuv4mpegpipe",
           str(tmp_path / "dis.y4m"))
    scores = engine.score(tmp_path / "ref.mkv", tmp_path / "dis.mp4", features=["psnr"], scale="bicubic",
                          progress=False)
    assert len(scores.frames) == 8
    decoded_first = run_cli(["-r", str(tmp_path / "ref.y4m"), "-d", str(tmp_path / "dis.y4m"), "--feature", "psnr",
                             "--json", "--precision", "max", "-o", "-", "-q"]).stdout
    cli = run_cli(["-r", str(tmp_path / "ref.mkv"), "-d", str(tmp_path / "dis.mp4"), "--feature", "psnr",
                   "--scale", "bicubic", "--json", "--precision", "max", "-o", "-", "-q"]).stdout
    assert strip_fps(scores.render("json", "max")) == strip_fps(cli) == strip_fps(decoded_first)
    with pytest.raises(twinvmaf.Error, match=r"give scale=\"bicubic\""):
        engine.score(tmp_path / "ref.mkv", tmp_path / "dis.mp4", progress=False)

    # A catalogue: scale for every pair, a stream per pair, as --batch.
    from twinvmaf import catalogue
    ffmpeg("-i", str(tmp_path / "ref.mkv"), "-i", str(tmp_path / "dis.mp4"), "-map", "0:v", "-map", "1:v",
           "-c", "copy", str(tmp_path / "two.mkv"))
    result = catalogue.score_catalogue(
        [{"reference": str(tmp_path / "ref.mkv"), "distorted": str(tmp_path / "two.mkv"), "dist_stream": 1,
          "output": str(tmp_path / "pair.json")}],
        engine, progress=False, features=["psnr"], scale="bicubic", format="json", precision="max")
    assert [row["status"] for row in result.rows] == ["ok"], result.rows
    assert strip_fps((tmp_path / "pair.json").read_text()) == strip_fps(decoded_first)
