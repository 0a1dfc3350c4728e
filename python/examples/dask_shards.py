"""Running `pdn` over the shards of an archive with Dask: each task converts one shard
(a file, or a directory of files) to Parquet with the CLI, on whatever worker it lands;
Dask then reads all the Parquet files as one dataframe and aggregates across the cluster.

    python python/examples/dask_shards.py OUTDIR SHARD...   # a local cluster of 2 workers

With a real cluster, pass the scheduler's address to `Client` instead of a LocalCluster;
the `pdn` binary and the shards must be reachable from every worker (a shared file system
or object store), as must OUTDIR.
"""

import os
import pathlib
import subprocess
import sys


def convert_shard(shard, outdir, pdn_bin="pdn"):
    """Convert one shard to `OUTDIR/<index>-<name>.parquet` (one row per game); the path."""
    index, path = shard
    out = pathlib.Path(outdir) / f"{index:05d}-{pathlib.Path(path).name}.parquet"
    subprocess.run(
        [pdn_bin, "convert", "--quiet", "--to", "parquet", "-o", str(out), str(path)],
        check=True,
        capture_output=True,
    )
    return str(out)


def results_by_variant(shards, outdir, pdn_bin="pdn", workers=2):
    """Games per (variant, result) over all the shards, on a local cluster of `workers`
    processes: a dict {(variant, result): games}."""
    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster

    os.makedirs(outdir, exist_ok=True)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        futures = client.map(convert_shard, list(enumerate(map(str, shards))), outdir=str(outdir), pdn_bin=pdn_bin)
        files = client.gather(futures)
        games = dd.read_parquet(files, columns=["variant", "result"])
        counts = games.groupby(["variant", "result"], dropna=False).size().compute()
    return {(v, r): int(n) for (v, r), n in counts.items()}


if __name__ == "__main__":
    outdir, *shards = sys.argv[1:]
    for (variant, result), n in sorted(results_by_variant(shards, outdir).items(), key=lambda kv: -kv[1]):
        print(f"{variant}\t{result}\t{n}")
