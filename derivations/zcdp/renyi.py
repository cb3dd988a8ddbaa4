"""Bun-Steinke: properties of the Rényi divergence (Def. 2.1, Lemma 2.2 a-e, Lemma B.6), composition and
postprocessing of zCDP (Lemmas 1.7/1.8, 2.3) and group privacy (Lemma 5.2, Prop. 5.3, Prop. 1.9).

Statements about all distributions are checked on seeded random finite laws (exact rational probabilities,
:func:`cbdp_sym.verify.instances.random_finite`), the basic mechanisms and an adversarial Nelder-Mead search; every
divergence is computed from its definition (sums over the outcomes).  Each check returns evidence (the comparisons,
instance by instance): the engine decides the verdict.
"""
import random

import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Evidence, Table, sample
from cbdp_sym.families import bound_evidence
from cbdp_sym import Claim, Tex, record
from ._shared import ZPair, group_induction, group_recursion, harmonic, holder_orders, random_finite_pairs
from cbdp_sym import Finite, Normal
from cbdp_sym import renyi_divergence
from cbdp_sym.calculus import DerivationError
from cbdp_sym.families import (
    Instance, cached_check, describe, joint_adaptive, push_forward, random_finite, random_kernel, softmax)
from cbdp_sym.mechanisms import renyi_numeric
from cbdp_sym.calculus import mp_str, to_mpf
from cbdp_sym.calculus import cached_derivation, recording
from cbdp_sym.calculus import time_limit

SEED = "004_f41028c8afd8f9e7.txt"
ALPHAS = ("1", "1001/1000", "3/2", "2", "5", "30", "inf")
FAMNOTE = (r"Seeded random finite laws on 2 to 4 points with exact rational probabilities; divergences from their defining "
           r"sums; $\alpha \in \{1, 1.001, 3/2, 2, 5, 30, \infty\}$.")


def _a(a):
    if isinstance(a, mp.mpf):
        return a
    if a == "inf":
        return mp.inf
    return mp.mpf(1) if a == "1" else to_mpf(sp.Rational(a))


def D(P, Q, a):
    """``D_a(P || Q)`` for finite laws from the definition (sums), including a = 1 and oo."""
    return ZPair.finite(P, Q).renyi(_a(a))


def _rng(name):
    import zlib

    return random.Random(zlib.crc32(name.encode()))


def _rows(name, rows, rel, what="", note=""):
    """A bound (or identity) on a declared sample: ``rows`` of ``(at, computed, claimed)``, ``computed REL claimed``."""
    return sample(name, rows, lambda r: Compare(claimed=r[2], computed=r[1], rel=rel, at=r[0]), what=what, note=note)


def _laws_table(title, laws):
    """A display table of the random laws behind the instance labels (``#i``): ``laws`` is ``[(label, [law, ...])]``."""
    width = max(len(ls) for _l, ls in laws)
    cols = ["instance"] + [f"law {j + 1}" for j in range(width)]
    return Table(title, cols, [[lab] + [describe(L, 4) for L in ls] + [""] * (width - len(ls)) for lab, ls in laws],
                 note="probabilities rounded for display; the audit uses the exact rationals")


# -- Definition 2.1 -------------------------------------------------------------------------------------------
def _d21(dps):
    forms, limits, rows, laws = [], [], [], []
    for i, (_lab, z) in enumerate(random_finite_pairs(21, 6)):
        P, Q = z.P, z.Q
        laws.append((f"#{i}", [P, Q]))
        pts = [(to_mpf(p), to_mpf(q)) for p, q in zip(P.probs, Q.probs)]
        for a in ("3/2", "2", "7"):
            av = _a(a)
            f1 = mp.log(mp.fsum(p**av * q ** (1 - av) for p, q in pts if p > 0)) / (av - 1)
            f2 = mp.log(mp.fsum(q * (p / q) ** av for p, q in pts if q > 0)) / (av - 1)
            f3 = mp.log(mp.fsum(p * (p / q) ** (av - 1) for p, q in pts if p > 0)) / (av - 1)
            f4 = z.renyi(av)  # E_P[e^{(alpha - 1) Z}] over the privacy-loss atoms, log1p form
            at = {"pair": f"#{i}", "alpha": a}
            forms += [Compare(claimed=f1, computed=f2, at=dict(at, form="the Q-expectation")),
                      Compare(claimed=f1, computed=f3, at=dict(at, form="the P-expectation")),
                      Compare(claimed=f1, computed=f4, at=dict(at, form="the privacy loss"))]
        # the two limits: the remainder at the order used is below the working precision (D_alpha - D_1 = O(alpha - 1);
        # D_oo - D_alpha <= log(1/P(x*))/(alpha - 1) with x* the outcome of the largest log-ratio)
        kl = mp.fsum(p * mp.log(p / q) for p, q in pts if p > 0)
        near1 = z.renyi(1 + mp.mpf(10) ** -(dps + 5))
        dinf = max(mp.log(p / q) for p, q in pts if p > 0)
        far = z.renyi(mp.mpf(10) ** (dps + 5))
        limits += [Compare(claimed=kl, computed=near1, at={"pair": f"#{i}", "limit": "order tending to 1"},
                           what=rf"$D_1 = \lim_{{\alpha \to 1}} D_\alpha$ (at $\alpha = 1 + 10^{{-{dps + 5}}}$)"),
                   Compare(claimed=dinf, computed=far, at={"pair": f"#{i}", "limit": "order tending to infinity"},
                           what=rf"$D_\infty = \lim_{{\alpha \to \infty}} D_\alpha$ (at $\alpha = 10^{{{dps + 5}}}$)")]
        rows.append([f"#{i}", mp_str(kl, 10), mp_str(near1, 10), mp_str(dinf, 10), mp_str(z.renyi(mp.mpf(10) ** 8), 10)])
    # footnote 10: P not absolutely continuous with respect to Q
    P, Q = Finite([0, 1], [sp.Rational(1, 2), sp.Rational(1, 2)]), Finite([0, 1], [1, 0])
    fn10 = sample(r"the pair $P = (1/2, 1/2)$, $Q = (1, 0)$", ("1001/1000", "2", "inf"),
                  lambda a: Compare(claimed=sp.oo, computed=ZPair.finite(P, Q).renyi(_a(a)), at={"alpha": a}),
                  what=r"footnote 10: $D_\alpha(P\|Q) = \infty$ when $P$ is not absolutely continuous with respect to $Q$")
    return Evidence(All(
        sample("6 seeded random finite pairs", forms, lambda c: c,
               what=r"the three forms of $D_\alpha$ and the privacy-loss form $\frac{1}{\alpha-1}\log\mathbb E[e^{(\alpha-1)Z}]$"),
        sample("the same 6 pairs", limits, lambda c: c, what=r"the limits $\alpha \to 1$ and $\alpha \to \infty$"),
        fn10), tables=[
        Table(r"Def. 2.1: the limits $\alpha \to 1$ and $\alpha \to \infty$",
              ["pair", r"$\sum P\log(P/Q)$", f"$D_{{1+10^{{-{dps + 5}}}}}$", r"$\max\log(P/Q)$", r"$D_{10^8}$"], rows),
        _laws_table("The random pairs of Def. 2.1 ($P$, $Q$)", laws)])


D21 = Claim(id="ZCDP-D2.1", paper="zcdp", label="Definition 2.1: Rényi divergence (three forms, the limits, footnote 10)",
            kind="definition",
            statement=r"D_\alpha(P\|Q)=\frac1{\alpha-1}\log\int P^\alpha Q^{1-\alpha}=\frac1{\alpha-1}\log\mathbb E_Q[(P/Q)^\alpha]="
                      r"\frac1{\alpha-1}\log\mathbb E_P[(P/Q)^{\alpha-1}]",
            where="Sec. 2, Def. 2.1 and footnote 10", seed=SEED,
            notes="The equalities between the forms and the limits are audited in ZCDP-D2.1-FORMS.")

D21_FORMS = Claim(
    id="ZCDP-D2.1-FORMS", paper="zcdp", label=r"Def. 2.1: the three forms agree; $D_1$ and $D_\infty$ are the limits",
    kind="check",
    statement=r"\tfrac1{\alpha-1}\log\int P^\alpha Q^{1-\alpha}=\tfrac1{\alpha-1}\log\mathbb E_Q[(\tfrac PQ)^\alpha]=\tfrac1{\alpha-1}"
              r"\log\mathbb E_P[(\tfrac PQ)^{\alpha-1}];\ D_1=\lim_{\alpha\to1}D_\alpha;\ D_\infty=\lim_{\alpha\to\infty}D_\alpha",
    check=cached_check(_d21), where="Sec. 2, Def. 2.1 and footnote 10", seed=SEED,
    notes=r"The limits are compared at $\alpha = 1 + 10^{-(d+5)}$ and $\alpha = 10^{d+5}$ ($d$ the working digits), where "
          r"the remainder ($O(\alpha - 1)$, respectively at most $\log(1/P(x^*))/(\alpha-1)$) is below the precision.")


# -- Lemma 2.2 -------------------------------------------------------------------------------------------------
def _pairs(name, count=10, ks=(2, 3, 4)):
    rng = _rng(name)
    out = []
    for i in range(count):
        k = rng.choice(ks)
        P, Q = random_finite(rng, k), random_finite(rng, k)
        out.append((f"#{i}", P, Q))
    return out


def _l22a(dps):
    with recording():
        tt, al = sp.symbols("t alpha", positive=True)
        h2 = sp.diff(tt**al, tt, 2)
        record(Tex(r"h''(t)"), sp.factor(h2), "$h(t) = t^\\alpha$: positive for $t > 0$, $\\alpha > 1$ (strict convexity)")
    diff = [({"pair": lab, "alpha": a}, D(P, Q, a), 0) for lab, P, Q in _pairs("L2.2a") for a in ALPHAS]
    same = [({"law": lab, "alpha": a}, D(P, P, a), 0) for lab, P, _Q in _pairs("L2.2a-eq", 4) for a in ("1", "2", "inf")]
    return Evidence(All(
        _rows("10 seeded random finite pairs with $P \\ne Q$, every $\\alpha$ listed", diff, ">",
              what=r"$D_\alpha(P\|Q) > 0$ when $P \ne Q$"),
        _rows("4 seeded random finite laws, $\\alpha \\in \\{1, 2, \\infty\\}$", same, "=",
              what=r"$D_\alpha(P\|P) = 0$"),
        what=r"$D_\alpha(P\|Q) \ge 0$ with equality exactly when $P = Q$"),
        tables=[_laws_table(r"The random pairs of Lemma 2.2 (non-negativity): $P$, $Q$",
                            [(lab, [P, Q]) for lab, P, Q in _pairs("L2.2a")])])


L22A = Claim(id="ZCDP-L2.2a", paper="zcdp", label=r"Lemma 2.2: non-negativity, equality iff $P = Q$", kind="check",
             statement=r"D_\alpha(P\|Q)\ge0,\ =0\iff P=Q,\ \alpha\in[1,\infty]", check=cached_check(_l22a),
             where="Sec. 2, Lemma 2.2 (proof in App. B.1)", seed=SEED, conventions=(FAMNOTE,))


def _joint_pairs(name, count=8):
    """Random joint laws on Omega x Theta (|Omega|, |Theta| in {2, 3}) as (marginal, conditionals)."""
    rng = _rng(name)
    out = []
    for i in range(count):
        k, m = rng.choice((2, 3)), rng.choice((2, 3))
        PX, QX = random_finite(rng, k), random_finite(rng, k)
        Pc = [random_finite(rng, m) for _ in range(k)]
        Qc = [random_finite(rng, m) for _ in range(k)]
        out.append((f"#{i} ({k} by {m})", PX, QX, Pc, Qc))
    return out


def _l22b(dps):
    lo, hi, prod = [], [], []
    for lab, PX, QX, Pc, Qc in _joint_pairs("L2.2b"):
        J, K = joint_adaptive(PX, Pc), joint_adaptive(QX, Qc)
        for a in ALPHAS:
            cond = [D(p, q, a) for p, q in zip(Pc, Qc)]
            dm, dj = D(PX, QX, a), D(J, K, a)
            lo.append(({"joint law": lab, "alpha": a}, dj, dm + min(cond)))
            hi.append(({"joint law": lab, "alpha": a}, dj, dm + max(cond)))
        # product laws: the same conditional for every x
        Jp, Kp = joint_adaptive(PX, [Pc[0]] * len(PX.probs)), joint_adaptive(QX, [Qc[0]] * len(QX.probs))
        for a in ("1", "2", "inf"):
            prod.append(({"product law": lab, "alpha": a}, D(Jp, Kp, a), D(PX, QX, a) + D(Pc[0], Qc[0], a)))
    name = "8 seeded random joint laws (marginal and conditionals), every $\\alpha$ listed"
    return All(_rows(name, lo, ">=", what=r"$D_\alpha(P\|Q) \ge D_\alpha(P'\|Q') + \min_x D_\alpha(P'_x\|Q'_x)$"),
               _rows(name, hi, "<=", what=r"$D_\alpha(P\|Q) \le D_\alpha(P'\|Q') + \max_x D_\alpha(P'_x\|Q'_x)$"),
               _rows("the 8 marginals with one conditional for every $x$, $\\alpha \\in \\{1, 2, \\infty\\}$", prod, "=",
                     what="product laws: the divergences add"))


L22B = Claim(id="ZCDP-L2.2b", paper="zcdp", label="Lemma 2.2: composition (chain rule bounds; products add)", kind="check",
             statement=r"D_\alpha(P'\|Q')+\min_xD_\alpha(P'_x\|Q'_x)\le D_\alpha(P\|Q)\le D_\alpha(P'\|Q')+\max_xD_\alpha(P'_x\|Q'_x)",
             check=cached_check(_l22b), where="Sec. 2, Lemma 2.2 (proof in App. B.1)", seed=SEED, conventions=(FAMNOTE,))


def _mix(P0, P1, t):
    return Finite(P0.points, [t * a + (1 - t) * b for a, b in zip(P0.probs, P1.probs)])


def _l22c(dps):
    quasi, kl = [], []
    rng = _rng("L2.2c")
    for i in range(8):
        k = rng.choice((2, 3, 4))
        P0, P1, Q0, Q1 = (random_finite(rng, k) for _ in range(4))
        for tt in ("1/10", "1/2", "9/10"):
            tv = sp.Rational(tt)
            P, Q = _mix(P0, P1, tv), _mix(Q0, Q1, tv)
            for a in ALPHAS:
                quasi.append(({"mixture": f"#{i}", "t": tt, "alpha": a}, D(P, Q, a), max(D(P0, Q0, a), D(P1, Q1, a))))
            kl.append(({"mixture": f"#{i}", "t": tt}, D(P, Q, "1"),
                       to_mpf(tv) * D(P0, Q0, "1") + (1 - to_mpf(tv)) * D(P1, Q1, "1")))
    name = r"8 seeded random quadruples $P_0, P_1, Q_0, Q_1$, $t \in \{1/10, 1/2, 9/10\}$"
    return All(_rows(name + ", every $\\alpha$ listed", quasi, "<=", what="quasi-convexity"),
               _rows(name, kl, "<=", what=r"convexity of $D_1$"))


L22C = Claim(id="ZCDP-L2.2c", paper="zcdp", uses=("ZCDP-LB.6",), label="Lemma 2.2: quasi-convexity (and convexity of KL)", kind="check",
             statement=r"D_\alpha(tP_0+(1-t)P_1\|tQ_0+(1-t)Q_1)\le\max\{D_\alpha(P_0\|Q_0),D_\alpha(P_1\|Q_1)\}",
             check=cached_check(_l22c), where="Sec. 2, Lemma 2.2", seed=SEED, conventions=(FAMNOTE,))


def _l22d(dps):
    kern, maps = [], []
    rng = _rng("L2.2d")
    for lab, P, Q in _pairs("L2.2d", 8):
        k = len(P.probs)
        K = random_kernel(rng, k, rng.choice((2, 3)))
        KP, KQ = push_forward(P, K), push_forward(Q, K)
        det = [[1 if j == min(r, k - 2) else 0 for j in range(k - 1)] for r in range(k)] if k > 2 else [[1], [1]]
        det = [[sp.Integer(x) for x in row] for row in det]
        FP, FQ = push_forward(P, det), push_forward(Q, det)
        for a in ALPHAS:
            kern.append(({"pair": lab, "alpha": a}, D(KP, KQ, a), D(P, Q, a)))
            maps.append(({"pair": lab, "alpha": a}, D(FP, FQ, a), D(P, Q, a)))
    return All(_rows("8 seeded random pairs and random kernels, every $\\alpha$ listed", kern, "<=",
                     what="randomized postprocessing"),
               _rows("the same pairs, the last two points merged, every $\\alpha$ listed", maps, "<=",
                     what="a deterministic map"),
               what=r"$D_\alpha(f(P)\|f(Q)) \le D_\alpha(P\|Q)$")


L22D = Claim(id="ZCDP-L2.2d", paper="zcdp", label="Lemma 2.2: postprocessing (deterministic and randomized maps)", kind="check",
             statement=r"D_\alpha(f(P)\|f(Q))\le D_\alpha(P\|Q)", check=cached_check(_l22d),
             where="Sec. 2, Lemma 2.2 (proof in App. B.1)", seed=SEED, conventions=(FAMNOTE,))


def _l22e(dps):
    order = ["1", "1001/1000", "3/2", "2", "5", "30", "inf"]
    rows = []
    for lab, P, Q in _pairs("L2.2e", 10):
        vals = [D(P, Q, a) for a in order]
        for (a1, v1), (a2, v2) in zip(zip(order, vals), zip(order[1:], vals[1:])):
            rows.append(({"pair": lab, "alpha": a1, "next order": a2}, v1, v2))
    return _rows("10 seeded random pairs, consecutive orders of $1, 1.001, 3/2, 2, 5, 30, \\infty$", rows, "<=",
                 what=r"$D_\alpha(P\|Q) \le D_{\alpha'}(P\|Q)$ for $\alpha \le \alpha'$")


L22E = Claim(id="ZCDP-L2.2e", paper="zcdp", label="Lemma 2.2: monotonicity in the order", kind="check",
             statement=r"1\le\alpha\le\alpha'\le\infty\Rightarrow D_\alpha(P\|Q)\le D_{\alpha'}(P\|Q)", check=cached_check(_l22e),
             where="Sec. 2, Lemma 2.2 (proof in App. B.1)", seed=SEED, conventions=(FAMNOTE,))


def _rho_xi(P, Q):
    z = ZPair.finite(P, Q)
    return z.rho_star()[0]


def _l23(dps):
    rows = []
    rng = _rng("L2.3")
    for i in range(6):
        k, m = rng.choice((2, 3)), rng.choice((2, 3))
        PX, QX = random_finite(rng, k), random_finite(rng, k)
        Pc = [random_finite(rng, m) for _ in range(k)]
        Qc = [random_finite(rng, m) for _ in range(k)]
        r1 = _rho_xi(PX, QX)
        r2 = max(_rho_xi(p, q) for p, q in zip(Pc, Qc))
        # (xi, rho) split: xi = xi*(rho/2) for each stage
        zx = ZPair.finite(PX, QX)
        x1 = zx.xi_star(r1 / 2)
        x2 = max(ZPair.finite(p, q).xi_star(r2 / 2) for p, q in zip(Pc, Qc))
        J, K = joint_adaptive(PX, Pc), joint_adaptive(QX, Qc)
        m_ = len(Pc[0].probs)
        proj = [[sp.Integer(1) if j == c % m_ else sp.Integer(0) for j in range(m_)] for c in range(len(J.probs))]
        ZP, ZQ = push_forward(J, proj), push_forward(K, proj)
        for a in ("1001/1000", "2", "5", "30"):
            av = _a(a)
            rows.append(({"composition": f"#{i}", "split": "first", "alpha": a}, D(J, K, a), (r1 + r2) * av))
            rows.append(({"composition": f"#{i}", "split": "second", "alpha": a}, D(J, K, a),
                         x1 + x2 + (r1 + r2) / 2 * av))
            rows.append(({"composition": f"#{i}", "split": "first", "output": "second stage only", "alpha": a}, D(ZP, ZQ, a),
                         (r1 + r2) * av))
    return _rows(r"6 seeded random two-stage adaptive compositions, $\alpha \in \{1.001, 2, 5, 30\}$", rows, "<=",
                 what=r"$D_\alpha(M''(x)\|M''(x')) \le \xi + \xi' + (\rho + \rho')\alpha$")


L23 = Claim(id="ZCDP-L2.3", paper="zcdp", uses=("ZCDP-L2.2b", "ZCDP-L2.2d"), label=r"Lemma 2.3: adaptive composition and postprocessing of $(\xi, \rho)$-zCDP",
            kind="check", statement=r"M''(x)=M'(x,M(x))\ \text{is}\ (\xi+\xi',\rho+\rho')\text{-zCDP}", check=cached_check(_l23),
            where="Sec. 2, Lemma 2.3", seed=SEED,
            conventions=(FAMNOTE, r"Second stage: the conditional laws $M'(x, y)$ for each $y$; the $(\xi, \rho)$ of a stage is "
                                  r"the largest over $y$, split in two ways: the first split $\xi = 0$, $\rho = \rho^*$; the "
                                  r"second $\rho = \rho^*/2$ with the smallest $\xi$."))


def _l17(dps):
    comp, post = [], []
    rng = _rng("L1.7")
    for i, ((_l1, P1, Q1), (_l2, P2, Q2)) in enumerate(zip(_pairs("L1.7a", 6), _pairs("L1.7b", 6))):
        r1, r2 = _rho_xi(P1, Q1), _rho_xi(P2, Q2)
        J = joint_adaptive(P1, [P2] * len(P1.probs))
        K = joint_adaptive(Q1, [Q2] * len(Q1.probs))
        comp.append(({"composition": f"#{i}"}, _rho_xi(J, K), r1 + r2))
        Kr = random_kernel(rng, len(P1.probs), rng.choice((2, 3)))
        post.append(({"kernel": f"#{i}"}, _rho_xi(push_forward(P1, Kr), push_forward(Q1, Kr)), r1))
    return All(_rows("6 seeded random independent compositions of two pairs", comp, "<=",
                     what=r"$\rho^*$ of the composition $\le \rho + \rho'$"),
               _rows("6 seeded random pairs and random kernels", post, "<=", what=r"$\rho^*$ after postprocessing $\le \rho$"))


L17 = Claim(id="ZCDP-L1.7", paper="zcdp", uses=("ZCDP-L2.2b", "ZCDP-L2.2d"), label=r"Lemmas 1.7 and 1.8: composition and postprocessing of $\rho$-zCDP",
            kind="check",
            statement=r"M''(x)=(M(x),M'(x))\ \text{is}\ (\rho+\rho')\text{-zCDP};\ f(M(x))\ \text{is}\ \rho\text{-zCDP}",
            check=cached_check(_l17), where="Sec. 1.2, Lemmas 1.7 and 1.8", seed=SEED,
            conventions=(FAMNOTE, r"$\rho^* = \sup_\alpha D_\alpha/\alpha$ (a scan over the order and the $\alpha \to 1$ "
                                  r"endpoint)."))


@cached_derivation
def _lb6_identity():
    """f''(t) for f(t) = P_t^alpha Q_t^(1-alpha) (pointwise), against the printed square, both divided by f(t)."""
    P, Q, al = sp.symbols("P_t Q_t alpha", positive=True)
    a_, b_, s_ = sp.symbols("a b s", real=True)  # a = P_1 - P_0, b = Q_1 - Q_0, s a shift of t
    f = (P + a_ * s_) ** al * (Q + b_ * s_) ** (1 - al)
    d2 = sp.diff(f, s_, 2).subs(s_, 0)
    f0 = P**al * Q ** (1 - al)
    printed = al * (al - 1) * (sp.sqrt(P ** (al - 2) * Q ** (1 - al)) * a_ - sp.sqrt(P**al * Q ** (-al - 1)) * b_) ** 2
    with time_limit(60, "LB.6 second derivative"):
        lhs = sp.expand(sp.powsimp(sp.expand(d2 / f0), force=True))
        rhs = sp.expand(sp.powsimp(sp.expand(sp.powdenest(printed / f0, force=True)), force=True))
        ok = sp.simplify(lhs - rhs) == 0
    record(Tex(r"\frac{f''(t)}{f(t)}"), sp.factor(lhs), "$f(t) = P_t^\\alpha Q_t^{1-\\alpha}$ with $P_t' = P_1 - P_0 = a$, "
           "$Q_t' = Q_1 - Q_0 = b$: differentiated twice")
    if not ok:
        raise DerivationError("the printed second derivative differs")
    record(Tex(r"\frac{f''(t)}{f(t)}"), sp.factor(rhs), "the printed square form divided by $f(t)$: the same (SymPy); "
           "a square times $\\alpha(\\alpha-1) > 0$, so $f$ is convex")
    return printed


def _lb6(dps):
    with recording():
        _lb6_identity()
    rows = []
    rng = _rng("LB.6")
    for i in range(8):
        k = rng.choice((2, 3, 4))
        P0, P1, Q0, Q1 = (random_finite(rng, k) for _ in range(4))
        for tt in ("1/10", "1/2", "9/10"):
            tv = sp.Rational(tt)
            P, Q = _mix(P1, P0, tv), _mix(Q1, Q0, tv)  # P_t = t P_1 + (1 - t) P_0
            for a in ("1001/1000", "3/2", "2", "5", "30"):
                av = _a(a)
                q = mp.exp((av - 1) * D(P, Q, a))
                b = to_mpf(tv) * mp.exp((av - 1) * D(P1, Q1, a)) + (1 - to_mpf(tv)) * mp.exp((av - 1) * D(P0, Q0, a))
                rows.append(({"mixture": f"#{i}", "t": tt, "alpha": a}, q, b))
    return _rows(r"8 seeded random quadruples $P_0, P_1, Q_0, Q_1$, $t \in \{1/10, 1/2, 9/10\}$, "
                 r"$\alpha \in \{1.001, 3/2, 2, 5, 30\}$", rows, "<=",
                 what=r"$e^{(\alpha-1)D_\alpha(P_t\|Q_t)} \le te^{(\alpha-1)D_\alpha(P_1\|Q_1)} + "
                      r"(1-t)e^{(\alpha-1)D_\alpha(P_0\|Q_0)}$")


LB6 = Claim(id="ZCDP-LB.6", paper="zcdp", label=r"Lemma B.6: convexity of $e^{(\alpha-1) D_\alpha}$ along mixtures", kind="check",
            statement=r"e^{(\alpha-1)D_\alpha(P_t\|Q_t)}\le te^{(\alpha-1)D_\alpha(P_1\|Q_1)}+(1-t)e^{(\alpha-1)D_\alpha(P_0\|Q_0)}",
            check=cached_check(_lb6), derive=_lb6_identity, where="App. B.1, Lemma B.6 (proof of Lemma 2.2)", seed=SEED,
            conventions=(FAMNOTE,),
            notes=r"The printed second derivative $f''(t)$ (a square times $\alpha(\alpha-1)$) is checked symbolically in the "
                  r"derivation; the limit $\alpha \to 1$ is the convexity of KL (ZCDP-L2.2c).")


# -- Lemma 5.2 and group privacy -----------------------------------------------------------------------------------
@cached_derivation
def _holder():
    k, al = sp.symbols("k alpha", positive=True)
    out = holder_orders(k, al)
    checks = {"conj": 1, "order_PR": (k * al - 1) / (k - 1), "order_RQ": k * al, "coef": k * al / (k * al - 1)}
    for key, want in checks.items():
        if sp.simplify(out[key] - want) != 0:
            raise DerivationError(f"Hölder bookkeeping: {key} = {out[key]}, expected {want}")
    return out["coef"]


def _l52_sides(P, Q, R, k, a, renyi=D):
    """``(D_alpha(P||Q), the right side of (5))`` for the triple ``P, R, Q`` and ``k``, ``alpha`` (mpf)."""
    b = k * a / (k * a - 1) * renyi(P, R, (k * a - 1) / (k - 1)) + renyi(R, Q, k * a)
    return renyi(P, Q, a), b


def _l52(dps):
    with recording():
        _holder()
    rows, gauss = [], []
    rng = _rng("L5.2")
    for i in range(8):
        kk = rng.choice((2, 3))
        P, Q, R = (random_finite(rng, kk) for _ in range(3))
        for k in ("11/10", "2", "5"):
            for a in ("1001/1000", "3/2", "3", "10"):
                q, b = _l52_sides(P, Q, R, _a(k), _a(a))
                rows.append(({"triple": f"#{i}", "k": k, "alpha": a}, q, b))
    P, R, Q = Normal(0, 1), Normal(sp.Rational(1, 2), 1), Normal(1, 1)
    for k in ("2", "3"):
        for a in ("3/2", "4"):
            q, b = _l52_sides(P, Q, R, _a(k), _a(a), renyi=renyi_numeric)
            gauss.append(({"k": k, "alpha": a}, q, b))

    def make(y):
        P = Finite([0, 1], softmax(y[0:1]))
        Q = Finite([0, 1], softmax(y[1:2]))
        R = Finite([0, 1], softmax(y[2:3]))
        k, a = 1 + mp.exp(mp.mpf(y[3])), 1 + mp.exp(mp.mpf(y[4]))
        q, b = _l52_sides(P, Q, R, k, a)
        return Instance("search", f"P {describe(P, 4)}, Q {describe(Q, 4)}, R {describe(R, 4)}, k {mp.nstr(k, 4)}, "
                                  f"order {mp.nstr(a, 4)}", {"q": q, "b": b})

    srch = {"name": "two-point triples and $(k, \\alpha)$", "make": make, "dim": 5, "budget": 80, "dps": 20,
            "starts": [[2.0, -2.0, 0.0, 0.0, -1.0], [-1.0, 3.0, 1.0, -2.0, 0.5], [0.5, 0.5, 0.4, 1.0, 1.0]]}
    return All(_rows(r"8 seeded random triples $P, Q, R$, $k \in \{11/10, 2, 5\}$, $\alpha \in \{1.001, 3/2, 3, 10\}$",
                     rows, "<="),
               _rows(r"$P = \mathcal N(0, 1)$, $R = \mathcal N(1/2, 1)$, $Q = \mathcal N(1, 1)$", gauss, "<="),
               bound_evidence("upper", {}, lambda inst: (inst.data["q"], inst.data["b"]), search=srch),
               what=r"$D_\alpha(P\|Q) \le \frac{k\alpha}{k\alpha-1}D_{\frac{k\alpha-1}{k-1}}(P\|R) + D_{k\alpha}(R\|Q)$")


L52 = Claim(id="ZCDP-L5.2", paper="zcdp", label="Lemma 5.2: triangle-like inequality for Rényi divergences", kind="check",
            statement=r"D_\alpha(P\|Q)\le\frac{k\alpha}{k\alpha-1}D_{\frac{k\alpha-1}{k-1}}(P\|R)+D_{k\alpha}(R\|Q)",
            check=cached_check(_l52), derive=_holder, where="Sec. 5, Lemma 5.2", seed=SEED, conventions=(FAMNOTE,),
            notes=r"The Hölder exponents are derived: $1/p + 1/q = 1$, $p\alpha = (k\alpha - 1)/(k - 1)$, "
                  r"$q(\alpha - 1) + 1 = k\alpha$, coefficient $k\alpha/(k\alpha - 1)$.")


def _chains(name, count, k, ks=(2, 3)):
    rng = _rng(name)
    out = []
    for i in range(count):
        m = rng.choice(ks)
        out.append((f"#{i}", [random_finite(rng, m) for _ in range(k + 1)]))
    return out


@cached_derivation
def _p53_derive():
    xi_, rho_ = sp.symbols("xi rho", nonnegative=True)
    k, al = sp.symbols("k alpha", positive=True)
    rho_part, xi_part = group_induction(xi_, rho_, k, al)
    if sp.simplify(rho_part - rho_ * k**2 * al) != 0:
        raise DerivationError(f"the rho-part is {rho_part}, not rho k^2 alpha")
    table = group_recursion(6)
    for j, x, r in table:
        if x != j * harmonic(j) or r != j**2:
            raise DerivationError(f"the recursion at k = {j} gives ({x}, {r})")
    record(Tex(r"(x_k, r_k)_{k=1..6}"), sp.Tuple(*[sp.Tuple(x, r) for _j, x, r in table]),
           "the recursion iterated exactly: $x_k = kH_k$, $r_k = k^2$")
    return xi_ * k * sp.Symbol("H_k", positive=True) + rho_ * k**2 * al


def _group_check(with_xi=True):
    rows = []
    for k in (2, 3):
        for lab, ch in _chains(f"P5.3-k{k}", 5, k):
            zs = [ZPair.finite(a, b) for a, b in zip(ch[:-1], ch[1:])] + [ZPair.finite(b, a) for a, b in zip(ch[:-1], ch[1:])]
            rho0 = max(z.rho_star()[0] for z in zs)
            splits = [("first", mp.mpf(0), rho0)]
            if with_xi:
                r2 = rho0 / 2
                splits.append(("second", max(z.xi_star(r2) for z in zs), r2))
            for tag, x0, r0 in splits:
                for a in ("1", "1001/1000", "2", "5", "30"):
                    rows.append(({"chain": lab, "k": k, "split": tag, "alpha": a}, D(ch[0], ch[-1], a),
                                 x0 * k * to_mpf(harmonic(k)) + r0 * k**2 * _a(a)))
    return _rows(r"5 seeded chains $P_0, \dots, P_k$ of random finite laws for each $k \in \{2, 3\}$, "
                 r"$\alpha \in \{1, 1.001, 2, 5, 30\}$", rows, "<=",
                 what=r"$D_\alpha(P_0\|P_k) \le \xi kH_k + \rho k^2\alpha$" if with_xi else
                      r"$D_\alpha(P_0\|P_k) \le \rho k^2\alpha$")


def _harmonics(n):
    """``[(k, H_k)]`` for ``k = 1, ..., n`` with exact rational ``H_k`` (accumulated as fractions)."""
    from fractions import Fraction

    out, h = [], Fraction(0)
    for k in range(1, n + 1):
        h += Fraction(1, k)
        out.append((k, h))
    return out


def _p53(dps):
    with recording():
        _p53_derive()
    pure = []
    for k in (2, 3, 4):
        for lab, ch in _chains(f"P5.3-pure-k{k}", 5, k):
            e = max(max(D(a, b, "inf"), D(b, a, "inf")) for a, b in zip(ch[:-1], ch[1:]))
            pure.append(({"chain": lab, "k": k}, D(ch[0], ch[-1], "inf"), k * e))
    hk = [(kk, to_mpf(harmonic(kk)), 1 + mp.log(kk)) for kk in (1, 2, 10, 100, 1000)]
    return Evidence(All(
        _group_check(),
        _rows(r"5 seeded chains of random finite laws for each $k \in \{2, 3, 4\}$", pure, "<=",
              what=r"$(\xi, 0)$ gives $(k\xi, 0)$: $D_\infty(P_0\|P_k) \le k\max_i D_\infty(P_{i-1}\|P_i)$ (both orders)"),
        sample(r"$k = 1, \dots, 1000$", _harmonics(1000),
               lambda kh: Compare(claimed=1 + mp.log(kh[0]) if kh[0] > 1 else 1, computed=kh[1], rel="<=",
                                  at={"k": kh[0]}),
               what=r"$H_k \le 1 + \log k$ (exact $H_k$)"),
        what=r"group privacy $(\xi kH_k, \rho k^2)$ on chains of random laws"),
        tables=[Table(r"$H_k$ against $1 + \log k$", ["$k$", "$H_k$", r"$1+\log k$"],
                      [[str(kk), mp_str(h, 10), mp_str(b, 10)] for kk, h, b in hk])])


P53 = Claim(id="ZCDP-P5.3", paper="zcdp", uses=("ZCDP-L5.2",), label=r"Prop. 5.3: group privacy $(\xi kH_k, \rho k^2)$ by the Hölder recursion",
            kind="check", statement=r"(\xi,\rho)\text{-zCDP}\Rightarrow\left(\xi k\sum_{i=1}^k\tfrac1i,\rho k^2\right)\text{-zCDP for groups of size }k",
            check=cached_check(_p53), derive=_p53_derive, where="Sec. 5, Prop. 5.3 and the text after it", seed=SEED,
            conventions=(FAMNOTE, r"Chains $P_0, \dots, P_k$ of random finite laws; $(\xi, \rho)$ valid for every consecutive "
                                  r"pair in both orders, split in two ways: the first split $\xi = 0$, $\rho = \rho^*$; the second "
                                  r"$\rho = \rho^*/2$ with the smallest $\xi$."),
            notes=r"The Hölder recursion is derived: the $\rho$-part is exactly $\rho k^2\alpha$, the $\xi$-part $\xi kH_k$ "
                  r"(iterated exactly for $k \le 6$); the Gaussian attains $k^2\rho$ (ZCDP-P1.9).")


K_, DL_, S_, AL_ = sp.symbols("k Delta sigma alpha", positive=True)


@cached_derivation
def _p19_derive():
    val, _ = renyi_divergence(Normal(0, S_), Normal(K_ * DL_, S_), AL_,
                              lhs=Tex(r"D_\alpha(\mathcal N(0,\sigma^2)\|\mathcal N(k\Delta,\sigma^2))"))
    rho_ = DL_**2 / (2 * S_**2)
    diff = sp.simplify(val - K_**2 * rho_ * AL_)
    record(Tex(r"D_\alpha-k^2\rho\alpha"), diff, "with $\\rho = \\Delta^2/2\\sigma^2$: the group bound is attained at every order")
    if diff != 0:
        raise DerivationError("the Gaussian does not attain k^2 rho")
    return val


def _p19(dps):
    with recording():
        val = _p19_derive()
    return All(Compare(claimed=K_**2 * DL_**2 / (2 * S_**2) * AL_, computed=val,
                       what=r"the Gaussian mechanism with a shift $k\Delta$: $D_\alpha = k^2\rho\alpha$ with "
                            r"$\rho = \Delta^2/2\sigma^2$ (attained)"),
               _group_check(with_xi=False))


P19 = Claim(id="ZCDP-P1.9", paper="zcdp", uses=("ZCDP-P5.3", "ZCDP-P1.6"), label=r"Prop. 1.9: $\rho$-zCDP gives $(k^2\rho)$-zCDP for groups, attained by the Gaussian",
            kind="check", statement=r"D_\alpha(M(x)\|M(x'))\le(k^2\rho)\cdot\alpha\ \text{for } x,x' \text{ differing in up to } k \text{ entries}",
            check=cached_check(_p19), derive=_p19_derive, where="Sec. 1.2, Prop. 1.9", seed=SEED,
            conventions=(FAMNOTE, r"Chains $P_0, \dots, P_k$ of random finite laws; $\rho = \rho^*$ of every consecutive pair "
                                  r"in both orders (the first split: $\xi = 0$)."))
