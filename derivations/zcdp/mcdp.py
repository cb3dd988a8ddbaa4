"""Bun-Steinke: zero- versus mean-concentrated DP (Sec. 1.1.1, Lemmas 4.2, 4.3 = B.5, Lemma B.4, Sec. 4's remark).

For a finite pair the mCDP parameters are computed from their definitions: ``mu = E[Z]`` (the KL divergence) and the
smallest ``tau^2`` with ``E[e^{lam (Z - E Z)}] <= e^{lam^2 tau^2/2}`` for all real ``lam`` (the sub-Gaussian variance
proxy of the privacy loss: a scan over ``lam`` in both signs, golden-section refinement, and the ``lam -> 0`` limit
``Var Z``; :meth:`._concentrated.ZPair.subgaussian_proxy`).  Each check returns evidence: the
engine decides the verdict.
"""
import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Evidence, Table, sample
from cbdp_sym.families import bound_evidence
from cbdp_sym import Claim, Normal, Tex, record
from cbdp_sym.calculus import cached_numeric
from ._shared import ZPair, mcdp_exponent, random_finite_pairs
from cbdp_sym import Finite
from cbdp_sym.calculus import DerivationError
from cbdp_sym.families import Instance, cached_check, softmax
from cbdp_sym.mechanisms import renyi_numeric
from cbdp_sym.calculus import mp_str, to_mpf
from cbdp_sym.calculus import cached_derivation, recording
from cbdp_sym.calculus import time_limit

SEED = "004_f41028c8afd8f9e7.txt"
mu_, tau_, alpha = sp.symbols("mu tau alpha", positive=True)
MCDP = (r"mCDP parameters of a finite pair from the definitions: $\mu = \mathbb E[Z] = D_1$, $\tau^2 = \sup_\lambda "
        r"2\log\mathbb E[e^{\lambda(Z - \mathbb E Z)}]/\lambda^2$ (a scan in both signs of $\lambda$, golden section, and "
        r"the limit $\lambda \to 0$, which is $\mathrm{Var}\,Z$).")


def _pairs():
    out = [(f"random #{i}", z) for i, (_lab, z) in enumerate(random_finite_pairs(42, 8))]
    for e in ("1/10", "1", "3"):
        p = sp.exp(sp.Rational(e)) / (1 + sp.exp(sp.Rational(e)))
        out.append((f"randomized response {e}", ZPair.finite(Finite([0, 1], [p, 1 - p]), Finite([0, 1], [1 - p, p]))))
    for e in ("1", "5"):
        q = sp.exp(-sp.Rational(e)) / 2
        out.append((f"skewed {e}", ZPair.finite(Finite([0, 1], [sp.Rational(1, 2), sp.Rational(1, 2)]), Finite([0, 1], [q, 1 - q]))))
    return out


def _desc(P):
    """A finite law's probabilities rounded for display (exact SymPy numbers evaluated)."""
    return "(" + ", ".join(mp.nstr(to_mpf(q), 4) for q in P.probs) + ")"


def _pairs_table():
    return Table("The pairs of the mCDP claims ($P$, $Q$)", ["pair", "$P$", "$Q$"],
                 [[lab, _desc(z.P), _desc(z.Q)] for lab, z in _pairs()],
                 note=r"randomized response $\epsilon$: $P = (p, 1 - p)$, $Q = (1 - p, p)$ with $p = e^\epsilon/(1 + "
                      r"e^\epsilon)$; skewed $\epsilon$: $P = (1/2, 1/2)$, $Q = (e^{-\epsilon}/2, 1 - e^{-\epsilon}/2)$; "
                      "probabilities rounded for display")


@cached_numeric
def _mcdp_of(idx, dps):
    _lab, z = _pairs()[int(idx)]
    tau2, _l = z.subgaussian_proxy()
    return [z.loss_mean(), tau2]


def _rows(name, rows, rel, what=""):
    """A bound (or identity) on a declared sample: ``rows`` of ``(at, computed, claimed)``, ``computed REL claimed``."""
    return sample(name, rows, lambda r: Compare(claimed=r[2], computed=r[1], rel=rel, at=r[0]), what=what)


@cached_derivation
def _l42_derive():
    xi_, rho_ = mcdp_exponent(mu_, tau_, alpha)
    if sp.simplify(xi_ - (mu_ - tau_**2 / 2)) != 0 or sp.simplify(rho_ - tau_**2 / 2) != 0:
        raise DerivationError(f"the exponent collects to ({xi_}, {rho_})")
    return sp.Tuple(xi_, rho_)


def _l42(dps):
    with recording():
        _l42_derive()
    rows = []
    for i, (lab, z) in enumerate(_pairs()):
        m, t2 = _mcdp_of(str(i), mp.mp.dps)
        for a in ("1001/1000", "3/2", "2", "5", "30"):
            av = to_mpf(sp.Rational(a))
            rows.append(({"pair": lab, "alpha": a}, z.renyi(av), m - t2 / 2 + t2 / 2 * av))
    return Evidence(_rows(r"8 seeded random finite pairs, randomized response and skewed pairs, "
                          r"$\alpha \in \{1.001, 3/2, 2, 5, 30\}$", rows, "<=",
                          what=r"$D_\alpha(P\|Q) \le \mu - \tau^2/2 + \tau^2\alpha/2$ with the pair's own $(\mu, \tau)$"),
                    tables=[_pairs_table()])


L42 = Claim(id="ZCDP-L4.2", paper="zcdp", label=r"Lemma 4.2: $(\mu, \tau)$-mCDP gives $(\mu - \tau^2/2, \tau^2/2)$-zCDP",
            kind="check", statement=r"(\mu,\tau)\text{-mCDP}\Rightarrow(\mu-\tau^2/2,\tau^2/2)\text{-zCDP}", check=cached_check(_l42),
            derive=_l42_derive, where="Sec. 4, Lemma 4.2", seed=SEED, conventions=(MCDP,),
            notes=r"The exponent $(\alpha-1)^2\tau^2/2 + (\alpha-1)\mu$ collects to $(\alpha-1)(\mu - \tau^2/2 + "
                  r"\tau^2\alpha/2)$ (SymPy, in the derivation).")


def _s11e(dps):
    with recording():
        _l42_derive()
    rows, tight = [], []
    # Gaussian: Z ~ N(rho, 2 rho): mu = rho, tau^2 = 2 rho -> (0, rho), its exact zCDP parameters
    for s_ in ("1", "1/2", "3"):
        sv = to_mpf(sp.Rational(s_))
        P, Q = Normal(0, sv), Normal(1, sv)
        L = lambda y: P.mp_log_pdf(y) - Q.mp_log_pdf(y)  # noqa: E731
        EZ = mp.quad(lambda y: P.mp_pdf(y) * L(y), [-mp.inf, 0, mp.inf])
        rho = 1 / (2 * sv**2)
        tight.append(Compare(claimed=rho, computed=EZ, at={"sigma": s_}, what=r"$\mu = \mathbb E[Z] = \rho$"))
        for l_ in ("-3", "-1/2", "1/2", "3"):
            lv = to_mpf(sp.Rational(l_))
            m = mp.quad(lambda y: P.mp_pdf(y) * mp.exp(lv * (L(y) - EZ)), [-mp.inf, -lv, mp.inf])
            tight.append(Compare(claimed=2 * rho, computed=2 * mp.log(m) / lv**2, at={"sigma": s_, "lambda": l_},
                                 what=r"$2\log\mathbb E[e^{\lambda(Z - \mathbb E Z)}]/\lambda^2 = 2\rho$"))
        rows.append([s_, mp_str(EZ, 10), mp_str(2 * rho, 10), mp_str(EZ - rho, 6), mp_str(rho, 10)])
    # the converse fails: App. A's M' (sigma = 1, t = 3) is 2-zCDP (postprocessing) but not (2, 2)-mCDP
    p, q = mp.ncdf(-2), mp.ncdf(-4)
    P = Finite([0, 1, 2], [p, q, 1 - p - q])
    Q = Finite([0, 1, 2], [q, p, 1 - p - q])
    zm = ZPair.finite(P, Q)
    witness = All(Compare(claimed=2, computed=zm.rho_star()[0], rel="<=", at={"sigma": 1, "t": 3},
                          what=r"$\rho^*$ of $M'$ $\le 2$ ($2$-zCDP)"),
                  Compare(claimed=mp.exp(8), computed=mp.exp(zm.centred_log_mgf(2)), rel=">",
                          at={"sigma": 1, "t": 3, "lambda": 2},
                          what=r"$\mathbb E[e^{\lambda(Z - \mathbb E Z)}] > e^{\lambda^2\tau^2/2} = e^8$ with $\tau^2 = 4$: "
                               r"not $(2, 2)$-mCDP"))
    return Evidence(All(
        sample(r"Gaussian pairs $\mathcal N(0, \sigma^2)$, $\mathcal N(1, \sigma^2)$, $\sigma \in \{1, 1/2, 3\}$", tight,
               lambda c: c, what=r"tight for the Gaussian: $(\mu - \tau^2/2, \tau^2/2) = (0, \rho)$"),
        All(witness, what=r"the converse fails: App. A's postprocessed $M'$ ($\sigma = 1$, $t = 3$)"),
        what=r"mCDP gives zCDP (ZCDP-L4.2), tight for the Gaussian; not conversely"),
        tables=[Table("Gaussian mechanism: mCDP parameters and the zCDP parameters they give",
                      [r"$\sigma$", r"$\mu=\mathbb E[Z]$", r"$\tau^2$", r"$\mu-\tau^2/2$", r"$\tau^2/2$"], rows,
                      note=r"shift $1$; $\mathbb E[Z]$ by quadrature, $\tau^2 = 2\rho$")])


S11E = Claim(id="ZCDP-S1.1e", paper="zcdp",
             label=r"Sec. 1.1.1: $(\mu, \tau)$-mCDP gives $(\mu - \tau^2/2, \tau^2/2)$-zCDP, tight for the Gaussian; the "
                   "converse fails", kind="check",
             statement=r"(\mu,\tau)\text{-mCDP}\Rightarrow(\mu-\tau^2/2,\tau^2/2)\text{-zCDP (tight for the Gaussian)};\ "
                       r"\text{not conversely}", check=cached_check(_s11e), derive=_l42_derive, where="Sec. 1.1.1", seed=SEED,
             uses=("ZCDP-L4.2", "ZCDP-L4.3", "ZCDP-PA.1"),
             notes=r"The converse's failure is shown on App. A's own example $M'$ (ZCDP-PA.1): its $\rho^*$ and its centred "
                   r"moment generating function at $\lambda = 2$.")


# -- Lemma 4.3 -----------------------------------------------------------------------------------------------------
@cached_derivation
def _l43_derive():
    xi_, rho_, lam = sp.symbols("xi rho lambda", nonnegative=True)
    # |lambda| >= 1/2: the two exponents against 4 (xi + 2 rho) lambda^2, with lambda = 1/2 + u
    u = sp.Symbol("u", nonnegative=True)
    e1 = 2 * lam * (xi_ + rho_ * (2 * lam + 1))
    e2 = (2 * lam - 1) * (xi_ + 2 * rho_ * lam)
    tgt = 4 * (xi_ + 2 * rho_) * lam**2
    g1 = sp.expand((tgt - e1).subs(lam, sp.Rational(1, 2) + u))
    g2 = sp.expand((tgt - e2).subs(lam, sp.Rational(1, 2) + u))
    record(Tex(r"4(\xi+2\rho)\lambda^2-2\lambda(\xi+\rho(2\lambda+1))"), g1, "at $\\lambda = 1/2 + u$: every coefficient "
           "is non-negative ($E[e^{2\\lambda Z}]$ is the Rényi moment of order $2\\lambda + 1$)", rel="=")
    record(Tex(r"4(\xi+2\rho)\lambda^2-(2\lambda-1)(\xi+2\rho\lambda)"), g2, "at $\\lambda = 1/2 + u$ ($E[e^{-2\\lambda Z}]$ is "
           "the Rényi moment of order $2\\lambda$ of the reversed pair, which needs $2\\lambda > 1$)", rel="=")
    for g in (g1, g2):
        if any(c.is_negative for c in sp.Poly(g, u, xi_, rho_).coeffs()):
            raise DerivationError("a coefficient is negative")
    x = sp.Symbol("x", nonnegative=True)
    record(Tex(r"1+4\lambda^2(e^{\xi+2\rho}-1)"), Tex(r"e^{\lambda^2\cdot4(e^{\xi+2\rho}-1)}"),
           "$|\\lambda| < 1/2$: $1 + x \\le e^x$; the constant is $\\tau^2/2 = 4(e^{\\xi+2\\rho} - 1)$, which is "
           "$O(\\xi + 2\\rho)$ only while $\\xi + 2\\rho = O(1)$", rel=r"\le")
    return 8 * (sp.exp(xi_ + 2 * rho_) - 1)


def _l43_family():
    """Pairs with (xi, rho) = (eps, 0): P = (1/2, 1/2), Q = (e^-eps/2, 1 - e^-eps/2) (eps-DP in both orders for eps >= log 2)."""
    out = []
    for e in ("1", "3", "10", "30", "100"):
        q = sp.exp(-sp.Rational(e)) / 2
        out.append((e, ZPair.finite(Finite([0, 1], [sp.Rational(1, 2), sp.Rational(1, 2)]), Finite([0, 1], [q, 1 - q]))))
    return out


def _l43(dps):
    with recording():
        _l43_derive()
    e = sp.Symbol("epsilon", positive=True)
    var = (e + sp.log(2 - sp.exp(-e))) ** 2 / 4  # Var Z of the family (two atoms), checked below at every member
    with time_limit(60, "limit"):
        lim = sp.limit((e + 0) / var, e, sp.oo)  # (xi + 2 rho)/Var Z with (xi, rho) = (eps, 0)
    rows, hyp, law = [], [], []
    for ev, z in _l43_family():
        evv = to_mpf(sp.Rational(ev))
        t2, _lam = z.subgaussian_proxy()
        vz = z.loss_variance()
        d_fwd, d_bwd = z.renyi(mp.inf), ZPair.finite(z.Q, z.P).renyi(mp.inf)
        hyp += [Compare(claimed=evv, computed=d_fwd, rel="<=", at={"eps": ev, "order": "P, Q"}),
                Compare(claimed=evv, computed=d_bwd, rel="<=", at={"eps": ev, "order": "Q, P"})]
        law.append(Compare(claimed=var.subs(e, sp.Rational(ev)), computed=vz, at={"eps": ev}))
        rows.append([ev, mp_str(d_fwd, 8), mp_str(d_bwd, 8), mp_str(z.loss_mean(), 8), mp_str(vz, 8), mp_str(t2, 8),
                     mp_str(t2 / evv, 6)])
    dom = r"$P = (1/2, 1/2)$, $Q = (e^{-\epsilon}/2, 1 - e^{-\epsilon}/2)$, $\epsilon \in \{1, 3, 10, 30, 100\}$"
    return Evidence(All(
        sample(dom, hyp, lambda c: c, what=r"the family is $\epsilon$-DP in both orders, hence $(\epsilon, 0)$-zCDP "
                                         r"(Lemma 3.2)"),
        sample(dom, law, lambda c: c, what=r"$\mathrm{Var}\,Z = (\epsilon + \log(2 - e^{-\epsilon}))^2/4$"),
        Compare(claimed=0, computed=lim, rel=">", at={"eps": "inf"},
                what=r"an absolute constant $C$ with $\tau^2 \le C(\xi + 2\rho)$ needs $\inf(\xi + 2\rho)/\tau^2 > 0$; on "
                     r"the family ($\xi = \epsilon$, $\rho = 0$) $(\xi + 2\rho)/\tau^2 \le \epsilon/\mathrm{Var}\,Z$, whose "
                     r"limit as $\epsilon \to \infty$ is computed (SymPy)"),
        what=r"no absolute constant gives $(\xi + \rho, C\sqrt{\xi + 2\rho})$-mCDP"),
        tables=[Table(r"The $(\epsilon, 0)$-zCDP family: the mCDP parameter $\tau^2$ grows like $\epsilon^2$",
                      [r"$\varepsilon$", r"$D_\infty(P\|Q)$", r"$D_\infty(Q\|P)$", r"$\mathbb E Z$", r"$\mathrm{Var}\,Z$",
                       r"$\tau^2$", r"$\tau^2/(\xi+2\rho)$"], rows)])


def _l43_corr(dps):
    rows = []
    for i, (lab, z) in enumerate(_pairs()):
        zr = ZPair.finite(z.Q, z.P)
        r0 = max(z.rho_star()[0], zr.rho_star()[0])
        m, t2 = _mcdp_of(str(i), mp.mp.dps)
        for tag, x0, r in (("first", mp.mpf(0), r0), ("second", max(z.xi_star(r0 / 2), zr.xi_star(r0 / 2)), r0 / 2)):
            rows.append((({"pair": lab, "split": tag, "parameter": "variance proxy"}), t2, 8 * mp.expm1(x0 + 2 * r)))
            rows.append((({"pair": lab, "split": tag, "parameter": "mean"}), m, x0 + r))
    return Evidence(_rows("8 seeded random finite pairs, randomized response and skewed pairs (zCDP in both orders)",
                          rows, "<=", what=r"the variance proxy $\tau^2 \le 8(e^{\xi + 2\rho} - 1)$ and the mean "
                                          r"$\mathbb E[Z] \le \xi + \rho$"),
                    tables=[_pairs_table()])


L43_CORR_CHECK = cached_check(_l43_corr)
L43_CORR_STMT = (r"(\xi,\rho)\text{-zCDP}\Rightarrow\left(\xi+\rho,\sqrt{8(e^{\xi+2\rho}-1)}\right)\text{-mCDP}"
                 r"\quad\text{(corrected)}")

L43 = Claim(id="ZCDP-L4.3", paper="zcdp",
            label=r"Lemma 4.3 (= B.5): $(\xi, \rho)$-zCDP gives $(\xi + \rho, O(\sqrt{\xi + 2\rho}))$-mCDP",
            kind="check", statement=r"(\xi,\rho)\text{-zCDP}\Rightarrow(\xi+\rho,O(\sqrt{\xi+2\rho}))\text{-mCDP}",
            check=cached_check(_l43), derive=_l43_derive, where="Sec. 4, Lemma 4.3; App. B, Lemma B.5", seed=SEED,
            role="constant", corrected=L43_CORR_CHECK, corrected_statement=L43_CORR_STMT, uses=("ZCDP-LB.4", "ZCDP-L2.2a"),
            conventions=(MCDP, r"$O(\cdot)$ read as an absolute constant."),
            notes=r"Lemma B.5 prints the conclusion as '-CDP'. The text's round trip $(\mu, \tau)$-mCDP to zCDP to "
                  r"$(\mu, O(\sqrt{\mu + \tau^2/2}))$-mCDP has the same issue for large $\mu$. The proof's own constants "
                  r"give $\tau^2 = 8(e^{\xi+2\rho} - 1)$, which is $O(\xi + 2\rho)$ only while $\xi + 2\rho = O(1)$ "
                  r"(the corrected statement, also ZCDP-L4.3-CORR). The conclusion's mean $\xi + \rho$ is right; only "
                  r"the constant in $O(\cdot)$ fails, and only as $\xi + 2\rho \to \infty$.")


L43_CORR = Claim(id="ZCDP-L4.3-CORR", paper="zcdp",
                 label=r"Lemma 4.3 with the constants of its proof ($\tau^2 = 8(e^{\xi + 2\rho} - 1)$)",
                 kind="check", statement=L43_CORR_STMT,
                 check=L43_CORR_CHECK, where="App. B, proof of Lemma B.5", seed=SEED, role="proof",
                 uses=("ZCDP-LB.4", "ZCDP-L2.2a"),
                 conventions=(MCDP, r"The zCDP parameters of a pair are split in two ways: the first split $\xi = 0$, "
                                    r"$\rho = \rho^*$; the second $\rho = \rho^*/2$ with the smallest $\xi$ (both orders)."))


def _gauss_mcdp(sv, lams=("-3", "-1/2", "1/2", "3")):
    """``(E[Z], [(lam, 2 log E[e^{lam(Z - EZ)}]/lam^2)])`` of the pair N(0, sigma^2), N(1, sigma^2) by quadrature."""
    P, Q = Normal(0, sv), Normal(1, sv)
    L = lambda y: P.mp_log_pdf(y) - Q.mp_log_pdf(y)  # noqa: E731
    EZ = mp.quad(lambda y: P.mp_pdf(y) * L(y), [-mp.inf, 0, mp.inf])
    out = []
    for l_ in lams:
        lv = to_mpf(sp.Rational(l_))
        m = mp.quad(lambda y: P.mp_pdf(y) * mp.exp(lv * (L(y) - EZ)), [-mp.inf, -lv, mp.inf])
        out.append((l_, 2 * mp.log(m) / lv**2))
    return EZ, out


def _s41(dps):
    rows, mcdp, inf = [], [], []
    for s_ in ("1", "1/10"):
        sv = to_mpf(sp.Rational(s_))
        rho = 1 / (2 * sp.Rational(s_) ** 2)
        EZ, t2s = _gauss_mcdp(sv)
        mcdp.append(Compare(claimed=rho, computed=EZ, rel="<=", at={"sigma": s_}, what=r"$\mathbb E[Z] \le \mu = \rho$"))
        mcdp += [Compare(claimed=2 * rho, computed=t2, rel="<=", at={"sigma": s_, "lambda": l_},
                         what=r"$2\log\mathbb E[e^{\lambda(Z - \mathbb E Z)}]/\lambda^2 \le \tau^2 = 2\rho$") for l_, t2 in t2s]
        dinf = renyi_numeric(Normal(0, sv), Normal(1, sv), mp.inf)
        inf.append(Compare(claimed=sp.oo, computed=dinf, at={"sigma": s_}, what=r"$D_\infty = \infty$"))
        rows.append([s_, mp_str(to_mpf(rho), 8), mp_str(to_mpf(2 * rho), 8),
                     "$\\infty$" if dinf == mp.inf else mp_str(dinf, 6)])
    dom = r"Gaussian pairs $\mathcal N(0, \sigma^2)$, $\mathcal N(1, \sigma^2)$, $\sigma \in \{1, 1/10\}$"
    return Evidence(All(sample(dom, mcdp, lambda c: c, what=r"$(\rho, \sqrt{2\rho})$-mCDP"),
                        sample(dom, inf, lambda c: c, what=r"no pure DP"),
                        what=r"the Gaussian mechanism is $(\rho, \sqrt{2\rho})$-mCDP for every $\rho > 0$ while $D_\infty = "
                             r"\infty$"),
                    tables=[Table("mCDP parameters without pure DP", [r"$\sigma$", r"$\mu=\rho$", r"$\tau^2=2\rho$",
                                                                      r"$D_\infty$"], rows)])


S41 = Claim(id="ZCDP-S4.1", paper="zcdp", label="Sec. 4: pure DP can be characterised by zCDP but not by mCDP", kind="check",
            statement=r"\text{pure DP can be characterised in terms of zCDP, but not in terms of mCDP}", check=cached_check(_s41),
            where="Sec. 4, after Lemma 4.3", seed=SEED, role="remark", uses=("ZCDP-L3.2", "ZCDP-L4.2", "ZCDP-L4.3"),
            notes=r"zCDP characterises pure DP: $(\epsilon, 0)$-zCDP iff $\epsilon$-DP (ZCDP-L3.2); no mCDP parameters imply a "
                  r"finite $D_\infty$. The loss of parameters in the round trip is ZCDP-L4.3.")


def _lb4_sides(xs, ps):
    m = mp.fsum(p * x for p, x in zip(ps, xs))
    lhs = mp.fsum(p * mp.exp(x - m) for p, x in zip(ps, xs))
    rhs = (mp.fsum(p * mp.exp(2 * x) for p, x in zip(ps, xs)) + mp.fsum(p * mp.exp(-2 * x) for p, x in zip(ps, xs))) / 2
    return lhs, rhs


def _lb4(dps):
    import random

    rng = random.Random(44)
    laws, rand, loss = [], [], []
    for i in range(15):
        k = rng.choice((2, 3, 4))
        vals = [sp.Rational(rng.randint(-300, 300), 100) for _ in range(k)]
        w = [rng.randint(1, 100) for _ in range(k)]
        probs = [sp.Rational(x, sum(w)) for x in w]
        laws.append([f"#{i}", ", ".join(str(v) for v in vals), ", ".join(str(p) for p in probs)])
        q, b = _lb4_sides([to_mpf(v) for v in vals], [to_mpf(p) for p in probs])
        rand.append(({"law": f"#{i}"}, q, b))
    for j, (_lab, z) in enumerate(random_finite_pairs(45, 5)):
        atoms = [(L, p) for L, p, q in z._atoms() if p > 0]
        for lv in ("1/2", "2", "-3"):
            q, b = _lb4_sides([to_mpf(sp.Rational(lv)) * L for L, _p in atoms], [p for _L, p in atoms])
            loss.append(({"pair": f"#{j}", "lambda": lv}, q, b))

    def make(y):
        pr = softmax(y[:1])
        x1, x2 = mp.mpf(y[1]), mp.mpf(y[2])
        return Instance("search", f"two-point X with values {mp.nstr(x1, 4)} and {mp.nstr(x2, 4)}, first probability "
                                  f"{mp.nstr(pr[0], 4)}", {"x": [x1, x2], "p": pr})

    srch = {"name": "two-point $X$", "make": make, "dim": 3, "budget": 80, "dps": 20,
            "starts": [[0.0, 0.1, -0.1], [3.0, 0.5, 0.0], [-2.0, 1.0, -1.0]]}
    return Evidence(All(
        _rows("15 seeded random finite laws of $X$ (values in $[-3, 3]$)", rand, "<="),
        _rows(r"privacy losses $X = \lambda Z$ of 5 seeded random finite pairs, $\lambda \in \{1/2, 2, -3\}$", loss, "<="),
        bound_evidence("upper", {}, lambda inst: _lb4_sides(inst.data["x"], inst.data["p"]), search=srch),
        what=r"$\mathbb E[e^{X - \mathbb E X}] \le (\mathbb E e^{2X} + \mathbb E e^{-2X})/2$"),
        tables=[Table("The random laws of $X$ in Lemma B.4", ["law", "values", "probabilities"], laws)])


LB4 = Claim(id="ZCDP-LB.4", paper="zcdp",
            label=r"Lemma B.4 [DSS+15]: $\mathbb E[e^{X - \mathbb E X}] \le (\mathbb E e^{2X} + \mathbb E e^{-2X})/2$",
            kind="check",
            statement=r"\mathbb E[e^{X-\mathbb E[X]}]\le\tfrac12\mathbb E[e^{2X}]+\tfrac12\mathbb E[e^{-2X}]", check=cached_check(_lb4),
            where="App. B, Lemma B.4", seed=SEED,
            notes="The first expression of the printed chain is garbled in the extraction (catalogue note); the statement "
                  "is audited.")
