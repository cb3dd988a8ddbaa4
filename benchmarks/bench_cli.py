"""Timings of the command line where a user waits (issue 31). Printed, never asserted.

    python benchmarks/bench_cli.py [--runs 3] [--cli "cbdp-sym"]

Each command runs ``--runs`` times from the shell after one warm-up run (the caches of derivations, numeric values and
the claim index filled, as for a user's second command); printed are the median wall time and the median CPU time of
the process and its children (user + system: on a machine shared with other work the wall time is noisy).  Then, in
this process, ``privacy_profile`` for two Gaussians at 50 digits (certificate included) per call, warm.

* ``--version``, ``--help``, ``list`` (targets: ``--version`` <= 0.3 s);
* ``profile --P normal(1,1) --Q normal(0,1) --delta 1e-5`` (<= 0.5 s from the shell, <= 50 ms per call warm);
* ``eval CBDP-T9 --at eps=2`` (<= 1 s);
* ``profile`` on a 30-atom finite law (<= 1 s);
* ``restricted renyi poly2 --P laplace(0,1) --Q laplace(1,1) --alpha 3``.
"""
import argparse
import math
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # (this checkout, not an installed copy)


def finite30(c):
    xs = range(-15, 15)
    w = [Fraction(round(1e6 * math.exp(-(x - c) ** 2 / 8))) for x in xs]
    return "finite(" + ", ".join(f"{x}:{wi / sum(w)}" for x, wi in zip(xs, w)) + ")"


COMMANDS = [
    ("--version", ["--version"]),
    ("--help", ["--help"]),
    ("list", ["list"]),
    ("profile Gaussians, delta 1e-5", ["profile", "--P", "normal(1,1)", "--Q", "normal(0,1)", "--delta", "1e-5"]),
    ("eval CBDP-T9 at eps=2", ["eval", "CBDP-T9", "--at", "eps=2"]),
    ("profile 30-atom finite laws", ["profile", "--P", finite30(0), "--Q", finite30(1), "--delta", "1e-5"]),
    ("restricted renyi poly2 Laplace", ["restricted", "renyi", "poly2", "--P", "laplace(0,1)", "--Q", "laplace(1,1)",
                                        "--alpha", "3"]),
]


def timed(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        print(f"  (exit {proc.returncode}: {proc.stderr.strip()[:200]})")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cli", default=None, help="the command to run (default: this Python's -m cbdp_sym)")
    ap.add_argument("--calls", type=int, default=20, help="in-process privacy_profile calls")
    args = ap.parse_args()
    cli = shlex.split(args.cli) if args.cli else [sys.executable, "-m", "cbdp_sym"]
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; runs: {args.runs}; {' '.join(cli)}")
    for name, argv in COMMANDS:
        timed(cli + argv)  # warm-up: caches and the claim index
        rows = [timed(cli + argv) for _ in range(args.runs)]
        walls, cpus = [r[0] for r in rows], [r[1] for r in rows]
        print(f"{name:<34} wall median {statistics.median(walls):.2f} s {[round(w, 2) for w in walls]}, "
              f"CPU median {statistics.median(cpus):.2f} s")
    from cbdp_sym.divergences.profiles import parse_profile_law, privacy_profile

    P, Q = parse_profile_law("normal(1,1)"), parse_profile_law("normal(0,1)")
    out = privacy_profile(P, Q, delta="1e-5", dps=50)  # warm-up: the derivation, once per process
    ts = []
    for _ in range(args.calls):
        t = time.perf_counter()
        out = privacy_profile(P, Q, delta="1e-5", dps=50)
        ts.append(time.perf_counter() - t)
    cpu0 = time.process_time()
    for _ in range(args.calls):
        privacy_profile(P, Q, delta="1e-5", dps=50)
    cpu = (time.process_time() - cpu0) / args.calls
    print(f"{'privacy_profile per call, warm':<34} wall median {statistics.median(ts) * 1000:.1f} ms, "
          f"CPU {cpu * 1000:.1f} ms (certificate: {out['certificate'][:40]}...; digits {out['digits']})")


if __name__ == "__main__":
    main()
