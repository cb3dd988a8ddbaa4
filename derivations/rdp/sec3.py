"""Mironov's Sections I-III and Table I: definitions, properties of RDP, and claims about all laws.

Statements about arbitrary distributions are checked on instance families
(:mod:`cbdp_sym.verify.instances`): the basic mechanisms (randomized response, Laplace, Gaussian pairs),
seeded random finite laws with exact rational probabilities, and an adversarial Nelder-Mead search
with an evaluation budget.  Every Rényi divergence is computed from its definition
(:func:`cbdp_sym.divergences.mechanisms.renyi_numeric`: sums for finite laws, split quadrature for densities);
events of finite laws are enumerated exhaustively, events of the continuous pairs are half-lines
(the likelihood-ratio sets of these shift families).  Posteriors are computed by Bayes' rule with an
explicit prior over three inputs.
"""
import random

import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Evidence, Exists, Estimate, Table, over, sample
from cbdp_sym.families import bound_evidence
from cbdp_sym import KL, Claim, Param, Tex, f_divergence, record
from cbdp_sym.calculus import cached_numeric
from cbdp_sym.conversions import hockey_stick, hockey_stick_sym, compose_atoms, delta_atoms, loss_atoms
from cbdp_sym import Finite
from cbdp_sym import ParameterError
from cbdp_sym.families import (
    cached_check, cached_point, Instance, describe, events, finite_from_logits, joint_adaptive, mass, push_forward,
    random_finite, random_kernel, random_pmf)
from cbdp_sym import max_divergence
from cbdp_sym.mechanisms import (
    gaussian_mechanism, laplace_mechanism, limit_alpha, randomized_response, renyi_curve, renyi_numeric)
from cbdp_sym.calculus import mp_str, to_mpf
from cbdp_sym.symbols import alpha, lam, sigma
from cbdp_sym.families import disk_cached_derivation
from cbdp_sym.calculus import recording
from cbdp_sym.calculus import time_limit
from cbdp_sym.families import order_mp, seed_for

from ._shared import forms_at, half_line_mass, order_tex, pair_label

SEED = "003_e6980684d37f3439.txt"
p = sp.Symbol("p", positive=True)
mu = sp.Symbol("mu", real=True)
eps = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", positive=True)
Delta = sp.Symbol("Delta", positive=True)
k_ = sp.Symbol("k", positive=True, integer=True)
ALPHAS = ("1.01", "3/2", "2", "5", "20")
FAM = (r"families: randomized response ($p = 0.51, 0.75, 0.99$), Laplace ($\lambda = 1/2, 2$; shift 1), Gaussian "
       r"($\sigma = 1/2, 2$; shift 1), seeded random finite laws on 2 to 5 points (exact rationals), adversarial search")


_seed = seed_for
_a = order_mp


# -- instance families -----------------------------------------------------------------------------
def _mech_pairs():
    """``(family, label, pair)`` of the basic mechanisms; the label is prose with mathematics."""
    out = []
    for pp in ("0.51", "0.75", "0.99"):
        out.append(("RR", f"$p = {pp}$", randomized_response(sp.Rational(pp))))
    for l in ("1/2", "2"):
        out.append(("Laplace", f"$\\lambda = {l}$", laplace_mechanism(sp.Rational(l), 1)))
    for s_ in ("1/2", "2"):
        out.append(("Gaussian", f"$\\sigma = {s_}$", gaussian_mechanism(sp.Rational(s_), 1)))
    return out


def _finite_pairs(name, count=25, ks=(2, 3, 4, 5)):
    rng = random.Random(_seed(name))
    out = []
    for i in range(count):
        k = rng.choice(ks)
        P, Q = random_finite(rng, k), random_finite(rng, k)
        out.append(("finite", pair_label(i, P, Q), (P, Q)))
    return out


@cached_numeric
def _D_cont(kind, par, a, dps):
    P, Q = (laplace_mechanism(to_mpf(sp.Rational(par)), 1) if kind == "Laplace"
            else gaussian_mechanism(to_mpf(sp.Rational(par)), 1))
    return renyi_numeric(P, Q, _a(a))


def D(P, Q, a, tag=None):
    """``D_a(P || Q)`` from the definition; continuous pairs of the families are cached by ``tag``."""
    if tag is not None and not P.atomic:
        kind, par = tag
        return _D_cont(kind, par, a if isinstance(a, str) else mp_str(a, 30), mp.mp.dps)
    return renyi_numeric(P, Q, _a(a) if isinstance(a, str) else a)


def _tag(fam, label, P):
    """The cache tag of a continuous pair of :func:`_mech_pairs`: its family and parameter."""
    if P.atomic:
        return None
    return (fam, label.split("=")[1].strip(" $"))


def _events_of(P, Q):
    """Events: all subsets of a finite support; half-lines (-oo, t] at a few t for the densities."""
    if P.atomic:
        k = len(P.probs)
        return [(S, mass(P, S), mass(Q, S)) for S in events(k)]
    out = []
    for t in ("-4", "-1", "0", "1/2", "2"):
        tt = to_mpf(sp.Rational(t))
        out.append((t, half_line_mass(P, tt), half_line_mass(Q, tt)))
    return out


# -- Section I -----------------------------------------------------------------------------------
def _intro(dps):
    # strictness: (0, d0)-DP but D_alpha = oo for every alpha > 1
    d0 = sp.Rational(1, 100)
    P, Q = Finite([0, 1], [1 - d0, d0]), Finite([0, 1], [1, 0])
    both = max(hockey_stick(P, Q, 0), hockey_stick(Q, P, 0))
    return All(
        Compare(claimed=d0, computed=both, at={"eps": 0},
                what=r"$P = (99/100, 1/100)$, $Q = (1, 0)$ is $(0, 1/100)$-DP: $\delta(0)$ in both orders (exact profile)"),
        over("alpha", ALPHAS + ("inf",), lambda a: Compare(claimed=mp.inf, computed=renyi_numeric(P, Q, _a(a)),
                                                           at={"alpha": a}),
             what=r"yet $D_\alpha(P\|Q) = \infty$ (no finite RDP guarantee)",
             domain=r"$\alpha \in \{1.01, 3/2, 2, 5, 20, \infty\}$"),
        what=r"implication: Prop. 3 (RDP-P3) turns RDP into $(\epsilon', \delta)$-DP; strictness on an explicit pair")


INTRO = Claim(
    id="RDP-INTRO", uses=("RDP-P3",), paper="rdp", label=r"Sec. I: RDP is strictly stronger than $(\epsilon, \delta)$-DP", kind="check",
    statement=r"\text{``Compared to }(\epsilon,\delta)\text{-differential privacy, R\'enyi differential privacy is a strictly stronger privacy definition.''}",
    check=cached_check(_intro), where="Sec. I", seed=SEED,
    notes="Implication: RDP-P3. Strictness: an explicit two-point instance.")

D1 = Claim(id="RDP-D1", paper="rdp", label=r"Definition 1 ($\epsilon$-DP)", kind="definition",
           statement=r"\Pr[f(D)\in S]\le e^{\epsilon}\Pr[f(D')\in S]\ \text{for adjacent}\ D,D'\ \text{and all}\ S\subset\mathcal{R}",
           where="Sec. II, Def. 1", seed=SEED)
D2 = Claim(id="RDP-D2", paper="rdp", label=r"Definition 2 ($(\epsilon, \delta)$-DP)", kind="definition",
           statement=r"\Pr[f(D)\in S]\le e^{\epsilon}\Pr[f(D')\in S]+\delta",
           where="Sec. II, Def. 2", seed=SEED)
D3 = Claim(id="RDP-D3", paper="rdp", label="Definition 3 (Rényi divergence)", kind="definition",
           statement=r"D_\alpha(P\|Q)\triangleq\frac{1}{\alpha-1}\log\mathbb{E}_{x\sim Q}\left(\frac{P(x)}{Q(x)}\right)^{\alpha},\ \alpha>1",
           where="Sec. III, Def. 3", seed=SEED,
           notes=r"Used throughout as $\frac{1}{\alpha-1}\log\int p^\alpha q^{1-\alpha}$ (the engine's Rényi divergence, "
                 "symbolic and numeric).")
D4 = Claim(id="RDP-D4", paper="rdp", label=r"Definition 4 ($(\alpha, \epsilon)$-RDP)", kind="definition",
           statement=r"D_\alpha(f(D)\|f(D'))\le\epsilon\ \text{for all adjacent}\ D,D'", where="Sec. III, Def. 4", seed=SEED)
R2 = Claim(id="RDP-R2", paper="rdp", label="Remark 2: orders below 1 are not used", kind="definition",
           statement=r"\text{The R\'enyi divergence can be defined for }\alpha<1\text{, including negative orders; they are not used in RDP.}",
           where="Sec. III, Remark 2", seed=SEED, notes="A remark about the definition; nothing to audit.")
KOV = Claim(id="RDP-KOV-MV", paper="rdp", label="Sec. II: optimal composition [7]; #P-hardness and PTAS [8]", kind="cited",
            statement=r"\text{Kairouz et al. [7]: optimal }k\text{-fold composition; Murtagh--Vadhan [8]: \#P-hard for heterogeneous mechanisms, PTAS}",
            where="Sec. II", seed=SEED, notes="Complexity results of other papers; not audited.")


# -- D_1 and D_oo as limits ----------------------------------------------------------------------
_KL_SAMPLES = {"RR": [{p: sp.Rational(k, 7)} for k in (1, 3, 6)],
               "Laplace": [{lam: sp.Rational(k, 3)} for k in (1, 3, 7)],
               "Gaussian": [{sigma: sp.Rational(k, 3), mu: sp.Rational(k - 4, 2)} for k in (1, 3, 7)]}
#: pairs whose limit and KL SymPy cannot show equal symbolically: compared at the exact points above
_AT_POINTS = ("RR",)


@disk_cached_derivation
def _sym_limits():
    """``(name, limit alpha -> 1 of the derived curve, KL derived separately)`` for the three mechanisms."""
    out = []
    with recording():
        for name, (P, Q) in (("RR", randomized_response(p)), ("Laplace", laplace_mechanism(lam, 1)),
                             ("Gaussian", gaussian_mechanism(sigma, mu))):
            curve = renyi_curve(P, Q)
            lim = limit_alpha(curve, alpha, 1)
            kl, _ = f_divergence(KL, P, Q)
            out.append((name, lim, kl))
    return out


def _d3_kl(dps):
    rows, parts = [], []
    for name, lim, kl in _sym_limits():
        rows.append([name, f"${sp.latex(lim)}$", f"${sp.latex(kl)}$"])
        what = f"{name}: the limit $\\alpha \\to 1$ of the derived curve against the derived KL divergence"
        parts.append(forms_at(kl, lim, _KL_SAMPLES[name], what=what) if name in _AT_POINTS
                     else Compare(claimed=kl, computed=lim, at={"pair": name}, what=what))
    h = mp.mpf(10) ** -(dps + 15)
    finite = sample("20 seeded random finite pairs", _finite_pairs("RDP-D3-KL", count=20),
                    lambda t: Compare(claimed=renyi_numeric(*t[2], mp.mpf(1)), computed=renyi_numeric(*t[2], 1 + h),
                                      at={"instance": t[1]}),
                    what=f"$D_{{1 + h}}$ with $h = 10^{{-{dps + 15}}}$ against the KL sum $\\sum_x P(x) \\log(P(x)/Q(x))$")
    return Evidence(All(*parts, finite, what=r"$D_1 = \lim_{\alpha \to 1} D_\alpha$ is the KL divergence"),
                    tables=[Table(r"The limits $\alpha \to 1$ of the derived curves and the derived KL divergences",
                                  ["pair", r"$\lim_{\alpha\to1} D_\alpha$", "KL (derived separately)"], rows, "")])


D3_KL = Claim(
    id="RDP-D3-KL", paper="rdp", label=r"Sec. III: $D_1 = \lim_{\alpha \to 1} D_\alpha$ is the KL divergence", kind="check",
    statement=r"D_1(P\|Q)=\lim_{\alpha\to1}D_\alpha(P\|Q)=\mathbb{E}_{x\sim P}\log\frac{P(x)}{Q(x)}",
    check=cached_check(_d3_kl), where="Sec. III", seed=SEED,
    notes=r"Symbolic on the Laplace and Gaussian pairs (the limit of the derived curve against the derived KL); on "
          r"randomized response SymPy cannot simplify the difference of the two logarithmic forms, so they are "
          r"compared at $p = 1/7, 3/7, 6/7$; numeric on random finite pairs (the definition at "
          r"$\alpha = 1 + 10^{-(d + 15)}$, $d$ the working digits).")


def _d3_inf(dps):
    rows, parts = [], []
    s_ = sp.Symbol("s", positive=True)
    with recording():
        rr = sp.simplify(renyi_curve(*randomized_response(p)).subs(p, (1 + s_) / (2 + s_)))
        lap = renyi_curve(*laplace_mechanism(lam, 1))
        gau = renyi_curve(*gaussian_mechanism(sigma, 1))
        pairs = ((r"RR, $p = (1+s)/(2+s)$", rr, max_divergence(*randomized_response((1 + s_) / (2 + s_)))[0]),
                 ("Laplace", lap, max_divergence(*laplace_mechanism(lam, 1))[0]),
                 ("Gaussian", gau, max_divergence(*gaussian_mechanism(sigma, 1))[0]))
        for name, curve, sup in pairs:
            lim = limit_alpha(curve, alpha, sp.oo)
            sup = sp.simplify(sup)
            rows.append([name, f"${sp.latex(lim)}$", f"${sp.latex(sup)}$"])
            parts.append(Compare(claimed=sup, computed=lim, at={"pair": name.split(",")[0]},
                                 what=f"{name}: the limit $\\alpha \\to \\infty$ of the derived curve against "
                                      r"$\sup_x \log p(x)/q(x)$"))
    big = mp.mpf(10) ** (dps + 15)
    finite = sample("20 seeded random finite pairs", _finite_pairs("RDP-D3-INF", count=20),
                    lambda t: Compare(claimed=renyi_numeric(*t[2], mp.inf), computed=renyi_numeric(*t[2], big),
                                      at={"instance": t[1]}),
                    what=f"$D_\\alpha$ at $\\alpha = 10^{{{dps + 15}}}$ against $\\max_x \\log P(x)/Q(x)$")
    return Evidence(All(*parts, finite, what=r"$D_\infty = \sup \log P/Q$ is the endpoint $\alpha \to \infty$"),
                    tables=[Table(r"The limits $\alpha \to \infty$ of the derived curves and $\sup_x \log p(x)/q(x)$",
                                  ["pair", r"$\lim_{\alpha\to\infty} D_\alpha$", r"$\sup_x \log p/q$"], rows,
                                  r" randomized response for $p > 1/2$, written $p = (1+s)/(2+s)$ with $s > 0$")])


D3_INF = Claim(
    id="RDP-D3-INF", paper="rdp", label=r"Sec. III: $D_\infty = \sup \log P/Q$ (the endpoint $\alpha \to \infty$)",
    kind="check", statement=r"D_\infty(P\|Q)=\sup_{x\in\operatorname{supp}Q}\log\frac{P(x)}{Q(x)}",
    check=cached_check(_d3_inf), where="Sec. III", seed=SEED)


def _d3_inf_ex(dps):
    kk = sp.Symbol("k", positive=True)
    kappa = sp.Symbol("kappa", positive=True)  # alpha - 1
    Z = mp.nsum(lambda k: mp.exp(-mp.sqrt(k)) / k**2, [1, mp.inf])
    c = 6 / mp.pi**2
    kl_closed = mp.log(c) + mp.log(Z) + c * mp.zeta(mp.mpf(3) / 2)
    with mp.workdps(45):  # the defining series summed term by term (Euler-Maclaurin tail), a cross-check
        kl = mp.nsum(lambda k: c / k**2 * (mp.log(c) + mp.sqrt(k) + mp.log(Z)), [1, mp.inf], method="e")
    # the terms of sum_k P_k (P_k/Q_k)^(alpha - 1): log term = kappa (sqrt k + log(c Z)) + log c - 2 log k
    term = sp.exp(kappa * (sp.sqrt(kk) + sp.Symbol("C", real=True))) / kk**2
    with time_limit(30, "limit of the terms"):
        lim = sp.limit(term, kk, sp.oo)
    rows = []
    for a in ("1.01", "2"):
        al = mp.mpf(a)
        rows.append([a] + [mp_str(mp.log(c) - 2 * mp.log(k) + (al - 1) * (mp.sqrt(k) + mp.log(c * Z)), 8)
                                  for k in (10**2, 10**6, 10**10)])
    witness = All(
        Compare(claimed=sp.oo, computed=lim,
                what=r"the terms $P_k (P_k/Q_k)^{\alpha-1} = e^{(\alpha-1)(\sqrt k + C)}/k^2$ of $e^{(\alpha-1)D_\alpha}$ "
                     r"tend to $\infty$ for every $\alpha > 1$ (SymPy's limit in $k$), so $D_\alpha = \infty$"),
        Compare(claimed=kl_closed, computed=Estimate(kl, 25), needs=25, at={"alpha": 1},
                what=r"$D_1 = \log(6/\pi^2) + \log Z + (6/\pi^2)\zeta(3/2)$ (finite) against the defining series summed "
                     "term by term at 45 working digits (established to 25 digits)"),
        what=(r"$P_k = 6/(\pi^2 k^2)$, $Q_k = e^{-\sqrt k}/(Z k^2)$ on the positive integers, $Z = "
              + mp_str(Z, 12) + "$"))
    return Evidence(Exists(witness, what=r"a pair with $D_1$ finite and $D_\alpha = \infty$ for every $\alpha > 1$"),
                    tables=[Table(r"The logarithm of the $k$-th term of $\sum_k P_k (P_k/Q_k)^{\alpha-1}$",
                                  [r"$\alpha$", "$k = 10^2$", "$k = 10^6$", "$k = 10^{10}$"], rows,
                                  r" growing like $(\alpha - 1)\sqrt k$: the series diverges")])


D3_INF_EX = Claim(
    id="RDP-D3-INF-EX", paper="rdp", label=r"Sec. III: $D_1$ finite while $D_\alpha = \infty$ for all $\alpha > 1$ is possible",
    kind="check", statement=r"\text{``It is possible, though, that }D_1(P\|Q)\text{ thus defined is finite whereas }D_\alpha(P\|Q)=+\infty\text{ for all }\alpha>1\text{.''}",
    check=cached_check(_d3_inf_ex), where="Sec. III", seed=SEED,
    notes=r"An explicit example (not in the paper): $P$ polynomial, the log-ratio growing like $\sqrt k$.")


def _dp_equiv(dps):
    def one(t):
        P, Q = t[2]
        k = len(P.probs)
        pointwise = max(sp.Rational(a) / b for a, b in zip(P.probs, Q.probs))
        over_events = max(sum(P.probs[i] for i in S) / sum(Q.probs[i] for i in S) for S in events(k))
        return Compare(claimed=pointwise, computed=over_events, at={"instance": t[1]})

    return sample("30 seeded random finite pairs on 2 to 6 points (exact rationals)",
                  _finite_pairs("RDP-DP-EQUIV", count=30, ks=(2, 3, 4, 5, 6)), one,
                  what=r"$\max_S P(S)/Q(S)$ over all events equals $\max_x P(x)/Q(x)$ in exact arithmetic (an event's "
                       r"ratio is a mediant of its points' ratios), so $\sup_S \log P(S)/Q(S) = D_\infty(P\|Q)$ and "
                       r"$\epsilon$-DP holds iff $D_\infty \le \epsilon$ in both orders")


DP_EQUIV = Claim(
    id="RDP-DP-EQUIV", uses=("RDP-D3-INF",), paper="rdp", label=r"Sec. III: $\epsilon$-DP iff $D_\infty(f(D)\|f(D')) \le \epsilon$", kind="check",
    statement=r"f\ \epsilon\text{-DP}\iff D_\infty(f(D)\|f(D'))\le\epsilon\ \text{for all adjacent}\ D,D'",
    check=cached_check(_dp_equiv), where="Sec. III", seed=SEED)


def _r1_pairs():
    rng = random.Random(_seed("RDP-R1"))
    out = []
    for i in range(10):
        k = rng.choice((2, 3, 4))
        P = random_finite(rng, k)
        qs = random_pmf(rng, k - 1)
        j = rng.randrange(k)
        qs = qs[:j] + [sp.Integer(0)] + qs[j:]
        out.append((i, P, Finite(list(range(k)), qs)))
    return out


def _r1_engine(P, Q):
    """The engine's derivation at alpha = 3/2: infinite (it refuses the pair) or its finite value."""
    try:
        return renyi_curve(P, Q, sp.Rational(3, 2))
    except ParameterError:
        return sp.oo


def _r1(dps):
    def one(t):
        i, P, Q = t
        lab = pair_label(i, P, Q)
        return All(*[Compare(claimed=sp.oo, computed=renyi_numeric(P, Q, _a(a)), at={"instance": lab, "alpha": a})
                     for a in ALPHAS],
                   Compare(claimed=sp.oo, computed=_r1_engine(P, Q), at={"instance": lab, "alpha": "3/2"},
                           what="the engine's derivation"))

    return sample(r"10 seeded random finite pairs where $Q$ vanishes at a point where $P$ has mass", _r1_pairs(), one,
                  what=r"$D_\alpha(P\|Q) = \infty$ at every $\alpha \in \{1.01, 3/2, 2, 5, 20\}$ (the sum of "
                       r"$p^\alpha q^{1-\alpha}$ has an infinite term), by the definition and by the engine's derivation")


R1 = Claim(
    id="RDP-R1", paper="rdp", label="Remark 1: finite RDP forces a common support", kind="check",
    statement=r"\text{A finite value for }\epsilon\text{-RDP implies that feasible outcomes of }f(D)\text{ are feasible for all inputs (up to measure 0).}",
    check=cached_check(_r1), where="Sec. III, Remark 1", seed=SEED)


# -- bad outcomes (Prop. 10 both ways) and Table I row 1 ------------------------------------------
def _bad_instances(name, with_dp=False):
    out = []
    for fam, label, (P, Q) in _mech_pairs() + _finite_pairs(name, count=20, ks=(2, 3, 4)):
        tag = _tag(fam, label, P)
        for a in (ALPHAS if P.atomic else ("3/2", "5")):
            if with_dp:
                a = "inf"
            out.append(Instance(fam, f"{label}, $\\alpha = {order_tex(a)}$", {"P": P, "Q": Q, "alpha": a, "tag": tag}))
            if with_dp:
                break
    return out


def _bad_eval(inst, side="both"):
    """The smaller side and the larger side of the inequality with the least relative slack over every event."""
    P, Q, a, tag = inst.data["P"], inst.data["Q"], inst.data["alpha"], inst.data["tag"]
    ep = max(D(P, Q, a, tag), D(Q, P, a, tag))
    al = _a(a) if isinstance(a, str) else a
    worst = None
    for _S, ps, qs in _events_of(P, Q):
        if al == mp.inf:
            up, lo = mp.exp(ep) * qs, mp.exp(-ep) * qs
        else:
            up = (mp.exp(ep) * qs) ** ((al - 1) / al)
            lo = mp.exp(-ep) * qs ** (al / (al - 1))
        cands = []
        if side in ("both", "upper"):
            cands.append((ps, up))
        if side in ("both", "lower"):
            cands.append((lo, ps))
        for q_, b_ in cands:
            s_ = (b_ - q_) / abs(b_) if b_ != 0 else b_ - q_
            if worst is None or s_ < worst[0]:
                worst = (s_, q_, b_)
    return worst[1], worst[2]


def _search_label(P, Q, a):
    return f"$P = {describe(P)}$, $Q = {describe(Q)}$, $\\alpha = {mp.nstr(a, 6)}$"


def _bad_search(side="both"):
    dim = 2 * 2 + 2  # logits of P and Q on 3 points, log(alpha - 1), which event

    def make(y):
        P, Q = finite_from_logits(y[0:2]), finite_from_logits(y[2:4])
        a = 1 + mp.exp(mp.mpf(y[4]))
        return Instance("finite (search)", _search_label(P, Q, a), {"P": P, "Q": Q, "alpha": a, "tag": None})

    rng = random.Random(11)
    return {"name": "finite 3-point", "make": make, "dim": dim, "budget": 150,
            "starts": [[rng.uniform(-3, 3) for _ in range(dim)] for _ in range(3)]}


def _bad(dps):
    return bound_evidence("upper", {"mechanisms and random finite pairs": _bad_instances("RDP-BAD")},
                          _bad_eval, search=_bad_search(),
                          what=r"both inequalities at every event, $\epsilon = \max(D_\alpha(P\|Q), D_\alpha(Q\|P))$",
                          quantity_name="smaller side", bound_name="larger side")


BAD = Claim(
    id="RDP-BAD", uses=("RDP-P10",), paper="rdp", label="Sec. III: the 'bad outcomes' guarantee of RDP", kind="check",
    statement=r"e^{-\epsilon}\Pr[f(D')\in S]^{\alpha/(\alpha-1)}\le\Pr[f(D)\in S]\le\left(e^{\epsilon}\Pr[f(D')\in S]\right)^{(\alpha-1)/\alpha}",
    check=cached_check(_bad), where="Sec. III", seed=SEED,
    conventions=(FAM, r"$P = f(D)$, $Q = f(D')$; $\epsilon = \max(D_\alpha(P\|Q), D_\alpha(Q\|P))$ (adjacency is symmetric)"),
    notes="Every event of the finite laws, half-lines for the densities; each instance contributes the inequality "
          "with the smaller relative slack.")


def _t1_1(dps):
    dp = bound_evidence("upper", {r"$\epsilon$-DP column ($\epsilon = D_\infty$ in both orders)":
                                  _bad_instances("RDP-T1-1", with_dp=True)}, _bad_eval,
                        what=r"the DP column: $e^{-\epsilon} Q(S) \le P(S) \le e^{\epsilon} Q(S)$ at every event",
                        quantity_name="smaller side", bound_name="larger side")
    return All(dp, _bad(dps), what="both columns of Table I, row 1")


T1_1 = Claim(
    id="RDP-T1-1", uses=("RDP-BAD",), paper="rdp", label="Table I, row 1: change in probability of outcome $S$", kind="check",
    statement=r"\text{DP: }e^{-\epsilon}\Pr[f(D')\in S]\le\Pr[f(D)\in S]\le e^{\epsilon}\Pr[f(D')\in S];\ "
              r"\text{RDP: }e^{-\epsilon}\Pr[f(D')\in S]^{\frac{\alpha}{\alpha-1}}\le\Pr[f(D)\in S]\le(e^{\epsilon}\Pr[f(D')\in S])^{\frac{\alpha-1}{\alpha}}",
    check=cached_check(_t1_1), where="Table I", seed=SEED, conventions=(FAM,), notes="The RDP column is RDP-BAD.")


# -- Bayes ---------------------------------------------------------------------------------------
def _posterior_ratio_instances(name):
    """(P, Q, prior) with a third input D'' so that the posterior is a genuine normalisation."""
    rng = random.Random(_seed(name))
    out = []
    for fam, label, (P, Q) in _mech_pairs()[:3] + _finite_pairs(name, count=20, ks=(2, 3, 4)):
        k = len(P.probs)
        R = random_finite(rng, k)
        prior = random_pmf(rng, 3)
        out.append((fam, label, P, Q, R, prior))
    return out


def _posteriors(P, Q, R, prior, x):
    """p(D|x), p(D'|x) for inputs D, D', D'' with output laws P, Q, R and the prior."""
    lik = [to_mpf(L.probs[x]) for L in (P, Q, R)]
    pr = [to_mpf(v) for v in prior]
    z = mp.fsum(a * b for a, b in zip(lik, pr))
    return lik[0] * pr[0] / z, lik[1] * pr[1] / z, pr


def _bayes_dp(dps):
    insts = []
    for fam, label, P, Q, R, prior in _posterior_ratio_instances("RDP-BAYES-DP"):
        insts.append(Instance(fam, label, {"P": P, "Q": Q, "R": R, "prior": prior}))

    def ev(inst):
        P, Q, R, prior = (inst.data[k] for k in ("P", "Q", "R", "prior"))
        e = renyi_numeric(P, Q, mp.inf)
        worst = None
        for x in range(len(P.probs)):
            pd, pd2, pr = _posteriors(P, Q, R, prior, x)
            lhs = pd / pd2
            rhs = mp.exp(e) * pr[0] / pr[1]
            s_ = (rhs - lhs) / rhs
            if worst is None or s_ < worst[0]:
                worst = (s_, lhs, rhs)
        return worst[1], worst[2]

    return bound_evidence("upper", {"RR and random finite pairs, random priors over three inputs": insts}, ev,
                          what=r"the posterior odds at every output ($\epsilon = D_\infty(f(D)\|f(D'))$)",
                          quantity_name="posterior odds", bound_name=r"$e^\epsilon$ times the prior odds")


BAYES_DP = Claim(
    id="RDP-BAYES-DP", paper="rdp", label=r"Sec. III: posterior odds of an $\epsilon$-DP mechanism", kind="check",
    statement=r"\frac{p(D|X)}{p(D'|X)}\le e^{\epsilon}\frac{p(D)}{p(D')}",
    check=cached_check(_bayes_dp), where="Sec. III", seed=SEED, notes="Posteriors by Bayes' rule with a prior over three inputs.")


def _moment_value(P, Q, R, prior, a):
    """E_{X ~ Q}[(R_post / R_prior)^a] with R(D, D') = p(D'|X) / p(D|X), D the input with output law Q (f(D)),
    D' the one with law P (f(D')): posteriors by Bayes."""
    tot = mp.mpf(0)
    for x in range(len(P.probs)):
        pD, pD2, pr = _posteriors(Q, P, R, prior, x)  # inputs: D -> Q, D' -> P
        ratio = (pD2 / pD) / (pr[1] / pr[0])
        tot += to_mpf(Q.probs[x]) * ratio**a
    return tot


def _bayes_moment(dps):
    insts = [(f"{fam}: {label}, $\\alpha = {a}$", P, Q, R, prior, a)
             for fam, label, P, Q, R, prior in _posterior_ratio_instances("RDP-BAYES-MOMENT") for a in ("3/2", "2", "5")]
    finite = sample("RR and random finite pairs, random priors over three inputs, three orders", insts,
                    lambda t: Compare(claimed=mp.exp((_a(t[5]) - 1) * renyi_numeric(t[1], t[2], _a(t[5]))),
                                      computed=_moment_value(t[1], t[2], t[3], t[4], _a(t[5])), at={"instance": t[0]}),
                    what=r"the moment computed from the posteriors against $\exp((\alpha-1) D_\alpha(P\|Q))$")
    with recording():
        from cbdp_sym.symbols import X
        from cbdp_sym import expect

        P, Q = randomized_response(p)
        # P(x)/Q(x) on the points x = 0, 1 of randomized response: (p/(1-p))^(2x-1)
        m, _ = expect(Q, (p / (1 - p)) ** (alpha * (2 * X - 1)), lhs=Tex(r"\mathbb{E}_Q[(P/Q)^\alpha]"))
        sym = sp.exp((alpha - 1) * renyi_curve(P, Q))
    # SymPy cannot simplify the difference of the two power forms: compared at exact points
    rr = forms_at(sym, m, [{p: sp.Rational(k, 7), alpha: sp.Rational(k + 3, 2)} for k in (1, 3, 6)],
                  what=r"randomized response: $\mathbb{E}_Q[(P/Q)^\alpha]$ derived by expectation against "
                       r"$\exp((\alpha-1)D_\alpha)$ from the derived curve")
    return All(finite, rr, what=r"$\mathbb{E}_Q[(R_{post}/R_{prior})^\alpha] = \exp((\alpha-1) D_\alpha(f(D')\|f(D)))$")


BAYES_MOMENT = Claim(
    id="RDP-BAYES-MOMENT", paper="rdp", label=r"Sec. III: the $\alpha$-th moment of the Bayes factor", kind="check",
    statement=r"\mathbb{E}_Q\left[\left(\frac{R_{post}(D,D')}{R_{prior}(D,D')}\right)^{\alpha}\right]=\mathbb{E}_Q\left[P(x)^{\alpha}Q(x)^{-\alpha}\right]=\exp[(\alpha-1)D_\alpha(f(D')\|f(D))]",
    check=cached_check(_bayes_moment), where="Sec. III", seed=SEED,
    conventions=(r"$R(D, D') = p(D'|X) / p(D|X)$, $X \sim f(D)$; $P = f(D')$, $Q = f(D)$",))


def _eq1_values(P, Q, R, prior, orientation):
    """E_{X ~ f(D)}[log R_post - log R_prior] with P = f(D), Q = f(D'); orientation "III": R = p(D'|X) / p(D|X);
    "VII": R = p(D|X) / p(D'|X)."""
    tot = mp.mpf(0)
    for x in range(len(P.probs)):
        pD, pD2, pr = _posteriors(P, Q, R, prior, x)
        if orientation == "III":
            val = mp.log(pD2 / pD) - mp.log(pr[1] / pr[0])
        else:
            val = mp.log(pD / pD2) - mp.log(pr[0] / pr[1])
        tot += to_mpf(P.probs[x]) * val
    return tot


def _exact(v):
    """A probability of a rational law as an exact SymPy number: a rational as it is (``nsimplify`` of a rational runs
    mpmath's ``identify``, a PSLQ search, 20 ms each, and may answer with a product of powers that only approximates
    it), anything else by ``nsimplify``."""
    v = sp.sympify(v)
    return v if v.is_Rational else sp.nsimplify(v)


def _eq1_exact(P, Q, R, prior, orientation):
    """:func:`_eq1_values` in exact arithmetic (the posteriors of rational laws by Bayes' rule, SymPy logarithms)."""
    tot = sp.Integer(0)
    pr = [_exact(v) for v in prior]
    for x in range(len(P.probs)):
        lik = [_exact(L.probs[x]) for L in (P, Q, R)]
        z = sum(a * b for a, b in zip(lik, pr))
        pD, pD2 = lik[0] * pr[0] / z, lik[1] * pr[1] / z
        val = (sp.log(pD2 / pD) - sp.log(pr[1] / pr[0])) if orientation == "III" else \
            (sp.log(pD / pD2) - sp.log(pr[0] / pr[1]))
        tot += lik[0] * val
    return tot


def _kl_exact(P, Q):
    return sum(_exact(a) * sp.log(_exact(a) / _exact(b)) for a, b in zip(P.probs, Q.probs))


def _eq1(dps):
    insts = []
    for fam, label, P, Q, R, prior in _posterior_ratio_instances("RDP-EQ1"):
        for a in ("1.01", "2", "20"):
            insts.append(Instance(fam, f"{label}, $\\alpha = {a}$", {"P": P, "Q": Q, "R": R, "prior": prior, "alpha": a}))

    def ev(inst):
        d = inst.data
        return _eq1_values(d["P"], d["Q"], d["R"], d["prior"], "III"), renyi_numeric(d["P"], d["Q"], _a(d["alpha"]))

    return bound_evidence("upper", {"RR and random finite pairs, priors over three inputs": insts}, ev,
                          what="(1) with $R$ as defined in Sec. III",
                          quantity_name=r"$\mathbb{E}[\log R_{post} - \log R_{prior}]$", bound_name=r"$D_\alpha(f(D)\|f(D'))$")


EQ1 = Claim(
    id="RDP-EQ1", uses=("RDP-EQ1-EQ", "RDP-P9"), paper="rdp", label=r"Eq. (1): the expected change of the log Bayes factor is at most $D_\alpha$", kind="check",
    statement=r"\mathbb{E}_{f(D)}[\log R_{post}(D,D')-\log R_{prior}(D,D')]\le D_\alpha(f(D)\|f(D'))",
    check=cached_check(_eq1), where="Sec. III, Eq. (1)", seed=SEED,
    conventions=(r"$R(D, D') = p(D'|X) / p(D|X)$ as defined before (1)",),
    notes=r"With the orientation in force the left side is $-D_1(f(D)\|f(D')) \le 0$, so (1) holds (with much room); the "
          "intermediate equality the paper prints is audited in RDP-EQ1-EQ.")


def _eq1_rr(pv):
    """Randomized response ``RR_p`` (P = f(D), Q = f(D')) with the uniform prior on D and D' (no third input): the
    simplest instance of Eq. (1)'s identity, a point ``{"p": ...}`` anyone can pass to ``cbdp-sym eval``."""
    P, Q = randomized_response(sp.Rational(pv))
    return P, Q, P, (sp.Rational(1, 2), sp.Rational(1, 2), sp.Integer(0))


def _eq1_eq_evidence(orientation, what):
    """E_{f(D)}[log R_post - log R_prior] against D_1(f(D)||f(D')) with R oriented as in Sec. III or Sec. VII: on
    randomized response at exact p (typed points) and on random finite pairs with random priors over three inputs."""
    def typed(pv):
        P, Q, R, prior = _eq1_rr(pv)
        return Compare(claimed=renyi_numeric(P, Q, mp.mpf(1)), computed=_eq1_values(P, Q, R, prior, orientation),
                       at={"p": pv}, closed=(_kl_exact(P, Q), _eq1_exact(P, Q, R, prior, orientation), {}, []),
                       what=(r"$\mathbb{E}_{f(D)}[\log R_{post} - \log R_{prior}]$ (computed) against "
                             r"$D_1(f(D)\|f(D'))$ (claimed), randomized response $\mathrm{RR}_p$, uniform prior"))

    def leaf(t):
        fam, label, P, Q, R, prior = t
        return Compare(claimed=renyi_numeric(P, Q, mp.mpf(1)), computed=_eq1_values(P, Q, R, prior, orientation),
                       at={"instance": f"{fam}: {label}"},
                       closed=(_kl_exact(P, Q), _eq1_exact(P, Q, R, prior, orientation), {}, []))

    return All(sample(r"randomized response $\mathrm{RR}_p$, $p \in \{3/4, 51/100, 99/100\}$, uniform prior on $D$, "
                      "$D'$", ("3/4", "51/100", "99/100"), typed),
               sample("RR and random finite pairs, random priors over three inputs",
                      _posterior_ratio_instances("RDP-EQ1-EQ"), leaf),
               what=what)


def _eq1_eq(dps):
    return _eq1_eq_evidence("III", r"$\mathbb{E}_{f(D)}[\log R_{post} - \log R_{prior}]$ against $D_1(f(D)\|f(D'))$, "
                                   r"with $R(D, D') = p(D'|X)/p(D|X)$ (the definition in force, Sec. III)")


def _eq1_eq_fixed(dps):
    return _eq1_eq_evidence("VII", r"$\mathbb{E}_{f(D)}[\log R_{post} - \log R_{prior}]$ against $D_1(f(D)\|f(D'))$, "
                                   r"with Sec. VII's orientation $R \sim p(D)/p(D')$")


EQ1_EQ = Claim(
    id="RDP-EQ1-EQ", error_kind="typo", paper="rdp",
    label=r"Sec. III: $\mathbb{E}_{f(D)}[\log R_{post} - \log R_{prior}] = D_1(f(D)\|f(D'))$", kind="check",
    statement=r"\mathbb{E}_{f(D)}[\log R_{post}(D,D')-\log R_{prior}(D,D')]=D_1(f(D)\|f(D'))",
    check=cached_check(_eq1_eq), corrected=cached_check(_eq1_eq_fixed),
    corrected_statement=r"\mathbb{E}_{f(D)}[\log R_{post}(D,D')-\log R_{prior}(D,D')]=D_1(f(D)\|f(D')),\ "
                        r"R(D,D')\sim p(D)/p(D')\ \text{(Sec. VII)}",
    where="Sec. III, after Eq. (1)", seed=SEED,
    conventions=(r"$P = f(D)$, $Q = f(D')$; $R$ as defined in Sec. III, $p(D'|X) / p(D|X)$; the corrected orientation "
                 r"is Sec. VII's $p(D) / p(D')$",),
    notes=r"A part of RDP-EQ1 (the printed derivation of (1)). With Sec. III's $R$ the expectation is $-D_1$: the "
          r"identity as printed has the wrong sign (a typo of orientation); with Sec. VII's $R$ it holds. The "
          "expectation does not depend on the prior.")


# -- post-processing, composition, group privacy -------------------------------------------------
def _post_instances(name):
    rng = random.Random(_seed(name))
    out = []
    for fam, label, (P, Q) in _finite_pairs(name, count=20, ks=(2, 3, 4)):
        m = rng.choice((2, 3))
        K = random_kernel(rng, len(P.probs), m)
        for a in ALPHAS + ("1", "inf"):
            out.append(Instance(fam, f"{label}, kernel to {m} points, $\\alpha = {order_tex(a)}$",
                                {"P": P, "Q": Q, "K": K, "alpha": a}))
    # the Laplace pair thresholded at 1/2 (a deterministic post-processing)
    for l in ("1/2", "2"):
        P, Q = laplace_mechanism(sp.Rational(l), 1)
        t = mp.mpf(1) / 2
        pb = half_line_mass(P, t)
        qb = half_line_mass(Q, t)
        for a in ("3/2", "5"):
            out.append(Instance("Laplace, thresholded", f"$\\lambda = {l}$, $g(x) = 1[x > 1/2]$, $\\alpha = {a}$",
                                {"P": P, "Q": Q, "K": None, "alpha": a, "bern": (pb, qb), "tag": ("Laplace", l)}))
    return out


def _post_eval(inst):
    d = inst.data
    a = d["alpha"]
    if d.get("K") is None and "bern" in d:
        pb, qb = d["bern"]
        gP, gQ = Finite([0, 1], [pb, 1 - pb]), Finite([0, 1], [qb, 1 - qb])
        return renyi_numeric(gP, gQ, _a(a)), D(d["P"], d["Q"], a, d.get("tag"))
    gP, gQ = push_forward(d["P"], d["K"]), push_forward(d["Q"], d["K"])
    al = _a(a) if isinstance(a, str) else a
    return renyi_numeric(gP, gQ, al), renyi_numeric(d["P"], d["Q"], al)


def _post_search():
    dim = 4 + 3 + 1  # P, Q on 3 points; a kernel 3 -> 2 (one logit per row); log(alpha - 1)

    def make(y):
        P, Q = finite_from_logits(y[0:2]), finite_from_logits(y[2:4])
        K = [[q for q in finite_from_logits([y[4 + i]]).probs] for i in range(3)]
        a = 1 + mp.exp(mp.mpf(y[7]))
        rows = ", ".join(mp.nstr(r[0], 4) for r in K)
        return Instance("finite (search)", _search_label(P, Q, a) + f", first column of the kernel $({rows})$",
                        {"P": P, "Q": Q, "K": K, "alpha": a})

    rng = random.Random(13)
    return {"name": "finite 3 -> 2 points", "make": make, "dim": dim, "budget": 150,
            "starts": [[rng.uniform(-3, 3) for _ in range(dim)] for _ in range(3)]}


def _post(dps):
    return bound_evidence("upper", {"random finite pairs and kernels; thresholded Laplace": _post_instances("RDP-POST")},
                          _post_eval, search=_post_search(), what=r"$D_\alpha(g(P)\|g(Q)) \le D_\alpha(P\|Q)$",
                          quantity_name=r"$D_\alpha(g(P)\|g(Q))$", bound_name=r"$D_\alpha(P\|Q)$")


POST = Claim(
    id="RDP-POST", paper="rdp", label="Sec. III: post-processing (data processing inequality)", kind="check",
    statement=r"D_\alpha(P\|Q)\ge D_\alpha(g(P)\|g(Q))", check=cached_check(_post), where="Sec. III", seed=SEED, conventions=(FAM,),
    notes=r"Orders $1.01, \dots, 20$, $1$ and $\infty$; random Markov kernels (rows with zeros allowed) and a "
          "thresholding of the Laplace pair.")

T1_4 = Claim(
    id="RDP-T1-4", uses=("RDP-POST",), paper="rdp", label="Table I, row 4: post-processing (DP and RDP)", kind="check",
    statement=r"f\ \epsilon\text{-DP (or }(\alpha,\epsilon)\text{-RDP)}\Rightarrow g\circ f\ \epsilon\text{-DP (or }(\alpha,\epsilon)\text{-RDP)}",
    check=cached_check(_post), where="Table I", seed=SEED, conventions=(FAM,),
    notes=r"Same check as RDP-POST ($\alpha = \infty$ is the DP column).")


def _comp_instances(name, alphas):
    rng = random.Random(_seed(name))
    out = []
    for i in range(20):
        k, m = rng.choice((2, 3)), rng.choice((2, 3))
        X, X2 = random_finite(rng, k), random_finite(rng, k)
        Ys = [(random_finite(rng, m), random_finite(rng, m)) for _ in range(k)]
        for a in alphas:
            out.append(Instance("finite adaptive", f"#{i}: $X$ on {k} points, $Y|X$ on {m} points, "
                                                   f"$\\alpha = {order_tex(a)}$", {"X": (X, X2), "Y": Ys, "alpha": a}))
    return out


def _comp_eval(inst):
    (X, X2), Ys, a = inst.data["X"], inst.data["Y"], inst.data["alpha"]
    al = _a(a) if isinstance(a, str) else a
    e1 = renyi_numeric(X, X2, al)
    e2 = max(renyi_numeric(Y, Y2, al) for Y, Y2 in Ys)
    J, J2 = joint_adaptive(X, [y for y, _ in Ys]), joint_adaptive(X2, [y for _, y in Ys])
    return renyi_numeric(J, J2, al), e1 + e2


def _comp_search(alpha_free=True):
    dim = 2 + 4 + (1 if alpha_free else 0)  # X pair on 2 points, Y pairs on 2 points for each x, log(alpha-1)

    def make(y):
        X, X2 = finite_from_logits(y[0:1]), finite_from_logits(y[1:2])
        Ys = [(finite_from_logits(y[2 + 2 * i:3 + 2 * i]), finite_from_logits(y[3 + 2 * i:4 + 2 * i])) for i in range(2)]
        a = 1 + mp.exp(mp.mpf(y[6])) if alpha_free else mp.inf
        return Instance("finite (search)", f"$X = {describe(X)}$ against ${describe(X2)}$, $Y|0 = {describe(Ys[0][0])}$ "
                                           f"against ${describe(Ys[0][1])}$, $Y|1 = {describe(Ys[1][0])}$ against "
                                           f"${describe(Ys[1][1])}$, $\\alpha = {order_tex(a)}$",
                        {"X": (X, X2), "Y": Ys, "alpha": a})

    rng = random.Random(17)
    return {"name": "adaptive 2 x 2 points", "make": make, "dim": dim, "budget": 150,
            "starts": [[rng.uniform(-3, 3) for _ in range(dim)] for _ in range(3)]}


def _products(alphas):
    out = []
    for a in alphas:
        out.append(Instance("Laplace x Gaussian", f"$\\lambda = 1$, $\\sigma = 1$, $\\alpha = {a}$", {"prod": True, "alpha": a}))
    return out


def _prod_eval(inst):
    from cbdp_sym import Laplace, Normal, Product

    a = inst.data["alpha"]
    P = Product(Laplace(0, 1), Normal(0, 1))
    Q = Product(Laplace(1, 1), Normal(1, 1))
    return renyi_numeric(P, Q, _a(a)), D(*laplace_mechanism(1, 1), a, ("Laplace", "1")) + D(*gaussian_mechanism(1, 1), a, ("Gaussian", "1"))


def _p1(dps):
    fams = {"random finite adaptive compositions": _comp_instances("RDP-P1", ALPHAS)}
    res = bound_evidence("upper", fams, _comp_eval, search=_comp_search(),
                         what=r"$D_\alpha(\text{joint}) \le \epsilon_1 + \epsilon_2$",
                         quantity_name=r"$D_\alpha$ of the joint law", bound_name=r"$\epsilon_1 + \epsilon_2$")
    res2 = bound_evidence("upper", {"independent Laplace and Gaussian releases (equality)": _products(("3/2", "5"))},
                          _prod_eval, what="the non-adaptive product",
                          quantity_name=r"$D_\alpha$ of the product", bound_name="the sum")
    return All(res, res2, what="Prop. 1")


P1 = Claim(
    id="RDP-P1", paper="rdp", label="Prop. 1: adaptive sequential composition of RDP", kind="check",
    statement=r"f\ (\alpha,\epsilon_1)\text{-RDP},\ g\ (\alpha,\epsilon_2)\text{-RDP}\Rightarrow(X,Y)\ (\alpha,\epsilon_1+\epsilon_2)\text{-RDP}",
    check=cached_check(_p1), where="Sec. III, Prop. 1", seed=SEED,
    conventions=(r"$\epsilon_1 = D_\alpha(X\|X')$, $\epsilon_2 = \max_x D_\alpha(Y|x \,\|\, Y'|x)$ ($g$'s guarantee at "
                 "every $x$)",),
    notes="The product of a Laplace and a Gaussian mechanism attains equality (slack 0): the bound is tight for "
          "independent releases.")


def _basiccomp(dps):
    fams = {r"random finite adaptive compositions, $\alpha = \infty$": _comp_instances("RDP-BASICCOMP", ("inf",))}
    return bound_evidence("upper", fams, _comp_eval, search=_comp_search(alpha_free=False),
                          what=r"$D_\infty(\text{joint}) \le \epsilon_1 + \epsilon_2$",
                          quantity_name=r"$D_\infty$ of the joint law", bound_name=r"$\epsilon_1 + \epsilon_2$")


BASICCOMP = Claim(
    id="RDP-BASICCOMP", paper="rdp", label=r"Sec. II: basic (adaptive) composition of $\epsilon$-DP", kind="check",
    statement=r"f\ \epsilon_1\text{-DP},\ g\ \epsilon_2\text{-DP}\Rightarrow(f(D),g(D))\ (\epsilon_1+\epsilon_2)\text{-DP (g may be adaptive)}",
    check=cached_check(_basiccomp), where="Sec. II", seed=SEED,
    notes=r"The case $\alpha = \infty$ of Prop. 1 (the supremum of a product of ratios).")


def _t1_5(dps):
    fams = {r"random finite adaptive, $\epsilon_1 = \epsilon_2$ the larger": _comp_instances("RDP-T1-5", ALPHAS + ("inf",))}

    def ev(inst):
        q, _b = _comp_eval(inst)
        (X, X2), Ys, a = inst.data["X"], inst.data["Y"], inst.data["alpha"]
        al = _a(a) if isinstance(a, str) else a
        e = max(renyi_numeric(X, X2, al), max(renyi_numeric(Y, Y2, al) for Y, Y2 in Ys))
        return q, 2 * e

    return bound_evidence("upper", fams, ev, what=r"$(f, g)$ is $2\epsilon$-DP (resp. $(\alpha, 2\epsilon)$-RDP)",
                          quantity_name=r"$D_\alpha$ of the joint law", bound_name=r"$2\epsilon$")


T1_5 = Claim(
    id="RDP-T1-5", uses=("RDP-BASICCOMP", "RDP-P1"), paper="rdp", label="Table I, row 5: adaptive sequential composition (basic)", kind="check",
    statement=r"f,g\ \epsilon\text{-DP (or }(\alpha,\epsilon)\text{-RDP)}\Rightarrow(f,g)\ 2\epsilon\text{-DP (resp. }(\alpha,2\epsilon)\text{-RDP)}",
    check=cached_check(_t1_5), where="Table I", seed=SEED)


def _chain_instances(name, length, count=15, alphas=None):
    rng = random.Random(_seed(name) + length)
    out = []
    for i in range(count):
        k = rng.choice((2, 3, 4))
        chain = [random_finite(rng, k)]
        for _ in range(length):  # neighbours stay close: mix the previous law with a fresh one
            fresh = random_finite(rng, k)
            w = sp.Rational(rng.randint(1, 9), 10)
            chain.append(Finite(list(range(k)), [w * a + (1 - w) * b for a, b in zip(chain[-1].probs, fresh.probs)]))
        for a in (alphas or ("inf",)):
            out.append(Instance("finite chain", f"#{i}: {length + 1} laws on {k} points, $\\alpha = {order_tex(a)}$",
                                {"chain": chain, "alpha": a}))
    return out


def _stable(dps):
    fams = {}
    for c in (2, 3, 4):
        fams[f"random chains of length {c}"] = _chain_instances("RDP-STABLE", c)
    fams[r"two-point chains $P_i = (1, 3^i)/(1 + 3^i)$"] = [
        Instance("two-point chain", f"{c} steps", {"rr": c, "alpha": "inf"}) for c in (2, 3)]

    def ev(inst):
        if "rr" in inst.data:
            c = inst.data["rr"]
            laws = [Finite([0, 1], [sp.Integer(1) / (1 + sp.Integer(3) ** i), sp.Integer(3) ** i / (1 + sp.Integer(3) ** i)])
                    for i in range(c + 1)]
        else:
            laws = inst.data["chain"]
        c = len(laws) - 1
        e = max(max(renyi_numeric(a, b, mp.inf), renyi_numeric(b, a, mp.inf)) for a, b in zip(laws[:-1], laws[1:]))
        ends = max(renyi_numeric(laws[-1], laws[0], mp.inf), renyi_numeric(laws[0], laws[-1], mp.inf))
        return ends, c * e

    return bound_evidence("upper", fams, ev, what=r"$D_\infty$ between the ends $\le c\epsilon$ (both orders)",
                          quantity_name=r"$D_\infty$ of the ends", bound_name=r"$c\epsilon$")


STABLE = Claim(
    id="RDP-STABLE", role="remark", paper="rdp", label=r"Sec. III: $\epsilon$-DP composed with a $c$-stable map is $c\epsilon$-DP",
    kind="check", statement=r"f\ \epsilon\text{-DP},\ g\ c\text{-stable}\Rightarrow f\circ g\ c\epsilon\text{-DP}",
    check=cached_check(_stable), where="Sec. III", seed=SEED,
    conventions=(r"a path $D_0, \dots, D_c$ of adjacent inputs: laws $P_0, \dots, P_c$; $\epsilon$ the largest "
                 r"$D_\infty$ of a step, in both orders",))


@disk_cached_derivation
def _p2_chain():
    a = sp.Symbol("alpha", positive=True)
    coef = (a / 2 - sp.Rational(1, 2)) / (a / 2 - 1)
    record(Tex(r"\frac{\alpha/2-1/2}{\alpha/2-1}"), sp.simplify(coef),
           "Cor. 4(1) at order $\\alpha/2$: coefficient of $D_\\alpha(h(D)\\|h(A))$ (the order $2\\cdot\\alpha/2$), "
           "the other term at order $2\\cdot\\alpha/2 - 1 = \\alpha - 1$")
    at4 = coef.subs(a, 4)
    record(Tex(r"\frac{\alpha-1}{\alpha-2}\Big|_{\alpha=4}"), at4, "decreasing in $\\alpha$: its largest value on $\\alpha \\ge 4$")
    total = at4 + 1
    record(Tex(r"D_{\alpha/2}(h(D)\|h(D'))"), Tex(r"\le \frac{3}{2}\epsilon + \epsilon = " + sp.latex(total) + r"\,\epsilon \le 3\epsilon"),
           "monotonicity $D_{\\alpha-1} \\le D_\\alpha \\le \\epsilon$: the chain gives $5\\epsilon/2$, within the printed $3\\epsilon$",
           rel="")
    return total


def _p2(dps):
    _p2_chain()
    fams = {}
    for c in (1, 2):
        L = 2**c
        fams[f"random chains, $c = {c}$ (length {L})"] = _chain_instances("RDP-P2", L, count=12,
                                                                         alphas=[str(2 ** (c + 1)), str(2 ** (c + 1) * 5)])
        fams[f"Gaussian chain $\\mathcal{{N}}(i, \\sigma^2)$, $c = {c}$"] = [
            Instance("Gaussian chain", f"$\\sigma = {s_}$, $c = {c}$, $\\alpha = {a}$", {"gauss": (s_, c), "alpha": a})
            for s_ in ("1/2", "2") for a in (str(2 ** (c + 1)), "50")]

    def ev(inst):
        a = inst.data["alpha"]
        al = _a(a)
        if "gauss" in inst.data:
            s_, c = inst.data["gauss"]
            sg = to_mpf(sp.Rational(s_))
            L = 2**c
            e = max(renyi_numeric(*gaussian_mechanism(sg, 1), al), renyi_numeric(*gaussian_mechanism(sg, -1), al))
            from cbdp_sym import Normal
            return renyi_numeric(Normal(0, sg), Normal(L, sg), al / L), 3**c * e
        laws = inst.data["chain"]
        L = len(laws) - 1
        c = L.bit_length() - 1
        e = max(max(renyi_numeric(x, y, al), renyi_numeric(y, x, al)) for x, y in zip(laws[:-1], laws[1:]))
        return renyi_numeric(laws[0], laws[-1], al / L), 3**c * e

    return bound_evidence("upper", fams, ev, what=r"$D_{\alpha/2^c}(P_0\|P_{2^c}) \le 3^c\epsilon$",
                          quantity_name=r"$D_{\alpha/2^c}$ of the ends", bound_name=r"$3^c\epsilon$")


P2 = Claim(
    id="RDP-P2", uses=("RDP-C4-1", "RDP-P9"), paper="rdp", label="Prop. 2: group privacy for $2^c$-stable maps", kind="check",
    statement=r"f\ (\alpha,\epsilon)\text{-RDP},\ g\ 2^c\text{-stable},\ \alpha\ge2^{c+1}\Rightarrow f\circ g\ (\alpha/2^c,3^c\epsilon)\text{-RDP}",
    check=cached_check(_p2), derive=_p2_chain, where="Sec. III, Prop. 2", seed=SEED,
    conventions=(r"a path of $2^c + 1$ laws; $\epsilon$ the largest $D_\alpha$ of a step, in both orders",),
    notes=r"The printed proof's chain ($c = 1$) is derived as steps: it gives $5\epsilon/2 \le 3\epsilon$ for $\alpha \ge 4$.")


def _t1_6(dps):
    return All(_stable(dps), _p2(dps), what="both columns of Table I, row 6")


T1_6 = Claim(
    id="RDP-T1-6", uses=("RDP-STABLE", "RDP-P2"), paper="rdp", label="Table I, row 6: group privacy, pre-processing", kind="check",
    statement=r"g\ 2^c\text{-stable}\Rightarrow f\circ g\ 2^c\epsilon\text{-DP (resp. }(\alpha/2^c,3^c\epsilon)\text{-RDP)}",
    check=cached_check(_t1_6), where="Table I", seed=SEED,
    notes=r"DP column: RDP-STABLE with $c$ replaced by $2^c$; RDP column: RDP-P2.")


def _t1_2(dps):
    dp = _bayes_dp(dps)
    insts = []
    for fam, label, P, Q, R, prior in _posterior_ratio_instances("RDP-T1-2"):
        for a in ("3/2", "2", "5"):
            insts.append(Instance(fam, f"{label}, $\\alpha = {a}$", {"P": P, "Q": Q, "R": R, "prior": prior, "alpha": a}))

    def ev(inst):
        d = inst.data
        al = _a(d["alpha"])
        return _moment_value(d["P"], d["Q"], d["R"], d["prior"], al), mp.exp((al - 1) * renyi_numeric(d["P"], d["Q"], al))

    rdp = bound_evidence("upper", {r"RR and random finite, $\epsilon = D_\alpha(f(D')\|f(D))$": insts}, ev,
                         what=r"$\mathbb{E}[(R_{post} / R_{prior})^\alpha] \le \exp((\alpha-1)\epsilon)$")
    return All(dp, rdp, what="both columns of Table I, row 2")


T1_2 = Claim(
    id="RDP-T1-2", uses=("RDP-BAYES-DP", "RDP-BAYES-MOMENT"), paper="rdp", label="Table I, row 2: change in the Bayes factor", kind="check",
    statement=r"\text{DP: }\frac{R_{post}}{R_{prior}}\le e^{\epsilon};\ \text{RDP: }\mathbb{E}\left[\left(\frac{R_{post}}{R_{prior}}\right)^{\alpha}\right]\le\exp[(\alpha-1)\epsilon]",
    check=cached_check(_t1_2), where="Table I", seed=SEED,
    notes=r"RDP column: equality with $\epsilon = D_\alpha(f(D')\|f(D))$ (RDP-BAYES-MOMENT), so slack 0.")


def _t1_3(dps):
    insts = []
    for fam, label, P, Q, R, prior in _posterior_ratio_instances("RDP-T1-3"):
        insts.append(Instance(fam, label, {"P": P, "Q": Q, "R": R, "prior": prior}))

    def ev(inst):
        d = inst.data
        e = max(renyi_numeric(d["P"], d["Q"], mp.inf), renyi_numeric(d["Q"], d["P"], mp.inf))
        worst = mp.mpf(0)
        for x in range(len(d["P"].probs)):
            pD, pD2, pr = _posteriors(d["P"], d["Q"], d["R"], d["prior"], x)
            worst = max(worst, abs(mp.log(pD2 / pD) - mp.log(pr[1] / pr[0])))
        return worst, e

    dp = bound_evidence("upper", {"RR and random finite": insts}, ev,
                        what=r"$|\Delta \log R| \le \epsilon$ at every output")
    return All(dp, _eq1(dps), what="both columns of Table I, row 3")


T1_3 = Claim(
    id="RDP-T1-3", uses=("RDP-BAYES-DP", "RDP-EQ1"), paper="rdp", label="Table I, row 3: change in the log of the Bayes factor", kind="check",
    statement=r"\text{DP: }|\Delta\log R(D,D')|\le\epsilon;\ \text{RDP: }\mathbb{E}[\Delta\log R(D,D')]\le\epsilon",
    check=cached_check(_t1_3), where="Table I", seed=SEED, notes="RDP column: RDP-EQ1.")


# -- Section II: Gaussian calibration and advanced composition -------------------------------------
@disk_cached_derivation
def _gausscal():
    sg = sp.Symbol("sigma", positive=True)
    prof = hockey_stick_sym(*gaussian_mechanism(sg, Delta), eps)[0]
    sig = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * Delta / eps
    out = sp.simplify(prof.subs(sg, sig))
    record(Tex(r"\delta_{exact}(\epsilon)"), out,
           "at $\\sigma = \\sqrt{2\\ln(1.25/\\delta)}\\,\\Delta_2 f/\\epsilon$ (the profile decreases in $\\sigma$: the boundary is the worst case)")
    return out


def _gausscal_numeric(vals):
    e, d = to_mpf(vals["eps"]), to_mpf(vals["delta"])
    sg = mp.sqrt(2 * mp.log(mp.mpf(5) / 4 / d)) / e
    return hockey_stick(*gaussian_mechanism(sg, 1), e)


GAUSSCAL = Claim(
    id="RDP-GAUSSCAL", paper="rdp", label=r"Sec. II: the Gaussian mechanism with $\sigma > \sqrt{2\ln(1.25/\delta)}\,\Delta_2 f/\epsilon$ is $(\epsilon, \delta)$-DP",
    kind="upper", statement=r"\epsilon<1,\ \sigma>\sqrt{2\ln(1.25/\delta)}\,\Delta_2f/\epsilon\Rightarrow(\epsilon,\delta)\text{-DP}",
    quantity=r"\delta_{exact}(\epsilon)",
    params=[Param.unit("eps", eps, ("1/1000", "1/10", "1/2", "9/10", "999/1000")),
            Param.unit("delta", delta, ("1/1000000", "1/100000", "1/100", "1/2", "99/100"))],
    sweep=[{"eps": e_, "delta": d_} for e_ in ("1/1000", "1/2", "999/1000") for d_ in ("1/1000000", "1/100", "99/100")],
    search={"eps": ("1/1000", "999/1000"), "delta": ("1/1000000", "999/1000")}, search_evals=40,
    derive=_gausscal, claimed=lambda: delta, numeric=cached_point("RDP-GAUSSCAL", _gausscal_numeric),
    where="Sec. II", seed=SEED, conventions=(r"$\mathcal{N}(0, \sigma^2)$ takes the variance; the profile depends on $\sigma/\Delta$ only",
                                            r"quantity: the exact privacy profile $\sup_S P(S) - e^\epsilon Q(S)$ at the boundary $\sigma$"),
    notes=r"The radical is read as covering $2\ln(1.25/\delta)$ (extraction ambiguous). Numeric: the hockey-stick "
          "integral of the two Gaussian densities by quadrature; derived: the profile in error functions.")


def _advcomp_numeric(vals):
    e, k, dp = to_mpf(vals["eps"]), int(vals["k"]), to_mpf(vals["delta"])
    pr = mp.exp(e) / (1 + mp.exp(e))
    atoms = compose_atoms(loss_atoms(*randomized_response(pr)), k)
    eprime = mp.sqrt(2 * k * mp.log(1 / dp)) * e + k * e * (mp.exp(e) - 1)
    return delta_atoms(atoms, eprime)


ADVCOMP = Claim(
    id="RDP-ADVCOMP", paper="rdp", label="Sec. II, citing [6]: advanced composition theorem", kind="upper",
    statement=r"k\text{-fold composition of }(\epsilon,\delta)\text{-DP is }(\epsilon',k\delta+\delta')\text{-DP},\ "
              r"\epsilon'=\sqrt{2k\ln(1/\delta')}\,\epsilon+k\epsilon(e^{\epsilon}-1)",
    quantity=r"\delta_{exact}(\epsilon')",
    params=[Param.positive("eps", eps, ("1/100", "1/10", "1/2", "1", "2")),
            Param.positive_int("k", k_, ("1", "10", "100", "250", "3")),
            Param.unit("delta", delta, ("1/1000000", "1/1000", "1/10", "1/2", "1/100000"))],
    sweep=[{"eps": e_, "k": kk, "delta": d_} for e_ in ("1/100", "1/10", "1") for kk in ("1", "10", "250")
           for d_ in ("1/1000000", "1/10")],
    search={"eps": ("1/1000", "3"), "k": ("1", "300"), "delta": ("1/1000000", "9/10")}, search_evals=60,
    claimed=lambda: delta, numeric=_advcomp_numeric,
    where="Sec. II (cited from [6])", seed=SEED,
    conventions=(r"audited for pure $\epsilon$-DP mechanisms ($\delta = 0$): the exact worst case is the $k$-fold "
                 r"composition of randomized response with $p = e^\epsilon/(1 + e^\epsilon)$ (Kairouz, Oh and "
                 "Viswanath), its profile summed exactly",
                 r"the parameter $\delta$ is $\delta'$"),
    notes=r"A cited result, audited on its extremal instance: the exact $\delta$ of the $k$-fold composition at "
          r"$\epsilon'$ must not exceed $\delta'$. The radical is read as covering $2k\ln(1/\delta')$.")
