"""twinvmaf.dask on a LocalCluster of 2 worker processes: a worker killed
mid-run, a pair that fails once and then succeeds, one that always fails,
a bad line; the result table and every output equal `twinvmaf --batch` of
the same list in one process. Also: CSV and JSON catalogues mean what the
--batch list means, and the in-process runner."""

import os
import re
import shutil
import signal
import subprocess
import sys

import pytest

import twinvmaf
import twinvmaf.catalogue as catalogue
from conftest import CLI, fixture, load_json, same_value, strip_fps

distributed = pytest.importorskip("distributed")
import twinvmaf.dask  # noqa: E402

OPTIONS = dict(features=["psnr"], format="json", precision="max")
CLI_OPTIONS = ["--feature", "psnr", "--json", "--precision", "max", "--threads", "1", "-q"]
FIXTURES = ["vtest_576x324_420p8", "vtest_576x324_420p10", "box_640x480_422p10", "cup_640x480_444p8",
            "megamind_720x528_420p8", "noise_257x145_420p8", "vtest_576x324_420p12", "noise_33x33_420p10"]


def quote(path):
    return '"' + str(path) + '"'


def raw_line(name, out, reference=None):
    folder, meta = fixture(name)
    ref = reference or folder / "ref.yuv"
    return (f"{quote(ref)} {quote(folder / 'dis.yuv')} w={meta['width']} h={meta['height']} "
            f"p={meta['pixel_format']} b={meta['bitdepth']} output={quote(out)}")


@pytest.fixture
def pair_list(tmp_path, sample):
    out = tmp_path / "out"
    out.mkdir()
    lines = [raw_line(name, out / f"{name}.json") for name in FIXTURES[:6]]
    lines.append(f"{quote(sample / 'ref.y4m')} {quote(sample / 'dis.y4m')} output={quote(out / 'sample.json')}")
    lines.append(raw_line("noise_33x33_420p8", out / "missing.json", reference=tmp_path / "missing.yuv"))
    lines.append(raw_line("noise_33x33_420p8", out / "late.json", reference=tmp_path / "late.yuv"))
    lines.append("a.yuv b.yuv w=4")
    lines += [raw_line(name, out / f"{name}.json") for name in FIXTURES[6:]]
    path = tmp_path / "pairs.txt"
    path.write_text("# a catalogue\n" + "\n".join(lines) + "\n")
    return path, out


def batch_run(list_path):
    """`twinvmaf --batch` of the list in one process: its error lines by pair."""
    r = subprocess.run([CLI, "--batch", str(list_path), *CLI_OPTIONS], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    errors = dict(re.findall(r"twinvmaf: error: pair (\d+)/\d+ \(line \d+\): (.*)", r.stderr))
    return {int(k) - 1: v for k, v in errors.items()}


def check_equals_batch(result, list_path, out):
    """The rows against --batch's outputs of the same list: each output's
    bytes (apart from fps), every pooled mean, every failure's message."""
    dask_out = out.parent / "dask_out"
    shutil.move(out, dask_out)
    out.mkdir()
    batch_errors = batch_run(list_path)
    assert sorted(batch_errors) == sorted(r["index"] for r in result.failed)
    for row in result.rows:
        if row["status"] != "ok":
            assert row["error"] == batch_errors[row["index"]], row
            continue
        name = os.path.basename(row["output"])
        batch_text = (out / name).read_text()
        assert strip_fps((dask_out / name).read_text()) == strip_fps(batch_text), name
        pooled = load_json(batch_text)["pooled_metrics"]
        for metric, methods in pooled.items():
            assert same_value(methods["mean"], row[metric]), (name, metric)


def test_local_cluster_with_a_worker_killed_mid_run(tmp_path, pair_list):
    list_path, out = pair_list
    late = tmp_path / "late.yuv"
    late_source = fixture("noise_33x33_420p8")[0] / "ref.yuv"
    killed = {}
    failures = []

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)

        def on_result(row):
            # After the first pair: kill a worker that holds pairs (running or queued).
            if killed or row["status"] != "ok":
                return
            for worker, keys in client.processing().items():
                if keys:
                    killed.update(address=worker, keys=list(keys))
                    os.kill(pids[worker], signal.SIGKILL)
                    return

        def on_failure(row):
            failures.append(row)
            if row["output"].endswith("late.json"):  # the missing input arrives before the retry
                shutil.copyfile(late_source, late)

        seen = []
        result = twinvmaf.dask.score_catalogue(list_path, client, threads=1, on_result=on_result,
                                               on_failure=on_failure, progress=lambda *p: seen.append(p), **OPTIONS)

    assert killed, "no worker was killed"
    assert seen == [(i, 12) for i in range(1, 13)]  # progress: pairs done / total, each pair once
    rows = {r["index"]: r for r in result.rows}
    assert len(rows) == 12
    failed = {r["index"]: r for r in result.failed}
    assert sorted(failed) == [7, 9]
    assert "missing.yuv: cannot open" in failed[7]["error"] and failed[7]["attempts"] == 2
    assert failed[9]["error"].startswith("bad line: raw geometry needs all of") and failed[9]["attempts"] == 0
    assert rows[8]["status"] == "ok" and rows[8]["attempts"] == 2  # failed once, then scored
    assert sorted(f["index"] for f in failures) == [7, 8]
    # The killed worker's pairs were scored elsewhere (its replacement has a new address).
    lost = [int(k.split("-")[2]) for k in killed["keys"]]
    assert lost and all(rows[i]["status"] == "ok" and rows[i]["worker"] != killed["address"] for i in lost)
    assert all(r["worker"] for r in result.ok) and {r["frames"] for r in result.ok} >= {48, 12}
    check_equals_batch(result, list_path, out)

    table = result.table
    assert list(table.index) == list(range(12)) and table.loc[0, "status"] == "ok"
    assert {"psnr_y", "vmaf", "worker", "attempts", "error"} <= set(table.columns)


def test_csv_and_json_catalogues_mean_what_the_list_means(tmp_path, pair_list):
    list_path, out = pair_list
    listed = catalogue.read_catalogue(list_path)
    # The same pairs as CSV rows and JSON objects (the bad line's geometry stays incomplete).
    header = ["reference", "distorted", "width", "height", "pixel_format", "bitdepth", "output"]
    rows = []
    for pair in listed:
        if pair.error.startswith("bad line"):
            rows.append({"reference": "a.yuv", "distorted": "b.yuv", "width": 4})
            continue
        rows.append({"reference": pair.reference, "distorted": pair.distorted, "width": pair.width,
                     "height": pair.height, "pixel_format": pair.pixel_format, "bitdepth": pair.bitdepth,
                     "output": pair.output})
    csv_path = tmp_path / "pairs.csv"
    with open(csv_path, "w", newline="") as f:
        import csv
        writer = csv.DictWriter(f, header)
        writer.writeheader()
        writer.writerows(rows)
    json_path = tmp_path / "pairs.json"
    import json
    json_path.write_text(json.dumps([{k: v for k, v in r.items() if v is not None} for r in rows]))
    for path, first_line in ((csv_path, 2), (json_path, 1)):
        pairs = catalogue.read_catalogue(path)
        assert len(pairs) == len(listed)
        for a, b in zip(pairs, listed):
            assert (a.reference, a.distorted, a.raw_format, a.output) == (b.reference, b.distorted, b.raw_format,
                                                                          b.output)
            assert a.error == b.error and a.line == first_line + a.index
    # A key the list does not know, and an entry without a distorted path.
    bad = catalogue.read_catalogue([{"reference": "r.yuv", "distortd": "d.yuv"}, ["r.yuv"]])
    assert bad[0].error.startswith('bad line: unknown key "distortd"') and bad[1].error.startswith("bad line: ")
    # Two pairs writing one output: the later one fails, as in --batch.
    twice = catalogue.read_catalogue([["r.yuv", "d.yuv"], ["r2.yuv", "d.yuv"]], catalogue.ScoreOptions(format="json"))
    assert not twice[0].error and "is written by line 1 already" in twice[1].error


def test_in_process_runner_equals_batch(pair_list, capsys, monkeypatch):
    list_path, out = pair_list
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # the plain progress line, as without tqdm
    result = catalogue.score_catalogue(list_path, twinvmaf.Engine(threads=1), progress=True, **OPTIONS)
    assert capsys.readouterr().err.endswith("\rpairs: 12/12 pairs (failed 3)\n")
    assert sorted(r["index"] for r in result.failed) == [7, 8, 9]  # late.yuv is not there: no retry here
    assert all(r["attempts"] == 1 for r in result.rows)
    check_equals_batch(result, list_path, out)


def test_local_gpu_cluster_gives_each_worker_its_own_device(tmp_path, sample):
    # On the CPU here: what is checked is each worker's device visibility and that pairs run there.
    with twinvmaf.dask.local_gpu_cluster([0, 1]) as cluster, distributed.Client(cluster) as client:
        seen = client.run(lambda: (os.environ["CUDA_VISIBLE_DEVICES"], os.environ["HIP_VISIBLE_DEVICES"]))
        assert sorted(seen.values()) == [("0", "0"), ("1", "1")]
        pairs = [{"reference": sample / "ref.y4m", "distorted": sample / "dis.y4m", "output": tmp_path / f"{i}.json"}
                 for i in range(4)]
        result = twinvmaf.dask.score_catalogue(pairs, client, backend="cpu", threads=1, progress=False, **OPTIONS)
    assert len(result.ok) == 4 and {r["worker"] for r in result.ok} <= set(seen)
