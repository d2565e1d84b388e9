"""Ingestion benchmark: the issue-6 targets, measured on this machine.

1. noop     — a nightly run over N unchanged documents in S3 (moto server in its own process):
              bytes downloaded (report + PDF GETs seen on the wire) and wall time of the flow call.
2. scale    — M small documents, 1 worker vs 2 workers: Prefect's process pool, a temporary Dask
              LocalCluster started by the flow (start-up inside the timing), and ``dask-existing``:
              a Dask cluster already running when the flow starts (the deployment issue 6 describes,
              "an existing engine"; its start-up and one warm-up document are outside the timing).
2b. prefetch — one batch from S3 behind a proxy adding a fixed latency to every GET: documents fetched in
              their turn vs the next download started while the current document is parsed.
3. memory   — peak RSS of a child process indexing (parse + publish) a 2,000-page PDF generated here.
4. listing  — tracemalloc peak while streaming a listing of 100,000 keys vs holding them all.

    .venv/bin/python benchmarks/ingest.py                 # all, full sizes
    .venv/bin/python benchmarks/ingest.py --only noop --docs 200
    .venv/bin/python benchmarks/ingest.py --workload realistic [--filings 20 --manuals-count 4] [--baseline main]

``--workload realistic`` (benchmarks/ingest_realistic.py) times real filings and manuals instead, 1 vs 2
workers on an existing Dask cluster, best of 3, and writes benchmarks/results/ingest-realistic.{json,md}.

Prints a markdown table; writes benchmarks/results/ingest.json. Needs no corpus
(documents are generated); ``--corpus DIR`` is accepted for symmetry with the
other benchmarks and, if given, fetched when missing (unused otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
os.environ.update({"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_DEFAULT_REGION": "us-east-1"})

TARGETS = {"noop_seconds": 30.0, "noop_bytes": 0, "scale_ratio": 0.6, "memory_mb": 1024.0}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_moto_process() -> tuple[subprocess.Popen, str]:
    """moto's standalone server in its own process (as a real S3 would be: not sharing our GIL)."""
    port = free_port()
    proc = subprocess.Popen([str(Path(sys.executable).parent / "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, endpoint
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("moto_server did not start")


def s3_client(endpoint: str) -> Any:
    import boto3

    from botocore.config import Config

    return boto3.session.Session().client("s3", endpoint_url=endpoint, region_name="us-east-1",
                                          config=Config(max_pool_connections=32))


def small_pdf(i: int, pages: int) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        page.insert_text((72, 72), f"Document {i} — Section {n}", fontsize=16)
        body = f"Paragraph {n} of document {i}. The valve assembly is inspected monthly; torque values are listed. "
        page.insert_textbox(pymupdf.Rect(72, 100, 540, 760), body * 18, fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


def upload(client: Any, bucket: str, bodies: dict[str, bytes]) -> None:
    client.create_bucket(Bucket=bucket)
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda kv: client.put_object(Bucket=bucket, Key=kv[0], Body=kv[1]), bodies.items()))


# -- 1. no-op nightly run -------------------------------------------------------
def seed_direct(source: str, endpoint: str, store: str) -> dict[str, int]:
    """Fill the store with the flow's own parse + publish functions, minus Prefect orchestration (setup only)."""
    from flows.document import open_store, publish
    from flows.s3source import S3Source
    from parsers.pipeline import PipelineSettings, index_document

    settings = PipelineSettings()
    src = S3Source(source, endpoint_url=endpoint)
    target = open_store(store, endpoint)
    work = tempfile.mkdtemp(prefix="seed-")

    def one(obj: Any) -> bool:
        path, _ = src.download(obj, work)
        try:
            index = index_document(path, Path(obj.key).stem, settings)
            return publish(index, obj, target, settings)
        finally:
            os.unlink(path)

    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(one, src.list()))
    return {"new": sum(done), "failed": len(done) - sum(done)}


def bench_noop(docs: int, seed: str = "direct") -> dict[str, Any]:
    from flows.ingest import ingest
    from flows.runners import with_runner
    from tests.support.s3 import start_proxy

    proc, endpoint = start_moto_process()
    try:
        client = s3_client(endpoint)
        upload(client, "src", {f"nightly/doc{i:05}.pdf": small_pdf(i, 1) for i in range(docs)})
        client.create_bucket(Bucket="idx")
        proxy, server = start_proxy(endpoint)  # counts the GETs of PDF objects on the wire
        args = dict(store="s3://idx/index", endpoint_url=proxy.url, store_endpoint_url=endpoint)
        t0 = time.perf_counter()
        if seed == "flow":
            first = with_runner(ingest, "dask", 2)("s3://src/nightly", **args)
            seeded = {"new": first["counts"]["new"], "failed": first["counts"]["failed"]}
        else:
            seeded = seed_direct("s3://src/nightly", endpoint, "s3://idx/index")
        seed_s = time.perf_counter() - t0
        gets_before = sum(1 for r in proxy.log if r.startswith("GET ") and r.endswith(".pdf"))
        t0 = time.perf_counter()
        second = ingest("s3://src/nightly", **args)
        noop_s = time.perf_counter() - t0
        gets = sum(1 for r in proxy.log if r.startswith("GET ") and r.endswith(".pdf")) - gets_before
        server.shutdown()
    finally:
        proc.terminate()
        proc.wait(10)
    return {"docs": docs, "seed": seed, "seed_run_seconds": round(seed_s, 2), "seed_new": seeded["new"],
            "seed_failed": seeded["failed"], "noop_seconds": round(noop_s, 2),
            "noop_unchanged": second["counts"]["unchanged"], "noop_bytes_downloaded": second["counts"]["bytes_downloaded"],
            "noop_pdf_gets_on_wire": gets}


# -- 2. scale-out ---------------------------------------------------------------
def cpu_seconds(pids: list[int]) -> float:
    """User+system CPU seconds so far of live processes (the flow process, the API server, moto)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def scale_run(kind: str, workers: int, endpoint: str, docs: int, pids: dict[str, list[int]],
              address: str | None = None) -> dict[str, Any]:
    """One timed ingest of the whole bucket into a fresh store; CPU seconds per component alongside.

    With ``address`` the flow submits to that running Dask cluster (its workers are in ``pids``)."""
    from flows.ingest import ingest
    from flows.runners import with_runner

    store = tempfile.mkdtemp(prefix=f"scale-{kind}-{workers}-")
    cpu0 = {name: cpu_seconds(p) for name, p in pids.items()}
    reaped0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    report = with_runner(ingest, "dask" if address else kind, workers, address)("s3://scale", store=store, endpoint_url=endpoint)
    wall = time.perf_counter() - t0
    assert report["counts"]["new"] == docs, report["counts"]
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = {name: round(cpu_seconds(p) - cpu0[name], 1) for name, p in pids.items()}
    # Worker processes are our children (Dask nannies and the process pool run in this process): their CPU is
    # counted once they have been joined, i.e. when the runner shut down at the end of the flow.
    if not address:
        cpu["workers"] = round(reaped.ru_utime + reaped.ru_stime - reaped0.ru_utime - reaped0.ru_stime, 1)
    return {"workers": workers, "seconds": round(wall, 2), "report_seconds": report["duration_seconds"],
            "load_before": round(load, 2),
            "doc_seconds": round(sum(d["seconds"] for d in report["documents"]), 2), "cpu_s": cpu}


def _parse_files(paths: list[str]) -> float:
    """Seconds to run the parser alone (``index_document``, no store, no orchestration) over ``paths``."""
    from parsers.pipeline import PipelineSettings, index_document

    settings = PipelineSettings()
    t0 = time.perf_counter()
    for path in paths:
        index_document(path, Path(path).stem, settings)
    return time.perf_counter() - t0


def _import_parser(_: int) -> int:
    import parsers.pipeline  # noqa: F401

    return os.getpid()


def parse_only_pair(paths: list[str]) -> dict[str, float]:
    """The machine's own ceiling for the scale measure: the same files parsed in one process, then split in
    half over two (spawned, warmed) processes. No Prefect, no Dask, no S3: what two cores give this work now."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    out: dict[str, float] = {}
    for n in (1, 2):
        with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn")) as pool:
            list(pool.map(_import_parser, range(n)))
            pool.submit(_parse_files, paths[:2]).result()
            t0 = time.perf_counter()
            list(pool.map(_parse_files, [paths[i::n] for i in range(n)]))
            out[f"{n}"] = round(time.perf_counter() - t0, 2)
    return {"1_process_s": out["1"], "2_processes_s": out["2"], "ratio": round(out["2"] / out["1"], 3)}


def bench_scale(docs: int, pages: int, runners: list[str], repeat: int = 2, server_pid: int | None = None) -> dict[str, Any]:
    """1 vs 2 workers per runner, the pairs run in ABBA order ``repeat`` times; each side's best time counts."""
    from flows.ingest import ingest

    proc, endpoint = start_moto_process()
    out: dict[str, Any] = {"docs": docs, "pages_per_doc": pages, "repeat": repeat}
    folder = Path(tempfile.mkdtemp(prefix="scale-files-"))  # the same files on disk, for the parser-alone control
    try:
        bodies = {f"d{i:04}.pdf": small_pdf(i, pages) for i in range(docs)}
        upload(s3_client(endpoint), "scale", bodies)
        for name, body in bodies.items():
            (folder / name).write_bytes(body)
        paths = sorted(str(p) for p in folder.iterdir())
        ingest("s3://scale", store=tempfile.mkdtemp(prefix="warm-"), endpoint_url=endpoint, include=["d0000.pdf"])  # server warm-up
        pids = {"flow": [os.getpid()], "api_server": [server_pid] if server_pid else [], "moto": [proc.pid]}
        for kind in runners:
            # The control, measured just before this runner's pairs: how much two cores speed up the parser alone.
            control = parse_only_pair(paths)
            print(f"  parser alone, 1 vs 2 processes: {control['1_process_s']} s vs {control['2_processes_s']} s",
                  file=sys.stderr, flush=True)
            runs = []
            for n in range(repeat):
                # ABBA: a load drift during the measurement hurts both sides alike.
                for workers in ((1, 2) if n % 2 == 0 else (2, 1)):
                    if kind == "dask-existing":
                        runs.append(existing_cluster_run(workers, endpoint, docs, pids))
                    else:
                        runs.append(scale_run(kind, workers, endpoint, docs, pids))
                    print(f"  {kind} {workers} worker(s): {runs[-1]['seconds']} s (load {runs[-1]['load_before']})",
                          file=sys.stderr, flush=True)
            best = {w: min(r["seconds"] for r in runs if r["workers"] == w) for w in (1, 2)}
            body = {w: min(r["report_seconds"] for r in runs if r["workers"] == w) for w in (1, 2)}
            out[kind] = {"1_worker_s": best[1], "2_workers_s": best[2], "ratio": round(best[2] / best[1], 3),
                         "report_1_worker_s": body[1], "report_2_workers_s": body[2],
                         "report_ratio": round(body[2] / body[1], 3),
                         "pair_ratios": [round(b["seconds"] / a["seconds"], 3) for a, b in _pairs(runs)],
                         "parser_alone": control, "runs": runs}
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    return out


def _pairs(runs: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(1-worker run, 2-worker run) pairs in the order they ran (ABBA: each B with its neighbouring A)."""
    ones = [r for r in runs if r["workers"] == 1]
    twos = [r for r in runs if r["workers"] == 2]
    return list(zip(ones, twos))


def _warm_worker(endpoint: str) -> int:
    """Index one document through the flow's own per-document path (cached S3 source, parse, publish), as a
    worker that has served earlier runs has: imports, the S3 client and first-use initialisation are done."""
    from flows.document import cached_source, index_one
    from flows.ingest import source_spec
    from index_store.store import Store
    from parsers.pipeline import PipelineSettings

    spec = source_spec("s3://scale", endpoint_url=endpoint)
    obj = next(iter(cached_source(spec).list()))
    job = {"doc_id": "warm", "obj": obj, "status": "new", "reason": "", "spec": spec}
    index_one(job, Store(tempfile.mkdtemp(prefix="warm-worker-")), PipelineSettings(), retry_base=0.1)
    return os.getpid()


def existing_cluster_run(workers: int, endpoint: str, docs: int, pids: dict[str, list[int]]) -> dict[str, Any]:
    """A timed ingest on a Dask cluster that is already up (``--task-runner dask --dask-address``).

    The cluster is started (single-threaded worker processes, as flows.runners makes them), every worker
    indexes a document through the flow's own code path and the cluster serves a small flow run first, like a
    long-lived cluster that ran earlier jobs: none of that is timed.
    """
    from distributed import Client

    from flows.ingest import ingest
    from flows.runners import local_cluster, make_task_runner, with_runner

    # The runner's own cluster settings, as docs/operations.md asks of an existing cluster: single-threaded workers
    # that preload flows.worker_setup, a scheduler that hands out one task per free thread.
    with local_cluster(**make_task_runner("dask", workers).cluster_kwargs) as cluster, Client(cluster) as client:
        # Every worker indexes a document itself (client.run reaches each one), then one small flow run warms the
        # flow side and the Prefect task engine on the workers.
        worker_pids = list(client.run(_warm_worker, endpoint).values())
        with_runner(ingest, "dask", workers, cluster.scheduler_address)(
            "s3://scale", store=tempfile.mkdtemp(prefix="warm-cluster-"), endpoint_url=endpoint,
            include=[f"d{i:04}.pdf" for i in range(4)])
        return scale_run("dask-existing", workers, endpoint, docs, pids | {"workers": worker_pids},
                         address=cluster.scheduler_address)


# -- 2b. prefetch: one batch with S3 latency ----------------------------------------
def bench_prefetch(docs: int, latencies: list[float]) -> dict[str, Any]:
    """One batch of ``docs`` 12-page PDFs from S3 behind a proxy that holds every object GET for a fixed time
    (a first-byte latency): documents one after another (each fetched in its turn, the pre-prefetch
    behaviour, through the same functions) vs ``index_documents`` (the next download started ahead)."""
    from flows.document import cached_source, index_documents, index_guarded, open_store, settings_from
    from flows.ingest import source_spec
    from tests.support.s3 import start_proxy

    proc, endpoint = start_moto_process()
    rows = []
    try:
        upload(s3_client(endpoint), "lat", {f"d{i:03}.pdf": small_pdf(i, 12) for i in range(docs)})
        proxy, server = start_proxy(endpoint)
        proxy.add(".pdf", "stall")
        spec = source_spec("s3://lat", endpoint_url=proxy.url)
        jobs = [{"doc_id": o.key[:-4], "obj": o, "status": "new", "reason": "", "spec": spec}
                for o in cached_source(spec).list()]
        for latency in latencies:
            proxy.stall_seconds = latency
            pipeline = settings_from({})
            store = open_store(tempfile.mkdtemp(prefix="lat-seq-"))
            t0 = time.perf_counter()
            inline = [index_guarded(job, store, pipeline, 0.1, 60) for job in jobs]
            one_by_one = time.perf_counter() - t0
            t0 = time.perf_counter()
            ahead = index_documents.fn(jobs, tempfile.mkdtemp(prefix="lat-pre-"), {}, None, 0.1, 60)
            prefetched = time.perf_counter() - t0
            assert all(o.status == "new" for o in inline + ahead), [o.error for o in inline + ahead if o.error]
            rows.append({"latency_ms": round(latency * 1000), "one_by_one_s": round(one_by_one, 2),
                         "prefetch_s": round(prefetched, 2), "ratio": round(prefetched / one_by_one, 2)})
            print(f"  GET latency {latency * 1000:.0f} ms: {rows[-1]}", file=sys.stderr, flush=True)
        server.shutdown()
    finally:
        proc.terminate()
        proc.wait(10)
    return {"docs": docs, "rows": rows}


# -- 3. memory on a 2,000-page PDF ---------------------------------------------------
_CHILD = r"""
import resource, sys, time, json
sys.path.insert(0, sys.argv[3])
from parsers.pipeline import PipelineSettings, index_document, package_version
from index_store.publish import publish_document
from index_store.store import Store
t0 = time.perf_counter()
settings = PipelineSettings()
index = index_document(sys.argv[1], "big", settings)
publish_document(Store(sys.argv[2]), tree=index.tree, nodes=index.nodes, pages=index.pages,
                 source={"uri": "file://" + sys.argv[1]}, pipeline={"fingerprint": settings.fingerprint()},
                 stats=index.stats, decisions=index.decisions)
print(json.dumps({"seconds": round(time.perf_counter() - t0, 2), "pages": index.stats["pages"],
                  "nodes": index.stats["nodes"], "structure": index.tree.structure_source,
                  "maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))
"""


def big_pdf(path: Path, pages: int) -> None:
    import pymupdf

    doc = pymupdf.open()
    toc = []
    for n in range(1, pages + 1):
        page = doc.new_page()
        if n % 20 == 1:
            chapter = n // 20 + 1
            page.insert_text((72, 72), f"Chapter {chapter}", fontsize=18)
            toc.append([1, f"Chapter {chapter}", n])
        if n % 5 == 1:
            toc.append([2, f"Section {n // 5 + 1}", n])
        body = f"Page {n}. Maintenance procedure text with part numbers P-{n:05} and torque values. "
        page.insert_textbox(pymupdf.Rect(72, 100, 540, 760), body * 25, fontsize=9)
    doc.set_toc(toc)
    doc.save(str(path), garbage=3, deflate=True)
    doc.close()


def bench_memory(pages: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="bigpdf-"))
    pdf = work / "big.pdf"
    big_pdf(pdf, pages)
    result = subprocess.run([sys.executable, "-c", _CHILD, str(pdf), str(work / "index"), str(ROOT)],
                            capture_output=True, text=True, check=True)
    out = json.loads(result.stdout.strip().splitlines()[-1])
    out["pdf_mb"] = round(pdf.stat().st_size / 1e6, 1)
    return out


# -- 4. listing 100,000 keys ------------------------------------------------------------
_LIST_CHILD = r"""
import json, sys, tracemalloc, resource
sys.path.insert(0, sys.argv[3])
from flows.s3source import S3Source
src = S3Source("s3://" + sys.argv[2], endpoint_url=sys.argv[1])
tracemalloc.start()
n = 0
for obj in src.list():
    n += 1
stream_peak = tracemalloc.get_traced_memory()[1]
tracemalloc.reset_peak()
held = list(src.list())
held_peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({"keys": n, "stream_peak_mb": round(stream_peak / 2**20, 2), "held_peak_mb": round(held_peak / 2**20, 2),
                  "held_objects": len(held), "maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))
"""


def bench_listing(keys: int) -> dict[str, Any]:
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.s3.models import s3_backends
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        # Filled through moto's backend (no HTTP): 100,000 PUTs would only measure the fill.
        backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
        backend.create_bucket("many", "us-east-1")
        for i in range(keys):
            backend.put_object("many", f"k/{i:07}.pdf", b"%PDF")
        t0 = time.perf_counter()
        result = subprocess.run([sys.executable, "-c", _LIST_CHILD, f"http://{host}:{port}", "many", str(ROOT)],
                                capture_output=True, text=True, check=True)
        out = json.loads(result.stdout.strip().splitlines()[-1])
        out["seconds_two_listings"] = round(time.perf_counter() - t0, 1)
    finally:
        server.stop()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("noop", "scale", "prefetch", "memory", "listing"), action="append")
    ap.add_argument("--docs", type=int, default=1000, help="documents for the no-op run (default 1000)")
    ap.add_argument("--seed", choices=("direct", "flow"), default="direct",
                    help="fill the store for the no-op run with parse+publish directly (fast setup) or a Dask ingest run")
    ap.add_argument("--scale-docs", type=int, default=200)
    ap.add_argument("--scale-pages", type=int, default=12)
    ap.add_argument("--runners", default="processes,dask,dask-existing",
                    help="runners compared at 1 vs 2 workers: processes, dask (temporary cluster), dask-existing")
    ap.add_argument("--repeat", type=int, default=None,
                    help="1-vs-2-worker pairs per runner, in ABBA order (best of each; default 2, realistic 3)")
    ap.add_argument("--pages", type=int, default=2000, help="pages of the memory benchmark PDF")
    ap.add_argument("--keys", type=int, default=100_000)
    ap.add_argument("--corpus", default=None, help="accepted for symmetry; not needed (documents are generated)")
    ap.add_argument("--out", default=None, help="results file (default benchmarks/results/ingest.json, "
                    "ingest-realistic.json for the realistic workload)")
    ap.add_argument("--workload", choices=("synthetic", "realistic"), default="synthetic",
                    help="synthetic: the generated documents of the parts above; realistic: the FinanceBench filings "
                         "and the manuals, 1 vs 2 workers on an existing Dask cluster (benchmarks/ingest_realistic.py)")
    ap.add_argument("--financebench", default=None, help="realistic: the filings' folder (read in place)")
    ap.add_argument("--manuals", default=None, help="realistic: the manuals' folder (default .corpus/)")
    ap.add_argument("--filings", type=int, default=None, help="realistic: only the N largest filings")
    ap.add_argument("--manuals-count", type=int, default=None,
                    help="realistic: only N manuals, spread over the sizes (smallest and largest included)")
    ap.add_argument("--baseline", default=None,
                    help="realistic: also run the code of this git revision, interleaved with ours (e.g. main)")
    ap.add_argument("--ours", default=None,
                    help="realistic: measure this git revision (exported) instead of the working tree (e.g. HEAD)")
    args = ap.parse_args()
    if args.workload == "realistic":
        import ingest_realistic

        args.repeat = args.repeat or 3
        args.financebench = args.financebench or str(ingest_realistic.FINANCEBENCH)
        args.manuals = args.manuals or args.corpus or str(ingest_realistic.MANUALS)
        return ingest_realistic.main(args)
    args.out = args.out or str(ROOT / "benchmarks/results/ingest.json")
    args.repeat = args.repeat or 2
    if args.corpus and not Path(args.corpus).exists():
        subprocess.run(["bash", "/work/shared/corpus/manuals/fetch.sh", args.corpus], check=True)
    parts = args.only or ["noop", "scale", "prefetch", "memory", "listing"]
    server = None
    if "noop" in parts or "scale" in parts:
        # One Prefect server for this process, all its threads and every worker process. The URL goes into the
        # environment before Prefect is first imported: Prefect reads its global settings at import, and threads
        # that do not inherit a settings context (the process pool's message forwarder) use those; without an
        # API URL there, each would start a second, ephemeral server that keeps running through the benchmark.
        port = free_port()
        os.environ["PREFECT_API_URL"] = f"http://127.0.0.1:{port}/api"
        from prefect.server.api.server import SubprocessASGIServer

        server = SubprocessASGIServer(port=port)
        server.start(timeout=120)
        assert server.api_url == os.environ["PREFECT_API_URL"], server.api_url
    # Merge into the existing results: ``--only scale`` replaces the scale part and keeps the others.
    out = Path(args.out)
    results: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    command = " ".join([Path(sys.executable).name] + [Path(sys.argv[0]).as_posix()] + sys.argv[1:])
    results["machine"] = {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()}
    results["command"] = command
    if "noop" in parts:
        results["noop"] = bench_noop(args.docs, args.seed) | {"command": command, "load_after": os.getloadavg()[0]}
    if "scale" in parts:
        results["scale"] = bench_scale(args.scale_docs, args.scale_pages, args.runners.split(","), args.repeat,
                                       server.server_process.pid if server and server.server_process else None)
        results["scale"]["command"] = command
    if "prefetch" in parts:
        results["prefetch"] = bench_prefetch(60, [0.0, 0.01, 0.02, 0.04]) | {"command": command}
    if "memory" in parts:
        results["memory"] = bench_memory(args.pages) | {"command": command}
    if "listing" in parts:
        results["listing"] = bench_listing(args.keys) | {"command": command}
    if server is not None:
        server.stop()
    print(table({k: v for k, v in results.items() if k in parts}))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")
    return 0


def table(r: dict[str, Any]) -> str:
    rows = ["| measure | value | target | met |", "|---|---|---|---|"]
    if "noop" in r:
        n = r["noop"]
        rows.append(f"| no-op run over {n['docs']} unchanged docs in S3: wall | {n['noop_seconds']} s | <= 30 s | "
                    f"{'yes' if n['noop_seconds'] <= TARGETS['noop_seconds'] else 'NO'} |")
        rows.append(f"| no-op run: bytes downloaded (report) / PDF GETs on the wire | {n['noop_bytes_downloaded']} / "
                    f"{n['noop_pdf_gets_on_wire']} | 0 / 0 | {'yes' if n['noop_bytes_downloaded'] == 0 == n['noop_pdf_gets_on_wire'] else 'NO'} |")
        rows.append(f"| seeding the store ({n['seed']}) | {n['seed_run_seconds']} s ({n['seed_new']} new, "
                    f"{n['seed_failed']} failed) | — | — |")
    for kind, s in (r.get("scale") or {}).items():
        if isinstance(s, dict):
            loads = [run["load_before"] for run in s.get("runs", [])]
            how = f" (best of {r['scale'].get('repeat', 1)}, load {min(loads)}-{max(loads)})" if loads else ""
            rows.append(f"| {r['scale']['docs']} docs x {r['scale']['pages_per_doc']} pages, {kind}: 1 vs 2 workers{how} | "
                        f"{s['1_worker_s']} s vs {s['2_workers_s']} s (x{s['ratio']}; pairs "
                        f"{', '.join(f'x{p}' for p in s.get('pair_ratios', []))}) | <= x0.6 | "
                        f"{'yes' if s['ratio'] <= TARGETS['scale_ratio'] else 'NO'} |")
            if "parser_alone" in s:
                c = s["parser_alone"]
                rows.append(f"| ... control just before: the parser alone on the same files, 1 vs 2 processes (no Prefect, "
                            f"Dask or S3) | {c['1_process_s']} s vs {c['2_processes_s']} s (x{c['ratio']}) | — | — |")
            if "report_ratio" in s:
                rows.append(f"| ... the same runs, by the run report's duration (flow body, without Prefect's flow-run "
                            f"start and teardown) | {s['report_1_worker_s']} s vs {s['report_2_workers_s']} s "
                            f"(x{s['report_ratio']}) | <= x0.6 | {'yes' if s['report_ratio'] <= TARGETS['scale_ratio'] else 'NO'} |")
    for row in (r.get("prefetch") or {}).get("rows", []):
        rows.append(f"| one batch of {r['prefetch']['docs']} docs from S3, {row['latency_ms']} ms per GET: one by one vs "
                    f"next download ahead | {row['one_by_one_s']} s vs {row['prefetch_s']} s (x{row['ratio']}) | — | — |")
    if "memory" in r:
        m = r["memory"]
        rows.append(f"| peak RSS indexing a {m['pages']}-page PDF ({m['pdf_mb']} MB, {m['nodes']} nodes, {m['seconds']} s) | "
                    f"{m['maxrss_mb']} MB | <= 1024 MB | {'yes' if m['maxrss_mb'] <= TARGETS['memory_mb'] else 'NO'} |")
    if "listing" in r:
        li = r["listing"]
        rows.append(f"| listing {li['keys']} keys: traced peak streaming vs holding all | {li['stream_peak_mb']} MB vs "
                    f"{li['held_peak_mb']} MB | streaming << held | {'yes' if li['stream_peak_mb'] * 5 < li['held_peak_mb'] else 'NO'} |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
