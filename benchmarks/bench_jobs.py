"""How the audit scales with ``--jobs`` on this machine: a fixed subset of claims, cold (each run from its own
empty cache, no PDF), with ``--jobs 1`` and ``--jobs 2`` (or the values given).  Printed, never asserted.

    python benchmarks/bench_jobs.py [--runs 3] [--jobs 1 2] [ID ...]

The default subset mixes derivations (SymPy), solver points and quadrature: about a minute of CPU.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

SUBSET = ["CBDP-T8", "CBDP-T9", "CBDP-T10", "CBDP-T11", "CBDP-C1", "CBDP-TAB1-KL-LAP-LIN", "CBDP-TAB1-KL-GAU-LIN",
          "RDP-P6", "RDP-P7", "RDP-GAUSSCAL", "RDP-C4-4", "ZCDP-L2.4", "ZCDP-P1.4-EXACT", "ZCDP-L3.6-INT"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("ids", nargs="*", default=SUBSET)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for jobs in args.jobs:
            wall, cpu = [], []
            for i in range(args.runs):
                env = dict(os.environ, CBDP_SYM_CACHE=os.path.join(tmp, f"cache-{jobs}-{i}"), PYTHONHASHSEED="0")
                cmd = [sys.executable, "-m", "cbdp_sym", "audit", "--no-pdf", "--jobs", str(jobs),
                       "--out", os.path.join(tmp, f"out-{jobs}-{i}"), *args.ids]
                t0, c0 = time.perf_counter(), os.times()
                subprocess.run(cmd, env=env, check=True, capture_output=True)
                c1 = os.times()
                wall.append(time.perf_counter() - t0)
                cpu.append((c1.children_user + c1.children_system) - (c0.children_user + c0.children_system))
                print(f"  --jobs {jobs} run {i + 1}: {wall[-1]:.1f} s wall, {cpu[-1]:.1f} s CPU", flush=True)
            rows.append((jobs, statistics.median(wall), statistics.median(cpu)))
    print(f"machine: {os.cpu_count()} cores; {len(args.ids)} claims; runs: {args.runs} (medians)")
    base = rows[0][1]
    for jobs, w, c in rows:
        print(f"--jobs {jobs}: {w:.1f} s wall, {c:.1f} s CPU, speed-up {base / w:.2f}")


if __name__ == "__main__":
    main()
