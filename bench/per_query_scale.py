#!/usr/bin/env python3
"""`rag-gate check` on 10^5, 10^6 and 10^7 queries of per-query metrics, JSONL and Parquet, beside
numpy's vectorised bootstrap of the same metric read from the same files (run through
bench/per_query_scale.sh, which builds the release binary and the venv).

Data (seeded, under --folder, kept for the next run): a baseline and a candidate file of N rows
`{"query_id": "q00000000", "ndcg@10": 0.4242}` (ids zero-padded, both files in the same order,
values to 4 decimals as trec_eval -q prints them, the candidate a noisy copy of the baseline),
as JSONL and as Parquet (pyarrow, snappy, row groups of 1 Mi rows); with `--values full` (or
`4dp,full`) the same values unrounded (full-precision doubles, every delta distinct: the
per-unit resampling path; 4-decimal deltas repeat and resample by distinct value from 10^6
queries or so), in the folder `<size>-full`. The gate: one metric, `all`, query unit, the mean,
B = --resamples (10,000), no queries file.

Each case runs under /usr/bin/time -v (wall, CPU, peak RSS); the reports of JSONL and Parquet
must be identical (but for the gate file's name and the input paths). numpy's bootstrap
(bench/check_bench.py's `numpy_bootstrap`: indices drawn with `rng.integers`, 100 resamples a
chunk, fewer above 10^5 queries so the indices stay under 80 MB) is timed on the delta read with
pyarrow from the Parquet files; above --numpy-full queries it runs fewer resamples (B x
numpy-full / N, at least 100) and its time is scaled to B (it is linear in B), which the table
says.

With --before BINARY, each check also runs under that build, right after, and its row says
whether its report is the same (but for the gate file's name and the input paths).

Prints one Markdown table to paste into docs/speed.md.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_bench import numpy_bootstrap  # noqa: E402

GATE = """[inputs]
baseline = "{d}/baseline.{ext}"
candidate = "{d}/candidate.{ext}"
[bootstrap]
resamples = {resamples}
[[gate]]
metric = "ndcg@10"
max-drop = 0.01
"""

SIZES = {"1e5": 100_000, "1e6": 1_000_000, "1e7": 10_000_000}


def generate(d, n, full=False, seed=5):
    """baseline and candidate as JSONL and Parquet, in chunks (10^7 rows in well under 2 GB);
    values to 4 decimals, or unrounded when `full`."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    if os.path.exists(f"{d}/done"):
        return
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(seed)
    schema = pa.schema([("query_id", pa.string()), ("ndcg@10", pa.float64())])
    writers = {s: pq.ParquetWriter(f"{d}/{s}.parquet", schema, compression="snappy") for s in ("baseline", "candidate")}
    texts = {s: open(f"{d}/{s}.jsonl", "w") for s in ("baseline", "candidate")}
    chunk = 1 << 20
    for start in range(0, n, chunk):
        k = min(chunk, n - start)
        ids = [f"q{i:08d}" for i in range(start, start + k)]
        digits = (lambda v: v) if full else (lambda v: np.round(v, 4))  # noqa: E731
        base = digits(rng.random(k))
        cand = digits(np.clip(base + rng.normal(0.002, 0.1, k), 0.0, 1.0))
        for side, values in (("baseline", base), ("candidate", cand)):
            writers[side].write_table(pa.table({"query_id": ids, "ndcg@10": values}, schema=schema))
            texts[side].write("".join(f'{{"query_id": "{q}", "ndcg@10": {v!r}}}\n' for q, v in zip(ids, values.tolist())))
    for w in writers.values():
        w.close()
    for t in texts.values():
        t.close()
    open(f"{d}/done", "w").close()


def timed(binary, gate_path, report):
    """(wall s, CPU s, peak RSS bytes) of one `check` under GNU time."""
    out = report + ".time"
    cmd = ["/usr/bin/time", "-v", "-o", out, binary, "check", gate_path, "--format", "json", "-o", report]
    code = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    if code not in (0, 1):
        sys.exit(f"rag-gate exited {code} on {gate_path}")
    fields = {}
    for line in open(out):
        key, _, value = line.strip().rpartition(": ")
        fields[key] = value
    parts = [float(p) for p in fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":")]
    wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    cpu = float(fields["User time (seconds)"]) + float(fields["System time (seconds)"])
    return wall, cpu, int(fields["Maximum resident set size (kbytes)"]) * 1024


def numpy_time(d, resamples, full):
    """Seconds for numpy's bootstrap of the mean delta at `resamples` (scaled above `full` rows)."""
    import pyarrow.parquet as pq

    b = pq.read_table(f"{d}/baseline.parquet")["ndcg@10"].to_numpy()
    c = pq.read_table(f"{d}/candidate.parquet")["ndcg@10"].to_numpy()
    delta = c - b
    n = len(delta)
    timed_b = resamples if n <= full else max(100, resamples * full // n)
    t0 = time.perf_counter()
    numpy_bootstrap(delta, timed_b, chunk=max(1, min(100, 10_000_000 // n)))  # indices: <= 80 MB
    return (time.perf_counter() - t0) * resamples / timed_b, timed_b


def case(a, size, values):
    """The rows of one size and value kind: each format's check, then numpy's bootstrap."""
    n = SIZES[size]
    full = values == "full"
    d = f"{a.folder}/{size}" + ("-full" if full else "")
    generate(d, n, full)
    rows, reports = [], []
    for ext in a.formats.split(","):
        g = f"{d}/gate-{ext}.toml"
        with open(g, "w") as f:
            f.write(GATE.format(d=d, ext=ext, resamples=a.resamples))
        report = f"{d}/report-{ext}.json"
        wall, cpu, rss = timed(a.binary, g, report)
        shown = json.load(open(report))
        for key in ("gate_id", "inputs"):  # the gate file's name and the input paths differ
            shown.pop(key, None)
        reports.append(shown)
        size_in = sum(os.path.getsize(f"{d}/{s}.{ext}") for s in ("baseline", "candidate"))
        rows.append((n, values, ext, size_in, wall, cpu, rss))
        if a.before:
            wall, cpu, rss = timed(a.before, g, report + ".before")
            before = json.load(open(report + ".before"))
            for key in ("gate_id", "inputs"):
                before.pop(key, None)
            same = "same report" if before == shown else "report differs"
            rows.append((n, values, f"{ext}, before ({same})", size_in, wall, cpu, rss))
    if any(r != reports[0] for r in reports):
        sys.exit(f"the JSONL and Parquet reports differ at {n} queries ({values})")
    if not a.skip_numpy:
        secs, timed_b = numpy_time(d, a.resamples, a.numpy_full)
        rows.append((n, values, "numpy", timed_b, secs, None, None))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--folder", default="/tmp/rag-gate-per-query-scale")
    ap.add_argument("--sizes", default="1e5,1e6", help="of 1e5,1e6,1e7")
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--numpy-full", type=int, default=100_000, help="above this many queries numpy runs fewer resamples, scaled")
    ap.add_argument("--skip-numpy", action="store_true")
    ap.add_argument("--values", default="4dp", help="of 4dp,full: values to 4 decimals, or unrounded")
    ap.add_argument("--before", help="another build to time on the same files (its rows say whether its report is the same)")
    ap.add_argument("--formats", default="parquet,jsonl", help="of parquet,jsonl (both: the reports must agree)")
    a = ap.parse_args()

    rows = []
    for size in a.sizes.split(","):
        for values in a.values.split(","):
            rows += case(a, size, values)

    mb = lambda x: x / 1e6  # noqa: E731
    print(f"\nB = {a.resamples:,}, one metric x all, query unit, {os.cpu_count()} cores\n")
    print("| queries | values | input | wall | CPU | peak RSS | RSS / query | RSS - 64 MB / query | numpy | numpy / rag-gate (wall) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    numpy = {(r[0], r[1]): r for r in rows if r[2] == "numpy"}
    for n, values, ext, size_in, wall, cpu, rss in (r for r in rows if r[2] != "numpy"):
        np_cell, ratio = "", ""
        if (n, values) in numpy:
            _, _, _, timed_b, secs, _, _ = numpy[(n, values)]
            scaled = "" if timed_b == a.resamples else f" (B = {timed_b:,}, scaled)"
            np_cell, ratio = f"{secs:.1f} s{scaled}", f"{secs / wall:.1f}x"
        print(f"| {n:,} | {values} | {ext}, {mb(size_in):.0f} MB | {wall:.2f} s | {cpu:.2f} s | {mb(rss):.0f} MB "
              f"| {rss / n:.0f} B | {max(0, rss - 64e6) / n:.0f} B | {np_cell} | {ratio} |")


if __name__ == "__main__":
    main()
