"""Privacy of the discrete Gaussian: its Rényi divergences (concentrated DP), KL, the exact (eps, delta) profile, and
the Rényi divergence of its K-fold composition.

Every derivation is the engine's, from the pmfs: the sum over the integers of ``P(k)^alpha Q(k)^(1 - alpha)`` has an
exponent that is a quadratic in ``k``; completing the square puts its centre at ``alpha mu + (1 - alpha) nu``, an
integer when ``alpha`` is, and a sum over Z is invariant under an integer shift, so the sum cancels against the
normaliser.  The numeric side sums the definitions over Z (tails bounded analytically) at 60 digits.
"""
import sympy as sp

from cbdp_sym import KL, Claim, Param, f_divergence, renyi_divergence
from cbdp_sym.conversions import profile_mp, profile_sym
from cbdp_sym.mechanisms import renyi_numeric
from cbdp_sym.mechanisms import Composition
from cbdp_sym import DiscreteGaussian

sigma = sp.Symbol("sigma", positive=True)
alpha = sp.Symbol("alpha", positive=True)  # a real order > 1
n = sp.Symbol("alpha", integer=True, positive=True)  # an integer order
eps = sp.Symbol("epsilon", nonnegative=True)
Delta = sp.Symbol("Delta", integer=True, positive=True)
K = sp.Symbol("K", integer=True, positive=True)

CONV = (r"$\mathcal{N}_{\mathbb{Z}}(\mu, \sigma^2)$: $P(k) \propto e^{-(k-\mu)^2/(2\sigma^2)}$ on $\mathbb{Z}$",
        "numeric: sums over Z from the definitions, tails bounded analytically")


def pair(s, shift=1):
    """The discrete Gaussian mechanism's outputs on two inputs whose query values differ by ``shift``."""
    return DiscreteGaussian(0, s), DiscreteGaussian(shift, s)


RENYI = Claim(
    id="DG-RENYI", label="Renyi divergence of two discrete Gaussians at integer orders", kind="identity",
    statement=r"D_\alpha\left(\mathcal N_{\mathbb Z}(0,\sigma^2) \,\|\, \mathcal N_{\mathbb Z}(1,\sigma^2)\right) = "
              r"\frac{\alpha}{2\sigma^2}\quad (\alpha \in \{2, 3, \ldots\})",
    quantity=r"D_\alpha(P \| Q)",
    params=[Param.integer_range("alpha", n, 2, 6), Param.positive("sigma", sigma, ("1", "1/2", "3", "10", "7/2"))],
    derive=lambda: renyi_divergence(*pair(sigma), n)[0],
    claimed=lambda: n / (2 * sigma**2),
    numeric=lambda v: renyi_numeric(*pair(v["sigma"]), v["alpha"]),
    where="Sec. 2 (privacy), the Rényi divergence of discrete Gaussians with integer means", conventions=CONV,
    notes="Equality holds when alpha (mu - nu) is an integer; DG-CDP audits the bound for every real alpha > 1.")

CDP = Claim(
    id="DG-CDP", label="concentrated DP: D_alpha <= alpha/(2 sigma^2) for all alpha > 1", kind="upper",
    statement=r"D_\alpha\left(\mathcal N_{\mathbb Z}(0,\sigma^2) \,\|\, \mathcal N_{\mathbb Z}(1,\sigma^2)\right) \le "
              r"\frac{\alpha}{2\sigma^2}\quad (\alpha > 1)",
    quantity=r"D_\alpha(P \| Q)",
    params=[Param.greater_than_one("alpha", alpha, ("3/2", "7/2", "101/100", "10", "5/2")),
            Param.positive("sigma", sigma, ("1/2", "1", "1/5", "3", "3/2"))],
    derive=lambda: renyi_divergence(*pair(sigma), alpha)[0],
    claimed=lambda: alpha / (2 * sigma**2),
    numeric=lambda v: renyi_numeric(*pair(v["sigma"]), v["alpha"]),
    search={"alpha": ("101/100", "30"), "sigma": ("1/5", "4")}, search_evals=24,
    where="Sec. 2 (privacy): the discrete Gaussian mechanism is (1/(2 sigma^2))-concentrated DP", conventions=CONV,
    notes="The derived form is alpha/(2 sigma^2) plus log(Z(c)/Z(0))/(alpha - 1) with Z(c) the sum over Z centred at "
          "c = 1 - alpha: Z(c) <= Z(0) is the Poisson-summation argument; the slack vanishes at integer alpha.")

CDP_F2 = Claim(
    id="DG-CDP-F2", label="a factor-2 variant of the Renyi identity", kind="identity",
    statement=r"D_\alpha\left(\mathcal N_{\mathbb Z}(0,\sigma^2) \,\|\, \mathcal N_{\mathbb Z}(1,\sigma^2)\right) = "
              r"\frac{\alpha}{\sigma^2}\quad (\alpha \in \{2, 3, \ldots\})",
    quantity=r"D_\alpha(P \| Q)",
    params=[Param.integer_range("alpha", n, 2, 4), Param.positive("sigma", sigma, ("1", "2", "1/2"))],
    derive=lambda: renyi_divergence(*pair(sigma), n)[0],
    claimed=lambda: n / sigma**2,
    numeric=lambda v: renyi_numeric(*pair(v["sigma"]), v["alpha"]),
    where="Sec. 2 (privacy): DG-RENYI as a slip would print it", conventions=CONV, error_kind="typo",
    notes="A refutation fixture: sigma^2 where the paper has 2 sigma^2.")

KLD = Claim(
    id="DG-KL", label="KL divergence of two discrete Gaussians", kind="identity",
    statement=r"\mathrm{KL}\left(\mathcal N_{\mathbb Z}(0,\sigma^2) \,\|\, \mathcal N_{\mathbb Z}(1,\sigma^2)\right) = "
              r"\frac{1}{2\sigma^2}",
    quantity=r"\mathrm{KL}(P \| Q)",
    params=[Param.positive("sigma", sigma)],
    derive=lambda: f_divergence(KL, *pair(sigma))[0],
    claimed=lambda: 1 / (2 * sigma**2),
    numeric=lambda v: renyi_numeric(*pair(v["sigma"]), 1),
    where="Sec. 2 (privacy): the limit alpha -> 1 of the Rényi divergence", conventions=CONV,
    notes="Derived as E_P[log P/Q]: the log-ratio is affine in k and the law is symmetric about 0, so E_P[k] = 0.")


def _tail(s, t):
    return DiscreteGaussian(0, s).sf(t)


DP = Claim(
    id="DG-DP", label="the exact (eps, delta) profile", kind="identity",
    statement=r"\delta(\varepsilon) = \mathbb P\left[Y > \tfrac{\varepsilon\sigma^2}{\Delta} - \tfrac{\Delta}{2}\right] - "
              r"e^{\varepsilon}\,\mathbb P\left[Y > \tfrac{\varepsilon\sigma^2}{\Delta} + \tfrac{\Delta}{2}\right],\quad "
              r"Y \sim \mathcal N_{\mathbb Z}(0,\sigma^2)",
    quantity=r"\delta_{P,Q}(\varepsilon)",
    params=[Param.positive("eps", eps, ("1/10", "1/2", "1", "2", "5", "3")),
            Param.positive("sigma", sigma, ("1/2", "1", "3", "10", "2", "3/2")),
            Param.positive_int("Delta", Delta, ("1", "2", "1", "3", "1", "2"))],
    derive=lambda: profile_sym(*pair(sigma, Delta), eps)[0],
    claimed=lambda: _tail(sigma, eps * sigma**2 / Delta - Delta / 2)
    - sp.exp(eps) * _tail(sigma, eps * sigma**2 / Delta + Delta / 2),
    numeric=lambda v: profile_mp(*pair(v["sigma"], v["Delta"]), v["eps"]),
    where="Sec. 2 (privacy): the tight (eps, delta)-DP guarantee of the discrete Gaussian mechanism", conventions=CONV,
    notes="Delta is the query's sensitivity (an integer). The numeric side sums (P(k) - e^eps Q(k))_+ over Z term by "
          "term; the claimed and derived forms are tail sums, evaluated with analytic tail bounds.")

COMP = Claim(
    id="DG-COMP", label="Renyi divergence of the K-fold composition", kind="identity",
    statement=r"D_\alpha\left(\mathcal N_{\mathbb Z}(0,\sigma^2)^{\otimes K} \,\|\, "
              r"\mathcal N_{\mathbb Z}(1,\sigma^2)^{\otimes K}\right) = \frac{K\alpha}{2\sigma^2}",
    quantity=r"D_\alpha(P^{\otimes K} \| Q^{\otimes K})",
    params=[Param.integer_range("alpha", n, 2, 4), Param.positive_int("K", K, ("1", "10", "1000")),
            Param.positive("sigma", sigma, ("1", "3", "1/2"))],
    derive=lambda: Composition([(*pair(sigma), K)]).renyi_sym(n),
    claimed=lambda: K * n / (2 * sigma**2),
    numeric=lambda v: Composition([(*pair(v["sigma"]), int(v["K"]))]).renyi(v["alpha"]),
    where="Sec. 2 (privacy): composition of concentrated DP", conventions=CONV)
