#!/usr/bin/env python3
"""Time shell commands in interleaved rounds, for ratios that hold on a noisy machine.

usage: paired.py RUNS WARMUP CMD [CMD ...]

Each round runs every command once (output to /dev/null), in turn, so that a slow phase of
a shared machine hits all of them alike; the order rotates from round to round. Prints one
JSON object: the median wall time of each command in seconds ("medians") and, for every
command after the first, the median over the rounds of (first command's time / its time)
("ratios"): for `--jobs 1` first and `--jobs 2` second, the speed-up. Also the median CPU
time (user + system, of every process the command ran) of each command ("cpu_medians"):
what the work cost, whatever else ran on the machine meanwhile.
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import time


# Write-only, as a shell's `>/dev/null` opens it: `subprocess.DEVNULL` is opened for reading
# and writing, which is how the Rust runtime stands in for a closed standard output, and pdn
# then refuses to write there (every run would fail at once and time nothing).
SINK = open(os.devnull, "w")


def cpu() -> float:
    """User + system time of the children waited for so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


CPU = []


def run(cmd: str) -> float:
    before = cpu()
    start = time.perf_counter()
    done = subprocess.run(cmd, shell=True, stdout=SINK, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    CPU.append(cpu() - before)
    # A run that failed times nothing: stop rather than print its figure.
    if done.returncode >= 2 or b"error:" in done.stderr:
        sys.exit(f"paired.py: `{cmd}` failed ({done.returncode}): {done.stderr.decode(errors='replace')[:500]}")
    return elapsed


def main() -> None:
    runs, warmup, cmds = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    for _ in range(warmup):
        for c in cmds:
            run(c)
    times = [[] for _ in cmds]
    cpus = [[] for _ in cmds]
    for r in range(runs):
        order = list(range(len(cmds)))
        order = order[r % len(cmds):] + order[: r % len(cmds)]
        for i in order:
            times[i].append(run(cmds[i]))
            cpus[i].append(CPU[-1])
    medians = [statistics.median(t) for t in times]
    ratios = [
        statistics.median(a / b for a, b in zip(times[0], times[i]))
        for i in range(1, len(cmds))
    ]
    cpu_medians = [statistics.median(c) for c in cpus]
    print(json.dumps({"medians": medians, "ratios": ratios, "cpu_medians": cpu_medians}))


if __name__ == "__main__":
    main()
