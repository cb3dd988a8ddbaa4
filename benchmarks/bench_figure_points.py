"""The figures' expensive points: one exact restricted (poly_k, Rényi) value, started at c = 0 (the solver before
the double-precision warm start) and from the double-precision minimiser (the default).  Printed, never asserted.

    python benchmarks/bench_figure_points.py [--runs 3] [--dps 20]

Each row calls :func:`cbdp_sym.restricted.solver.restricted` directly (no disk cache, no second method) after one
warm-up call per alpha that derives the conjugate and its profile (SymPy, once per process and alpha; the audit's
figure workers pay it once per alpha too).  The in-process memo of P's moments is cleared before every run.
Medians over ``--runs`` runs of the wall time and of the process's CPU time (``time.process_time``; the steadier
of the two on a shared machine); the values of both starts are printed to 12 digits and must agree.
The ``limit`` rows are the alpha -> infinity values of Figures 1b/2b (:func:`renyi_limit`, 30 digits as in the
figures).
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

POINTS = [("lap", "poly2", "18"), ("lap", "poly3", "18"), ("gau", "poly2", "16"), ("gau", "poly3", "18"),
          ("lap", "poly3", "1000"), ("gau", "poly3", "1000"), ("lap", "lin", "8"), ("gau", "lin", "20"),
          ("lap", "poly5", "5"), ("lap", "poly3", "limit"), ("gau", "poly3", "limit")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dps", type=int, default=20)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    import mpmath as mp

    import cbdp_sym.restricted.solver as S
    from cbdp_sym.laws.distributions import Laplace, Normal

    def run(kind, cls, al, warm):
        P, Q = (Laplace(0, 1), Laplace(1, 1)) if kind == "lap" else (Normal(0, 1), Normal(1, 1))
        S.WARM_START = warm
        S._MOMENTS.clear()
        try:
            if al == "limit":
                with mp.workdps(30):
                    return +S.renyi_limit(cls, P, Q).value
            with mp.workdps(args.dps):
                r = S.restricted("renyi", cls, P, Q, alpha=al, second=False)
                if not r.converged:
                    raise SystemExit(f"not converged: {kind} {cls} {al}")
                return +r.value
        finally:
            S.WARM_START = True

    print(f"machine: {os.cpu_count()} cores (shared), load average {os.getloadavg()[0]:.1f}; {args.runs} runs; "
          f"{args.dps} digits (limits: 30); seconds, medians")
    print("| point                  | cold wall | cold cpu | warm wall | warm cpu | cpu ratio | value (12 digits) |")
    print("|------------------------|-----------|----------|-----------|----------|-----------|-------------------|")
    tot = [0.0, 0.0]
    for kind, cls, al in POINTS:
        if al != "limit":
            run(kind, "lin", al, True)  # warm-up: the derivation at this alpha
        stats, vals = {}, {}
        for warm in (False, True):
            ts = []
            for _ in range(args.runs):
                w, c = time.perf_counter(), time.process_time()
                vals[warm] = run(kind, cls, al, warm)
                ts.append((time.perf_counter() - w, time.process_time() - c))
            stats[warm] = (statistics.median(t[0] for t in ts), statistics.median(t[1] for t in ts))
        v0, v1 = (mp.nstr(vals[w], 12) for w in (False, True))
        if v0 != v1:
            raise SystemExit(f"the two starts disagree at {kind} {cls} {al}: {v0} vs {v1}")
        tot[0] += stats[False][1]
        tot[1] += stats[True][1]
        print(f"| {kind + ' ' + cls + ' a=' + al:<22} | {stats[False][0]:9.2f} | {stats[False][1]:8.2f} | "
              f"{stats[True][0]:9.2f} | {stats[True][1]:8.2f} | {stats[False][1] / stats[True][1]:8.1f}x | {v1:>17} |",
              flush=True)
    print(f"| total                  |           | {tot[0]:8.2f} |           | {tot[1]:8.2f} | {tot[0] / tot[1]:8.1f}x |"
          "                   |")


if __name__ == "__main__":
    main()
