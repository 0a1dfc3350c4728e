#!/usr/bin/env python3
"""Arrow and Parquet speed (issue 33): plies per second into Arrow through the Python
package (`read_arrow(..., plies=True)` consumed by pyarrow), with one thread and with every
core, and `pdn convert --to parquet [--plies]` with `--jobs 1` and `--jobs 2`; the median of
N runs each, after one warm-up. Run with the Python of the virtual environment that
scripts/test-all.sh makes (target/py-venv), where the wheel and pyarrow are installed.

    target/py-venv/bin/python scripts/bench_python.py [FILE] [--runs N]
"""

import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import tempfile
import time

import pyarrow as pa

import pdn

ROOT = pathlib.Path(__file__).resolve().parents[1]
CORPUS = pathlib.Path(os.environ.get("PDN_CORPUS", ROOT.parent / "shared" / "corpus"))
PDN = os.environ.get("PDN_BIN", str(ROOT / "target" / "release" / "pdn"))


def median_time(f, runs):
    """Median wall and CPU seconds of `f` (CPU: this process's threads and its children's)."""
    f()
    walls, cpus = [], []
    for _ in range(runs):
        c0 = cpu_now()
        t = time.perf_counter()
        f()
        walls.append(time.perf_counter() - t)
        cpus.append(cpu_now() - c0)
    return statistics.median(walls), statistics.median(cpus)


def cpu_now():
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=str(CORPUS / "international"))
    ap.add_argument("--runs", type=int, default=9)
    a = ap.parse_args()
    plies = pa.table(pdn.read_arrow(a.file, plies=True)).num_rows
    games = pa.table(pdn.read_arrow(a.file)).num_rows
    path = pathlib.Path(a.file)
    size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else path.stat().st_size
    print(f"{a.file}: {games} games, {plies} plies, {size / 1e6:.1f} MB")
    # Per core: the rows over the CPU time all the threads spent (the pipeline's, the
    # table's, pyarrow's), so that the figure does not depend on the machine's load.
    for jobs in (1, 2):
        t, c = median_time(lambda: pa.table(pdn.read_arrow(a.file, plies=True, jobs=jobs)), a.runs)
        print(f"read_arrow plies, jobs={jobs}: {t:.3f} s = {plies / t / 1e6:.2f} M plies/s; CPU {c:.3f} s = {plies / c / 1e6:.2f} M plies/s per core")
        t, c = median_time(lambda: pa.table(pdn.read_arrow(a.file, jobs=jobs)), a.runs)
        print(f"read_arrow games, jobs={jobs}: {t:.3f} s = {games / t:.0f} games/s; CPU {c:.3f} s")
    with tempfile.TemporaryDirectory() as d:
        for flag, n, what in (([], games, "games"), (["--plies"], plies, "plies")):
            for jobs in ("1", "2"):
                out = os.path.join(d, "out.parquet")
                cmd = [PDN, "convert", "--quiet", "--jobs", jobs, "--to", "parquet", *flag, "-o", out, a.file]
                t, c = median_time(lambda: subprocess.run(cmd, check=True), a.runs)
                mb = os.path.getsize(out) / 1e6
                print(f"convert --to parquet {' '.join(flag)} --jobs {jobs}: {t:.3f} s = {n / t / 1e6:.2f} M {what}/s; CPU {c:.3f} s = {n / c / 1e6:.2f} M {what}/s per core; {mb:.1f} MB written")
        t, c = median_time(lambda: subprocess.run([PDN, "validate", "--quiet", "--jobs", "1", "-f", "short", "-o", os.devnull, a.file]), a.runs)
        print(f"validate --jobs 1 (for scale): {t:.3f} s = {plies / t / 1e6:.2f} M plies/s; CPU {c:.3f} s = {plies / c / 1e6:.2f} M plies/s per core")

if __name__ == "__main__":
    main()
