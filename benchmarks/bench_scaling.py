"""How the cost grows: one restricted Rényi point against the precision, the polynomial degree and the dimension,
and a small audit against ``--jobs``.  Printed as a table, never asserted.

    python benchmarks/bench_scaling.py [--runs 3] [--only dps,degree,dim,jobs] [--max-dps 200]

Every solver point calls :func:`cbdp_sym.restricted.solver.restricted` directly (no disk cache, no second method), after one
warm-up call that derives the conjugate and its profile (SymPy, once per process).  Each row reports the median
wall time and the median CPU time of the process (``time.process_time``) over ``--runs`` runs (one run for the
points above 50 digits, which are not cheap); on a shared machine the CPU time is the steadier of the two.

* precision: (lin, Rényi), Laplace(0, 1) against Laplace(1, 1), alpha = 3, at 30, 50, 100, 200 digits;
* degree: (poly_k, Rényi), same pair, alpha = 3, 30 digits, k = 1..5;
* dimension: (lin, Rényi) between product laws, P = Lap(0, 1)^d and Q = P shifted by v, 30 digits, alpha = 3,
  d = 1..6, with v = (1, ..., 1) (the symmetry reduction leaves one group: one unknown) and with distinct
  shifts v_i = i (d groups: d unknowns, the law of a . x a partial-fraction mixture of d Laplace rates); and the
  Gaussian product with distinct shifts (a . x is Gaussian whatever d);
* jobs: ``cbdp-sym audit`` of a small subset with an empty cache and ``--no-pdf``, at ``--jobs`` 1 and 2.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBSET = ["CBDP-T9", "CBDP-T10", "CBDP-L1", "CBDP-TAB1-KL-LAP-LIN", "CBDP-TAB1-REN-GAU-UNR", "CBDP-T12"]


def _time(fn):
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def _runs(fn, n):
    ts = [_time(fn) for _ in range(n)]
    return statistics.median(t[0] for t in ts), statistics.median(t[1] for t in ts), len(ts)


def _solve(P, Q, cls, dps, alpha="3"):
    import mpmath as mp

    from cbdp_sym.restricted.solver import restricted

    def run():
        with mp.workdps(dps):
            r = restricted("renyi", cls, P, Q, alpha=alpha, second=False)
        if not r.converged:
            raise SystemExit(f"not converged: {cls} {P!r} {Q!r} at {dps} digits")
    return run


def _row(what, x, stats, base=None):
    wall, cpu, n = stats
    ratio = f"{cpu / base:6.2f}x" if base else "   1.00x"
    print(f"| {what:<34} | {x:>10} | {wall:8.2f} | {cpu:8.2f} | {ratio} | {n} |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="dps,degree,dim,jobs")
    ap.add_argument("--max-dps", type=int, default=200)
    ap.add_argument("--max-degree", type=int, default=5)
    ap.add_argument("--max-dim", type=int, default=6)
    args = ap.parse_args()
    only = set(args.only.split(","))
    sys.path.insert(0, str(ROOT))
    from cbdp_sym.laws.distributions import Laplace, Normal, Product

    P1, Q1 = Laplace(0, 1), Laplace(1, 1)
    _solve(P1, Q1, "lin", 20)()  # warm-up: the derived conjugate and profile
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; runs: {args.runs} "
          "(1 above 50 digits); times in seconds, medians; ratio = CPU time / the first row of the block")
    print("| what                               |          x |     wall |      cpu |   ratio | runs |")
    print("|------------------------------------|------------|----------|----------|---------|------|")
    if "dps" in only:
        base = None
        for dps in (30, 50, 100, 200):
            if dps > args.max_dps:
                break
            st = _runs(_solve(P1, Q1, "lin", dps), args.runs if dps <= 50 else 1)
            base = base or st[1]
            _row("(lin,Renyi) Lap, alpha 3: dps", dps, st, base)
    if "degree" in only:
        base = None
        for k in range(1, args.max_degree + 1):
            st = _runs(_solve(P1, Q1, "lin" if k == 1 else f"poly{k}", 30), args.runs)
            base = base or st[1]
            _row("(poly_k,Renyi) Lap, 30 digits: k", k, st, base)
    if "dim" in only:
        from cbdp_sym.restricted.products import laplace_sum_poly

        # the densities of sums of k Laplace variables are derived by SymPy once (cached on disk and in memory):
        # derive them first, so that the rows time the solver, not the one-time derivation
        w0 = time.perf_counter()
        for k in range(1, args.max_dim + 4):
            laplace_sum_poly(k)
        print(f"(one-time SymPy derivation of the Laplace-sum densities P_1..P_{args.max_dim + 3}: "
              f"{time.perf_counter() - w0:.1f} s wall, not in the rows)")
        for label, fam, distinct in (("Lap^d, v = (1,..,1)", Laplace, False), ("Lap^d, v_i = i", Laplace, True),
                                     ("N^d, v_i = i", Normal, True)):
            base = None
            for d in range(1, args.max_dim + 1):
                shifts = [i + 1 if distinct else 1 for i in range(d)]
                P = Product(*[fam(0, 1) for _ in range(d)]) if d > 1 else fam(0, 1)
                Q = Product(*[fam(s, 1) for s in shifts]) if d > 1 else fam(shifts[0], 1)
                st = _runs(_solve(P, Q, "lin", 30), args.runs if d <= 3 else 1)
                base = base or st[1]
                _row(f"(lin,Renyi) {label}: d", d, st, base)
    if "jobs" in only:
        base = None
        for jobs in (1, 2):
            def audit(jobs=jobs):
                with tempfile.TemporaryDirectory() as tmp:
                    env = dict(os.environ, CBDP_SYM_CACHE=str(Path(tmp) / "cache"), PYTHONHASHSEED="0")
                    subprocess.run([sys.executable, "-m", "cbdp_sym", "audit", *SUBSET, "--no-pdf", "--jobs", str(jobs),
                                    "--out", str(Path(tmp) / "out")], cwd=ROOT, env=env, check=True, capture_output=True)
            # the audit runs in child processes: report wall time (the CPU column is the parent's, near 0)
            ts = [_time(audit) for _ in range(args.runs)]
            wall = statistics.median(t[0] for t in ts)
            base = base or wall
            print(f"| {'audit of ' + str(len(SUBSET)) + ' claims, cold: --jobs':<34} | {jobs:>10} | {wall:8.2f} | "
                  f"{'-':>8} | {wall / base:6.2f}x | {len(ts)} |", flush=True)
        print(f"(subset: {' '.join(SUBSET)}; ratio = wall time / --jobs 1)")


if __name__ == "__main__":
    main()
