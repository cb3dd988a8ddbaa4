"""Timings of privacy profiles, eps(delta) and the conversion tables (issue 16). Printed, never asserted.

    python benchmarks/bench_profile.py [--runs 3] [--skip-tables]

* one profile point at 50 digits (numerics at 60): the Gaussian mechanism (sigma = 1) at eps = 1 and at
  eps = 40 (delta ~ 4e-343), through :func:`cbdp_sym.privacy_profile` (derived closed form evaluated and the
  quadrature of the definition), after one warm-up derivation;
* one eps(delta) at 50 digits: Gaussian sigma = 1 and Laplace scale 1 at delta = 1e-5 (closed-form root
  certified in Arb, and the root of the quadrature profile);
* the conversion tables: ``cbdp-sym audit RDP-P3-PROFILE ZCDP-P1.3-PROFILE ZCDP-L3.6-PROFILE --no-pdf`` with an
  empty numeric cache (cold) and with it filled (warm).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-tables", action="store_true")
    args = ap.parse_args()
    from cbdp_sym import privacy_profile
    from cbdp_sym.laws.distributions import Laplace, Normal

    G, L = (Normal(0, 1), Normal(1, 1)), (Laplace(0, 1), Laplace(1, 1))
    privacy_profile(*G, eps="1", dps=20)  # warm-up: the derivations (SymPy, once per process)
    privacy_profile(*L, eps="1/2", dps=20)
    print(f"machine: {os.cpu_count()} cores; runs: {args.runs}")
    for what, pair, kw in (("profile point, Gaussian, eps = 1", G, {"eps": "1"}),
                           ("profile point, Gaussian, eps = 40 (delta ~ 4e-343)", G, {"eps": "40"}),
                           ("eps(delta), Gaussian, delta = 1e-5", G, {"delta": "1e-5"}),
                           ("eps(delta), Laplace, delta = 1e-5", L, {"delta": "1e-5"})):
        ts = [_timed(lambda: privacy_profile(*pair, dps=50, **kw)) for _ in range(args.runs)]
        print(f"{what:<52}: median {statistics.median(ts):.2f} s {[round(x, 2) for x in ts]}")
    if args.skip_tables:
        return
    ids = ["RDP-P3-PROFILE", "ZCDP-P1.3-PROFILE", "ZCDP-L3.6-PROFILE"]
    cold, warm = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
            env = dict(os.environ, CBDP_SYM_CACHE=cache, PYTHONHASHSEED="0")
            cmd = [sys.executable, "-m", "cbdp_sym", "audit", *ids, "--no-pdf", "--out", out]
            t = time.perf_counter()
            subprocess.run(cmd, env=env, check=True, capture_output=True)
            cold.append(time.perf_counter() - t)
            t = time.perf_counter()
            subprocess.run(cmd, env=env, check=True, capture_output=True)
            warm.append(time.perf_counter() - t)
    print(f"{'conversion tables (3 claims), cold':<52}: median {statistics.median(cold):.1f} s {[round(x, 1) for x in cold]}")
    print(f"{'conversion tables (3 claims), warm':<52}: median {statistics.median(warm):.1f} s {[round(x, 1) for x in warm]}")


if __name__ == "__main__":
    main()
