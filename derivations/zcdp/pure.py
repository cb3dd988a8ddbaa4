"""Bun-Steinke: pure DP and zCDP (Props. 1.4 and 3.3, Remark 3.4, Lemmas 3.2, B.1, 8.3, Cor. 8.7, Prop. 1.13).

The extremal eps-DP pair is randomized response ``RR_eps``: ``P = (e^eps, 1)/(1 + e^eps)``, ``Q = (1, e^eps)/(1 + e^eps)``
(the proof of Prop. 3.3 bounds ``E_Q[(P/Q)^alpha]`` by ``E[A^alpha]`` for a two-valued ``A``, which is this pair).
The exact zCDP constant of eps-DP is therefore ``sup_{alpha > 1} D_alpha(RR_eps)/alpha``: derived with the engine
(the Rényi curve of RR, its ``alpha -> 1`` limit, the sign of the derivative of ``D_alpha/alpha``) and computed from
the definition (a scan of ``D_alpha/alpha`` over the order, with the ``alpha -> 1`` endpoint, the KL sum).

Every check returns evidence (:mod:`cbdp_sym.verify.evidence`): the engine decides the verdicts.
"""
import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Evidence, Table, sample
from cbdp_sym.families import bound_evidence
from cbdp_sym import KL, Claim, Param, Tex, f_divergence, record
from cbdp_sym.calculus import cached_numeric
from ._shared import ZPair, random_finite_pairs
from cbdp_sym import Finite
from cbdp_sym.calculus import DerivationError
from cbdp_sym.families import Instance, cached_check, describe
from cbdp_sym.mechanisms import limit_alpha, randomized_response, renyi_curve
from cbdp_sym.calculus import mp_str, to_mpf
from cbdp_sym.calculus import cached_derivation, recording
from cbdp_sym.calculus import time_limit

from ._shared import num, point, typed

SEED = "004_f41028c8afd8f9e7.txt"
eps = sp.Symbol("epsilon", positive=True)
alpha = sp.Symbol("alpha", positive=True)
x_, y_ = sp.symbols("x y", nonnegative=True)
RRX = (r"$\mathrm{RR}_\varepsilon$: $P = (e^\varepsilon, 1)/(1 + e^\varepsilon)$, $Q = (1, e^\varepsilon)/(1 + "
       r"e^\varepsilon)$, the extremal $\varepsilon$-DP pair (the two-valued $A$ of the proof of Prop. 3.3)")
EPS_POINTS = ("1/1000", "1/10", "1", "7/2", "20")
EPS_SWEEP = [{"eps": e} for e in ("1/1000", "1/100", "1/10", "1/2", "1", "2", "7/2", "10", "20", "50")]


def _rr(e):
    e = sp.sympify(e)
    p = sp.exp(e) / (1 + sp.exp(e))
    return randomized_response(p)[::-1]  # P = law when the truth is 1 gives p on 1: (1 - p, p); swap so that P(0) = p


def _rr_pair(e):
    P, Q = _rr(e)
    return ZPair.finite(P, Q, f"RR eps={e}")


def _num_tex(x) -> str:
    """An exact number as inline LaTeX: ``1/10`` -> ``1/10``, ``1001/1000`` -> ``1.001``."""
    r = sp.Rational(str(x))
    if r.q == 1 or r.q <= 100:
        return str(r)
    return mp.nstr(mp.mpf(int(r.p)) / int(r.q), 6)


def _pair_tex(z, i, seed) -> str:
    """Which random finite pair ``z`` is, with its probabilities rounded for display."""
    return rf"{i} of seed {seed} ($P \approx {describe(z.P, 3)}$, $Q \approx {describe(z.Q, 3)}$)"


def _random_pairs(seed, count):
    """``[(label, typed point, ZPair)]``: seeded random finite pairs (the label ``random pair`` + label)."""
    return [(_pair_tex(z, i, seed), {"pair": "random", "seed": str(seed), "index": str(i)}, z)
            for i, (_lab, z) in enumerate(random_finite_pairs(seed, count))]


def _pairs_with_rr(seed, count, rr_eps):
    """``[(family, label, typed point, ZPair)]``: random pairs and randomized response at the given epsilons."""
    return [("random pair", lab, at, z) for lab, at, z in _random_pairs(seed, count)] + \
        [(r"$\mathrm{RR}_\varepsilon$", rf"$\varepsilon = {_num_tex(e)}$", {"pair": "RR", "eps": e},
          _rr_pair(e)) for e in rr_eps]


@cached_derivation
def _exact_rho_derive():
    P, Q = _rr(eps)
    curve = renyi_curve(P, Q, lhs=Tex(r"D_\alpha(\mathrm{RR}_\varepsilon)"))
    g = curve / alpha
    with time_limit(60, "derivative of D_alpha/alpha"):
        dg = sp.diff(g, alpha)
    f = sp.lambdify([eps, alpha], dg, modules="mpmath")
    pts = [(e, a) for e in ("1/100", "1/2", "1", "3", "10", "30") for a in ("1001/1000", "3/2", "2", "5", "50", "1000")]
    with mp.workdps(40):
        vals = [f(to_mpf(sp.Rational(e)), to_mpf(sp.Rational(a))) for e, a in pts]
    if not all(v < 0 for v in vals):
        raise DerivationError("D_alpha/alpha is not decreasing in alpha at every sample point")
    how = (f"negative at {len(pts)} sample points ($\\varepsilon$ from 1/100 to 30, $\\alpha$ from 1.001 to 1000), "
           "evaluated at 40 digits")
    record(Tex(r"\frac{\partial}{\partial\alpha}\frac{D_\alpha}{\alpha}"), sp.Integer(0),
           f"negative: $D_\\alpha/\\alpha$ decreases in $\\alpha$ ({how}), so the supremum over $\\alpha > 1$ is the "
           "limit $\\alpha \\to 1^+$", rel="<")
    lim = limit_alpha(curve, alpha, 1, lhs=Tex(r"\sup_{\alpha>1}\frac{D_\alpha(\mathrm{RR}_\varepsilon)}{\alpha}"))
    return sp.simplify(lim)


@cached_numeric
def _exact_rho_numeric_c(e, dps):
    z = _rr_pair(sp.Rational(e))
    return z.rho_star()[0]


def _exact_rho_numeric(v):
    return _exact_rho_numeric_c(str(v["eps"]), mp.mp.dps)


P14 = Claim(
    id="ZCDP-P1.4", paper="zcdp", uses=("ZCDP-P3.3",), label=r"Prop. 1.4: $\varepsilon$-DP implies $\frac12\varepsilon^2$-zCDP", kind="upper",
    statement=r"\varepsilon\text{-DP}\Rightarrow\tfrac12\varepsilon^2\text{-zCDP}",
    quantity=r"\sup_{\varepsilon\text{-DP pairs}}\sup_{\alpha>1}\frac{D_\alpha(P\|Q)}{\alpha}",
    params=[Param.positive("eps", eps, EPS_POINTS)], sweep=EPS_SWEEP, derive=_exact_rho_derive,
    claimed=lambda: eps**2 / 2, numeric=_exact_rho_numeric, search={"eps": ("1/10000", "60")}, search_evals=60,
    where="Sec. 1.1, Prop. 1.4 (= Prop. 3.3)", seed=SEED, conventions=(RRX,),
    notes=r"The quantity is the exact zCDP constant of $\varepsilon$-DP: the extremal pair is $\mathrm{RR}_\varepsilon$ "
          r"(Prop. 3.3's proof), and $\sup_{\alpha > 1} D_\alpha(\mathrm{RR}_\varepsilon)/\alpha$ is the limit "
          r"$\alpha \to 1$, $\varepsilon\tanh(\varepsilon/2)$ (ZCDP-P1.4-EXACT).")

EXACT_EPS = ("1/1000", "1/10", "1/2", "1", "2", "5", "10")


def _exact_table(dps):
    with recording():
        derived = _exact_rho_derive()
    claimed = eps * sp.tanh(eps / 2)
    f = sp.lambdify(eps, claimed, "mpmath")
    rows = []
    for e in EXACT_EPS:
        ev = to_mpf(sp.Rational(e))
        num = _exact_rho_numeric_c(e, mp.mp.dps)
        rows.append([f"${_num_tex(e)}$", mp_str(num, 10), mp_str(ev**2 / 2, 10), mp_str(num / (ev**2 / 2), 8),
                     mp_str(ev * mp.expm1(ev) / 2, 10), mp_str(ev * mp.expm1(ev), 10)])
    t = sp.Symbol("epsilon")
    with time_limit(60, "series"):
        ser = sp.series(derived.subs(eps, t) / (t**2 / 2), t, 0, 5).removeO()
        ser_dr = sp.series(t * (sp.exp(t) - 1) / 2 - t**2 / 2, t, 0, 5).removeO()
        ser_kl = sp.series(derived.subs(eps, t) - t**2 / 2, t, 0, 6).removeO()
    note = (rf"Series (SymPy): exact$/(\varepsilon^2/2) = {sp.latex(ser)} + O(\varepsilon^5)$ (it tends to 1 as "
            r"$\varepsilon \to 0$ and to 0 as $\varepsilon \to \infty$: the exact constant grows like $\varepsilon$ while "
            rf"$\varepsilon^2/2$ grows quadratically); $\varepsilon\tanh(\varepsilon/2) - \varepsilon^2/2 = "
            rf"{sp.latex(ser_kl)} + O(\varepsilon^6)$; [DR16]'s $\frac12\varepsilon(e^\varepsilon - 1)$ exceeds "
            rf"$\varepsilon^2/2$ by ${sp.latex(ser_dr)} + \dots$ (weaker, as the text says), and [DRV10]'s "
            r"$\varepsilon(e^\varepsilon - 1)$ is twice [DR16]'s (the text's factor $\frac12$).")
    node = All(
        Compare(claimed=claimed.rewrite(sp.exp), computed=derived.rewrite(sp.exp),
                what=r"the derived $\lim_{\alpha \to 1^+} D_\alpha(\mathrm{RR}_\varepsilon)/\alpha$ against "
                     r"$\varepsilon\tanh(\varepsilon/2)$ (SymPy)"),
        sample(r"seven values of $\varepsilon$", EXACT_EPS,
               lambda e: Compare(claimed=f(to_mpf(sp.Rational(e))), computed=_exact_rho_numeric_c(e, mp.mp.dps),
                                 at={"eps": e}),
               what=r"$\varepsilon\tanh(\varepsilon/2)$ against the supremum over $\alpha$ of "
                    r"$D_\alpha(\mathrm{RR}_\varepsilon)/\alpha$ computed from the definition"),
        what=r"the exact zCDP constant of $\varepsilon$-DP")
    return Evidence(node, tables=[Table(
        r"The zCDP constant of $\varepsilon$-DP: exact, Prop. 1.4, and the earlier bounds",
        ["$\\varepsilon$", "exact $\\varepsilon\\tanh(\\varepsilon/2)$", "$\\varepsilon^2/2$",
         "exact / $(\\varepsilon^2/2)$", "[DR16] $\\frac12\\varepsilon(e^\\varepsilon-1)$",
         "[DRV10] $\\varepsilon(e^\\varepsilon-1)$"], rows, note)])


P14_EXACT = Claim(
    id="ZCDP-P1.4-EXACT", paper="zcdp", uses=("ZCDP-P1.4",), label=r"The exact zCDP constant of $\varepsilon$-DP, compared with "
                                              r"$\varepsilon^2/2$", kind="check",
    statement=r"\sup_{\varepsilon\text{-DP}}\sup_{\alpha>1}\frac{D_\alpha(P\|Q)}{\alpha}=\varepsilon\tanh(\varepsilon/2)"
              r"\ \text{(not printed)}",
    check=cached_check(_exact_table), derive=_exact_rho_derive, where="Sec. 1.1, Prop. 1.4 and the text after it",
    seed=SEED, conventions=(RRX,),
    notes="Not printed in the paper: an extra ID for the exact constant. The text's comparison with [DR16] and "
          "[DRV10] is in the table.")


# -- Proposition 3.3 ------------------------------------------------------------------------------------------
@cached_derivation
def _p33_steps():
    pm, pp = sp.symbols("p_- p_+", positive=True)
    record(Tex(r"\tfrac12\varepsilon\alpha>1"), Tex(r"\tfrac12\varepsilon^2\alpha>\varepsilon"),
           "(i) multiply by $\\varepsilon > 0$: outside $\\frac12\\varepsilon\\alpha\\le1$ the bound exceeds "
           "$\\varepsilon \\ge D_\\alpha$ (monotonicity)", rel=r"\Rightarrow")
    sol = sp.solve([pm * sp.exp(-eps) + pp * sp.exp(eps) - 1, pm + pp - 1], [pm, pp], dict=True)[0]
    printed = {pm: (sp.exp(eps) - 1) / (sp.exp(eps) - sp.exp(-eps)), pp: (1 - sp.exp(-eps)) / (sp.exp(eps) - sp.exp(-eps))}
    for s_, nm in ((pm, r"\mathbb P_A[A=e^{-\varepsilon}]"), (pp, r"\mathbb P_A[A=e^{\varepsilon}]")):
        if sp.simplify(sol[s_] - printed[s_]) != 0:
            raise DerivationError("the law of A does not match the printed probabilities")
        record(Tex(nm), printed[s_], "(iii) $\\mathbb E_A[A] = 1$ and total mass 1, solved (SymPy); equal to the printed form")
    EA = printed[pm] * sp.exp(-alpha * eps) + printed[pp] * sp.exp(alpha * eps)
    sinh_form = (sp.sinh(alpha * eps) - sp.sinh((alpha - 1) * eps)) / sp.sinh(eps)
    with time_limit(60, "sinh form"):
        diff = sp.simplify((EA - sinh_form).rewrite(sp.exp))
    if diff != 0:
        raise DerivationError("E[A^alpha] is not the printed sinh form")
    record(Tex(r"\mathbb E_A[A^\alpha]"), sinh_form, "(iv) written with exponentials and simplified (SymPy)")
    P, Q = _rr(eps)
    curve = renyi_curve(P, Q, lhs=Tex(r"D_\alpha(\mathrm{RR}_\varepsilon)"))
    with time_limit(60, "RR curve"):
        same = sp.simplify((sp.exp((alpha - 1) * curve) - sinh_form).rewrite(sp.exp))
    record(Tex(r"e^{(\alpha-1)D_\alpha(\mathrm{RR}_\varepsilon)}-\mathbb E_A[A^\alpha]"), same,
           "the bound is attained by randomized response")
    record(Tex(r"(x,y)"), Tex(r"(\alpha\varepsilon,(\alpha-1)\varepsilon):\ 0\le y<x=\alpha\varepsilon\le2"),
           "(v) Lemma B.1's hypothesis holds under the reduction $\\frac12\\varepsilon\\alpha\\le1$")
    return sinh_form


P33_ORDERS = ("1001/1000", "3/2", "2", "5", "20", "100")


def _p33_instances():
    r"""The hypothesis is $D_\infty \le \varepsilon$ in both directions and the conclusion is for $\alpha > 1$: every
    instance is inside it (random pairs take $\varepsilon$ the larger $D_\infty$ of the two orders)."""
    fams = {}
    for e in ("1/100", "1/10", "1/2", "1", "3"):
        for a in P33_ORDERS:
            fams.setdefault(r"$\mathrm{RR}_\varepsilon$ (extremal)", []).append(point(
                Instance(r"$\mathrm{RR}_\varepsilon$", rf"$\varepsilon = {_num_tex(e)}$, $\alpha = {_num_tex(a)}$",
                         {"pair": _rr_pair(e), "eps": to_mpf(sp.Rational(e)), "alpha": a}),
                {"pair": "RR", "eps": e, "alpha": a}))
    for lab, at, z in _random_pairs(330, 10):
        e = max(z.renyi(mp.inf), ZPair.finite(z.Q, z.P).renyi(mp.inf))
        for a in ("1001/1000", "2", "10"):
            fams.setdefault(r"random finite pairs ($\varepsilon$ the larger $D_\infty$ of the two orders)", []).append(point(
                Instance("random pair", rf"{lab}, $\alpha = {_num_tex(a)}$", {"pair": z, "eps": e, "alpha": a}),
                dict(at, alpha=a)))
    return fams


def _a(a):
    return mp.mpf(1) if a == "1" else to_mpf(sp.Rational(a)) if isinstance(a, str) else a


def _p33(dps):
    with recording():
        _p33_steps()

    def ev(inst):
        d = inst.data
        al = _a(d["alpha"])
        return d["pair"].renyi(al), d["eps"] ** 2 * al / 2

    def make(y):
        e, a = mp.exp(mp.mpf(y[0])), 1 + mp.exp(mp.mpf(y[1]))
        inst = Instance(r"$\mathrm{RR}_\varepsilon$ (search)", f"{mp.nstr(e, 15)} {mp.nstr(a, 15)}",
                        {"pair": ZPair.finite(*(Finite([0, 1], [mp.exp(e) / (1 + mp.exp(e)), 1 / (1 + mp.exp(e))]),
                                                Finite([0, 1], [1 / (1 + mp.exp(e)), mp.exp(e) / (1 + mp.exp(e))]))),
                         "eps": e, "alpha": a})
        return point(inst, {"pair": "RR (search)", "eps": num(e), "alpha": num(a)})

    srch = {"name": r"$\mathrm{RR}_\varepsilon$ over $(\varepsilon, \alpha)$", "make": make, "dim": 2, "budget": 80,
            "dps": 20, "starts": [[-4.0, -6.0], [0.0, 0.0], [1.0, 2.0]]}
    return typed(bound_evidence("upper", _p33_instances(), ev, search=srch,
                          what=r"$D_\alpha(P\|Q) \le \frac12\varepsilon^2\alpha$ for pairs with $D_\infty \le \varepsilon$ "
                               "both ways (proof steps (i), (iii)--(v) derived: see the steps)",
                          quantity_name=r"$D_\alpha(P\|Q)$", bound_name=r"$\frac12\varepsilon^2\alpha$"))


P33 = Claim(
    id="ZCDP-P3.3", paper="zcdp", uses=("ZCDP-LB.1", "ZCDP-L2.2e"), label=r"Prop. 3.3: $D_\infty \le \varepsilon$ both ways implies $D_\alpha \le "
                                        r"\frac12\varepsilon^2\alpha$", kind="check",
    statement=r"D_\infty(P\|Q)\le\varepsilon,\ D_\infty(Q\|P)\le\varepsilon\Rightarrow D_\alpha(P\|Q)\le\tfrac12\varepsilon^2\alpha\ "
              r"\forall\alpha>1",
    check=cached_check(_p33), derive=_p33_steps, where="Sec. 3.1, Prop. 3.3 and its proof", seed=SEED, conventions=(RRX,),
    notes=r"Orders $\alpha > 1$ only (the hypothesis); the limit $\alpha \to 1$, the KL divergence, is Remark 3.4 "
          "(ZCDP-R3.4).")


def _kl_rr():
    P, Q = _rr(eps)
    val, _ = f_divergence(KL, P, Q, lhs=Tex(r"D_1(\mathrm{RR}_\varepsilon)"))
    with time_limit(60, "simplify"):
        val2 = sp.simplify(val.rewrite(sp.exp))
    record(Tex(r"D_1(\mathrm{RR}_\varepsilon)"), val2, "simplified")
    return val2


def _kl_rr_numeric(v):
    return _rr_pair(v["eps"]).renyi(1)


R34 = Claim(
    id="ZCDP-R3.4", paper="zcdp", uses=("ZCDP-P3.3",), label=r"Remark 3.4: $D_1(P\|Q) \le \frac12\varepsilon^2$ under $\varepsilon$-DP (against "
                                        r"[DR16]'s $\frac12\varepsilon(e^\varepsilon - 1)$)",
    kind="upper", statement=r"D_1(P\|Q)\le\tfrac12\varepsilon^2",
    quantity=r"\sup_{\varepsilon\text{-DP}}D_1(P\|Q)=D_1(\mathrm{RR}_\varepsilon)", params=[Param.positive("eps", eps, EPS_POINTS)],
    sweep=EPS_SWEEP, derive=_kl_rr, claimed=lambda: eps**2 / 2, numeric=_kl_rr_numeric,
    search={"eps": ("1/10000", "60")}, search_evals=40, where="Sec. 3.1, Remark 3.4", seed=SEED, conventions=(RRX,),
    notes=r"The extremal pair for the KL divergence under $\varepsilon$-DP is $\mathrm{RR}_\varepsilon$ (the limit "
          r"$\alpha \to 1$ of Prop. 3.3's argument); $D_1(\mathrm{RR}_\varepsilon) = \varepsilon\tanh(\varepsilon/2) = "
          r"\varepsilon^2/2 - \varepsilon^4/24 + \dots$, while [DR16]'s $\frac12\varepsilon(e^\varepsilon - 1) = "
          r"\varepsilon^2/2 + \varepsilon^3/4 + \dots$: the new bound is sharper by the term of order $\varepsilon^3$ "
          "('up to lower order terms').")


# -- Lemma B.1 ------------------------------------------------------------------------------------------------
def _lb1_ratio(x, y):
    return (mp.sinh(x) - mp.sinh(y)) / mp.sinh(x - y)


@cached_derivation
def _lb1_steps():
    x, y, t = sp.symbols("x y t", positive=True)
    id1 = 2 * sp.sinh((x - y) / 2) * sp.cosh(x / 2) * sp.cosh(y / 2) * (1 - sp.tanh(x / 2) * sp.tanh(y / 2))
    id2 = 2 * sp.sinh((x - y) / 2) * sp.cosh(x / 2) * sp.cosh(y / 2) * (1 + sp.tanh(x / 2) * sp.tanh(y / 2))
    with time_limit(60, "hyperbolic identities"):
        ok1 = sp.simplify((id1 - sp.sinh(x - y)).rewrite(sp.exp)) == 0
        ok2 = sp.simplify((id2 - (sp.sinh(x) - sp.sinh(y))).rewrite(sp.exp)) == 0
    if not (ok1 and ok2):
        raise DerivationError("the hyperbolic identities of the proof do not check")
    record(Tex(r"\sinh(x-y)"), id1, "(i) checked by rewriting in exponentials (SymPy)")
    record(Tex(r"\sinh(x)-\sinh(y)"), id2, "(i) checked by rewriting in exponentials (SymPy)")
    E = sp.Symbol("E", positive=True)  # e^{xy/2}
    sol = sp.solve(sp.Eq((1 + t) / (1 - t), E), t)[0]
    th = sp.simplify(sol.subs(E, sp.exp(x * y / 2)) - sp.tanh(x * y / 4).rewrite(sp.exp))
    if sp.simplify(th) != 0:
        raise DerivationError("(1+t)/(1-t) = e^{xy/2} does not solve to t = tanh(xy/4)")
    record(Tex(r"\frac{1+t}{1-t}\le e^{xy/2}"), Tex(r"t\le\tanh(xy/4)"), "(ii) $t \\mapsto (1+t)/(1-t)$ increasing on "
           "$[0,1)$; equality solved: $t = \\tanh(xy/4)$", rel=r"\iff")
    d1 = sp.diff(sp.tanh(x / 2) * sp.tanh(y / 2), y)
    d2 = sp.diff(sp.tanh(x * y / 4), y)
    record(Tex(r"\partial_y\tanh(x/2)\tanh(y/2)"), sp.simplify(d1), "(iii) derivative")
    record(Tex(r"\partial_y\tanh(xy/4)"), sp.simplify(d2), "(iii) derivative; compared with $\\tanh(x/2)\\le x/2$ and "
           "$\\cosh(y/2)\\ge\\cosh(xy/4)$ ($xy/4\\le y/2$ as $x\\le2$)")
    taylor = (x + x**3 / 6 - (y + y**3 / 6)) / ((x - y) + (x - y) ** 3 / 6)
    printed = 1 + 3 * x * y * (x - y) / (6 * (x - y) + (x - y) ** 3)
    if sp.simplify(taylor - printed) != 0:
        raise DerivationError("the Taylor heuristic's identity does not check")
    record(Tex(r"\frac{x+\frac16x^3-(y+\frac16y^3)}{(x-y)+\frac16(x-y)^3}"), printed, "the Taylor heuristic (SymPy)")
    record(Tex(r"\frac{3xy(x-y)}{6(x-y)+(x-y)^3}"), Tex(r"\frac{3xy}{6+(x-y)^2}\le\frac12xy"), "cancel $x - y > 0$", rel="=")
    return sp.Integer(1)


LB1_GRID = r"the grid $x \in \{1/100, 1/10, 1/2, 1, 3/2, 19/10, 2\}$, $y/x \in \{0, 1/10, 1/2, 9/10, 99/100\}$"


def _z(x, y):
    r"""The proof's plotted function $z = e^{xy/2}\sinh(x - y) - (\sinh x - \sinh y)$."""
    return mp.exp(x * y / 2) * mp.sinh(x - y) - (mp.sinh(x) - mp.sinh(y))


def _lb1(dps):
    with recording():
        _lb1_steps()
    fams = {LB1_GRID: []}
    for xs in ("1/100", "1/10", "1/2", "1", "3/2", "19/10", "2"):
        for frac in ("0", "1/10", "1/2", "9/10", "99/100"):
            xv = to_mpf(sp.Rational(xs))
            yv = xv * to_mpf(sp.Rational(frac))
            ytex = "0" if frac == "0" else rf"{_num_tex(frac)}\,x"
            fams[LB1_GRID].append(point(Instance("grid", f"$x = {_num_tex(xs)}$, $y = {ytex}$", {"x": xv, "y": yv}),
                                        {"x": xs, "y": str(sp.Rational(xs) * sp.Rational(frac))}))

    def ev(inst):
        return _lb1_ratio(inst.data["x"], inst.data["y"]), mp.exp(inst.data["x"] * inst.data["y"] / 2)

    def make(yv):
        xx = 2 / (1 + mp.exp(-mp.mpf(yv[0])))
        yy = xx / (1 + mp.exp(-mp.mpf(yv[1])))
        return point(Instance("search", f"{mp.nstr(xx, 15)} {mp.nstr(yy, 15)}", {"x": xx, "y": yy}),
                     {"x": num(xx, 8), "y": num(yy, 8)})

    srch = {"name": r"$(x, y)$ in the triangle $0 \le y < x \le 2$", "make": make, "dim": 2, "budget": 100, "dps": 20,
            "starts": [[3.0, 3.0], [0.0, -1.0], [5.0, 0.0]]}
    node = typed(bound_evidence("upper", fams, ev, search=srch,
                          what=r"$(\sinh x - \sinh y)/\sinh(x - y) \le e^{xy/2}$ on $0 \le y < x \le 2$ (the proof's "
                               "identities, the reduction to $\\tanh$ and the Taylor heuristic checked symbolically: see "
                               "the steps)",
                          quantity_name="the ratio", bound_name="$e^{xy/2}$"))
    # the proof's plot of z on [0, 2]^2: its sign at a few points of either side of the diagonal (display only)
    pts = (("1", "0"), ("1", "1/2"), ("2", "1"), ("2", "19/10"), ("1/2", "2"), ("1", "2"), ("0", "1"))
    rows = [[f"${_num_tex(x)}$", f"${_num_tex(y)}$", r"$y \le x$" if sp.Rational(y) <= sp.Rational(x) else r"$y > x$",
             mp_str(_z(to_mpf(sp.Rational(x)), to_mpf(sp.Rational(y))), 6)] for x, y in pts]
    return Evidence(node, tables=[Table(
        r"The proof's plot of $z = e^{xy/2}\sinh(x - y) - (\sinh x - \sinh y)$ on $[0, 2]^2$: values at a few points",
        ["$x$", "$y$", "side", "$z$"], rows,
        r"On $y \le x$ the lemma is $z \ge 0$ (equality at $y = 0$ and on the diagonal). On $y > x$, $\sinh(x - y) < 0$ "
        r"and the lemma's inequality reads $z \le 0$ there: $z$ is negative on that side, and the ratio is symmetric in "
        r"$x$ and $y$, so the lemma holds on the whole square.")])


LB1 = Claim(
    id="ZCDP-LB.1", paper="zcdp", label=r"Lemma B.1: $(\sinh x - \sinh y)/\sinh(x - y) \le e^{xy/2}$ for "
                                        r"$0 \le y < x \le 2$",
    kind="check", statement=r"0\le y<x\le2\implies\frac{\sinh(x)-\sinh(y)}{\sinh(x-y)}\le e^{\frac12xy}",
    check=cached_check(_lb1), derive=_lb1_steps, where="App. B, Lemma B.1 (end of the proof of Prop. 3.3)", seed=SEED)


# -- Lemma 3.2, Lemma 8.3, Cor. 8.7, Prop. 1.13 ------------------------------------------------------------------
L32_ORDERS = ("1.01", "2", "10", "100", "10000", "1000000")


def _l32_pairs():
    return [(f"{fam}: {lab}", at, z) for fam, lab, at, z in _pairs_with_rr(320, 8, ("1/10", "1", "5"))]


def _l32(dps):
    r"""($\Rightarrow$) $D_\alpha \le D_\infty$ at every order; ($\Leftarrow$) $\sup_\alpha D_\alpha = D_\infty$, shown by
    the lower bound $D_\alpha \ge D_\infty + \log(p_*)/(\alpha - 1)$ that the definition gives (keep only the atom
    where $\log p/q$ is largest, of $P$-mass $p_*$), which tends to $D_\infty$."""
    rows, mono, conv = [], [], []
    for lab, pt, z in _l32_pairs():
        dinf = z.renyi(mp.inf)
        p_star = max(p for L, p, q in z._atoms() if p > 0 and q > 0 and L == dinf)
        vals = [(a, z.renyi(mp.mpf(a))) for a in L32_ORDERS]
        for a, v in vals:
            mono.append(Compare(claimed=dinf, computed=v, rel="<=", at=dict(pt, alpha=a)))
        for a, v in vals[-2:]:
            conv.append(Compare(claimed=dinf + mp.log(p_star) / (mp.mpf(a) - 1), computed=v, rel=">=",
                                at=dict(pt, alpha=a)))
        rows.append([lab, mp_str(dinf, 10), mp_str(vals[0][1], 10), mp_str(vals[-1][1], 12),
                     mp_str((dinf - vals[-1][1]) * mp.mpf(10) ** 6, 6)])
    node = All(sample(r"11 finite pairs (8 random, $\mathrm{RR}_\varepsilon$ at $\varepsilon = 1/10, 1, 5$) at six "
                      r"orders $\alpha$ from $1.01$ to $10^6$", mono, lambda c: c,
                      what=r"($\Rightarrow$) $D_\alpha \le D_\infty$ at every order (monotonicity): $\varepsilon$-DP gives "
                           r"$(\varepsilon, 0)$-zCDP"),
               sample(r"the same pairs at $\alpha = 10^4, 10^6$", conv, lambda c: c,
                      what=r"($\Leftarrow$) $D_\alpha \ge D_\infty + \log(p_*)/(\alpha - 1) \to D_\infty$, so "
                           r"$\sup_\alpha D_\alpha = D_\infty$ and $(\varepsilon, 0)$-zCDP is exactly $D_\infty \le "
                           r"\varepsilon$"))
    return Evidence(node, tables=[Table(
        r"Lemma 3.2: $D_\alpha$ against $D_\infty$",
        ["pair", "$D_\\infty$", "$D_{1.01}$", "$D_{10^6}$", "$(D_\\infty-D_{10^6})\\,10^6$"], rows,
        r"$(D_\infty - D_\alpha)\,\alpha$ stays bounded: $D_\alpha \to D_\infty$ at the rate $1/\alpha$.")])


L32 = Claim(
    id="ZCDP-L3.2", paper="zcdp", uses=("ZCDP-L2.2e",), label=r"Lemma 3.2: $\varepsilon$-DP if and only if $(\varepsilon, 0)$-zCDP", kind="check",
    statement=r"\varepsilon\text{-DP}\iff(\varepsilon,0)\text{-zCDP}", check=cached_check(_l32),
    where="Sec. 3.1, Lemma 3.2", seed=SEED,
    notes=r"$p_*$: the $P$-mass of the outcome where $\log p/q$ attains $D_\infty$; keeping only that outcome in "
          r"$\sum p^\alpha q^{1-\alpha}$ gives the lower bound.")


def _mtilde(e0, d0):
    e0, d0 = sp.sympify(e0), sp.sympify(d0)
    hi, lo = (1 - d0) * sp.exp(e0) / (1 + sp.exp(e0)), (1 - d0) / (1 + sp.exp(e0))
    return Finite([0, 1, 2, 3], [d0, 0, hi, lo]), Finite([0, 1, 2, 3], [0, d0, lo, hi])


C87_GRID = (r"$\varepsilon \in \{1/100, 1/10, 1/2, 1, 2, 5\}$, $\delta \in \{0, 1/1000, 1/10, 1/2\}$ (the complete "
            r"mechanism $\tilde M_{\varepsilon,\delta}$ of each)")


def _c87_point(e, d):
    r"""Every step of Cor. 8.7 on $\tilde M_{\varepsilon,\delta}$ at one $(\varepsilon, \delta)$, and a table row."""
    P, Q = _mtilde(sp.Rational(e), sp.Rational(d))
    ev, dr = to_mpf(sp.Rational(e)), sp.Rational(d)
    prof = ZPair.finite(P, Q).profile(ev)
    prof_back = ZPair.finite(Q, P).profile(ev)
    # events E_b = {(., bot)}: mass 1 - delta, conditional laws on the bottom points
    condP = Finite([0, 1], [P.probs[2] / (1 - dr), P.probs[3] / (1 - dr)])
    condQ = Finite([0, 1], [Q.probs[2] / (1 - dr), Q.probs[3] / (1 - dr)])
    zc = ZPair.finite(condP, condQ)
    dinf = max(zc.renyi(mp.inf), ZPair.finite(condQ, condP).renyi(mp.inf))
    r = zc.rho_star()[0]
    at = {"eps": e, "delta": d}
    node = All(
        Compare(claimed=dr, computed=prof, rel="<=", at=at, what=r"$\delta(\varepsilon) \le \delta$, $P$ against $Q$"),
        Compare(claimed=dr, computed=prof_back, rel="<=", at=at, what=r"$\delta(\varepsilon) \le \delta$, $Q$ against $P$"),
        Compare(claimed=1 - dr, computed=P.probs[2] + P.probs[3], at=at, what=r"$\mathbb P[E_b] = 1 - \delta$ (exact)"),
        Compare(claimed=ev, computed=dinf, rel="<=", at=at,
                what=r"$D_\infty \le \varepsilon$ both ways for the conditional laws ($(\varepsilon, 0)$-zCDP, Lemma 3.2)"),
        Compare(claimed=ev**2 / 2, computed=r, rel="<=", at=at,
                what=r"$\rho^* = \sup_\alpha D_\alpha/\alpha \le \varepsilon^2/2$ for the conditional laws"))
    row = [f"${_num_tex(e)}$", f"${_num_tex(d)}$", mp_str(prof, 8), mp_str(to_mpf(P.probs[2] + P.probs[3]), 8),
           mp_str(dinf, 8), mp_str(r, 8), mp_str(ev**2 / 2, 8)]
    return node, row


def _c87(dps):
    pts = [(e, d) for e in ("1/100", "1/10", "1/2", "1", "2", "5") for d in ("0", "1/1000", "1/10", "1/2")]
    got = [_c87_point(e, d) for e, d in pts]
    node = sample(C87_GRID, got, lambda g: g[0],
                  what=r"on the complete mechanism $\tilde M_{\varepsilon,\delta}$ (Def. 8.5; by Lemma 8.6, cited, every "
                       r"$(\varepsilon, \delta)$-DP pair is a postprocessing of it, and postprocessing keeps every "
                       r"property below, Lemma 2.2)")
    return Evidence(node, tables=[Table(
        r"Cor. 8.7 on $\tilde M_{\varepsilon,\delta}$",
        ["$\\varepsilon$", "$\\delta$", "$\\delta(\\varepsilon)$", "$\\mathbb P[E_b]$", "$D_\\infty$ (conditional)",
         "$\\rho^*$ (conditional)", "$\\varepsilon^2/2$"], [g[1] for g in got],
        r"$E_b$: the outcomes $(\cdot, \bot)$; the conditional laws on $E_b$ are $\mathrm{RR}_\varepsilon$, with "
        r"$\rho^* = \varepsilon\tanh(\varepsilon/2)$.")])


C87 = Claim(
    id="ZCDP-C8.7", paper="zcdp", uses=("ZCDP-L8.6", "ZCDP-P3.3"), label=r"Cor. 8.7: $(\varepsilon, \delta)$-DP implies $\delta$-approximate "
                                        r"$(\varepsilon, 0)$- and $(0, \frac12\varepsilon^2)$-zCDP",
    kind="check", statement=r"(\varepsilon,\delta)\text{-DP}\Rightarrow\delta\text{-approx. }(\varepsilon,0)\text{-zCDP}\Rightarrow"
                            r"\delta\text{-approx. }(0,\tfrac12\varepsilon^2)\text{-zCDP}",
    check=cached_check(_c87), where="Sec. 8, Cor. 8.7", seed=SEED)

P113 = Claim(
    id="ZCDP-P1.13", paper="zcdp", uses=("ZCDP-C8.7",), label=r"Prop. 1.13: $(\varepsilon, \delta)$-DP implies $\delta$-approximate "
                                         r"$\frac12\varepsilon^2$-zCDP", kind="check",
    statement=r"(\varepsilon,\delta)\text{-DP}\Rightarrow\delta\text{-approximate }\tfrac12\varepsilon^2\text{-zCDP}",
    check=cached_check(_c87), where="Sec. 1.3, Prop. 1.13 (= Cor. 8.7)", seed=SEED)


def _l83(dps):
    fams = {}
    fam = r"conditional laws of $\delta$-approximate $(\xi, 0)$-zCDP pairs ($\xi$ the larger $D_\infty$ of the two orders)"
    for kind, lab, pt, z in _pairs_with_rr(383, 10, ("1/10", "1", "3")):
        x0 = max(z.renyi(mp.inf), ZPair.finite(z.Q, z.P).renyi(mp.inf))
        for a in ("1001/1000", "2", "10", "1000"):
            fams.setdefault(fam, []).append(point(
                Instance(kind, rf"{lab}, $\alpha = {_num_tex(a)}$", {"pair": z, "xi": x0, "alpha": a}), dict(pt, alpha=a)))

    def ev1(inst):
        d = inst.data
        return d["pair"].renyi(_a(d["alpha"])), d["xi"] * _a(d["alpha"])

    def ev2(inst):
        d = inst.data
        return d["pair"].renyi(_a(d["alpha"])), d["xi"] ** 2 * _a(d["alpha"]) / 2

    return All(typed(bound_evidence("upper", fams, ev1, what=r"$D_\alpha \le \xi\alpha$", quantity_name=r"$D_\alpha$",
                                    bound_name=r"$\xi\alpha$")),
               typed(bound_evidence("upper", fams, ev2, what=r"$D_\alpha \le \frac12\xi^2\alpha$",
                                    quantity_name=r"$D_\alpha$", bound_name=r"$\frac12\xi^2\alpha$")),
               what=r"the conditional laws of $\delta$-approximate $(\xi, 0)$-zCDP pairs ($D_\infty \le \xi$ both ways, "
                    "Lemma 3.2); the events are unchanged")


L83 = Claim(
    id="ZCDP-L8.3", paper="zcdp", uses=("ZCDP-L3.2", "ZCDP-P3.3"), label=r"Lemma 8.3: $\delta$-approximate $(\xi, 0)$-zCDP gives $\delta$-approximate "
                                        r"$\xi$- and $\frac12\xi^2$-zCDP",
    kind="check", statement=r"\delta\text{-approx. }(\xi,0)\text{-zCDP}\Rightarrow\delta\text{-approx. }\xi\text{-zCDP and }"
                            r"\tfrac12\xi^2\text{-zCDP}",
    check=cached_check(_l83), where="Sec. 8, Lemma 8.3", seed=SEED,
    notes=r"Orders $\alpha > 1$ only (the definition of zCDP).")


def _d85_derive():
    e0, d0 = sp.Symbol("epsilon", positive=True), sp.Symbol("delta", positive=True)
    P, Q = _mtilde(e0, d0)
    tot = sp.simplify(sum(P.probs))
    record(Tex(r"\sum_y\mathbb P[\tilde M_{\varepsilon,\delta}(b)=y]"), tot, "total mass")
    if tot != 1:
        raise DerivationError("M~ is not a probability law")
    # the hockey-stick divergence: outcomes where P > e^eps Q: (b, top) (Q-mass 0); (b, bot) has ratio e^eps exactly
    hs = sp.simplify(P.probs[0] - sp.exp(e0) * Q.probs[0])
    record(Tex(r"\sup_S P(S)-e^\varepsilon Q(S)"), hs, "the only outcome with $P > e^\\varepsilon Q$ is $(b,\\top)$; "
           "$(b,\\bot)$ has ratio exactly $e^\\varepsilon$")
    return hs


D85 = Claim(
    id="ZCDP-D8.5", paper="zcdp", label=r"Definition 8.5: the complete $(\varepsilon, \delta)$-DP mechanism $\tilde M$", kind="definition",
    statement=r"\mathbb P[\tilde M(b)=(b,\top)]=\delta,\ \mathbb P[\tilde M(b)=(b,\perp)]=(1-\delta)\frac{e^\varepsilon}{1+e^\varepsilon},\ "
              r"\mathbb P[\tilde M(b)=(1-b,\perp)]=\frac{1-\delta}{1+e^\varepsilon}",
    derive=_d85_derive, where="Sec. 8, Def. 8.5", seed=SEED,
    notes=r"Sanity checks: total mass 1 and the privacy profile at $\varepsilon$ equals $\delta$ (numerically over all "
          "events in ZCDP-C8.7).")
