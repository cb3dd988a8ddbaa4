"""The discrete Laplace law, the paper's point of comparison: pure DP, its variance, and its concentrated DP.

Every sum here is a geometric series, closed by the engine (split at the kinks of ``|k|`` and ``|k - 1|``)."""
import sympy as sp

from cbdp_sym import Claim, Param, expect, max_divergence, renyi_divergence
from cbdp_sym.mechanisms import renyi_numeric
from cbdp_sym.symbols import X
from cbdp_sym import DiscreteLaplace

t = sp.Symbol("t", positive=True)
alpha = sp.Symbol("alpha", positive=True)

CONV = (r"$\mathrm{Lap}_{\mathbb{Z}}(\mu, t)$: $P(k) \propto e^{-|k-\mu|/t}$ on $\mathbb{Z}$ (DiscreteLaplace(mu, t))",
        "numeric: sums over Z from the definitions, tails bounded analytically")


def pair(s):
    return DiscreteLaplace(0, s), DiscreteLaplace(1, s)


DLAP_DP = Claim(
    id="DG-DLAP-DP", label="the discrete Laplace law is (1/t)-DP", kind="identity",
    statement=r"D_\infty\left(\mathrm{Lap}_{\mathbb Z}(0,t) \,\|\, \mathrm{Lap}_{\mathbb Z}(1,t)\right) = \frac{1}{t}",
    quantity=r"D_\infty(P \| Q)",
    params=[Param.positive("t", t)],
    derive=lambda: max_divergence(*pair(t))[0],
    claimed=lambda: 1 / t,
    numeric=lambda v: renyi_numeric(*pair(v["t"]), sp.oo),
    where="Sec. 1 and 4 (the discrete Laplace mechanism)", conventions=CONV)

DLAP_VAR = Claim(
    id="DG-DLAP-VAR", label="the variance of the discrete Laplace law", kind="identity",
    statement=r"\mathrm{Var}\left[\mathrm{Lap}_{\mathbb Z}(0, t)\right] = \frac{2 e^{-1/t}}{(1 - e^{-1/t})^2}",
    quantity=r"\mathrm{Var}[X]",
    params=[Param.positive("t", t)],
    derive=lambda: expect(DiscreteLaplace(0, t), X**2)[0],
    claimed=lambda: 2 * sp.exp(-1 / t) / (1 - sp.exp(-1 / t)) ** 2,
    numeric=lambda v: DiscreteLaplace(0, v["t"]).mp_variance(),
    where="Sec. 4 (comparisons): the variance of the discrete Laplace noise", conventions=CONV)

DLAP_CDP = Claim(
    id="DG-DLAP-CDP", label="the discrete Laplace law is (1/(2t^2))-zCDP", kind="upper",
    statement=r"D_\alpha\left(\mathrm{Lap}_{\mathbb Z}(0,t) \,\|\, \mathrm{Lap}_{\mathbb Z}(1,t)\right) \le "
              r"\frac{\alpha}{2t^2}\quad (\alpha > 1)",
    quantity=r"D_\alpha(P \| Q)",
    params=[Param.greater_than_one("alpha", alpha), Param.positive("t", t, ("1/10", "1", "7/2", "100", "1/2"))],
    derive=lambda: renyi_divergence(*pair(t), alpha)[0],
    claimed=lambda: alpha / (2 * t**2),
    numeric=lambda v: renyi_numeric(*pair(v["t"]), v["alpha"]),
    search={"alpha": ("101/100", "100"), "t": ("1/20", "20")}, search_evals=16,
    where="Sec. 4 (comparisons): pure DP implies concentrated DP", conventions=CONV,
    notes="epsilon-DP implies (epsilon^2/2)-zCDP (Bun and Steinke 2016) with epsilon = 1/t (DG-DLAP-DP).")
