"""Timings of the d-dimensional (lin, Rényi) solver, cbdp_sym.restricted.products (printed, never asserted).

One point = one call of restricted_lin_product("renyi", P, Q, alpha) between product laws, at mp.dps 40
(30 digits wanted by a caller at dps 30 + 10) and at mp.dps 60 (the audit's default 50 + 10), without and
with the second method.  Median of 3 runs after a warm-up (the SymPy derivations are cached in memory).

    python benchmarks/bench_restricted_dd.py [--quick]
"""
import statistics
import sys
import time

import mpmath as mp

from cbdp_sym.laws.distributions import Laplace, Normal, Product
from cbdp_sym.restricted.products import restricted_lin_product


def lap(*locs, scales=None):
    scales = scales or [1] * len(locs)
    return Product(*[Laplace(l, s) for l, s in zip(locs, scales)])


def gau(*locs):
    return Product(*[Normal(l, 1) for l in locs])


CASES = [
    ("Laplace d=1, v=1", lap(0), lap(1), 3),
    ("Laplace d=2, v=(1, 1/2)", lap(0, 0), lap(1, "1/2"), 3),
    ("Laplace d=3, v=(1,-1/2,1/3), scales (1,2,1/2)", lap(0, 0, 0), lap(1, "-1/2", "1/3", scales=[1, 2, "1/2"]), 3),
    ("Laplace d=4, v=(1, 1/2, -1/4, 2)", lap(0, 0, 0, 0), lap(1, "1/2", "-1/4", 2), 3),
    ("Laplace d=4, v=(1,1,1,1) (one symmetry group)", lap(0, 0, 0, 0), lap(1, 1, 1, 1), 3),
    ("Gaussian d=3, v=(1, 2, 2)", gau(0, 0, 0), gau(1, 2, 2), "7/2"),
    ("Gaussian d=4, v=(1, 1/2, -1/4, 2)", gau(0, 0, 0, 0), gau(1, "1/2", "-1/4", 2), 3),
]


def median_time(fn, runs=3):
    """Median wall-clock and CPU seconds (CPU time is the fair number on a shared machine)."""
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)


def main():
    quick = "--quick" in sys.argv
    runs = 1 if quick else 3
    with mp.workdps(20):  # warm-up: derivations (conjugate, profiles, Laplace-sum polynomials)
        restricted_lin_product("renyi", lap(0, 0), lap(1, 1), alpha=3)
        restricted_lin_product("renyi", gau(0, 0), gau(1, 1), alpha=3)
    print("wall / CPU seconds per point")
    print(f"{'case':52s} {'alpha':>5s} {'dps40':>12s} {'dps40+2nd':>12s} {'dps60':>12s} {'dps60+2nd':>12s}")
    for label, P, Q, alpha in CASES:
        row = []
        for dps in (40, 60):
            for second in (False, True):
                def one(dps=dps, second=second):
                    with mp.workdps(dps):
                        restricted_lin_product("renyi", P, Q, alpha=alpha, second=second)
                row.append(median_time(one, runs))
        print(f"{label:52s} {str(alpha):>5s} " + " ".join(f"{w:5.2f}/{c:5.2f}s" for w, c in row))
    print(f"(median of {runs} run(s) each, seconds; second method at 22 digits)")


if __name__ == "__main__":
    main()
