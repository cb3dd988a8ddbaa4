"""CBDP's KL results: Lemma 1, Theorems 8-10, the KL cells of Table 1 and the KL remarks of Section 5.

P is the unshifted law and Q the law shifted by 1 (the Table 1 convention); Lap(mu, 1/eps) has
scale 1/eps, N(mu, sigma^2) takes the variance (``Normal`` takes the standard deviation).
"""
import mpmath as mp
import sympy as sp

from cbdp_sym import KL, Claim, Laplace, Normal, Param, Tex, f_divergence, fdiv_mp, record
from cbdp_sym.calculus import maximize
from cbdp_sym.divergences import AbstractLaw
from cbdp_sym.calculus import cached_numeric
from cbdp_sym.calculus import cached_derivation
from cbdp_sym.divergences import Expect
from cbdp_sym.symbols import X
from cbdp_sym import ParameterError
from cbdp_sym.restricted import restricted_mp, sup_over_intercept
from cbdp_sym.symbols import a, b, eps, mu1, mu2, sigma, sigma1, sigma2
from cbdp_sym.divergences import eliminate_intercept, lin_objective

SEED = "002_830385d3d6b7db1c.txt"
LAP = "Lap(mu, 1/eps) has scale 1/eps; P = Lap(0, 1/eps), Q = Lap(1, 1/eps) (P unshifted, Q shifted by 1)"
GAU = "N(mu, sigma^2) takes the variance; P = N(0, sigma^2), Q = N(1, sigma^2)"
KLC = KL.convention
EPS_POINTS = ("1/1000", "1/10", "1", "7/2", "100")
EPS_SWEEP = ("1/1000", "1/200", "1/50", "1/10", "1/4", "1/2", "1", "2", "7/2", "10", "30", "100")


def _samples(symbol, points):
    return [{symbol: sp.Rational(p)} for p in points]


# -- Lemma 1 --------------------------------------------------------------------------------------
def _lemma1():
    P, Q = AbstractLaw("P"), AbstractLaw("Q")
    J, _ = lin_objective(KL, P, Q)
    _bstar, value = eliminate_intercept(J, b)
    return value


def _lemma1_check(point):
    if not abs(point["a"]) < point["eps"]:
        raise ParameterError("CBDP-L1's instance needs |a| < eps (E_Q[e^{a x}] is finite only there)")


@cached_numeric
def _lemma1_numeric(e, a_, dps):
    return sup_over_intercept("kl", Laplace(0, 1 / e), Laplace(1, 1 / e), a_)


L1 = Claim(
    id="CBDP-L1", paper="cbdp", label="Lemma 1: (lin,KL) with the intercept eliminated", kind="identity",
    statement=r"\sup_b\ a^\top\mathbb{E}_P[\phi]+b-\mathbb{E}_Q[e^{a^\top\phi+b-1}]=a^\top\mathbb{E}_P[\phi]-\log\mathbb{E}_Q[e^{a^\top\phi}],"
              r"\ b^*=1-\log\mathbb{E}_Q[e^{a^\top\phi}]",
    quantity=r"\sup_b J(a,b)",
    params=[Param.positive("eps", eps), Param.real("a", a)],
    points=[{"eps": "1/10", "a": "1/20"}, {"eps": "1", "a": "-1/2"}, {"eps": "7/2", "a": "3"},
            {"eps": "100", "a": "-50"}, {"eps": "1/1000", "a": "1/2000"}],
    constraint=_lemma1_check,
    derive=_lemma1,
    claimed=lambda: a * Expect(sp.Symbol("P"), X) - sp.log(Expect(sp.Symbol("Q"), sp.exp(a * X))),
    laws=lambda v: {"P": Laplace(0, 1 / v["eps"]), "Q": Laplace(1, 1 / v["eps"])},
    numeric=lambda v: _lemma1_numeric(v["eps"], v["a"], mp.mp.dps),
    where="App. C.2, Lemma 1", seed=SEED, conventions=(KLC, "phi(x) = x; numeric instance: " + LAP),
    notes="Derived for arbitrary laws (expectations kept symbolic); checked numerically on the Laplace "
          "instance of Theorem 9 by maximising over b at fixed a.",
)


# -- Theorem 8 and the unrestricted KL cells -----------------------------------------------------
@cached_derivation
def _kl_laplace():
    value, _ = f_divergence(KL, Laplace(0, 1 / eps), Laplace(1, 1 / eps), lhs=Tex(r"\mathrm{KL}(P, Q)"))
    return value


def _kl_laplace_numeric(v):
    return _kl_laplace_at(v["eps"], mp.mp.dps)


@cached_numeric
def _kl_laplace_at(e, dps):
    """The quadrature of Thm. 8 and Table 1's unrestricted Laplace cell (the same pair at the same points): once."""
    return fdiv_mp(KL, Laplace(0, 1 / e), Laplace(1, 1 / e))


T8 = Claim(
    id="CBDP-T8", paper="cbdp", label="Thm. 8: KL of the Laplace mechanism", kind="identity",
    statement=r"\mathrm{KL}(\mathrm{Lap}(0,1/\epsilon),\mathrm{Lap}(1,1/\epsilon))=\epsilon-1+e^{-\epsilon}",
    quantity=r"\mathrm{KL}(P,Q)", params=[Param.positive("eps", eps, EPS_POINTS)],
    derive=_kl_laplace, claimed=lambda: eps - 1 + sp.exp(-eps), numeric=_kl_laplace_numeric,
    where="App. C.1, Thm. 8", seed=SEED, conventions=(KLC, LAP),
    notes="The proof's pieces on I1, I2, I3 appear as the integrals over the pieces of the split.",
)

TAB1_KL_LAP_UNR = Claim(
    id="CBDP-TAB1-KL-LAP-UNR", paper="cbdp", uses=("CBDP-T8",), label="Table 1: KL, Laplace, unrestricted", kind="identity",
    statement=r"\epsilon-1+e^{-\epsilon}", quantity=r"\mathrm{KL}(P,Q)", params=[Param.positive("eps", eps, EPS_POINTS)],
    derive=_kl_laplace, claimed=lambda: eps - 1 + sp.exp(-eps), numeric=_kl_laplace_numeric,
    where="Sec. 5, Table 1", seed=SEED, conventions=(KLC, LAP, "symmetric in P and Q (reflection x -> 1 - x)"),
)


@cached_derivation
def _kl_gauss():
    value, _ = f_divergence(KL, Normal(0, sigma), Normal(1, sigma), lhs=Tex(r"\mathrm{KL}(P, Q)"))
    return value


SIGMA_POINTS = ("1/100", "1/10", "1", "7/2", "100")

TAB1_KL_GAU_UNR = Claim(
    id="CBDP-TAB1-KL-GAU-UNR", paper="cbdp", label="Table 1: KL, Gaussian, unrestricted", kind="identity",
    statement=r"1/2\sigma^2", quantity=r"\mathrm{KL}(P,Q)", params=[Param.positive("sigma", sigma, SIGMA_POINTS)],
    derive=_kl_gauss, claimed=lambda: 1 / (2 * sigma**2),
    numeric=lambda v: fdiv_mp(KL, Normal(0, v["sigma"]), Normal(1, v["sigma"])),
    where="Sec. 5, Table 1", seed=SEED, conventions=(KLC, GAU, "the printed 1/2sigma^2 is read as 1/(2 sigma^2) (nicefrac in seed 002)"),
)


# -- Theorem 9: (lin,KL) of Laplace ----------------------------------------------------------------
@cached_derivation
def _lin_kl(P, Q, samples):
    J, (lo, hi) = lin_objective(KL, P, Q)
    _bstar, Ja = eliminate_intercept(J, b, samples=samples)
    Ja = sp.simplify(sp.expand_log(Ja, force=True))
    _astar, value = maximize(Ja, a, lo, hi, samples=samples, name=Tex("J(a)"))
    return value


def _lin_kl_laplace():
    return _lin_kl(Laplace(0, 1 / eps), Laplace(1, 1 / eps), tuple(tuple(d.items()) for d in _samples(eps, EPS_SWEEP)))


def _lin_numeric_lap(v):
    return _lin_kl_numeric_laplace_at(v["eps"], mp.mp.dps)


@cached_numeric
def _lin_kl_numeric_laplace_at(e, dps):
    return restricted_mp("kl", "lin", Laplace(0, 1 / e), Laplace(1, 1 / e))


T9_PRINTED = sp.log(1 - ((1 - sp.sqrt(1 + eps**2)) / eps) ** 2) + sp.sqrt(1 + eps**2) - 1

T9 = Claim(
    id="CBDP-T9", paper="cbdp", uses=("CBDP-L1",), label="Thm. 9: (lin,KL) of the Laplace mechanism", kind="identity",
    statement=r"\mathrm{KL}^{lin}(P,Q)=\log\left(1-\left(\frac{1-\sqrt{1+\epsilon^2}}{\epsilon}\right)^2\right)+\sqrt{1+\epsilon^2}-1",
    quantity=r"\mathrm{KL}^{\mathrm{lin}}(P,Q)", params=[Param.positive("eps", eps, EPS_POINTS)],
    derive=_lin_kl_laplace, claimed=lambda: T9_PRINTED, numeric=_lin_numeric_lap,
    where="App. C.2, Thm. 9", seed=SEED, conventions=(KLC, LAP, r"lin = {a x + b}"),
    notes="Numeric: damped Newton on the (a, b) objective with split quadrature, polished at the working precision.",
)

TAB1_KL_LAP_LIN = Claim(
    id="CBDP-TAB1-KL-LAP-LIN", paper="cbdp", uses=("CBDP-T9",), label="Table 1: KL, Laplace, linear adversary", kind="identity",
    statement=r"\sqrt{1+\epsilon^2}-1+\log\left(1-\frac{(\sqrt{1+\epsilon^2}-1)^2}{\epsilon^2}\right)",
    quantity=r"\mathrm{KL}^{\mathrm{lin}}(P,Q)", params=[Param.positive("eps", eps, EPS_POINTS)],
    derive=_lin_kl_laplace,
    claimed=lambda: sp.sqrt(1 + eps**2) - 1 + sp.log(1 - (sp.sqrt(1 + eps**2) - 1) ** 2 / eps**2),
    numeric=_lin_numeric_lap, where="Sec. 5, Table 1", seed=SEED,
    conventions=(KLC, LAP, "symmetric in P and Q (reflection x -> 1 - x)"),
)


# -- Theorem 10: (lin,KL) of Gaussians -------------------------------------------------------------
def _lin_kl_gauss_general():
    samples = tuple(((mu1, sp.Integer(0)), (mu2, sp.Integer(1)), (sigma1, sp.Integer(1)), (sigma2, sp.Integer(2))),)
    return _lin_kl(Normal(mu1, sigma1), Normal(mu2, sigma2), samples)


@cached_numeric
def _lin_gauss_numeric(m1, m2, s1, s2, dps):
    return restricted_mp("kl", "lin", Normal(m1, s1), Normal(m2, s2))


def _t10_check(point):
    if point["mu1"] == point["mu2"]:
        raise ParameterError("mu1 = mu2 gives the value 0, where relative digits are undefined: choose mu1 != mu2")


T10 = Claim(
    id="CBDP-T10", paper="cbdp", label="Thm. 10: (lin,KL) of two Gaussians", kind="identity",
    statement=r"\mathrm{KL}^{lin}(\mathcal N(\mu_1,\sigma_1^2),\mathcal N(\mu_2,\sigma_2^2))=\frac{(\mu_1-\mu_2)^2}{2\sigma_2^2}",
    quantity=r"\mathrm{KL}^{\mathrm{lin}}(P,Q)",
    params=[Param.real("mu1", mu1, ("0", "2", "-1", "1/2", "3")), Param.real("mu2", mu2, ("1", "-1", "1/2", "3", "-2")),
            Param.positive("sigma1", sigma1, ("1", "3", "1/2", "2", "1/10")),
            Param.positive("sigma2", sigma2, ("1", "1/2", "3", "1/10", "2"))],
    constraint=_t10_check, derive=_lin_kl_gauss_general, claimed=lambda: (mu1 - mu2) ** 2 / (2 * sigma2**2),
    numeric=lambda v: _lin_gauss_numeric(v["mu1"], v["mu2"], v["sigma1"], v["sigma2"], mp.mp.dps),
    where="App. C.2, Thm. 10", seed=SEED,
    conventions=(KLC, "N(mu, sigma^2) takes the variance; P = N(mu1, sigma1^2), Q = N(mu2, sigma2^2)"),
    notes="The value does not depend on sigma1: a linear adversary sees only the means.",
)


def _lin_kl_gauss_table():
    return _lin_kl(Normal(0, sigma), Normal(1, sigma), tuple(tuple(d.items()) for d in _samples(sigma, SIGMA_POINTS)))


TAB1_KL_GAU_LIN = Claim(
    id="CBDP-TAB1-KL-GAU-LIN", paper="cbdp", uses=("CBDP-T10",), label="Table 1: KL, Gaussian, linear adversary", kind="identity",
    statement=r"1/2\sigma^2", quantity=r"\mathrm{KL}^{\mathrm{lin}}(P,Q)", params=[Param.positive("sigma", sigma, SIGMA_POINTS)],
    derive=_lin_kl_gauss_table, claimed=lambda: 1 / (2 * sigma**2),
    numeric=lambda v: _lin_gauss_numeric(sp.Integer(0), sp.Integer(1), v["sigma"], v["sigma"], mp.mp.dps),
    where="Sec. 5, Table 1", seed=SEED, conventions=(KLC, GAU),
)


# -- Section 5 remarks -----------------------------------------------------------------------------
def _gaukl():
    """(lin,KL) = KL for equal-variance Gaussians; records the unrestricted maximiser h* = 1 + log(p/q)."""
    P, Q = Normal(mu1, sigma), Normal(mu2, sigma)
    ratio = sp.expand(P.log_pdf() - Q.log_pdf())
    hstar = 1 + ratio
    deg = sp.degree(sp.expand(hstar), X)
    record(Tex(r"h^*(x) = f'\!\left(\frac{p}{q}\right) = 1 + \log\frac{p(x)}{q(x)}"), sp.collect(sp.expand(hstar), X),
           f"unrestricted maximiser of the variational form: a polynomial of degree {deg} in $x$, hence in lin")
    samples = (((mu1, sp.Integer(0)), (mu2, sp.Integer(1)), (sigma, sp.Integer(1))),)
    return _lin_kl(P, Q, samples)


S5_GAUKL = Claim(
    id="CBDP-S5-GAUKL", paper="cbdp", label="Sec. 5: (lin,KL) equals KL for the Gaussian mechanism", kind="identity",
    statement=r"\mathrm{KL}^{lin}(P,Q)=\mathrm{KL}(P,Q)\ \text{for } P=\mathcal N(\mu_1,\sigma^2),\ Q=\mathcal N(\mu_2,\sigma^2)"
              r"\text{, because the maximising } h \text{ is linear}",
    quantity=r"\mathrm{KL}^{\mathrm{lin}}(P,Q)",
    params=[Param.real("mu1", mu1, ("0", "2", "-1", "1/2", "3")), Param.real("mu2", mu2, ("1", "-1", "1/2", "3", "-2")),
            Param.positive("sigma", sigma, ("1", "1/2", "3", "1/10", "2"))],
    constraint=_t10_check, derive=_gaukl,
    claimed=lambda: f_divergence(KL, Normal(mu1, sigma), Normal(mu2, sigma))[0],
    numeric=lambda v: _lin_gauss_numeric(v["mu1"], v["mu2"], v["sigma"], v["sigma"], mp.mp.dps),
    where="Sec. 5, Gaussian mechanism", seed=SEED, conventions=(KLC, "N(mu, sigma^2) takes the variance; equal variances"),
    notes="The claimed side is the unrestricted KL, derived from its definition; the quantity is the restricted "
          "supremum. With unequal variances the two differ (the restricted value ignores sigma1).",
)

S5_LAPKL = Claim(
    id="CBDP-S5-LAPKL", paper="cbdp", uses=("CBDP-TAB1-KL-LAP-LIN", "CBDP-TAB1-KL-LAP-UNR"), label="Sec. 5: (lin,KL) of Laplace is smaller than KL", kind="strict-upper",
    statement=r"\mathrm{KL}^{lin}(P,Q) < \mathrm{KL}(P,Q)=\epsilon-1+e^{-\epsilon}\ \text{(\"slightly smaller\")}",
    quantity=r"\mathrm{KL}^{\mathrm{lin}}(P,Q)", params=[Param.positive("eps", eps, EPS_SWEEP)],
    sweep=[{"eps": e} for e in EPS_SWEEP],
    derive=_lin_kl_laplace, claimed=lambda: eps - 1 + sp.exp(-eps), numeric=_lin_numeric_lap,
    where="Sec. 5, Laplace mechanism", seed=SEED, conventions=(KLC, LAP),
    notes="The strict inequality is checked on a sweep of eps over [1e-3, 1e2]; the slack column shows how "
          "much smaller: about half of KL as eps -> 0 (KL ~ eps^2/2, (lin,KL) ~ eps^2/4), a few percent at eps = 100.",
)
