"""Bun-Steinke: Gaussian mechanisms (Lemmas 2.4, 2.5, Prop. 1.6 and its privacy-loss law, Sec. 1.1 eq. (2)) and
Appendix A (the postprocessed Gaussian that is not mCDP: Prop. A.1, Lemma A.2).

``N(mu, sigma^2)`` takes the variance; the toolkit's ``Normal(loc, std)`` the standard deviation.  Rényi
divergences are derived by the engine (the exponent ``alpha log p + (1 - alpha) log q`` written as a completed
square, then the Gaussian integral) and checked against split quadrature of ``p^alpha q^(1 - alpha)``.
"""
import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Evidence, Readings, Table, sample
from cbdp_sym import KL, Claim, Normal, Param, Tex, f_divergence, record
from cbdp_sym.calculus import cached_numeric
from ._shared import ZPair, affine_loss_law, certify_lt, complete_square, random_finite_pairs
from cbdp_sym import Finite, Product
from cbdp_sym.symbols import X
from cbdp_sym import renyi_divergence
from cbdp_sym import ParameterError
from cbdp_sym.calculus import DerivationError
from cbdp_sym.families import cached_check, cached_point
from cbdp_sym.mechanisms import renyi_numeric
from cbdp_sym.calculus import mp_str, to_mpf
from cbdp_sym import fdiv_mp
from cbdp_sym.divergences import I_, renyi_shift_sum
from cbdp_sym.calculus import cached_derivation
from cbdp_sym.calculus import time_limit

SEED = "004_f41028c8afd8f9e7.txt"
mu, nu = sp.symbols("mu nu", real=True)
sigma = sp.Symbol("sigma", positive=True)
alpha = sp.Symbol("alpha", positive=True)
Delta = sp.Symbol("Delta", positive=True)
v = sp.Symbol("v", real=True)
z = sp.Symbol("z", real=True)
t = sp.Symbol("t", positive=True)
lam = sp.Symbol("lambda", real=True)
d = sp.Symbol("d", integer=True, positive=True)
vv = sp.IndexedBase("v", real=True)
GAU = r"$\mathcal N(\mu, \sigma^2)$ takes the variance (the toolkit's Normal(loc, std) the standard deviation)."
QUAD = r"Numeric side: split tanh-sinh quadrature of $p^\alpha q^{1-\alpha}$ (extra digits near $\alpha = 1$)"


def _n(x):
    return x if isinstance(x, mp.mpf) else to_mpf(x)


# -- Lemma 2.4 -------------------------------------------------------------------------------------------------
@cached_derivation
def _l24():
    P, Q = Normal(mu, sigma), Normal(nu, sigma)
    expo = sp.expand(alpha * P.log_pdf() - (alpha - 1) * Q.log_pdf())
    record(Tex(r"\alpha\log p(x)+(1-\alpha)\log q(x)"), expo, "log of the integrand")
    c, h, k = complete_square(expo, X, lhs=Tex(r"\alpha\log p(x)+(1-\alpha)\log q(x)"))
    with time_limit(30, "vertex"):
        if sp.simplify(h - (alpha * mu + (1 - alpha) * nu)) != 0:
            raise DerivationError("the vertex is not alpha mu + (1 - alpha) nu")
    record(Tex(r"x^*"), alpha * mu + (1 - alpha) * nu, "the vertex, as in the printed proof")
    val, _ = renyi_divergence(P, Q, alpha, lhs=Tex(r"D_\alpha(\mathcal N(\mu,\sigma^2)\|\mathcal N(\nu,\sigma^2))"))
    return sp.factor(val)


def _l24_numeric(vals):
    return renyi_numeric(Normal(_n(vals["mu"]), _n(vals["sigma"])), Normal(_n(vals["nu"]), _n(vals["sigma"])), _n(vals["alpha"]))


L24 = Claim(
    id="ZCDP-L2.4", paper="zcdp", label=r"Lemma 2.4: $D_\alpha(\mathcal N(\mu, \sigma^2)\|\mathcal N(\nu, \sigma^2)) = \alpha(\mu - \nu)^2/2\sigma^2$",
    kind="identity", statement=r"D_\alpha(\mathcal N(\mu,\sigma^2)\|\mathcal N(\nu,\sigma^2))=\frac{\alpha(\mu-\nu)^2}{2\sigma^2}",
    quantity=r"D_\alpha(P\|Q)",
    params=[Param.real("mu", mu, ("0", "2", "-1/2", "3", "0")), Param.real("nu", nu, ("1", "0", "1", "-3", "1/10")),
            Param.positive("sigma", sigma, ("1", "3", "1/2", "10", "1/100")),
            Param.greater_than_one("alpha", alpha, ("2", "7/2", "1001/1000", "50", "3/2"))],
    derive=_l24, claimed=lambda: alpha * (mu - nu) ** 2 / (2 * sigma**2), numeric=cached_point("ZCDP-L2.4", _l24_numeric),
    where="Sec. 2, Lemma 2.4", seed=SEED, conventions=(GAU, QUAD + "."),
    notes=r"The printed hypothesis $\sigma \in \mathbb R$ needs $\sigma \ne 0$ ($\sigma^2 > 0$); $\sigma$ is taken positive. "
          r"$\alpha = 1$ is ZCDP-L2.4-KL. Instance never printed: shift $2$, scale $3$, $\alpha = 7/2$.")


@cached_derivation
def _l24_kl():
    w = sp.Symbol("w", real=True)
    record(Tex(r"D_1(\mathcal N(\mu,\sigma^2)\|\mathcal N(\nu,\sigma^2))"), Tex(r"D_1(\mathcal N(0,\sigma^2)\|\mathcal N(w,\sigma^2))"),
           "change of variables $x \\mapsto x - \\mu$ (both densities shift), $w = \\nu - \\mu$")
    val, _ = f_divergence(KL, Normal(0, sigma), Normal(w, sigma), lhs=Tex(r"D_1(P\|Q)"))
    return sp.factor(sp.simplify(val.subs(w, nu - mu)))


L24_KL = Claim(
    id="ZCDP-L2.4-KL", paper="zcdp", label=r"Lemma 2.4 at $\alpha = 1$ (the KL divergence)", kind="identity",
    statement=r"D_1(\mathcal N(\mu,\sigma^2)\|\mathcal N(\nu,\sigma^2))=\frac{(\mu-\nu)^2}{2\sigma^2}", quantity=r"D_1(P\|Q)",
    params=[Param.real("mu", mu, ("0", "2", "-1/2", "3")), Param.real("nu", nu, ("1", "0", "1", "-3")),
            Param.positive("sigma", sigma, ("1", "3", "1/2", "10"))],
    derive=_l24_kl, claimed=lambda: (mu - nu) ** 2 / (2 * sigma**2),
    numeric=lambda vals: fdiv_mp(KL, Normal(_n(vals["mu"]), _n(vals["sigma"])), Normal(_n(vals["nu"]), _n(vals["sigma"]))),
    where="Sec. 2, Lemma 2.4 (the order 1 included)", seed=SEED, conventions=(GAU,))


# -- Lemma 2.5 -------------------------------------------------------------------------------------------------
@cached_derivation
def _l25():
    return renyi_shift_sum(lambda w: (Normal(0, sigma), Normal(w, sigma)), vv, d, alpha,
                           lhs=Tex(r"D_\alpha(\mathcal N(0,\sigma^2I_d)\|\mathcal N(v,\sigma^2I_d))"))


def _l25_numeric(vals):
    s = _n(vals["sigma"])
    P = Product(*[Normal(0, s) for _ in vals["v"]])
    Q = Product(*[Normal(_n(x), s) for x in vals["v"]])
    return renyi_numeric(P, Q, _n(vals["alpha"]))


L25 = Claim(
    id="ZCDP-L2.5", paper="zcdp", label="Lemma 2.5 and eq. (3): d-dimensional Gaussians", kind="identity",
    statement=r"D_\alpha(\mathcal N(\mu,\sigma^2I_d)\|\mathcal N(\nu,\sigma^2I_d))=\frac{\alpha\lVert\mu-\nu\rVert_2^2}{2\sigma^2}",
    quantity=r"D_\alpha(P\|Q)",
    params=[Param.positive_int("d", d), Param.vector("v", vv, ("1",), length_of="d", description=r"$\nu - \mu$"),
            Param.positive("sigma", sigma), Param.greater_than_one("alpha", alpha)],
    points=[{"d": "1", "v": "1", "sigma": "1", "alpha": "2"}, {"d": "2", "v": "2,-1", "sigma": "3", "alpha": "7/2"},
            {"d": "3", "v": "1/2,0,-3", "sigma": "1/2", "alpha": "1001/1000"}, {"d": "2", "v": "1,1", "sigma": "10", "alpha": "50"}],
    derive=_l25, claimed=lambda: alpha * sp.Sum(vv[I_] ** 2, (I_, 1, d)) / (2 * sigma**2),
    numeric=cached_point("ZCDP-L2.5", _l25_numeric), where="Sec. 2, Lemma 2.5 and eq. (3)", seed=SEED,
    conventions=(GAU, r"$\mu = 0$, $\nu = v$ (the divergence depends on $\mu - \nu$ only).",
                 QUAD + ", coordinate by coordinate (Fubini)."),
    notes=r"Eq. (3) follows: the mechanism $q(x) + \mathcal N(0, \sigma^2 I_d)$ has $\sup$ over neighbours of "
          r"$D_\alpha/\alpha$ equal to $\sup\lVert q(x) - q(x')\rVert_2^2/2\sigma^2$.")


# -- Proposition 1.6 and the privacy loss of the Gaussian mechanism --------------------------------------------------
@cached_derivation
def _p16():
    val, _ = renyi_divergence(Normal(0, sigma), Normal(v, sigma), alpha, lhs=Tex(r"D_\alpha(M(x)\|M(x'))"))
    r = sp.simplify(val / alpha)
    record(Tex(r"D_\alpha/\alpha"), r, "divided by $\\alpha$: the same for every order (the zCDP curve is exactly linear)")
    return r


def _p16_check(pt):
    if abs(pt["v"]) > pt["Delta"]:
        raise ParameterError("the shift |q(x) - q(x')| must not exceed the sensitivity Delta")


def _p16_numeric(vals):
    return _l24_numeric({"mu": 0, "nu": vals["v"], "sigma": vals["sigma"], "alpha": vals["alpha"]}) / _n(vals["alpha"])


P16 = Claim(
    id="ZCDP-P1.6", paper="zcdp", label=r"Prop. 1.6: the Gaussian mechanism is $(\Delta^2/2\sigma^2)$-zCDP, tight at every order",
    kind="upper", statement=r"D_\alpha(\mathcal N(q(x),\sigma^2)\|\mathcal N(q(x'),\sigma^2))/\alpha\le\frac{\Delta^2}{2\sigma^2},\ "
                            r"|q(x)-q(x')|\le\Delta",
    quantity=r"D_\alpha(M(x)\|M(x'))/\alpha",
    params=[Param.positive("sigma", sigma), Param.positive("Delta", Delta), Param.real("v", v), Param.greater_than_one("alpha", alpha)],
    constraint=_p16_check,
    sweep=[{"sigma": s_, "Delta": D_, "v": v_, "alpha": a_} for s_, D_, v_, a_ in (
        ("1", "1", "1", "2"), ("3", "2", "2", "7/2"), ("1/2", "1", "-1", "1001/1000"), ("10", "1", "1/2", "50"),
        ("1", "1", "0", "2"), ("2", "3", "-3", "1000"), ("1/10", "1/10", "1/20", "3/2"))],
    derive=_p16, claimed=lambda: Delta**2 / (2 * sigma**2), numeric=cached_point("ZCDP-P1.6", _p16_numeric),
    where="Sec. 1.1, Prop. 1.6 and the remark after it", seed=SEED, conventions=(GAU, QUAD + "."), uses=("ZCDP-L2.4",),
    notes=r"Equality (zero slack) whenever $|q(x) - q(x')| = \Delta$, at every order: (1) is exactly tight; (2) is exactly "
          "tight by ZCDP-P1.6-MGF.")


@cached_derivation
def _loss_law():
    mean, var, _Z = affine_loss_law(Normal(0, sigma), Normal(Delta, sigma))
    rho_ = Delta**2 / (2 * sigma**2)
    record(Tex(r"(\mathbb E Z,\mathrm{Var}\,Z)"), sp.Tuple(sp.simplify(mean - rho_), sp.simplify(var - 2 * rho_)),
           "minus $(\\rho, 2\\rho)$ with $\\rho = \\Delta^2/2\\sigma^2$")
    cdf = (1 + sp.erf((z - mean) / sp.sqrt(2 * var))) / 2
    record(Tex(r"\mathbb P[Z\le z]"), cdf, "the normal distribution function")
    return cdf


def _loss_numeric(vals):
    zp = ZPair.normal(_n(vals["sigma"]), _n(vals["Delta"]))
    return 1 - zp.tail(_n(vals["z"]))


def _phi(u):
    return (1 + sp.erf(u / sp.sqrt(2))) / 2


RHO_G = Delta**2 / (2 * sigma**2)

P16_LOSS = Claim(
    id="ZCDP-P1.6-LOSS", paper="zcdp", label=r"The privacy loss of the Gaussian mechanism is $\mathcal N(\rho, 2\rho)$", kind="identity",
    statement=r"Z=\mathrm{PrivLoss}(\mathcal N(0,\sigma^2)\|\mathcal N(\Delta,\sigma^2))\sim\mathcal N(\rho,2\rho),\ \rho=\frac{\Delta^2}{2\sigma^2}",
    quantity=r"\mathbb P[Z\le z]",
    params=[Param.positive("sigma", sigma, ("1", "3", "1/2", "10")), Param.positive("Delta", Delta, ("1", "2", "1", "1/10")),
            Param.real("z", z, ("0", "1/2", "-3", "1/1000"))],
    derive=_loss_law, claimed=lambda: _phi((z - RHO_G) / sp.sqrt(2 * RHO_G)), numeric=_loss_numeric,
    where="Sec. 1.1 (the privacy loss 'resembles a Gaussian', exact for the Gaussian mechanism)",
    seed=SEED, conventions=(GAU, r"Numeric side: the $P$-mass of $\{y : \log(p(y)/q(y)) \le z\}$ (the root of the "
                                 "log-ratio, the normal distribution function)."))


@cached_derivation
def _mgf():
    mean, var, _Z = affine_loss_law(Normal(0, sigma), Normal(Delta, sigma))
    m = sp.exp((alpha - 1) * mean + (alpha - 1) ** 2 * var / 2)
    record(Tex(r"\mathbb E[e^{(\alpha-1)Z}]"), sp.simplify(m), "the moment generating function of a normal law")
    return sp.simplify(m)


def _mgf_numeric(vals):
    P, Q = Normal(0, _n(vals["sigma"])), Normal(_n(vals["Delta"]), _n(vals["sigma"]))
    a1 = _n(vals["alpha"]) - 1
    f = lambda y: mp.exp(P.mp_log_pdf(y) + a1 * (P.mp_log_pdf(y) - Q.mp_log_pdf(y)))  # noqa: E731
    c = -a1 * _n(vals["Delta"])
    return mp.quad(f, [-mp.inf, c - 10 * P.mp_width(), c, c + 10 * P.mp_width(), mp.inf])


P16_MGF = Claim(
    id="ZCDP-P1.6-MGF", paper="zcdp", label="Eq. (2) is exactly tight for the Gaussian mechanism", kind="identity",
    statement=r"\mathbb E[e^{(\alpha-1)Z}]=e^{(\alpha-1)\rho\alpha},\ \rho=\frac{\Delta^2}{2\sigma^2}",
    quantity=r"\mathbb E[e^{(\alpha-1)Z}]",
    params=[Param.positive("sigma", sigma, ("1", "3", "1/2", "10")), Param.positive("Delta", Delta, ("1", "2", "1", "3")),
            Param.greater_than_one("alpha", alpha, ("2", "7/2", "1001/1000", "20"))],
    derive=_mgf, claimed=lambda: sp.exp((alpha - 1) * RHO_G * alpha), numeric=cached_point("ZCDP-P1.6-MGF", _mgf_numeric),
    where="Sec. 1.1, the remark after Prop. 1.6", seed=SEED, uses=("ZCDP-P1.6",),
    conventions=(GAU, r"Numeric side: quadrature of $p(y)e^{(\alpha-1)\log(p(y)/q(y))}$."))


def _s11a(dps):
    al_ = sp.Symbol("alpha", positive=True)
    I = sp.Symbol("I", positive=True)
    step = sp.simplify(sp.exp((al_ - 1) * (sp.log(I) / (al_ - 1))))
    fin, gau = [], []
    pairs = [(f"#{i}", zp) for i, (_lab, zp) in enumerate(random_finite_pairs(111, 5))]
    p = mp.e / (1 + mp.e)
    pairs.append(("randomized response 1", ZPair.finite(Finite([0, 1], [p, 1 - p]), Finite([0, 1], [1 - p, p]))))
    for lab, zp in pairs:
        for a in ("1001/1000", "2", "7/2", "30"):
            av = to_mpf(sp.Rational(a))
            mgf = zp.loss_moment(av - 1)  # E_P[e^{(alpha - 1) Z}] over the privacy-loss atoms
            first = mp.fsum(to_mpf(pp) ** av * to_mpf(qq) ** (1 - av) for pp, qq in zip(zp.P.probs, zp.Q.probs)
                            if to_mpf(pp) > 0)
            fin.append(Compare(claimed=first, computed=mgf, at={"pair": lab, "alpha": a}))
    for s_, D_ in (("1", "1"), ("1/2", "1"), ("3", "2")):
        for a in ("3/2", "5"):
            vals = {"sigma": sp.Rational(s_), "Delta": sp.Rational(D_), "alpha": sp.Rational(a)}
            mgf = _mgf_numeric(vals)
            first = mp.exp((to_mpf(vals["alpha"]) - 1) * _l24_numeric({"mu": 0, "nu": vals["Delta"], "sigma": vals["sigma"],
                                                                       "alpha": vals["alpha"]}))
            gau.append(Compare(claimed=first, computed=mgf, at={"sigma": s_, "Delta": D_, "alpha": a}))
    return All(
        sample("5 seeded random finite pairs and randomized response with parameter 1", fin, lambda c: c,
               what=r"$\mathbb E[e^{(\alpha-1)Z}]$ over the privacy-loss atoms $= \sum P^\alpha Q^{1-\alpha}$"),
        sample(r"Gaussian pairs $\mathcal N(0, \sigma^2)$, $\mathcal N(\Delta, \sigma^2)$", gau, lambda c: c,
               what=r"$\mathbb E[e^{(\alpha-1)Z}]$ (quadrature of $pe^{(\alpha-1)\log(p/q)}$) $= e^{(\alpha-1)D_\alpha}$ "
                    r"($D_\alpha$ by quadrature of $p^\alpha q^{1-\alpha}$)"),
        Compare(claimed=I, computed=step, what=r"(1) $\iff$ (2): $e^{(\alpha-1)\log(I)/(\alpha-1)} = I$ ($\alpha > 1$, "
                                               r"$\exp$ increasing)"))


S11A = Claim(
    id="ZCDP-S1.1a", paper="zcdp", label="Sec. 1.1, eq. (2): zCDP through the privacy loss's moment generating function",
    kind="check", statement=r"D_\alpha\le\xi+\rho\alpha\iff\mathbb E[e^{(\alpha-1)Z}]\le e^{(\alpha-1)(\xi+\rho\alpha)}",
    check=cached_check(_s11a), where="Sec. 1.1, eq. (2)", seed=SEED)


# -- Appendix A ------------------------------------------------------------------------------------------------------
def _pq(s_, t_):
    """p = P[N(0, s^2) > t - 1], q = P[N(0, s^2) > t + 1]: the normal tail probabilities (mpmath's ncdf, accurate
    far in the tail where a quadrature of the density loses relative accuracy)."""
    return mp.ncdf(-(t_ - 1) / s_), mp.ncdf(-(t_ + 1) / s_)


def _three_point_mgf(s_, t_, l_):
    p, q = _pq(s_, t_)
    P = Finite([1, -1, 0], [p, q, 1 - p - q])
    L = {1: mp.log(p / q), -1: mp.log(q / p), 0: mp.mpf(0)}
    m = mp.fsum(pp * L[x] for x, pp in zip(P.points, P.probs))
    return mp.fsum(pp * mp.exp(l_ * (L[x] - m)) for x, pp in zip(P.points, P.probs))


def _phic(u):
    return sp.erfc(u / sp.sqrt(2)) / 2


p_, q_ = sp.symbols("p q", positive=True)


@cached_derivation
def _sa1():
    record(Tex(r"\mathbb P[M'(1)=0]"), Tex(r"\mathbb P[-t\le\mathcal N(1,\sigma^2)\le t]=\mathbb P[\mathcal N(0,\sigma^2)\in[-t-1,t-1]]"),
           "shift by $-1$: the printed interval")
    pp, qq = _phic((t - 1) / sigma), _phic((t + 1) / sigma)
    mid = sp.simplify(1 - pp - qq - (_phic((-t - 1) / sigma) - _phic((t - 1) / sigma)))
    record(Tex(r"\mathbb P[\mathcal N(0,\sigma^2)\in[-t-1,t-1]]-(1-p-q)"), mid,
           "with $p = \\mathbb P[\\mathcal N(0,\\sigma^2) > t-1]$, $q = \\mathbb P[\\mathcal N(0,\\sigma^2) > t+1]$: the symmetry of the normal law")
    if mid != 0:
        raise DerivationError("the middle outcome's mass is not 1 - p - q")
    L = Finite([1, -1, 0], [p_, q_, 1 - p_ - q_])
    Zs = {1: sp.log(p_ / q_), -1: sp.log(q_ / p_), 0: sp.Integer(0)}
    EZ = sp.factor(sp.expand_log(sum(pr * Zs[x] for x, pr in L.pmf()), force=True))
    record(Tex(r"\mathbb E[Z]"), EZ, "three outcomes; $f(1) = \\log(p/q)$, $f(-1) = \\log(q/p)$, $f(0) = 0$")
    mgf = sum(pr * sp.exp(lam * (Zs[x] - EZ)) for x, pr in L.pmf())
    record(Tex(r"\mathbb E[e^{\lambda(Z-\mathbb E Z)}]"), mgf, "definition")
    return mgf


def _sa1_numeric(vals):
    p, q, l_ = _n(vals["p"]), _n(vals["q"]), _n(vals["lambda"])
    atoms = [(p, mp.log(p / q)), (q, mp.log(q / p)), (1 - p - q, mp.mpf(0))]
    m = mp.fsum(a * z for a, z in atoms)
    return mp.fsum(a * mp.exp(l_ * (z - m)) for a, z in atoms)


def _sa1_claimed():
    return (p_ * (p_ / q_) ** lam + q_ * (q_ / p_) ** lam + 1 - p_ - q_) * (p_ / q_) ** (-lam * (p_ - q_))


def _sa1_check(pt):
    if not (pt["p"] > pt["q"] and pt["p"] + pt["q"] < 1):
        raise ParameterError("the three-point law needs p > q and p + q < 1")


SA1 = Claim(
    id="ZCDP-SA.1", paper="zcdp", label="Proof of Prop. A.1: the three-point privacy loss and its centred moment generating "
                                        "function", kind="identity",
    statement=r"\mathbb E[e^{\lambda(Z-\mathbb E[Z])}]=\left(p\left(\frac pq\right)^\lambda+q\left(\frac qp\right)^\lambda+1-p-q\right)"
              r"\left(\frac pq\right)^{-\lambda(p-q)};\ \mathbb E[Z]=(p-q)\log(p/q)",
    quantity=r"\mathbb E[e^{\lambda(Z-\mathbb E[Z])}]",
    params=[Param.unit("p", p_, ("1/4", "1/2", "9/10", "1/50")), Param.unit("q", q_, ("1/100", "1/3", "1/20", "1/1000")),
            Param("lambda", lam, "real", ("2", "7/2", "-1", "1/10"))],
    constraint=_sa1_check, derive=_sa1, claimed=_sa1_claimed, numeric=_sa1_numeric, where="App. A, proof of Prop. A.1",
    role="proof",
    seed=SEED, conventions=(r"$p = \mathbb P[\mathcal N(0, \sigma^2) > t - 1]$, $q = \mathbb P[\mathcal N(0, \sigma^2) > t + 1]$ "
                            r"(the derivation checks the mass of the middle outcome); the identity holds for every $p > q$ with "
                            r"$p + q < 1$; numeric side: the three-term sums.",))


def _sa0(dps):
    cmp_ = []
    for s_ in ("1", "2", "1/2"):
        sv = to_mpf(sp.Rational(s_))
        P, Q = Normal(1, sv), Normal(-1, sv)
        Lf = lambda y: P.mp_log_pdf(y) - Q.mp_log_pdf(y)  # noqa: E731
        EZ = mp.quad(lambda y: P.mp_pdf(y) * Lf(y), [-mp.inf, 1, mp.inf])
        cmp_.append(Compare(claimed=2 / sp.Rational(s_) ** 2, computed=EZ, at={"sigma": s_},
                            what=r"$\mathbb E[Z] = 2/\sigma^2$"))
        for l_ in ("-2", "-1/2", "1/2", "2"):
            lv = to_mpf(sp.Rational(l_))
            mg = mp.quad(lambda y: P.mp_pdf(y) * mp.exp(lv * (Lf(y) - EZ)), [-mp.inf, 1 + lv * 2, mp.inf])
            cmp_.append(Compare(claimed=sp.exp(sp.Rational(l_) ** 2 * (2 / sp.Rational(s_)) ** 2 / 2), computed=mg,
                                at={"sigma": s_, "lambda": l_},
                                what=r"$\mathbb E[e^{\lambda(Z - \mathbb E Z)}] = e^{\lambda^2(2/\sigma)^2/2}$"))
        for a in ("3/2", "5"):
            av = to_mpf(sp.Rational(a))
            cmp_.append(Compare(claimed=2 / sp.Rational(s_) ** 2, computed=renyi_numeric(P, Q, av) / av,
                                at={"sigma": s_, "alpha": a}, what=r"$D_\alpha/\alpha = 2/\sigma^2$"))
    return sample(r"$M(x) = \mathcal N(x, \sigma^2)$, $x \in \{-1, 1\}$, $\sigma \in \{1, 2, 1/2\}$ (quadrature)", cmp_,
                  lambda c: c, what=r"the mCDP bound with $\tau = 2/\sigma$ holds with equality, and $D_\alpha/\alpha = "
                                    r"2/\sigma^2$")


SA0 = Claim(
    id="ZCDP-SA.0", paper="zcdp", label=r"App. A: the one-bit Gaussian mechanism is $(2/\sigma^2, 2/\sigma)$-mCDP and $2/\sigma^2$-zCDP",
    kind="check", statement=r"M(x)\sim\mathcal N(x,\sigma^2),\ x\in\{-1,1\}:\ (2/\sigma^2,2/\sigma)\text{-mCDP},\ (2/\sigma^2)\text{-zCDP}",
    check=cached_check(_sa0), where="App. A, before Prop. A.1", seed=SEED, conventions=(GAU,), uses=("ZCDP-P1.6",))


@cached_numeric
def _pa1_gap(s_, t_, dps):
    """log E[e^{lam(Z - EZ)}] - 2 lam^2/sigma^2 at lam = t/2 (positive: M' is not (2/sigma^2, 2/sigma)-mCDP)."""
    sv, tv = mp.mpf(s_), mp.mpf(t_)
    lv = tv / 2
    return mp.log(_three_point_mgf(sv, tv, lv)) - 2 * lv**2 / sv**2


def _pa1(dps):
    grid = []
    for s_ in ("1", "5/4", "3/2", "2", "3"):
        sv = sp.Rational(s_)
        for extra in ("0", "1", "10"):
            grid.append((s_, str(6 * sv**3 + 1 + sp.Rational(extra))))
    # footnote 11: sigma = 1, t = 3, lambda = 2
    fn = _three_point_mgf(mp.mpf(1), mp.mpf(3), mp.mpf(2))
    return All(
        sample(r"$\sigma \in \{1, 5/4, 3/2, 2, 3\}$, $t - (6\sigma^3 + 1) \in \{0, 1, 10\}$", grid,
               lambda st: Compare(claimed=0, computed=_pa1_gap(st[0], st[1], mp.mp.dps), rel=">",
                                  at={"sigma": st[0], "t": st[1]}),
               what=r"$\log\mathbb E[e^{\lambda(Z - \mathbb E Z)}] - 2\lambda^2/\sigma^2 > 0$ at $\lambda = t/2$"),
        Compare(claimed=mp.exp(8), computed=fn, rel=">", at={"sigma": 1, "t": 3, "lambda": 2},
                what=r"footnote 11: $\mathbb E[e^{\lambda(Z - \mathbb E Z)}] > e^{2\lambda^2/\sigma^2} = e^8$"),
        what=r"$M'$ violates the $(2/\sigma^2, 2/\sigma)$-mCDP bound; the proof's step (v) is ZCDP-PA.1-V")


PA1 = Claim(
    id="ZCDP-PA.1", paper="zcdp", label=r"Prop. A.1: the postprocessed $M'$ is not $(2/\sigma^2, 2/\sigma)$-mCDP", kind="check",
    statement=r"\sigma\ge1,\ t\ge6\sigma^3+1:\ M'\ \text{is not}\ (2/\sigma^2,2/\sigma)\text{-mCDP}",
    check=cached_check(_pa1), where="App. A, Prop. A.1, footnote 11", seed=SEED,
    uses=("ZCDP-SA.1", "ZCDP-LA.2", "ZCDP-PA.1-V"),
    conventions=(r"The exact three-point moment generating function of ZCDP-SA.1 with $p$, $q$ the normal tail "
                 "probabilities.",),
    notes=r"The mCDP condition fails as soon as one $\lambda$ violates it; $\lambda = t/2$ is the proof's choice.")


def _pa1v_derive():
    return sp.exp((t - 1) / (2 * sigma**2)) / (2 * t)


def _pa1v_claimed():
    return sp.sqrt(2 * sp.pi)


def _pa1v_corrected():
    return sp.sqrt(2 * sp.pi) * sp.exp(-(t - 1) / (2 * sigma**2))


def _pa1v_numeric(vals):
    return mp.exp((_n(vals["t"]) - 1) / (2 * _n(vals["sigma"]) ** 2)) / (2 * _n(vals["t"]))


def _pa1v_check(pt):
    if pt["sigma"] < 1 or pt["t"] < 6 * pt["sigma"] ** 3 + 1:
        raise ParameterError("the step is stated for sigma >= 1 and t >= 6 sigma^3 + 1")


PA1_V = Claim(
    id="ZCDP-PA.1-V", error_kind="proof-step", role="proof", paper="zcdp", label=r"Proof of Prop. A.1, step (v): $e^{(t-1)/2\sigma^2}/2t > \sqrt{2\pi}$ for $t \ge 6\sigma^3 + 1$",
    kind="lower", statement=r"\frac{\exp((t-1)/2\sigma^2)}{2t}>\sqrt{2\pi}\ \text{for}\ t\ge6\sigma^3+1,\ \sigma\ge1",
    quantity=r"\exp((t-1)/2\sigma^2)/2t",
    params=[Param.positive("sigma", sigma, ("1", "3/2", "2", "3")), Param.positive("t", t, ("7", "22", "49", "163"))],
    constraint=_pa1v_check,
    sweep=[{"sigma": s_, "t": t_} for s_, t_ in (("1", "7"), ("1", "8"), ("1", "9"), ("3/2", "85/4"), ("2", "49"), ("3", "163"),
                                                   ("1", "20"))],
    derive=_pa1v_derive, claimed=_pa1v_claimed, numeric=_pa1v_numeric, corrected=_pa1v_corrected,
    corrected_statement=r"\frac{\exp((t-1)/\sigma^2)}{2t}>\sqrt{2\pi}\ \text{(the exponent step (iv) actually gives)}",
    where="App. A, proof of Prop. A.1, last step", seed=SEED, uses=("ZCDP-LA.2",),
    notes=r"Step (iv) uses $pt^2 \le 1/2$ to bound $e^{t/\sigma^2 - pt^2/\sigma^2 - 1/2\sigma^2}$ from below by "
          r"$e^{(t-1)/2\sigma^2}$, but the same bound gives $e^{(t-1)/\sigma^2}$; with that exponent the step holds for every "
          r"$\sigma \ge 1$ (the corrected statement is encoded as quantity $\ge \sqrt{2\pi}e^{-(t-1)/2\sigma^2}$, i.e. "
          r"$e^{(t-1)/\sigma^2}/2t \ge \sqrt{2\pi}$). The proposition itself is audited on the exact moment generating "
          "function in ZCDP-PA.1.")


def _la2(dps):
    grid = []
    for s_ in ("1/2", "1", "3/2", "2", "5", "10"):
        for dt in ("0", "1/2", "2", "10", "50"):
            sv = sp.Rational(s_)
            grid.append((sv, sv + 1 + sp.Rational(dt)))

    def sides(st):
        sv, tv = to_mpf(st[0]), to_mpf(st[1])
        p, q = _pq(sv, tv)
        g = mp.sqrt(1 / (2 * mp.pi)) * sv * mp.exp(-(tv - 1) ** 2 / (2 * sv**2))
        at = {"sigma": str(st[0]), "t": str(st[1])}
        return (Compare(claimed=g / (tv + sv - 1), computed=p, rel=">=", at=at),
                Compare(claimed=g / (tv - 1), computed=p, rel="<=", at=at),
                Compare(claimed=mp.exp(2 * tv / sv**2), computed=p / q, rel=">=", at=at))

    rows = [sides(st) for st in grid]
    dom = r"$\sigma \in \{1/2, 1, 3/2, 2, 5, 10\}$, $t - (\sigma + 1) \in \{0, 1/2, 2, 10, 50\}$ (the proof's $\sigma \le t - 1$)"
    return All(sample(dom, rows, lambda r: r[0],
                      what=r"$p \ge \sqrt{1/2\pi}\,\frac{\sigma}{t + \sigma - 1}e^{-(t-1)^2/2\sigma^2}$"),
               sample(dom, rows, lambda r: r[1], what=r"$p \le \sqrt{1/2\pi}\,\frac{\sigma}{t - 1}e^{-(t-1)^2/2\sigma^2}$"),
               sample(dom, rows, lambda r: r[2], what=r"$p/q \ge e^{2t/\sigma^2}$"),
               what=r"$p$, $q$ the normal tail probabilities")


LA2 = Claim(
    id="ZCDP-LA.2", paper="zcdp", label=r"Lemma A.2: bounds on $p$ and $p/q \ge e^{2t/\sigma^2}$", kind="check",
    statement=r"\sqrt{\tfrac1{2\pi}}\tfrac{\sigma}{t+\sigma-1}e^{-(t-1)^2/2\sigma^2}\le p\le\sqrt{\tfrac1{2\pi}}\tfrac{\sigma}{t-1}"
              r"e^{-(t-1)^2/2\sigma^2};\ \frac pq\ge e^{2t/\sigma^2}",
    check=cached_check(_la2), where="App. A, Lemma A.2", seed=SEED, uses=("ZCDP-LA.2-COOK",),
    notes="The quoted inequality [Coo09, Eq. (5)] is audited separately (ZCDP-LA.2-COOK).")


def _cook_certify(x, lower):
    """Arb proof that the one-sided tail ``P[N(0,1) > x]`` is below the quoted lower bound (or above the upper)."""
    tail = sp.erfc(x / sp.sqrt(2)) / 2
    lo = sp.sqrt(2 / sp.pi) * sp.exp(-x**2 / 2) * x / (x**2 + 1)
    hi = sp.sqrt(2 / sp.pi) * sp.exp(-x**2 / 2) / x
    return (lambda: certify_lt(tail, lo)) if lower else (lambda: certify_lt(hi, tail))


COOK_XS = ("1/100", "1/10", "1/2", "3/5", "2/3", "1", "2", "3", "10")
COOK_DOM = r"$x \in \{1/100, 1/10, 1/2, 3/5, 2/3, 1, 2, 3, 10\}$"


def _cook_bounds(c):
    """The tail bounds of [Coo09, Eq. (5)] with the constant ``c``: ``c e^{-x^2/2} x/(x^2 + 1)`` and ``c e^{-x^2/2}/x``,
    against the one-sided tail at every ``x`` of the grid (certified in Arb where one fails: ``c = sqrt(2/pi)``)."""
    out = []
    for x_ in COOK_XS:
        x = sp.Rational(x_)
        xv = to_mpf(x)
        tail = mp.ncdf(-xv)
        cv = to_mpf(c)
        printed = c == sp.sqrt(2 / sp.pi)
        out += [Compare(claimed=cv * mp.exp(-xv**2 / 2) * xv / (xv**2 + 1), computed=tail, rel=">=", at={"x": x_},
                        certify=_cook_certify(x, True) if printed else None, what="the lower bound"),
                Compare(claimed=cv * mp.exp(-xv**2 / 2) / xv, computed=tail, rel="<=", at={"x": x_},
                        certify=_cook_certify(x, False) if printed else None, what="the upper bound")]
    return out


def _cook(dps):
    r"""The bounds as quoted: the constant $\sqrt{2/\pi}$ with the one-sided tail $\mathbb P[\mathcal N(0,1) > x]$."""
    rows = []
    for x_ in COOK_XS:
        xv = to_mpf(sp.Rational(x_))
        g = mp.exp(-xv**2 / 2)
        rows.append([x_, mp_str(mp.sqrt(2 / mp.pi) * g * xv / (xv**2 + 1), 8), mp_str(mp.ncdf(-xv), 8),
                     mp_str(mp.sqrt(2 / mp.pi) * g / xv, 8), mp_str(g * xv / (xv**2 + 1) / mp.sqrt(2 * mp.pi), 8),
                     mp_str(g / xv / mp.sqrt(2 * mp.pi), 8)])
    return Evidence(sample(COOK_DOM, _cook_bounds(sp.sqrt(2 / sp.pi)), lambda c: c,
                           what=r"$\sqrt{2/\pi}\,e^{-x^2/2}x/(x^2+1) \le \mathbb P[\mathcal N(0,1) > x] \le "
                                r"\sqrt{2/\pi}\,e^{-x^2/2}/x$"),
                    tables=[Table("[Coo09, Eq. (5)] as quoted in the proof of Lemma A.2, and with the constant "
                                  r"$1/\sqrt{2\pi}$",
                                  ["$x$", "printed lower bound", r"$\mathbb P[\mathcal N>x]$", "printed upper bound",
                                   "corrected lower bound", "corrected upper bound"], rows,
                                  note=r"printed: the constant $\sqrt{2/\pi}$; corrected: $1/\sqrt{2\pi}$ (the Mills-ratio "
                                       r"bounds $\varphi(x)x/(x^2+1) \le \mathbb P[\mathcal N > x] \le \varphi(x)/x$ with "
                                       r"$\varphi$ the standard normal density), the constant Lemma A.2 itself states")])


def _cook_corr(dps):
    r"""The corrected bounds: the constant $1/\sqrt{2\pi}$ (the standard normal density's), which Lemma A.2 states."""
    return sample(COOK_DOM, _cook_bounds(1 / sp.sqrt(2 * sp.pi)), lambda c: c,
                  what=r"$e^{-x^2/2}x/(\sqrt{2\pi}(x^2+1)) \le \mathbb P[\mathcal N(0,1) > x] \le e^{-x^2/2}/(\sqrt{2\pi}x)$")


LA2_COOK = Claim(
    id="ZCDP-LA.2-COOK", paper="zcdp", label="Proof of Lemma A.2: the quoted Gaussian tail bounds [Coo09, Eq. (5)]", kind="check",
    statement=r"\frac{\sqrt{\frac2\pi}e^{-x^2/2}x}{x^2+1}\le\mathbb P[\mathcal N(0,1)>x]\le\frac{\sqrt{\frac2\pi}e^{-x^2/2}}{x}",
    check=cached_check(_cook), corrected=cached_check(_cook_corr), error_kind="typo", role="proof",
    corrected_statement=r"\frac{e^{-x^2/2}x}{\sqrt{2\pi}(x^2+1)}\le\mathbb P[\mathcal N(0,1)>x]\le\frac{e^{-x^2/2}}{\sqrt{2\pi}x}"
                        r"\quad\text{(corrected)}",
    where="App. A, proof of Lemma A.2", seed=SEED,
    notes=r"The quoted formula is unambiguous: the one-sided tail with the constant $\sqrt{2/\pi}$, whose lower bound fails "
          r"(the constant belongs to the two-sided tail $\mathbb P[|\mathcal N(0,1)| > x]$). The proof applies the bounds to "
          r"the one-sided $p = \mathbb P[\mathcal N(0, 1) > (t - 1)/\sigma]$ and concludes Lemma A.2 with $\sqrt{1/2\pi}$: a "
          r"typo whose corrected statement has the constant $1/\sqrt{2\pi}$. Lemma A.2 itself is audited in ZCDP-LA.2.")
