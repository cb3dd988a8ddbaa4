"""A subsampled mechanism: the Rényi divergence of the Poisson-subsampled discrete Gaussian at integer orders.

For integer orders the binomial expansion of ``((1 - q) + q P/Q)^alpha`` under ``Q`` (Mironov, Talwar, Zhang 2019)
gives a finite sum, each ``E_Q[(P/Q)^j] = e^{(j-1) D_j(P || Q)}`` derived by the engine: for the discrete Gaussian
``D_j = j/(2 sigma^2)`` exactly (DG-RENYI), so the continuous Gaussian's formula carries over.  The numeric side sums
the definition over Z for the mixture ``(1 - q) N_Z(0, sigma^2) + q N_Z(1, sigma^2)`` (the ``remove`` pair)."""
import sympy as sp

from cbdp_sym import Claim, Param
from cbdp_sym.mechanisms import renyi_numeric
from cbdp_sym import poisson_subsample
from cbdp_sym.mechanisms import subsampled_renyi_sym
from cbdp_sym import DiscreteGaussian

sigma = sp.Symbol("sigma", positive=True)
q = sp.Symbol("q", positive=True)
n = sp.Symbol("alpha", integer=True, positive=True)
j = sp.Symbol("j", integer=True, nonnegative=True)


def mechanism(s):
    """``(P, Q)``: the discrete Gaussian mechanism with and without the individual's record (sensitivity 1)."""
    return DiscreteGaussian(1, s), DiscreteGaussian(0, s)


SUB = Claim(
    id="DG-SUB", label="Renyi divergence of the Poisson-subsampled discrete Gaussian at integer orders",
    kind="identity",
    statement=r"D_\alpha\left((1-q)\mathcal N_{\mathbb Z}(0,\sigma^2) + q\,\mathcal N_{\mathbb Z}(1,\sigma^2) \,\|\, "
              r"\mathcal N_{\mathbb Z}(0,\sigma^2)\right) = \frac{1}{\alpha-1}\log\sum_{j=0}^{\alpha}\binom{\alpha}{j}"
              r"(1-q)^{\alpha-j} q^j e^{j(j-1)/(2\sigma^2)}",
    quantity=r"D_\alpha(M \| Q)",
    params=[Param.integer_range("alpha", n, 2, 6), Param.unit("q", q, ("1/100", "1/10", "1/2", "9/10", "1/1000")),
            Param.positive("sigma", sigma, ("1", "1/2", "3", "2", "10"))],
    derive=lambda: subsampled_renyi_sym(*mechanism(sigma), q, n)[0],
    claimed=lambda: sp.log(sp.Sum(sp.binomial(n, j) * (1 - q) ** (n - j) * q**j * sp.exp(j * (j - 1) / (2 * sigma**2)),
                                  (j, 0, n))) / (n - 1),
    numeric=lambda v: renyi_numeric(*poisson_subsample(*mechanism(v["sigma"]), v["q"]), v["alpha"]),
    where="Subsampled mechanisms (the subsampled Gaussian's integer-order RDP of Mironov, Talwar and Zhang 2019, "
          "carried over to the discrete Gaussian)",
    conventions=(r"the remove pair: $M = (1-q)Q + qP$ against $Q$",
                 "numeric: the mixture's Rényi sum over Z, tails bounded analytically"))
