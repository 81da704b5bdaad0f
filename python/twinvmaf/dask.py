"""Catalogue scoring on a Dask cluster (Debian: python3-distributed).

    from distributed import Client
    import twinvmaf.dask
    client = Client("tcp://scheduler:8786")        # or a LocalCluster
    result = twinvmaf.dask.score_catalogue("pairs.csv", client, features=["psnr"], format="json")
    result.table                                    # one row per pair (pandas)

Each pair is one task; each worker process keeps one twinvmaf Engine (made
on its first pair, reused for every later one: on a GPU the context, twins
and pinned pictures are made once). A task scores its pair and writes the
pair's output file where `twinvmaf --batch` would (so the workers need the
inputs and the output folder at the same paths: a shared file system); the
rows come back to the caller and gather into one table.

Failures: a pair that fails (a missing file, a refusal, its worker killed
and the pair lost more often than the scheduler allows) is retried once,
on another worker when there is one, and reported in its row when it fails
again; the other pairs go on. A worker that dies is replaced by its nanny
and the scheduler runs its pairs again elsewhere. Bad catalogue lines fail
at once, without a retry.

On one host with several GPUs, local_gpu_cluster(n) starts one worker per
GPU (each seeing only its own).

Progress: a bar of pairs done / total (with the failed and retried counts)
on the caller's side: tqdm when installed, else a line on stderr; by
default when stderr is a terminal or in a notebook, progress=False for none
(twinvmaf._progress). The scheduler's dashboard (it needs bokeh) shows the
tasks as "twinvmaf-pair-*" in its progress and task-stream pages.
"""

import importlib.util
import os
import sys
import uuid

import distributed
from distributed import as_completed

from . import Engine, _model
from ._twinvmaf import ArgumentError, ArgumentTypeError
from . import catalogue as _catalogue
from ._progress import Progress

# One engine per worker process (and per engine configuration).
_ENGINES = {}


def _worker_engine(backend, gpu, threads):
    if gpu is None and os.environ.get("TWINVMAF_GPU", "").strip():
        # One GPU per worker: CUDA_VISIBLE_DEVICES, or TWINVMAF_GPU, set where the worker starts.
        gpu = int(os.environ["TWINVMAF_GPU"])
    key = (backend, gpu, threads)
    if key not in _ENGINES:
        _ENGINES[key] = Engine(backend, gpu, threads)
    return _ENGINES[key]


def _score_task(pair, options, engine_config, attempt):
    """Runs on a worker: one pair, its output written, its row returned."""
    try:
        worker = distributed.get_worker().address
    except ValueError:  # not on a worker (a synchronous scheduler)
        worker = ""
    return _catalogue.run_pair(_worker_engine(*engine_config), pair, options, attempt, worker)


def local_gpu_cluster(gpus, *, dashboard_address=None, silence_logs=40):
    """A cluster on this host with one worker process per GPU, each seeing
    only its own (CUDA_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES set for it), so
    that each worker's engine is on its GPU: what dask-cuda's LocalCUDACluster
    does, with Debian's distributed alone. gpus: a count or the device
    indices. Use it as a LocalCluster: Client(local_gpu_cluster(4)), and
    score_catalogue(..., backend="cuda")."""
    devices = list(range(gpus)) if isinstance(gpus, int) else [int(g) for g in gpus]
    if not devices:
        raise ArgumentError("local_gpu_cluster() needs at least one GPU")
    workers = {f"gpu{g}": {"cls": distributed.Nanny,
                           "options": {"nthreads": 1, "name": f"gpu{g}", "silence_logs": silence_logs,
                                       "env": {"CUDA_VISIBLE_DEVICES": str(g), "HIP_VISIBLE_DEVICES": str(g)}}}
               for g in devices}
    scheduler = {"cls": distributed.Scheduler, "options": {"dashboard_address": dashboard_address}}
    return distributed.SpecCluster(workers=workers, scheduler=scheduler, silence_logs=silence_logs)


def _client(client, scheduler):
    if client is not None:
        return client
    if scheduler is not None:
        return distributed.Client(scheduler)
    try:
        return distributed.get_client()
    except ValueError:
        raise ArgumentError("score_catalogue() needs a Dask client (client=) or a scheduler address (scheduler=)")


def score_catalogue(catalogue, client=None, *, scheduler=None, backend="auto", gpu=None, threads=0, retries=1,
                    progress=None, on_result=None, on_failure=None, **options):
    """Scores every pair of `catalogue` (a --batch list, .csv, .json or a list;
    twinvmaf.catalogue) on the cluster of `client` (or of `scheduler`, an
    address). options: twinvmaf.catalogue.ScoreOptions' fields (models,
    features, format, precision, output_dir, ...), as --batch's options.
    backend/gpu/threads: each worker's engine (gpu=None: TWINVMAF_GPU or 0 on
    each worker; threads=0: every core of the worker's host).
    on_result(row): each pair's final row as it arrives; on_failure(row): each
    failed attempt, before the retry. Returns a CatalogueResult."""
    opts = _catalogue.score_options(options)
    # Models travel to the workers as text (names, --model strings, paths);
    # each is loaded here first, so that a bad one fails before any task.
    models = opts.models if opts.models is None or isinstance(opts.models, (list, tuple)) else [opts.models]
    for spec in models or []:
        if not isinstance(spec, (str, os.PathLike)):
            raise ArgumentTypeError("on Dask, give models as names, --model strings or paths "
                                    "(they are loaded on each worker)")
        _model(spec)
    pairs = _catalogue.read_catalogue(catalogue, opts)
    client = _client(client, scheduler)
    engine_config = (backend, gpu, int(threads))

    rows = {}
    running = {}  # future -> (pair, attempt)
    futures = as_completed()

    def submit(pair, attempt, avoid=None):
        key = f"twinvmaf-pair-{pair.index}-{attempt}-{uuid.uuid4().hex[:8]}"
        placement = {}
        others = [w for w in client.scheduler_info()["workers"] if w != avoid] if avoid else []
        if others:
            placement = dict(workers=others, allow_other_workers=True)
        future = client.submit(_score_task, pair, opts, engine_config, attempt, key=key, pure=False, **placement)
        running[future] = (pair, attempt)
        futures.add(future)

    bar = Progress(progress, "pairs", "pair")
    retried = 0

    def finish(row):
        rows[row["index"]] = row
        if on_result:
            on_result(row)
        bar.note(failed=sum(r["status"] != "ok" for r in rows.values()), retried=retried)
        bar.update(len(rows), len(pairs))

    for pair in pairs:
        if pair.error:  # a bad line or a duplicate output: no retry helps
            row = _catalogue.pair_row(pair)
            row.update(status="failed", error=pair.error, attempts=0, worker="", host="")
            finish(row)
        else:
            submit(pair, 1)

    try:
        for future in futures:
            pair, attempt = running.pop(future)
            try:
                row = future.result()
            except Exception as e:  # the task itself was lost: e.g. KilledWorker, a crash of the engine
                row = _catalogue.pair_row(pair)
                row.update(status="failed", error=f"{type(e).__name__}: {e}", attempts=attempt, worker="", host="")
            future.release()
            if row["status"] != "ok" and attempt <= retries:
                if on_failure:
                    on_failure(row)
                retried += 1
                submit(pair, attempt + 1, avoid=row.get("worker"))
                continue
            finish(row)
    finally:
        bar.close()
    return _catalogue.CatalogueResult(list(rows.values()))


def main(argv=None):
    """python3 -m twinvmaf.dask CATALOGUE --scheduler ADDRESS [options]"""
    import argparse
    parser = argparse.ArgumentParser(prog="python3 -m twinvmaf.dask",
                                     description="Score a catalogue of pairs on a Dask cluster.")
    parser.add_argument("catalogue", help="a --batch list, .csv or .json of pairs")
    parser.add_argument("--scheduler", help="the scheduler's address (tcp://host:8786); default: a LocalCluster")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers (without --scheduler)")
    parser.add_argument("--model", action="append", help="as the CLI's --model (repeatable)")
    parser.add_argument("--feature", action="append", help="as the CLI's --feature (repeatable)")
    parser.add_argument("--no_prediction", "-n", action="store_true")
    parser.add_argument("--format", default="json", choices=["xml", "json", "csv", "sub"])
    parser.add_argument("--precision", default="legacy")
    parser.add_argument("--output", "-o", default="", help="folder of the pairs' outputs (as --batch -o)")
    parser.add_argument("--threads", type=int, default=0, help="each worker's engine threads (0: every core)")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--table", help="write the result table here (.csv)")
    parser.add_argument("--dashboard", default=None, metavar="ADDRESS",
                        help="the LocalCluster's dashboard address (e.g. :8787; it needs bokeh)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (default: one on a terminal)")
    args = parser.parse_args(argv)

    cluster = None
    if args.scheduler:
        client = distributed.Client(args.scheduler)
    else:
        cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                           dashboard_address=args.dashboard)
        client = distributed.Client(cluster)
    if args.scheduler or args.dashboard:
        print(f"twinvmaf: dask: dashboard {client.dashboard_link}", file=sys.stderr)
        if args.dashboard and importlib.util.find_spec("bokeh") is None:
            print("twinvmaf: dask: warning: the dashboard's pages need bokeh (not packaged in Debian 12: "
                  "pip install bokeh)", file=sys.stderr)
    try:
        result = score_catalogue(args.catalogue, client, backend=args.backend, threads=args.threads,
                                 progress=False if args.no_progress else None,
                                 models=args.model, features=args.feature, no_prediction=args.no_prediction,
                                 format=args.format, precision=args.precision, output_dir=args.output)
    finally:
        client.close()
        if cluster:
            cluster.close()
    for row in result.failed:
        print(f"twinvmaf: error: pair {row['index'] + 1}/{len(result)} (line {row['line']}): {row['error']}",
              file=sys.stderr)
    if args.table:
        result.table.to_csv(args.table)
    print(f"twinvmaf: dask: {len(result.ok)} of {len(result)} pairs scored, {len(result.failed)} failed",
          file=sys.stderr)
    return 2 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())
