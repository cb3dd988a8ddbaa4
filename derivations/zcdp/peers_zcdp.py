"""Peer comparison for the zCDP paper: autodp and dp_accounting against our references.

The adapters and the peer-error table are those of :mod:`cbdp_sym.divergences.peers` (written for Mironov's paper); the zCDP and
pure-DP adapters missing there live in this paper's :mod:`._concentrated`.  References are ours
at the working precision, at the exact binary64 inputs the libraries received:

* the Rényi curve of eps-DP's extremal pair (randomized response) from its defining sums, against autodp's
  ``converter.puredp_to_rdp`` (Prop. 1.4's proof, the sinh form);
* ``xi + rho alpha`` against autodp's ``RDP_zCDP`` and dp_accounting's RDP accountant fed a ``ZCDpEvent`` (and a
  ``GaussianDpEvent``, whose curve is rho alpha with rho = 1/(2 sigma^2), Prop. 1.6);
* the zCDP-to-DP conversions: Prop. 1.3's closed form against autodp's continuous optimisation of Mironov's conversion;
  the improved conversion optimised over alpha against autodp (BBGHS) and, over dp_accounting's orders, against its
  ``get_epsilon``;
* the exact epsilon of the Gaussian mechanism (the derived privacy profile inverted) against ``get_epsilon_gaussian``
  and autodp's analytic Gaussian.

Every library value is compared with our reference to the digits its method guarantees (``needs``): 13 for a closed
form in binary64, fewer where the library's formula cancels (the predicted error of its conditioning), 8 for autodp's
Brent optimisation, 9 for the libraries' root finders.  Without the libraries the claim is ``skipped``.
"""
import math

import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Estimate, Evidence, Table, requires, sample
from cbdp_sym import Claim
from cbdp_sym import peers
from ._shared import ZPair, dpa_zcdp_epsilon
from ._shared import autodp_puredp_rdp, autodp_zcdp_rdp
from cbdp_sym.conversions import best_over_alpha, eps_from_profile, eps_improved
from cbdp_sym import Finite
from cbdp_sym.calculus import mp_str
from cbdp_sym.calculus import cached_derivation

SEED = "004_f41028c8afd8f9e7.txt"
LIBS = ("autodp", "dp_accounting")
EPS_PURE = (0.1, 1.0, 5.0)
ALPHAS = (1.0, 1.5, 2.0, 10.0, 100.0, math.inf)
ZC = ((0.01, 0.0), (0.5, 0.0), (0.1, 0.2))  # (rho, xi)
DELTA = 1e-6


def _rr(e):
    e = mp.mpf(e)
    p = mp.exp(e) / (1 + mp.exp(e))
    return ZPair.finite(Finite([0, 1], [p, 1 - p]), Finite([0, 1], [1 - p, p]))


@cached_derivation
def _gauss_profile():
    from cbdp_sym.conversions import hockey_stick_sym
    from cbdp_sym.mechanisms import gaussian_mechanism

    s, e = sp.symbols("sigma epsilon", positive=True)
    return s, e, hockey_stick_sym(*gaussian_mechanism(s, 1), e)[0]


def exact_gauss_eps(std, delta):
    s, e, prof = _gauss_profile()
    f = sp.lambdify([e, s], prof, modules="mpmath")
    return eps_from_profile(lambda x: f(x, mp.mpf(std)), mp.mpf(delta))


def _dpa_reference(rho, xi, delta, orders):
    """dp_accounting's rule over its own orders: the TV bound, orders <= 1.01 declined, max(0, improved conversion)."""
    best = mp.inf
    for a in orders:
        r = mp.mpf(xi) + mp.mpf(rho) * mp.mpf(a)
        if mp.mpf(delta) ** 2 > -mp.expm1(-r):
            return mp.mpf(0)
        if a <= 1.01:
            continue
        best = min(best, max(mp.mpf(0), eps_improved(r, mp.mpf(a), mp.mpf(delta))))
    return best


def _needs(rel_tol) -> int:
    """The digits of agreement a relative tolerance asks for (``1e-13`` -> 13)."""
    return max(1, int(mp.floor(-mp.log10(mp.mpf(rel_tol)))))


def _library(pv):
    """A library's binary64 value (17 significant digits), or ``nan`` when the call failed."""
    if pv.error is not None or pv.value is None:
        return mp.nan
    return Estimate(mp.mpf(pv.value), 17)


def _check(dps):
    requires(*LIBS)
    rows, parts = [], {"pure": [], "curves": [], "conv": [], "gauss": []}

    def add(part, what, alpha, lib, pv, ref, tol, why="", at=None):
        """One library value against our reference, to ``-log10(tol)`` digits; ``at``: the case as a typed point."""
        n = _needs(tol)
        at = dict(at or {}, library=lib.replace("_", " "))
        if alpha != "--":
            at["alpha"] = "inf" if alpha == "\\infty" else alpha
        parts[part].append(Compare(claimed=_library(pv), computed=ref, at=at, needs=n))
        err = "--" if pv.value is None or not mp.isfinite(ref) or ref == 0 else \
            mp.nstr(abs(mp.mpf(pv.value) - ref) / abs(ref), 2)
        case = f"{what}, $\\alpha = {alpha}$, {lib.replace('_', ' ')}" if alpha != "--" else f"{what}, {lib.replace('_', ' ')}"
        val = "--" if pv.value is None else (r"$\infty$" if math.isinf(pv.value) else mp_str(mp.mpf(pv.value), 17))
        rows.append([case, val, mp_str(ref, 17), err, f"{n}{why}"])

    # 1. pure DP -> Renyi curve (autodp): the sinh form cancels; its predicted error sets the digits it can keep
    for e in EPS_PURE:
        z = _rr(e)
        for a in ALPHAS:
            with mp.workdps(mp.mp.dps + 20):
                ref = z.renyi(mp.inf if a == math.inf else mp.mpf(a))
            pred = float(4 * peers.U * (1 + mp.mpf(e) * (mp.mpf(a) if a != math.inf else 1))
                         / max(ref * ((mp.mpf(a) - 1) if a not in (1.0, math.inf) else 1), mp.mpf(10) ** -300))
            tol = max(1e-13, 100 * pred)
            add("pure", f"$D_\\alpha(\\mathrm{{RR}}_\\varepsilon)$, $\\varepsilon={e:g}$",
                "\\infty" if a == math.inf else f"{a:g}", "autodp", autodp_puredp_rdp(e, a), ref, tol,
                "" if tol == 1e-13 else " (conditioning)", {"case": "pure DP", "eps": f"{e:g}"})
    # 2. zCDP curves
    for r, x in ZC:
        for a in (1.5, 10.0):
            add("curves", f"$\\xi+\\rho\\alpha$, $\\rho={r:g}$, $\\xi={x:g}$", f"{a:g}", "autodp",
                autodp_zcdp_rdp(r, x, a), mp.mpf(x) + mp.mpf(r) * mp.mpf(a), 1e-13,
                at={"case": "zCDP", "rho": f"{r:g}", "xi": f"{x:g}"})
    for std in (1.0, 10.0):
        for a in (2.0, 100.0):
            add("curves", f"Gaussian $\\rho\\alpha$, $\\sigma={std:g}$", f"{a:g}", "dp_accounting",
                peers.rdp("dp_accounting", "gaussian", a, std=std), mp.mpf(a) / (2 * mp.mpf(std) ** 2), 1e-13,
                at={"case": "Gaussian", "sigma": f"{std:g}"})
    # 3. conversions
    for r, x in ZC:
        rm, xm, dm = mp.mpf(r), mp.mpf(x), mp.mpf(DELTA)
        ref_m = xm + rm + 2 * mp.sqrt(rm * mp.log(1 / dm))  # Prop. 1.3 / Lemma 3.5 = Mironov's conversion optimised
        add("conv", f"RDP conversion optimised over $\\alpha$ (= L3.5), $\\rho={r:g}$, $\\xi={x:g}$", "--", "autodp",
            peers.eps_optimised_autodp(lambda a, r=r, x=x: x + r * a, DELTA, False), ref_m, 1e-8, " (Brent's method)",
            {"case": "RDP conversion", "rho": f"{r:g}", "xi": f"{x:g}"})
        ref_i, _a = best_over_alpha(lambda a: eps_improved(xm + rm * a, a, dm), include_inf=False)
        add("conv", f"improved conversion optimised over $\\alpha$, $\\rho={r:g}$, $\\xi={x:g}$", "--", "autodp",
            peers.eps_optimised_autodp(lambda a, r=r, x=x: x + r * a, DELTA, True), ref_i, 1e-8, " (Brent's method)",
            {"case": "improved conversion", "rho": f"{r:g}", "xi": f"{x:g}"})
        pv, orders = dpa_zcdp_epsilon(r, x, DELTA)
        add("conv", f"ZCDpEvent $\\varepsilon(10^{{-6}})$ over the accountant's orders, $\\rho={r:g}$, $\\xi={x:g}$", "--",
            "dp_accounting", pv, _dpa_reference(r, x, DELTA, orders), 1e-13,
            at={"case": "zCDP event", "rho": f"{r:g}", "xi": f"{x:g}"})
    # 4. exact Gaussian epsilon: ours (the derived profile inverted) against the quadrature profile, then the libraries
    ours = []
    for r in (0.01, 0.5):
        std = 1 / math.sqrt(2 * r)
        ref = exact_gauss_eps(std, DELTA)
        with mp.workdps(30):
            num = ZPair.normal(mp.mpf(std), 1).eps_at(mp.mpf(DELTA))
        ours.append(Compare(claimed=ref, computed=Estimate(num, 28), at={"case": "exact Gaussian", "rho": f"{r:g}"},
                            needs=25))
        for lib in LIBS:
            add("gauss", f"exact $\\varepsilon(10^{{-6}})$, Gaussian $\\rho={r:g}$", "--", lib,
                peers.exact_gaussian_eps(lib, std, DELTA), ref, 1e-9, " (root finding)",
                {"case": "exact Gaussian", "rho": f"{r:g}"})
    vers = peers.versions()
    node = All(
        sample(r"$\varepsilon \in \{0.1, 1, 5\}$, six orders", parts["pure"], lambda c: c,
               what=r"autodp's Rényi curve of $\varepsilon$-DP against the sums over $\mathrm{RR}_\varepsilon$ (Prop. 1.4's proof)"),
        sample(r"three $(\rho, \xi)$ and two Gaussians", parts["curves"], lambda c: c,
               what=r"the zCDP curve $\xi + \rho\alpha$ in both libraries"),
        sample(r"three $(\rho, \xi)$ at $\delta = 10^{-6}$", parts["conv"], lambda c: c,
               what=r"conversions to $(\varepsilon, \delta)$-DP optimised over the order"),
        sample(r"$\rho \in \{0.01, 0.5\}$ at $\delta = 10^{-6}$", ours, lambda c: c,
               what=r"our exact Gaussian $\varepsilon(\delta)$: the derived profile inverted against the quadrature profile"),
        sample(r"$\rho \in \{0.01, 0.5\}$ at $\delta = 10^{-6}$, both libraries", parts["gauss"], lambda c: c,
               what=r"the libraries' exact Gaussian $\varepsilon(\delta)$"),
        what="library values against our references, each to the digits its method guarantees")
    return Evidence(node, tables=[Table(
        "zCDP: library values against our references",
        ["case (library)", "library value", "reference (ours)", "rel. error", "digits required"], rows,
        (f"Libraries: autodp {vers['autodp']}, dp\\_accounting {vers['dp_accounting']}; $\\delta = 10^{{-6}}$. Digits "
         "required: 13 for a value in binary64; fewer where the library's formula cancels (100 times the error its "
         "conditioning predicts), 8 for autodp's Brent optimisation, 9 for the libraries' root finders."))])


PEERS = Claim(
    id="ZCDP-PEERS", paper="zcdp", label="Peer comparison: autodp and dp_accounting on zCDP curves, conversions, exact Gaussian",
    kind="check", statement=r"\text{zCDP and pure-DP curves, conversions and exact Gaussian epsilons in two libraries}",
    check=_check, where="Props. 1.3, 1.4, 1.6; Lemma 3.5", seed=SEED, role="remark",
    uses=("ZCDP-P1.3", "ZCDP-P1.4", "ZCDP-P1.6", "ZCDP-L3.5"),
    conventions=(r"references at the exact binary64 inputs; Gaussian: $\sigma = 1/\sqrt{2\rho}$ relative to sensitivity 1",),
    notes="An extra ID (not in the catalogue). The library adapters are shared with the RDP audit (zCDP and pure-DP "
          "adapters beside them).")
