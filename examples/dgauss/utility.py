"""Utility of the discrete Gaussian: its variance is below sigma^2, its moment generating function is sub-Gaussian,
and its tails are Gaussian.

The variance is derived through Poisson summation: ``E[X^2] = sum k^2 e^{-k^2/(2 sigma^2)} / sum e^{-k^2/(2 sigma^2)}``
and both sums over Z equal their dual sums, whose leading terms give exactly ``sigma^2``, so that
``Var[X] - sigma^2 = -4 pi^2 sigma^4 sum n^2 e^{-2 pi^2 sigma^2 n^2} / sum e^{-2 pi^2 sigma^2 n^2} < 0``.  The claim is
audited on that difference, computed without cancellation (about ``-4.3e-852`` at ``sigma = 10``): rounding
``Var[X]`` and ``sigma^2`` to 60 digits first would make them equal and a strict inequality look violated.
"""
import sympy as sp

from cbdp_sym import Claim, Param, expect
from cbdp_sym.calculus import to_mpf
from cbdp_sym.symbols import X
from cbdp_sym.mechanisms import poisson_dual
from cbdp_sym import DiscreteGaussian

sigma = sp.Symbol("sigma", positive=True)
t = sp.Symbol("t", real=True)
m = sp.Symbol("m", positive=True)

CONV = (r"$X \sim \mathcal{N}_{\mathbb{Z}}(0, \sigma^2)$: $P(k) \propto e^{-k^2/(2\sigma^2)}$ on $\mathbb{Z}$",
        "numeric: sums over Z from the definitions, tails bounded analytically, cancellation recovered at higher "
        "precision")

VAR = Claim(
    id="DG-VAR", label="the variance is below sigma^2", kind="strict-upper",
    statement=r"\mathrm{Var}[X] < \sigma^2", quantity=r"\mathrm{Var}[X] - \sigma^2",
    params=[Param.positive("sigma", sigma, ("1/10", "1/2", "1", "3", "10"))],
    derive=lambda: poisson_dual(expect(DiscreteGaussian(0, sigma), X**2)[0] - sigma**2),
    claimed=lambda: sp.Integer(0),
    numeric=lambda v: DiscreteGaussian(0, v["sigma"]).mp_expect(
        lambda k: k**2 - to_mpf(v["sigma"]) ** 2, growth=(1 + to_mpf(v["sigma"]) ** 2, 2)),
    where="Sec. 3 (utility): the variance of the discrete Gaussian", conventions=CONV,
    notes="Encoded as Var[X] - sigma^2 < 0 (the mean is 0 by symmetry); the quantity is summed as sum (k^2 - sigma^2) "
          "P(k) with the digits cancellation costs recovered at higher precision.")

MGF = Claim(
    id="DG-MGF", label="the moment generating function is sub-Gaussian", kind="upper",
    statement=r"\mathbb E\left[e^{tX}\right] \le e^{t^2\sigma^2/2}\quad (t \in \mathbb R)",
    quantity=r"\mathbb E[e^{tX}]",
    params=[Param.real("t", t, ("-3", "-1/2", "1/10", "1", "5/2")),
            Param.positive("sigma", sigma, ("3", "1", "2", "1/2", "1/10"))],
    derive=lambda: expect(DiscreteGaussian(0, sigma), sp.exp(t * X))[0],
    claimed=lambda: sp.exp(t**2 * sigma**2 / 2),
    numeric=lambda v: DiscreteGaussian(0, v["sigma"]).mp_mgf(to_mpf(v["t"])),
    search={"t": ("-5", "5"), "sigma": ("1/5", "5")}, search_evals=24,
    where="Sec. 3 (utility): the discrete Gaussian is sub-Gaussian", conventions=CONV,
    notes="Derived: completing the square gives e^{t^2 sigma^2/2} Z(t sigma^2)/Z(0); equality when t sigma^2 is an "
          "integer (t = -3, sigma = 3).")

TAIL = Claim(
    id="DG-TAIL", label="the tail bound", kind="upper",
    statement=r"\mathbb P[X \ge m] \le e^{-m^2/(2\sigma^2)}\quad (m > 0)", quantity=r"\mathbb P[X \ge m]",
    params=[Param.positive("m", m, ("1/2", "1", "3", "10", "25")),
            Param.positive("sigma", sigma, ("1/2", "1", "3", "2", "10"))],
    derive=lambda: DiscreteGaussian(0, sigma).sf(m, strict=False),
    claimed=lambda: sp.exp(-m**2 / (2 * sigma**2)),
    numeric=lambda v: DiscreteGaussian(0, v["sigma"]).mp_sf(v["m"], strict=False),
    search={"m": ("1/10", "40"), "sigma": ("1/5", "10")}, search_evals=24,
    where="Sec. 3 (utility): tail bound (Chernoff, from the sub-Gaussian moment generating function)", conventions=CONV)

TAIL_F2 = Claim(
    id="DG-TAIL-F2", label="a factor-2 variant of the tail bound", kind="upper",
    statement=r"\mathbb P[X \ge m] \le e^{-m^2/\sigma^2}\quad (m > 0)", quantity=r"\mathbb P[X \ge m]",
    params=[Param.positive("m", m, ("1", "3", "10")), Param.positive("sigma", sigma, ("1", "3", "2"))],
    derive=lambda: DiscreteGaussian(0, sigma).sf(m, strict=False),
    claimed=lambda: sp.exp(-m**2 / sigma**2),
    numeric=lambda v: DiscreteGaussian(0, v["sigma"]).mp_sf(v["m"], strict=False),
    where="Sec. 3 (utility): DG-TAIL as a slip would print it", conventions=CONV, error_kind="typo",
    notes="A refutation fixture: the certificate encloses the tail sum in Arb balls, its own tail bound included.")
