"""Timings of the restricted-divergence solver and of CBDP's figure set. Printed, never asserted.

    python benchmarks/bench_restricted.py [--runs 3] [--skip-figures]

* one (lin,Rényi) point at 30 digits (the solver at ``mp.dps = 40``: 30 digits plus the 10 guard digits
  the audit adds), Laplace ``eps = 1`` and Gaussian ``sigma = 1`` at ``alpha = 3``, no cache, no second method;
* the same with the second, independent method (what ``cbdp-sym restricted`` runs by default);
* the whole figure set (Figures 1a, 1b, 2a, 2b with their large-alpha and by-degree continuations, and
  the eight figure claims) through ``cbdp-sym audit --no-pdf``, cold (an empty cache) and cached, on all cores.

Targets (issue 3): one point under 2 s; the four figures under 3 minutes cold on 2 cores.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

FIGURE_CLAIMS = ["CBDP-F1A-EXACT", "CBDP-F1A-CROSS", "CBDP-F2A-EXACT", "CBDP-F2A-CROSS", "CBDP-F1B-CONV",
                 "CBDP-F1B-DECR", "CBDP-F2B-CONV", "CBDP-F2B-DECR"]


def _point(kind, second):
    import mpmath as mp

    from cbdp_sym.laws.distributions import Laplace, Normal
    from cbdp_sym.restricted.solver import restricted

    P, Q = (Laplace(0, 1), Laplace(1, 1)) if kind == "lap" else (Normal(0, 1), Normal(1, 1))
    t = time.perf_counter()
    with mp.workdps(40):
        r = restricted("renyi", "lin", P, Q, alpha="3", second=second)
    assert r.converged
    return time.perf_counter() - t


def _timed(cmd, env):
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-figures", action="store_true")
    args = ap.parse_args()
    _point("lap", False)  # warm the derived conjugates and profiles (SymPy, once per process)
    print(f"machine: {os.cpu_count()} cores; runs: {args.runs}")
    for kind in ("lap", "gau"):
        for second in (False, True):
            ts = [_point(kind, second) for _ in range(args.runs)]
            what = "with second method" if second else "solver alone"
            print(f"(lin,Renyi) point, {kind}, alpha = 3, 30 digits, {what:<18}: median {statistics.median(ts):.2f} s "
                  f"{[round(x, 2) for x in ts]}")
    if args.skip_figures:
        return
    py = sys.executable
    cold, warm = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, CBDP_SYM_CACHE=os.path.join(tmp, "cache"), PYTHONHASHSEED="0")
            cmd = [py, "-m", "cbdp_sym", "audit", *FIGURE_CLAIMS, "--no-pdf", "--out", os.path.join(tmp, "out")]
            cold.append(_timed(cmd, env))
            warm.append(_timed(cmd, env))
    print(f"figure set (4 figures + continuations, 8 claims), cold: median {statistics.median(cold):.1f} s "
          f"{[round(x, 1) for x in cold]}")
    print(f"figure set, cached:                                   median {statistics.median(warm):.1f} s "
          f"{[round(x, 1) for x in warm]}")


if __name__ == "__main__":
    main()
