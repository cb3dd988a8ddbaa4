"""The subsampled Gaussian, measured (issue 30's acceptance): printed, never asserted.

1. RDP of the Poisson-subsampled Gaussian (q = 0.01, sigma = 1, the remove pair) at alpha = 2..64: the exact
   binomial expansion against the definition's quadrature (digits of agreement), and at fractional orders the
   quadrature against itself at +20 digits and against the engine's generic quadrature;
2. eps(1e-5) of 1,000 compositions, both relations, with its stated error, the peers' errors and the CPU it costs;
3. the same at 70 digits, to show the digits the 50-digit value keeps.

    PYTHONPATH=. python benchmarks/bench_subsampled.py [--dps 50] [--skip-70]     (from the checkout's root)

CPU seconds (process time), not wall-clock: the machine is shared.
"""
import argparse
import time

import mpmath as mp
import sympy as sp

from cbdp_sym.app.cli_divergence import composed_profile_record
from cbdp_sym.core.numbers import digits
from cbdp_sym.divergences.composition import Composition
from cbdp_sym.divergences.numeric import renyi_mp
from cbdp_sym.divergences.subsampling import poisson_subsample, renyi_quadrature, subsampled_gaussian_rdp
from cbdp_sym.laws.distributions import Normal


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dps", type=int, default=50)
    ap.add_argument("--skip-70", action="store_true")
    args = ap.parse_args()
    q = sp.Rational(1, 100)
    M, Q = poisson_subsample(Normal(1, 1), Normal(0, 1), q)

    print("1. RDP of the subsampled Gaussian, exact (integer orders) against the definition's quadrature")
    t0 = time.process_time()
    worst = None
    with mp.workdps(args.dps + 10):
        for a in range(2, 65):
            exact = subsampled_gaussian_rdp(q, 1, a)
            quad = renyi_quadrature(M, Q, a)
            d = mp.mpf(args.dps + 10) if exact == quad else digits(exact, quad)
            worst = d if worst is None else min(worst, d)
            if a in (2, 3, 8, 16, 32, 48, 64):
                print(f"   alpha = {a:>2}: {mp.nstr(exact, 20)}  quadrature agrees to {mp.nstr(d, 4)} digits")
        print(f"   alpha = 2..64: the worst agreement is {mp.nstr(worst, 4)} digits "
              f"({time.process_time() - t0:.1f} CPU-s)")
        for a in (sp.Rational(3, 2), sp.Rational(5, 2), sp.Rational(101, 10), sp.Rational(75, 2)):
            v = renyi_quadrature(M, Q, a)
            gen = renyi_mp(M, Q, a)
            print(f"   alpha = {a}: {mp.nstr(v, 20)}  two precisions agree to >= {getattr(v, 'digits', args.dps + 10)} "
                  f"digits; the engine's generic quadrature to {mp.nstr(digits(v, gen), 4)}")

    print("2. eps(1e-5) of 1,000 compositions (q = 0.01, sigma = 1), both relations")
    t0 = time.process_time()
    out = composed_profile_record(Normal(1, 1), Normal(0, 1), delta="1e-5", dps=args.dps, symmetric=True,
                                  sample="0.01", compose=1000)
    cpu = time.process_time() - t0
    print(f"   eps = {out['eps']}  (relative error {out['error']}, {out['digits']} digits; worst direction: "
          f"{out['worst']})")
    for name, d in out["directions"].items():
        print(f"   {name}: eps = {d['eps']} (error {d['error']})")
    for row in out.get("peers", []):
        print(f"   peer {row['library']} {row['version']} [{row['method']}]: {row['value']}  "
              f"relative error {row['relative_error']}  {row['status']}")
    for row in out.get("conversions", []):
        print(f"   {row['conversion']}: eps = {row['eps']} (alpha = {row['alpha']}), relative slack {row['relative_slack']}")
    print(f"   cost: {cpu:.1f} CPU-s (the peers included)")

    if not args.skip_70:
        print("3. the same at 70 digits")
        t0 = time.process_time()
        with mp.workdps(80):
            e70 = [Composition([(A, B, 1000)]).eps(sp.Rational(1, 10**5)) for A, B in ((M, Q), (Q, M))]
        ref = max(r["eps"] for r in e70)
        with mp.workdps(80):
            print(f"   eps = {mp.nstr(ref, 70)}; the {args.dps}-digit value agrees to "
                  f"{mp.nstr(digits(mp.mpf(out['eps']), ref), 4)} digits ({time.process_time() - t0:.1f} CPU-s)")


if __name__ == "__main__":
    main()
