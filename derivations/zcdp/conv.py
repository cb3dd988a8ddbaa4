"""Bun-Steinke: from zCDP to (eps, delta)-DP (Prop. 1.3, Lemmas 3.5-3.7, B.2, the tail bounds of Sec. 1.1),
approximate zCDP to DP (Lemma 8.8, Corollaries 8.9-8.11) and the table of conversions.

Claims about every ``(xi, rho)``-zCDP pair are checked on instance families (:mod:`._concentrated`):

* Gaussian location pairs ``N(0, sigma^2)`` vs ``N(1, sigma^2)`` with ``sigma^2 = 1/(2 rho)`` (their zCDP
  parameter ``rho`` is the premise, Lemma 2.4 audited in ZCDP-L2.4); exact privacy profile from the normal CDF
  on the half-line where the log-likelihood ratio exceeds ``eps``;
* products of a Gaussian pair and randomized response (``xi = D_oo`` of the RR factor, ``rho`` the Gaussian's);
* two-point "spike" pairs ``P = (w, 1 - w)``, ``Q = (q, 1 - q)`` with ``q`` tiny (rare outcomes with a large
  likelihood ratio) and seeded random finite pairs, each with ``rho = sup_alpha D_alpha/alpha`` (``xi = 0``) and
  with ``rho`` halved and ``xi = sup_alpha D_alpha - rho alpha``; exact profiles by sums;
* an adversarial Nelder-Mead search over 2- and 3-point pairs and the level ``eps``.

The printed minima are encoded once as SymPy expressions (the statements as printed) and evaluated as such.  Every
check returns evidence (:mod:`cbdp_sym.verify.evidence`): the engine decides the verdicts.  Every instance lies
inside its claim's hypotheses (``eps >= xi + rho``, the pair ``(xi, rho)``-zCDP); values that are differences of
nearly equal terms (``1 - (1 - delta') prod(1 - delta_i)``, ``delta0 + (1 - delta0) delta'`` against the same
``delta0``) are compared in cancellation-free forms.
"""
import functools

import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Evidence, Readings, Table, over, sample
from cbdp_sym.families import bound_evidence
from cbdp_sym import Claim, Param, Tex, record
from cbdp_sym.calculus import cached_numeric
from ._shared import (
    ZPair, certify_lt, chernoff_exponent, finite_pair_from_logits, random_finite_pairs, rdp_conversion_optimum,
    spike_pair, tail_integral)
from cbdp_sym.conversions import best_over_alpha, compose_atoms, delta_atoms, eps_improved, eps_mironov, loss_atoms
from cbdp_sym import Finite
from cbdp_sym import ParameterError
from cbdp_sym.calculus import DerivationError
from cbdp_sym.families import Instance, cached_check, describe
from cbdp_sym.calculus import golden_max, mp_str, to_mpf
from cbdp_sym.calculus import cached_derivation, recording
from cbdp_sym.calculus import time_limit
from cbdp_sym.calculus import optimize

from ._shared import as_used, minimum, num, point, typed

SEED = "004_f41028c8afd8f9e7.txt"
xi = sp.Symbol("xi", nonnegative=True)
rho = sp.Symbol("rho", positive=True)
eps = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", positive=True)
lam = sp.Symbol("lambda", positive=True)
alpha = sp.Symbol("alpha", positive=True)
x_ = sp.Symbol("x", positive=True)

A_ = (eps - xi - rho) / (2 * rho)  # the catalogue's shorthand a
BASE = sp.exp(-((eps - xi - rho) ** 2) / (4 * rho))
ROOT = sp.sqrt((1 + A_) ** 2 + 4 / (sp.pi * rho))
# the entries of the minimum as printed (Lemmas 3.6, B.2, 8.8) and as the proof of Lemma B.2 derives them
PRINTED = {"1": sp.Integer(1), "2": sp.sqrt(sp.pi * rho) / (1 + A_), "3": 1 / (1 + A_ + ROOT)}
PROOF = {"1": sp.Integer(1), "sqrt": sp.sqrt(sp.pi * rho), "2": 1 / (1 + A_), "3": 2 / (1 + A_ + ROOT)}
# the second entry of the minimum: seed 004 (a PDF-to-LaTeX conversion) prints one fraction sqrt(pi rho)/(1 + a); two
# stacked rows sqrt(pi rho) and 1/(1 + a) of a brace array look like that fraction, and the proof derives them apart
FUSED = r"the second entry as one fraction $\sqrt{\pi\rho}/(1 + a)$ (as extracted)"
ROWS = r"the second entry as two rows $\sqrt{\pi\rho}$ and $1/(1 + a)$"
ROWS_SEEDS = (r"seed 004 prints one fraction; stacked rows of a brace array look like a fraction, and the proof of "
              r"Lemma B.2 derives $\sqrt{\pi\rho}$ and $1/(1 + a)$ as separate options")


def two_rows(*last):
    """The minimum's entries with the second entry read as two rows (and the given last entries)."""
    return minimum(PROOF["1"], PROOF["sqrt"], PROOF["2"], *last)


EPS_L35 = xi + rho + sp.sqrt(4 * rho * sp.log(1 / delta))
EPS_L36 = xi + rho + sp.sqrt(4 * rho * sp.log(sp.sqrt(sp.pi * rho) / delta))
EPS_P13 = rho + 2 * sp.sqrt(rho * sp.log(1 / delta))
FAMILIES = (r"Gaussian pairs $\mathcal N(0, 1/(2\rho))$ against $\mathcal N(1, 1/(2\rho))$ ($\rho$ the premise, "
            r"ZCDP-L2.4); a Gaussian times randomized response ($\xi = D_\infty$ of the randomized response factor); "
            r"two-point spike pairs and seeded random finite pairs with $\rho = \sup_\alpha D_\alpha/\alpha$ ($\xi = 0$) "
            r"and with $\rho$ halved, $\xi = \sup_\alpha D_\alpha - \rho\alpha$; an adversarial search over two- and "
            "three-point pairs and the level")
PROFILE = (r"exact privacy profile $\delta(\varepsilon) = \sup_S P(S) - e^\varepsilon Q(S)$: sums over the outcomes "
           r"(finite laws), the normal CDF on the half-line $\{\log p/q > \varepsilon\}$ located by root finding "
           "(Gaussian pairs)")


def _num(expr, args=(xi, rho, eps)):
    f = sp.lambdify(list(args), expr, modules="mpmath")
    return lambda *v: f(*[mp.mpf(a) if not isinstance(a, mp.mpf) else a for a in v])


def _q(s):
    return to_mpf(sp.Rational(s))


def _tex(x) -> str:
    """An exact number for a label: ``1/10``, ``2 \\cdot 10^{-9}`` (long denominators in scientific form)."""
    r = sp.Rational(str(x))
    if r.q <= 1000 or r.p >= 1000:
        return str(r)
    m, e = mp.nstr(mp.mpf(int(r.p)) / int(r.q), 3, min_fixed=1, max_fixed=0).split("e")
    m = m[:-2] if m.endswith(".0") else m
    return (f"{m} \\cdot " if m != "1" else "") + f"10^{{{int(e)}}}"


# -- pairs of the families, built at the working precision from a text key ---------------------------------
RHOS = ("1/10000", "1/1000", "1/100", "1/10", "1/2", "1", "5", "20", "100")
SPIKES = (("9/10", "1/500000000"), ("1/2", "1/10000"), ("1/10", "1/1000"), ("99/100", "1/100"), ("1/100", "1/100000"))
NXF = (("1/10", "1/2"), ("1", "1"), ("1/100", "1/10"))


def _pair(key):
    """A :class:`ZPair` from its key: ``normal:rho``, ``spike:w:q``, ``rand:seed:i``, ``nxf:rho:eps0``."""
    kind, *a = key.split(":")
    if kind == "normal":
        return ZPair.normal(sp.sqrt(1 / (2 * sp.Rational(a[0]))), 1, f"Gaussian rho={a[0]}")
    if kind == "spike":
        return spike_pair(sp.Rational(a[0]), sp.Rational(a[1]))
    if kind == "rand":
        return random_finite_pairs(int(a[0]), int(a[1]) + 1)[int(a[1])][1]
    if kind == "nxf":
        e0 = sp.Rational(a[1])
        p = sp.exp(e0) / (1 + sp.exp(e0))
        return ZPair.normal_times_finite(sp.sqrt(1 / (2 * sp.Rational(a[0]))), 1, Finite([0, 1], [p, 1 - p]),
                                         Finite([0, 1], [1 - p, p]))
    raise ParameterError(f"unknown pair key {key}")


def _label(key) -> str:
    """A pair as prose with LaTeX mathematics."""
    kind, *a = key.split(":")
    if kind == "normal":
        return rf"Gaussian $\rho = {_tex(a[0])}$"
    if kind == "spike":
        return rf"spike $w = {_tex(a[0])}$, $q = {_tex(a[1])}$"
    if kind == "rand":
        return f"random pair {a[1]} of seed {a[0]}"
    return rf"Gaussian $\rho = {_tex(a[0])}$ times randomized response at $\varepsilon_0 = {_tex(a[1])}$"


MODE = {"rho": r"$\xi = 0$", "half": r"$\rho$ halved", "sym": r"$\rho$ of both orders"}


def _pt(key, x0=None, r0=None) -> dict:
    """A pair as a typed point (:mod:`._shared`): its kind and parameters, and the ``(xi, rho)`` it is taken with."""
    kind, *a = key.split(":")
    if kind == "normal":
        return {"pair": "Gaussian", "rho": a[0]}
    if kind == "nxf":
        return {"pair": "Gaussian times RR", "rho": a[0], "xi": a[1]}
    out = {"pair": "spike", "w": a[0], "q": a[1]} if kind == "spike" else {"pair": "random", "seed": a[0], "index": a[1]}
    if x0 is not None:
        out.update(xi=num(x0), rho=num(r0))
    return out


def _eps_at(key, e, a) -> str:
    """The level ``eps = xi + rho + 2 rho a`` of an instance as point text: exact for the Gaussian pairs (``xi = 0``) and
    the Gaussian times randomized response (``xi = eps_0``), whose ``(xi, rho)`` are exact; a short decimal otherwise
    (``rho`` is the pair's computed ``rho*``)."""
    kind, *p = key.split(":")
    if kind == "normal":
        return str(sp.Rational(p[0]) * (1 + 2 * sp.Rational(a)))
    if kind == "nxf":
        return str(sp.Rational(p[1]) + sp.Rational(p[0]) * (1 + 2 * sp.Rational(a)))
    return num(e)


@cached_numeric
def _params(key, mode, dps):
    """``(xi, rho)`` of a pair: ``rho*`` with ``xi = 0`` (mode "rho"), ``rho*/2`` with ``xi*`` (mode "half"), both
    directions (mode "sym": the larger rho* of the two orders, for neighbouring-symmetric claims)."""
    z = _pair(key)
    if z.kind == "normal":
        return [mp.mpf(0), z.premise_rho()]
    if z.kind == "normal*finite":
        return [z._finite_renyi(mp.inf), z.premise_rho()]
    r, _a = z.rho_star()
    if mode == "rho":
        return [mp.mpf(0), r]
    if mode == "sym":
        zr = ZPair.finite(z.Q, z.P)
        return [mp.mpf(0), max(r, zr.rho_star()[0])]
    return [z.xi_star(r / 2), r / 2]


@cached_numeric
def _profile(key, e, dps):
    return _pair(key).profile(mp.mpf(e))


def _pair_keys(seed=101, count=6, modes=("rho", "half")):
    keys = [(f"normal:{r}", "rho") for r in RHOS]
    keys += [(f"nxf:{r}:{e0}", "rho") for r, e0 in NXF]
    for m in modes:
        keys += [(f"spike:{w}:{q}", m) for w, q in SPIKES]
        keys += [(f"rand:{seed}:{i}", m) for i in range(count)]
    return keys


def _family_of(key):
    return {"normal": "Gaussian", "nxf": "Gaussian times randomized response", "spike": "spike pairs",
            "rand": "random finite pairs"}[key.split(":")[0]]


A_GRID = ("0", "1/10", "1", "10", "50")


def _delta_instances(a_grid=A_GRID, modes=("rho", "half")):
    """Instances ``(pair, xi, rho, eps)`` with ``eps = xi + rho + 2 rho a`` (``a >= 0`` on a grid: the hypothesis
    ``eps >= xi + rho``; kept where the Chernoff exponent ``rho a^2`` is at most 400)."""
    fams = {}
    dps = mp.mp.dps
    for key, mode in _pair_keys(modes=modes):
        x0, r0 = _params(key, mode, dps)
        for a in a_grid:
            av = _q(a)
            if r0 * av**2 > 400:
                continue
            e = x0 + r0 + 2 * r0 * av
            lab = f"{_label(key)} ({MODE[mode]}), $a = {_tex(a)}$"
            fams.setdefault(_family_of(key), []).append(point(
                Instance(_family_of(key), lab, {"key": key, "xi": x0, "rho": r0, "eps": e, "a": a, "mode": mode}),
                dict(_pt(key, x0, r0), a=a, eps=_eps_at(key, e, a))))
    return fams


def _exact_delta(inst):
    d = inst.data
    if "pair" in d:
        return d["pair"].profile(d["eps"])
    return _profile(d["key"], mp_str(d["eps"], mp.mp.dps + 5), mp.mp.dps)


def _search_delta(name, budget=60, k=2):
    """Nelder-Mead over a ``k``-point pair (logits) and ``log a``: minimises the relative slack of ``delta(eps) <=
    bound`` at ``eps = rho* + 2 rho* a`` (``xi = 0``, ``rho = rho*`` of the pair: inside the hypotheses)."""
    import random

    def make(y):
        return _search_instance(k, tuple(float(v) for v in y), mp.mp.prec)

    rng = random.Random(17 + k)
    starts = [[2.2, -20.0, 0.0], [0.0, -8.0, -2.0], [-2.0, -3.0, 1.0]] if k == 2 else \
        [[rng.uniform(-4, 4) for _ in range(2 * (k - 1))] + [rng.uniform(-2, 2)] for _ in range(3)]
    return {"name": name, "make": make, "dim": 2 * (k - 1) + 1, "budget": budget, "starts": starts, "dps": 20}


def _at_point(expr, values: dict):
    """``expr`` at an exact point (``values``: symbol -> rational), the entries of a minimum substituted one by one and
    remembered (the readings and corrected statements of one lemma share entries and points) and the minimum left
    unevaluated: the Arb evaluator takes the minimum of the entries' balls."""
    if isinstance(expr, sp.Min):
        return sp.Min(*[_at_point(a, values) for a in expr.args], evaluate=False)
    if expr.has(sp.Min) and (expr.is_Mul or expr.is_Add):
        return expr.func(*[_at_point(a, values) for a in expr.args])
    return _entry_at(expr, tuple(sorted(values.items(), key=lambda kv: kv[0].name)))


@functools.lru_cache(maxsize=4096)
def _entry_at(expr, point: tuple):
    return expr.subs(dict(point))


@functools.lru_cache(maxsize=2048)
def _search_instance(k, y: tuple, prec):
    """The search's instance at ``y`` (a ``k``-point pair from logits, its ``rho*``, the level): the same for every bound
    searched (the searches of one lemma's entries, readings and corrections start from the same points), so made once
    per point and precision; an instance is read, never changed."""
    with mp.workprec(prec):
        z = finite_pair_from_logits([mp.mpf(v) for v in y[: 2 * (k - 1)]], k)
        r, _a = z.rho_star()
        a = mp.exp(mp.mpf(y[-1]))
        inst = Instance("search", f"{describe(z.P, 12)} {describe(z.Q, 12)} {mp.nstr(a, 12)}",
                        {"pair": z, "xi": mp.mpf(0), "rho": r, "eps": r + 2 * r * a})
        return point(inst, {"pair": "search", "p": num(z.P.probs[0]), "q": num(z.Q.probs[0]),
                            "rho": num(r), "a": num(a, 4)})


def _certify_delta(bound_expr):
    """Certify ``bound < exact delta`` in Arb for Gaussian and finite instances (closed forms)."""
    def cert(inst):
        d = inst.data
        key = d.get("key")
        if key is None:
            return None
        z = _pair(key)
        if z.kind == "finite" and key.startswith("spike"):
            # rho* is numeric: certify with an exact rational upper bound rho_bar >= rho* (still a valid premise)
            rbar = sp.Rational(mp.nstr(d["rho"] * (1 + mp.mpf(10) ** -12), 20))
            xbar = sp.Rational(mp.nstr(d["xi"], 20)) if d["xi"] != 0 else sp.Integer(0)
            ebar = sp.Rational(mp.nstr(d["eps"], 20))
            exact = sp.Add(*[p - sp.exp(ebar) * q for p, q in zip(z.P.probs, z.Q.probs)
                             if (q == 0 and p > 0) or (q > 0 and p / q > sp.exp(ebar))])
            b = _at_point(bound_expr, {xi: xbar, rho: rbar, eps: ebar})
            c = certify_lt(b, exact)
            return (c + rf" (exact $\delta$ as a closed form at $\varepsilon = {ebar}$; the bound at $\rho = {rbar} \ge "
                        rf"\rho^*$, $\xi = {xbar}$)") if c else None
        if z.kind == "normal" and d["a"] is not None:
            r = sp.Rational(key.split(":")[1])
            e = r + 2 * r * sp.Rational(d["a"])
            s = sp.sqrt(2 * r)
            exact = (sp.erfc((e / s - s / 2) / sp.sqrt(2)) - sp.exp(e) * sp.erfc((e / s + s / 2) / sp.sqrt(2))) / 2
            b = _at_point(bound_expr, {xi: 0, rho: r, eps: e})
            c = certify_lt(b, exact)
            return (c + rf" (Gaussian $\rho = {r}$, $\varepsilon = {e}$: exact $\delta = (\mathrm{{erfc}}((\varepsilon/s - "
                        r"s/2)/\sqrt 2) - e^\varepsilon \mathrm{erfc}((\varepsilon/s + s/2)/\sqrt 2))/2$ with $s = "
                        r"\sqrt{2\rho}$)") if c else None
        return None

    return cert


BASE_NUM = _num(BASE)


def _delta_bound(bound_expr, what, search=True, modes=("rho", "half")):
    """Evidence: ``delta(eps) <= e^{-(eps - xi - rho)^2/4rho} * bound_expr`` on every instance and the search."""
    fn = _num(bound_expr)

    def ev(inst):
        d = inst.data
        return _exact_delta(inst), BASE_NUM(d["xi"], d["rho"], d["eps"]) * fn(d["xi"], d["rho"], d["eps"])

    srch = _search_delta("two-point pairs") if search else None
    return typed(bound_evidence("upper", _delta_instances(modes=modes), ev, search=srch,
                                certify=_certify_delta(BASE * bound_expr), what=what,
                                quantity_name=r"exact $\delta(\varepsilon)$", bound_name=r"printed $\delta$"))


# -- Lemma B.2's minimum, entry by entry --------------------------------------------------------------------
def _opt_check(entry_expr, what):
    def check(dps):
        return _delta_bound(entry_expr, what)

    check.__qualname__ = "opt_" + "".join(ch for ch in what if ch.isalnum() or ch == " ").replace(" ", "_")[:40]
    return cached_check(check)


def _stmt(entries):
    return (r"P(S)\le e^\varepsilon Q(S)+\delta,\ \delta=e^{-(\varepsilon-\xi-\rho)^2/4\rho}\cdot " + entries
            + r",\ \varepsilon\ge\xi+\rho")


OPT_NOTE = (r"$a = (\varepsilon - \xi - \rho)/(2\rho)$; the entry alone is checked as the $\delta$ of the lemma (each "
            "entry of a minimum must itself be a valid $\\delta$ for the minimum to be)")

L36_OPT1 = Claim(
    id="ZCDP-L3.6-OPT1", paper="zcdp", label="Lemma B.2, first entry of the minimum (the Chernoff bound)",
    kind="check", statement=_stmt("1"), check=_opt_check(PRINTED["1"], "entry 1 (Chernoff)"),
    where="App. B, Lemma B.2", seed=SEED, conventions=(FAMILIES, PROFILE), uses=("ZCDP-L3.6-DELTA", "ZCDP-L3.5-OPT"),
    notes=OPT_NOTE + r". This entry is the Chernoff bound $\delta \le \mathbb P[Z > \varepsilon]$ of Lemma 3.5.")

# the entries the proof of Lemma B.2 derives (the corrected statements of ZCDP-L3.6-OPT2 and -OPT3, and claims of their own)
OPT2_CORR_CHECK = _opt_check(PROOF["2"], "the second entry from the proof")
OPT3_CORR_CHECK = _opt_check(PROOF["3"], "the last entry from the proof")
OPT2_CORR_STMT = _stmt(r"\frac{1}{1+(\varepsilon-\xi-\rho)/2\rho}") + r"\quad\text{(corrected)}"
OPT3_CORR_STMT = _stmt(r"\frac{2}{1+a+\sqrt{(1+a)^2+\frac{4}{\pi\rho}}}") + r"\quad\text{(corrected)}"


def _opt2(dps):
    return Readings((FUSED, _delta_bound(PRINTED["2"], "the second entry as printed")),
                    (ROWS, All(_delta_bound(PROOF["sqrt"], r"the row $\sqrt{\pi\rho}$"),
                               _delta_bound(PROOF["2"], r"the row $1/(1 + a)$"),
                               what=r"each of the two rows a valid $\delta$"), ROWS_SEEDS),
                    what=r"the entry $\sqrt{\pi\rho}/(1 + a)$ of the minimum, in two parses of the array")


L36_OPT2 = Claim(
    id="ZCDP-L3.6-OPT2", paper="zcdp",
    label=r"Lemmas 3.6 and B.2, the entry $\sqrt{\pi\rho}/(1 + a)$ of the minimum", kind="check",
    statement=_stmt(r"\frac{\sqrt{\pi\cdot\rho}}{1+(\varepsilon-\xi-\rho)/2\rho}"),
    check=cached_check(_opt2), corrected=OPT2_CORR_CHECK, corrected_statement=OPT2_CORR_STMT,
    where="Lemmas 3.6, B.2, 8.8; Cor. 8.9", seed=SEED,
    conventions=(FAMILIES, PROFILE), uses=("ZCDP-L3.6-HFORM", "ZCDP-L3.6-T2", "ZCDP-L3.6-SUB2"),
    notes=OPT_NOTE + r". Two parses of the printed array: the entry as one fraction (as extracted), and two stacked rows "
                     r"$\sqrt{\pi\rho}$ and $1/(1 + a)$ (a brace array's rows look like one fraction in the extraction; "
                     r"Lemma 3.6 speaks of three options while its array shows two entries). The proof of Lemma B.2 "
                     r"derives $\sqrt{\pi\rho}$ from $h \le \sqrt{\pi/2}$ and $1/(1 + a)$ from $\mathbb P[\mathcal N(0,1) > "
                     r"x] \le e^{-x^2/2}/(\sqrt{2\pi} x)$ (ZCDP-L3.6-SUB2); the corrected statement is the entry "
                     r"$1/(1 + a)$ (also ZCDP-L3.6-OPT2-CORR).")

L36_OPT2_CORR = Claim(
    id="ZCDP-L3.6-OPT2-CORR", paper="zcdp", role="proof", label=r"Corrected second entry (as the proof derives it): $1/(1 + a)$",
    kind="check", statement=OPT2_CORR_STMT,
    check=OPT2_CORR_CHECK, where="App. B, proof of Lemma B.2", seed=SEED,
    conventions=(FAMILIES, PROFILE), uses=("ZCDP-L3.6-HFORM", "ZCDP-L3.6-T2", "ZCDP-L3.6-SUB2"),
    notes="Corrected statement for ZCDP-L3.6-OPT2 (not printed as a statement).")

L36_OPT3 = Claim(
    id="ZCDP-L3.6-OPT3", paper="zcdp",
    label=r"Lemmas 3.6, B.2 and 8.8, the last entry $1/(1 + a + \sqrt{\dots})$ of the minimum",
    kind="check",
    statement=_stmt(r"\frac{1}{1+\frac{\varepsilon-\xi-\rho}{2\rho}+\sqrt{\left(1+\frac{\varepsilon-\xi-\rho}{2\rho}\right)^2"
                    r"+\frac{4}{\pi\rho}}}"),
    check=_opt_check(PRINTED["3"], "the last entry as printed"), corrected=OPT3_CORR_CHECK,
    corrected_statement=OPT3_CORR_STMT,
    where="Lemmas 3.6, B.2, 8.8", seed=SEED, conventions=(FAMILIES, PROFILE),
    uses=("ZCDP-L3.6-HFORM", "ZCDP-L3.6-T3", "ZCDP-L3.6-SUB3"),
    notes=OPT_NOTE + ". The proof of Lemma B.2 (and the last display of the proof of Lemma 8.8, and Cor. 8.9) has the "
                     "numerator 2: the corrected statement (also ZCDP-L3.6-OPT3-CORR). The entry fails only on pairs with "
                     "a rare outcome of large likelihood ratio (spike pairs); on the Gaussian pairs it holds.")

L36_OPT3_CORR = Claim(
    id="ZCDP-L3.6-OPT3-CORR", paper="zcdp", role="proof",
    label=r"Corrected last entry (as the proof derives it): $2/(1 + a + \sqrt{\dots})$",
    kind="check", statement=OPT3_CORR_STMT,
    check=OPT3_CORR_CHECK, where="App. B, proof of Lemma B.2", seed=SEED,
    conventions=(FAMILIES, PROFILE), uses=("ZCDP-L3.6-HFORM", "ZCDP-L3.6-T3", "ZCDP-L3.6-SUB3"),
    notes="Corrected statement for ZCDP-L3.6-OPT3.")


# -- the epsilon forms: Prop. 1.3, Lemma 3.5, Lemma 3.6 (first alternative) --------------------------------------
DELTAS = ("1/10000000000", "1/100000", "1/100", "1/5")


def _eps_instances(eps_expr, modes=("rho",)):
    fams = {}
    f = _num(eps_expr, (xi, rho, delta))
    dps = mp.mp.dps
    skipped = []
    for key, mode in _pair_keys(modes=modes):
        x0, r0 = _params(key, mode, dps)
        if xi not in eps_expr.free_symbols and x0 != 0:
            continue  # a statement about rho-zCDP (xi = 0)
        for dl in DELTAS:
            try:
                e = f(x0, r0, _q(dl))
            except (ValueError, ZeroDivisionError):
                e = None
            if e is None or not isinstance(e, mp.mpf) or not mp.isfinite(e):
                skipped.append(f"{_label(key)} at $\\delta = {_tex(dl)}$")
                continue
            fams.setdefault(_family_of(key), []).append(point(
                Instance(_family_of(key), f"{_label(key)} ({MODE[mode]}), $\\delta = {_tex(dl)}$",
                         {"key": key, "xi": x0, "rho": r0, "eps": e, "delta": _q(dl), "a": None}),
                dict(_pt(key, x0, r0), delta=dl)))
    return fams, skipped


def _eps_bound(eps_expr, what, modes=("rho", "half")):
    """Evidence: the exact ``delta(eps)`` at the printed ``eps(delta)`` is at most ``delta``, at every instance where the
    printed epsilon is real (elsewhere the formula has no value: those points are named in the note)."""
    fams, skipped = _eps_instances(eps_expr, modes)

    def ev(inst):
        return _exact_delta(inst), inst.data["delta"]

    node = typed(bound_evidence("upper", fams, ev, what=what, quantity_name=r"exact $\delta(\varepsilon)$ at the printed "
                                                                          r"$\varepsilon$", bound_name=r"$\delta$"))
    if skipped:
        node.note = (f"{len(skipped)} (pair, $\\delta$) points where the printed $\\varepsilon$ is not real (the logarithm "
                     f"under the square root is negative) have no value and are left out, e.g. {skipped[0]}")
    return node


@cached_derivation
def _l35_derivation():
    ell = sp.Symbol("ell", positive=True)
    root, val = chernoff_exponent(xi, rho, eps)
    record(Tex(r"\mathbb P[Z>\varepsilon]"), sp.exp(val), "Lemma 3.5's choice of $\\alpha$")
    sol = sp.solve(sp.Eq(val, -ell), eps)
    sol = [s for s in sol if sp.simplify(s - xi - rho).is_positive]
    if len(sol) != 1:
        raise DerivationError("solving the Chernoff exponent for eps did not give one root above xi + rho")
    e_star = sp.simplify(sol[0].subs(ell, sp.log(1 / delta)))
    record(Tex(r"\varepsilon"), e_star, "$e^{-(\\varepsilon-\\xi-\\rho)^2/4\\rho} = \\delta$ solved for "
                                        "$\\varepsilon > \\xi + \\rho$ ($\\ell = \\log(1/\\delta)$)")
    _r2, v2 = rdp_conversion_optimum(xi, rho, ell, lhs=Tex(r"\varepsilon_{\mathrm{RDP}}(\alpha)"))
    same = sp.simplify(v2.subs(ell, sp.log(1 / delta)) - e_star)
    record(Tex(r"\varepsilon_{\mathrm{RDP}}^* - \varepsilon"), same,
           "the RDP conversion optimised over $\\alpha$ gives the same epsilon")
    return e_star


def _split(dps):
    r"""The last step of Lemma 3.5's proof: $P(S) \le P(S \cap \{Z \le \varepsilon\}) + \mathbb P[Z > \varepsilon] \le
    e^\varepsilon Q(S) + \mathbb P[Z > \varepsilon]$, on every event of seeded random finite pairs."""
    from cbdp_sym.families import events, mass

    parts = []
    for i, (_lab, z) in enumerate(random_finite_pairs(303, 6, ks=(2, 3, 4))):
        for e in ("1/10", "1/2", "1"):
            ev = _q(e)
            tail = z.tail(ev)
            k = len(z.P.probs)
            evs = list(events(k))
            parts.append(over("S", evs, lambda S, z=z, ev=ev, tail=tail, i=i, e=e: Compare(
                claimed=mp.exp(ev) * mass(z.Q, S) + tail, computed=mass(z.P, S), rel="<=",
                at={"pair": "random", "seed": "303", "index": str(i), "eps": e, "S": tuple(str(j) for j in S)}),
                domain=f"all {len(evs)} events of random pair {i} of seed 303 at $\\varepsilon = {e}$"))
    return sample(r"six seeded random finite pairs at $\varepsilon = 1/10, 1/2, 1$", parts, lambda g: g,
                  what=r"the proof's split $P(S) \le e^\varepsilon Q(S) + \mathbb P[Z > \varepsilon]$ on every event")


def _l35(dps):
    with recording():
        _l35_derivation()
    return All(_eps_bound(EPS_L35, r"$\delta(\xi + \rho + \sqrt{4\rho\log(1/\delta)}) \le \delta$"), _split(dps),
               what="the Chernoff exponent and the optimal order derived (see the steps)")


L35 = Claim(
    id="ZCDP-L3.5", paper="zcdp",
    label=r"Lemma 3.5: $(\xi, \rho)$-zCDP gives $(\xi + \rho + \sqrt{4\rho\log(1/\delta)}, \delta)$-DP",
    kind="check",
    statement=r"(\xi,\rho)\text{-zCDP}\Rightarrow(\varepsilon,\delta)\text{-DP},\ \varepsilon=\xi+\rho+\sqrt{4\rho\log(1/\delta)}",
    check=cached_check(_l35), derive=_l35_derivation, where="Sec. 3.2, Lemma 3.5", seed=SEED, uses=("ZCDP-L3.5-OPT",),
    conventions=(FAMILIES, PROFILE),
    notes=r"The derivation shows the Chernoff step (Markov's inequality, the optimal order by stationarity) and that the "
          r"RDP conversion $\varepsilon = D_\alpha + \log(1/\delta)/(\alpha - 1)$ optimised over $\alpha$ gives the same "
          r"$\varepsilon$. For $\delta \ge 1$ the printed formula is not real (the statement is trivial there).")


def _p13_derivation():
    e = _l35_derivation()
    val = sp.simplify(e.subs(xi, 0))
    record(Tex(r"\varepsilon\ (\xi = 0)"), val, "Lemma 3.5 at $\\xi = 0$")
    return val


def _p13(dps):
    with recording():
        _p13_derivation()
    return _eps_bound(EPS_P13, r"$\delta(\rho + 2\sqrt{\rho\log(1/\delta)}) \le \delta$", modes=("rho",))


P13 = Claim(
    id="ZCDP-P1.3", paper="zcdp",
    label=r"Prop. 1.3: $\rho$-zCDP gives $(\rho + 2\sqrt{\rho\log(1/\delta)}, \delta)$-DP",
    kind="check", statement=r"\rho\text{-zCDP}\Rightarrow\left(\rho+2\sqrt{\rho\log(1/\delta)},\delta\right)\text{-DP}",
    check=cached_check(_p13), derive=_p13_derivation, where="Sec. 1.1, Prop. 1.3", seed=SEED, uses=("ZCDP-L3.5",),
    conventions=(FAMILIES, PROFILE), notes=r"Lemma 3.5 with $\xi = 0$ (the same derivation).")


def _p13_opt_derive():
    ell = sp.Symbol("ell", positive=True)
    _root, val = rdp_conversion_optimum(0, rho, ell)
    return val.subs(ell, sp.log(1 / delta))


def _p13_opt_numeric(v):
    r, d = v["rho"], v["delta"]
    r, d = to_mpf(r), to_mpf(d)
    val, _a = best_over_alpha(lambda a: eps_mironov(r * a, a, d), include_inf=False)
    return val


P13_OPT = Claim(
    id="ZCDP-P1.3-OPT", paper="zcdp", label="Prop. 1.3 as the RDP conversion optimised over the order",
    kind="identity", statement=r"\inf_{\alpha>1}\ \rho\alpha+\frac{\log(1/\delta)}{\alpha-1}=\rho+2\sqrt{\rho\log(1/\delta)}",
    quantity=r"\inf_{\alpha>1}\rho\alpha+\frac{\log(1/\delta)}{\alpha-1}",
    params=[Param.positive("rho", rho, ("1/1000", "1/10", "1", "7/2", "100")),
            Param.unit("delta", delta, ("1/10000000", "1/100000", "1/100", "1/2", "99/100"))],
    derive=_p13_opt_derive, claimed=lambda: EPS_P13, numeric=_p13_opt_numeric,
    where="Sec. 1.1, Prop. 1.3", seed=SEED, uses=("ZCDP-P1.3",),
    conventions=(r"numeric: golden-section minimisation over $t = \log(\alpha - 1)$ of the RDP conversion "
                 r"(Mironov's $\varepsilon = D_\alpha + \log(1/\delta)/(\alpha - 1)$) applied to the curve $\rho\alpha$",))


def _l35_opt_derive():
    _root, val = chernoff_exponent(xi, rho, eps)
    return val


def _l35_opt_numeric(v):
    x0, r, e = to_mpf(v["xi"]), to_mpf(v["rho"]), to_mpf(v["eps"])
    if not e > x0 + r:
        raise ParameterError("needs eps > xi + rho")
    val, _a = best_over_alpha(lambda a: (a - 1) * (x0 + r * a - e), include_inf=False)
    return val


def _l35_opt_check(pt):
    if not pt["eps"] > pt["xi"] + pt["rho"]:
        raise ParameterError("the Chernoff exponent is minimised at alpha > 1 only for eps > xi + rho")


L35_OPT = Claim(
    id="ZCDP-L3.5-OPT", paper="zcdp", role="proof", label="Lemma 3.5's proof: the optimal order and the Chernoff exponent",
    kind="identity",
    statement=r"\inf_{\alpha>1}(\alpha-1)(\xi+\rho\alpha-\varepsilon)=-\frac{(\varepsilon-\xi-\rho)^2}{4\rho}"
              r"\ \text{at}\ \alpha=\frac{\varepsilon-\xi+\rho}{2\rho}",
    quantity=r"\inf_{\alpha>1}(\alpha-1)(\xi+\rho\alpha-\varepsilon)",
    params=[Param("xi", xi, "real", ("0", "1/2", "0", "2", "1/10")), Param.positive("rho", rho, ("1/10", "1", "1/1000", "7/2", "3")),
            Param.positive("eps", eps, ("1", "4", "1/10", "10", "50"))],
    constraint=_l35_opt_check, derive=_l35_opt_derive, claimed=lambda: -((eps - xi - rho) ** 2) / (4 * rho),
    numeric=_l35_opt_numeric, where="Sec. 3.2, proof of Lemma 3.5 (also S1.1c, Lemma B.2)", seed=SEED,
    conventions=(r"numeric: golden-section minimisation of the exponent over $t = \log(\alpha - 1)$",))


def _l35_inv_derive():
    r = sp.Symbol("r", positive=True)  # sqrt(rho)
    ell = sp.Symbol("ell", positive=True)
    w = sp.Symbol("w", positive=True)  # eps - xi
    record(Tex(r"\varepsilon-\xi"), r**2 + 2 * r * sp.sqrt(ell), "Lemma 3.5 with $r = \\sqrt\\rho$, $\\ell = \\log(1/\\delta)$: a "
                                                                "quadratic in $r$")
    with time_limit(30, "solving the quadratic"):
        sols = sp.solve(sp.Eq(r**2 + 2 * r * sp.sqrt(ell), w), r)
    sols = [s for s in sols if s.is_positive is not False]
    if len(sols) != 1:
        raise DerivationError(f"expected one positive root, got {sols}")
    record(Tex(r"\sqrt\rho"), sols[0], "the positive root")
    out = sp.expand(sols[0] ** 2).subs({w: eps - xi, ell: sp.log(1 / delta)})
    record(Tex(r"\rho"), sp.factor(sols[0] ** 2).subs({w: eps - xi, ell: sp.log(1 / delta)}), "squared")
    return out


def _inv_check(pt):
    if not pt["eps"] > pt["xi"]:
        raise ParameterError("needs eps > xi")


def _l35_inv_numeric(v):
    x0, e, d = to_mpf(v["xi"]), to_mpf(v["eps"]), to_mpf(v["delta"])
    if not e > x0:
        raise ParameterError("needs eps > xi")
    L = mp.log(1 / d)
    f = lambda r: r + 2 * mp.sqrt(r * L) - (e - x0)  # noqa: E731  (increasing in r)
    lo, hi = optimize.bisection(lambda r: not f(r) > 0, mp.mpf(0), e - x0)
    return (lo + hi) / 2


L35_INV = Claim(
    id="ZCDP-L3.5-INV", paper="zcdp",
    label=r"Lemma 3.5 inverted: the $\rho$ that gives a target $(\varepsilon, \delta)$",
    kind="identity", statement=r"\rho=\left(\sqrt{\varepsilon-\xi+\log(1/\delta)}-\sqrt{\log(1/\delta)}\right)^2",
    quantity=r"\rho:\ \xi+\rho+\sqrt{4\rho\log(1/\delta)}=\varepsilon",
    params=[Param("xi", xi, "real", ("0", "1/2", "0", "1", "1/10")), Param.positive("eps", eps, ("1", "3", "1/10", "10", "1/2")),
            Param.unit("delta", delta, ("1/100000", "1/100", "1/10000000", "1/2", "1/1000"))],
    constraint=_inv_check,
    derive=_l35_inv_derive,
    claimed=lambda: (sp.sqrt(eps - xi + sp.log(1 / delta)) - sp.sqrt(sp.log(1 / delta))) ** 2,
    numeric=_l35_inv_numeric, where="Sec. 3.2, Lemma 3.5 (second sentence)", seed=SEED, uses=("ZCDP-L3.5",),
    conventions=(r"numeric: bisection on $\rho$ for $\xi + \rho + \sqrt{4\rho\log(1/\delta)} = \varepsilon$",))


def _l35_approx(dps):
    w, L = sp.symbols("w ell", positive=True)
    exact = (sp.sqrt(w + L) - sp.sqrt(L)) ** 2
    approx = w**2 / (4 * L)
    t = sp.Symbol("t", positive=True)
    with time_limit(60, "series"):
        ser = sp.simplify(sp.series(exact.subs(w, t * L) / approx.subs(w, t * L), t, 0, 2).removeO())
    rows = []
    for wv, lv in (("1/10", "11.5"), ("1", "11.5"), ("1", "23"), ("5", "2.3"), ("1/100", "2.3")):
        ex = (mp.sqrt(_q(wv) + mp.mpf(lv)) - mp.sqrt(mp.mpf(lv))) ** 2
        ap = _q(wv) ** 2 / (4 * mp.mpf(lv))
        rows.append([f"${wv}$", f"${lv}$", mp_str(ex, 10), mp_str(ap, 10), mp_str(ap / ex, 8)])
    node = Compare(claimed=sp.Integer(1), computed=ser.subs(t, 0),
                   what=r"the leading term of $\rho_{\rm exact}/\rho_{\rm approx}$ as $t = (\varepsilon - "
                        r"\xi)/\log(1/\delta) \to 0$ (SymPy series)")
    return Evidence(node, tables=[Table(
        r"Lemma 3.5's $\rho$ against the approximation $(\varepsilon - \xi)^2/(4\log(1/\delta))$",
        ["$\\varepsilon-\\xi$", "$\\log(1/\\delta)$", "$\\rho$ (exact)", "approximation", "ratio"], rows,
        rf"Series: $\rho_{{\rm exact}}/\rho_{{\rm approx}} = {sp.latex(ser)} + O(t^2)$: the approximation is the first "
        r"order as $t \to 0$ (it overstates $\rho$ by the factor $1 + t/2 + \dots$).")])


L35_APPROX = Claim(
    id="ZCDP-L3.5-APPROX", paper="zcdp",
    label=r"Lemma 3.5: $\rho \approx (\varepsilon - \xi)^2/(4\log(1/\delta))$ to first order",
    kind="check", statement=r"\left(\sqrt{\varepsilon-\xi+\log(1/\delta)}-\sqrt{\log(1/\delta)}\right)^2\approx"
                            r"\frac{(\varepsilon-\xi)^2}{4\log(1/\delta)}",
    check=_l35_approx, where="Sec. 3.2, Lemma 3.5", seed=SEED, uses=("ZCDP-L3.5-INV",))


# -- Lemma 3.6 as printed, and its first alternative ---------------------------------------------------------------
L36_EPS_WHAT = r"$\delta(\xi + \rho + \sqrt{4\rho\log(\sqrt{\pi\rho}/\delta)}) \le \delta$"


def _l36(dps):
    return Readings(
        (FUSED, All(_delta_bound(minimum(PRINTED["2"], PRINTED["3"]), "the printed two-entry minimum"),
                    _eps_bound(EPS_L36, L36_EPS_WHAT),
                    what="second alternative (the minimum as printed in Lemma 3.6) and first alternative")),
        (ROWS, All(_delta_bound(minimum(PROOF["sqrt"], PROOF["2"], PRINTED["3"]),
                                "the minimum with the second entry as two rows"),
                   _eps_bound(EPS_L36, L36_EPS_WHAT),
                   what="second alternative (second entry as two rows, last entry as printed) and first alternative"),
         ROWS_SEEDS),
        what="Lemma 3.6 in two parses of its minimum")


# the minimum the proof of Lemma B.2 derives (Lemma 3.6's second alternative corrected: the second entry as two rows, the
# numerator 2 in the last entry)
L36_CORR_MIN = minimum(PROOF["sqrt"], PROOF["2"], PROOF["3"])
B2_CORR_MIN = minimum(PROOF["1"], PROOF["sqrt"], PROOF["2"], PROOF["3"])  # Lemma B.2's, with its first entry 1


def _l36_corr(dps):
    return All(_delta_bound(L36_CORR_MIN, "the minimum with the entries the proof derives"),
               _eps_bound(EPS_L36, L36_EPS_WHAT),
               what="second alternative (the entries the proof of Lemma B.2 derives) and first alternative")


L36 = Claim(
    id="ZCDP-L3.6", paper="zcdp", label="Lemma 3.6 (= Lemma B.2): the refined conversion", kind="check",
    statement=r"\varepsilon=\xi+\rho+\sqrt{4\rho\log(\sqrt{\pi\rho}/\delta)};\ \text{or}\ \delta=e^{-(\varepsilon-\xi-\rho)^2/4\rho}"
              r"\min\left\{\frac{\sqrt{\pi\rho}}{1+(\varepsilon-\xi-\rho)/2\rho},\frac{1}{1+\frac{\varepsilon-\xi-\rho}{2\rho}"
              r"+\sqrt{(1+\frac{\varepsilon-\xi-\rho}{2\rho})^2+\frac4{\pi\rho}}}\right\},\ \varepsilon\ge\xi+\rho",
    check=cached_check(_l36), corrected=cached_check(_l36_corr),
    corrected_statement=r"\delta=e^{-(\varepsilon-\xi-\rho)^2/4\rho}\min\left\{\sqrt{\pi\rho},\frac{1}{1+a},\frac{2}{1+a+"
                        r"\sqrt{(1+a)^2+\frac4{\pi\rho}}}\right\}\quad\text{(corrected)}",
    where="Sec. 3.2, Lemma 3.6; App. B, Lemma B.2", seed=SEED, conventions=(FAMILIES, PROFILE),
    uses=("ZCDP-L3.5", "ZCDP-L3.6-EPS", "ZCDP-L3.6-DELTA", "ZCDP-L3.6-SUB2", "ZCDP-L3.6-SUB3"),
    notes="Each entry is audited alone (ZCDP-L3.6-OPT1..3) with the proof's corrected entries (-CORR); the first "
          "alternative alone is ZCDP-L3.6-EPS. Lemma B.2 prints the same minimum with a first entry 1. In the parse with "
          "the second entry as two rows the minimum is its last entry, so the lemma fails there exactly where "
          "ZCDP-L3.6-OPT3 fails; the corrected statement (the entries the proof derives) holds.")


def _l36_eps(dps):
    return _eps_bound(EPS_L36, L36_EPS_WHAT)


L36_EPS = Claim(
    id="ZCDP-L3.6-EPS", paper="zcdp", label=r"Lemma 3.6, first alternative (an $\varepsilon$ for every $\delta$)",
    kind="check", statement=r"(\varepsilon,\delta)\text{-DP},\ \varepsilon=\xi+\rho+\sqrt{4\rho\cdot\log(\sqrt{\pi\cdot\rho}/\delta)}",
    check=cached_check(_l36_eps), where="Sec. 3.2, Lemma 3.6", seed=SEED, conventions=(FAMILIES, PROFILE),
    uses=("ZCDP-L3.6-HFORM", "ZCDP-L3.6-T1", "ZCDP-L3.6-SUB1"),
    notes=r"'For all $\delta > 0$' as printed; the formula is real only for $\delta \le \sqrt{\pi\rho}$ (for larger "
          r"$\delta$ any $\varepsilon \ge \xi + \rho$ works, by the entry $\sqrt{\pi\rho}$ of the proof).")


# -- Lemma B.2's proof, step by step ------------------------------------------------------------------------------
def _l36_int_derive():
    return tail_integral(xi, rho, eps)


def _l36_int_numeric(v):
    x0, r, e = to_mpf(v["xi"]), to_mpf(v["rho"]), to_mpf(v["eps"])
    f = lambda z: mp.exp((e - z) - (z - x0 - r) ** 2 / (4 * r))  # noqa: E731
    peak = max(e, x0 - r)
    return mp.quad(f, [e, peak + 1, peak + 10 * mp.sqrt(r) + 10, mp.inf])


def _phic(t):
    return sp.erfc(t / sp.sqrt(2)) / 2


def _pt_check(pt):
    if not pt["eps"] >= pt["xi"] + pt["rho"]:
        raise ParameterError("Lemma B.2 needs eps >= xi + rho")


_XRE_POINTS = [{"xi": "0", "rho": "1/10", "eps": "1"}, {"xi": "1/2", "rho": "1", "eps": "3"},
               {"xi": "0", "rho": "1/1000", "eps": "1/10"}, {"xi": "2", "rho": "7/2", "eps": "10"},
               {"xi": "1/10", "rho": "3", "eps": "31/10"}, {"xi": "0", "rho": "20", "eps": "40"}]

L36_INT = Claim(
    id="ZCDP-L3.6-INT", paper="zcdp", role="proof", label="Lemma B.2's proof: the Gaussian integral of the tail bound", kind="identity",
    statement=r"\int_\varepsilon^\infty e^{\varepsilon-z}e^{-(z-\xi-\rho)^2/4\rho}dz=e^{\varepsilon-\xi}\cdot2\sqrt{\pi\rho}"
              r"\cdot\mathbb P\left[\mathcal N(0,1)>\frac{\varepsilon+\rho-\xi}{\sqrt{2\rho}}\right]",
    quantity=r"\int_\varepsilon^\infty e^{\varepsilon-z}e^{-(z-\xi-\rho)^2/4\rho}dz",
    params=[Param("xi", xi, "real", ()), Param.positive("rho", rho), Param.positive("eps", eps)], points=_XRE_POINTS,
    constraint=_pt_check, derive=_l36_int_derive,
    claimed=lambda: sp.exp(eps - xi) * 2 * sp.sqrt(sp.pi * rho) * _phic((eps + rho - xi) / sp.sqrt(2 * rho)),
    numeric=_l36_int_numeric, where="App. B, proof of Lemma B.2 (step iv)", seed=SEED,
    uses=("ZCDP-L3.6-DELTA", "ZCDP-L3.5-OPT"),
    conventions=(r"$\mathbb P[\mathcal N(0,1) > x] = \mathrm{erfc}(x/\sqrt 2)/2$; numeric: tanh-sinh quadrature of the "
                 "integrand",))


def _h(t):
    return _phic(t) * sp.sqrt(2 * sp.pi) * sp.exp(t**2 / 2)


L36_HFORM = Claim(
    id="ZCDP-L3.6-HFORM", paper="zcdp", role="proof", label="Lemma B.2's proof: the bound in terms of $h(x)$", kind="identity",
    statement=r"\delta\le\sqrt{2\rho}\cdot e^{-(\varepsilon-\xi-\rho)^2/4\rho}\cdot h\left(\sqrt{2\rho}+\frac{\varepsilon-\xi-\rho}"
              r"{\sqrt{2\rho}}\right),\ h(x)=\mathbb P[\mathcal N(0,1)>x]\sqrt{2\pi}e^{x^2/2}",
    quantity=r"\int_\varepsilon^\infty e^{\varepsilon-z}e^{-(z-\xi-\rho)^2/4\rho}dz",
    params=[Param("xi", xi, "real", ()), Param.positive("rho", rho), Param.positive("eps", eps)], points=_XRE_POINTS,
    constraint=_pt_check,
    claimed=lambda: sp.sqrt(2 * rho) * BASE * _h(sp.sqrt(2 * rho) + (eps - xi - rho) / sp.sqrt(2 * rho)),
    numeric=_l36_int_numeric, where="App. B, proof of Lemma B.2 (step v)", seed=SEED,
    uses=("ZCDP-L3.6-INT",),
    conventions=("the same integral as ZCDP-L3.6-INT (whose derivation it is), written with the Mills-type function $h$",))


def _tail_numeric(v):
    return mp.ncdf(-to_mpf(v["x"]))


_TAIL_SWEEP = [{"x": s} for s in ("1/1000", "1/100", "1/10", "1/2", "1", "2", "3", "5", "10", "30", "100")]


def _tail_claim(cid, label, stmt, bound):
    return Claim(
        id=cid, paper="zcdp", label=label, kind="upper", statement=stmt, quantity=r"\mathbb P[\mathcal N(0,1)>x]", role="proof",
        params=[Param.positive("x", x_, ("1/100", "1/2", "1", "3", "30"))], sweep=_TAIL_SWEEP,
        claimed=lambda: bound, numeric=_tail_numeric, search={"x": ("1/10000", "200")}, search_evals=80,
        where="App. B, proof of Lemma B.2 (step vi)", seed=SEED,
        conventions=(r"numeric: the standard normal tail $\Phi(-x)$ computed by mpmath (the probability itself)",))


L36_T1 = _tail_claim("ZCDP-L3.6-T1", r"Gaussian tail bound $\mathbb P[\mathcal N(0,1) > x] \le e^{-x^2/2}/2$ ($x \ge 0$)",
                     r"\mathbb P[\mathcal N(0,1)>x]\le\frac12e^{-x^2/2}", sp.exp(-x_**2 / 2) / 2)
L36_T2 = _tail_claim("ZCDP-L3.6-T2", r"Gaussian tail bound $\mathbb P[\mathcal N(0,1) > x] \le e^{-x^2/2}/(\sqrt{2\pi} x)$ "
                                     r"($x > 0$)",
                     r"\mathbb P[\mathcal N(0,1)>x]\le e^{-x^2/2}/\sqrt{2\pi}x", sp.exp(-x_**2 / 2) / (sp.sqrt(2 * sp.pi) * x_))
L36_T3 = _tail_claim("ZCDP-L3.6-T3", r"Gaussian tail bound of [Due10, Coo09, AS64 7.1.13] ($x \ge 0$)",
                     r"\mathbb P[\mathcal N(0,1)>x]\le e^{-x^2/2}\cdot2/(\sqrt{x^2+8/\pi}+x)\sqrt{2\pi}",
                     sp.exp(-x_**2 / 2) * 2 / ((sp.sqrt(x_**2 + 8 / sp.pi) + x_) * sp.sqrt(2 * sp.pi)))


@cached_derivation
def _substitution(which):
    """The proof's substitution of an upper bound on h into sqrt(2 rho) e^{-(eps-xi-rho)^2/4rho} h(x)."""
    t = sp.Symbol("t", positive=True)
    xx = sp.sqrt(2 * rho) + (eps - xi - rho) / sp.sqrt(2 * rho)
    bounds = {"1": sp.sqrt(sp.pi / 2), "2": 1 / t, "3": 2 / (sp.sqrt(t**2 + 8 / sp.pi) + t)}
    hb = bounds[which]
    record(Tex(r"h(t)"), hb, "the tail bound divided by $e^{-t^2/2}/\\sqrt{2\\pi}$", rel=r"\le")
    val = sp.sqrt(2 * rho) * hb.subs(t, xx)
    record(Tex(r"\sqrt{2\rho}\,h(x)"), val, "at $x = (\\varepsilon-\\xi+\\rho)/\\sqrt{2\\rho}$", rel=r"\le")
    with time_limit(60, "simplifying the substituted bound"):
        aa = sp.Symbol("a", nonnegative=True)
        v2 = sp.simplify(sp.radsimp(val.subs(eps, xi + rho + 2 * rho * aa)))
    record(Tex(r"\sqrt{2\rho}\,h(x)"), v2, "with $\\varepsilon = \\xi + \\rho + 2\\rho a$")
    return v2.subs(aa, (eps - xi - rho) / (2 * rho))


def _sub_numeric(which):
    def f(v):
        x0, r, e = to_mpf(v["xi"]), to_mpf(v["rho"]), to_mpf(v["eps"])
        t = (e - x0 + r) / mp.sqrt(2 * r)
        hb = {"1": mp.sqrt(mp.pi / 2), "2": 1 / t, "3": 2 / (mp.sqrt(t**2 + 8 / mp.pi) + t)}[which]
        return mp.sqrt(2 * r) * hb

    return f


L36_SUB2 = Claim(
    id="ZCDP-L3.6-SUB2", paper="zcdp", role="proof",
    label=r"Lemma B.2's proof: $h(x) \le 1/x$ gives $\delta \le e^{\dots}/(1 + a)$",
    kind="identity", statement=r"\sqrt{2\rho}\,h\!\left(\frac{\varepsilon-\xi+\rho}{\sqrt{2\rho}}\right)\Big|_{h\le1/x}"
                               r"=\frac{2\rho}{\varepsilon+\rho-\xi}=\frac{1}{1+(\varepsilon-\xi-\rho)/2\rho}",
    quantity=r"\sqrt{2\rho}/x", params=[Param("xi", xi, "real", ()), Param.positive("rho", rho), Param.positive("eps", eps)],
    points=_XRE_POINTS, constraint=_pt_check, derive=lambda: _substitution("2"), claimed=lambda: PROOF["2"],
    numeric=_sub_numeric("2"), where="App. B, proof of Lemma B.2", seed=SEED, uses=("ZCDP-L3.6-HFORM", "ZCDP-L3.6-T2"))

L36_SUB3 = Claim(
    id="ZCDP-L3.6-SUB3", paper="zcdp", role="proof",
    label=r"Lemma B.2's proof: the third tail bound gives $2/(1 + a + \sqrt{\dots})$",
    kind="identity", statement=r"\sqrt{2\rho}\cdot\frac{2}{\sqrt{x^2+8/\pi}+x}=\frac{2}{1+\frac{\varepsilon-\xi-\rho}{2\rho}"
                               r"+\sqrt{\left(1+\frac{\varepsilon-\xi-\rho}{2\rho}\right)^2+\frac{4}{\pi\rho}}}",
    quantity=r"\sqrt{2\rho}\cdot 2/(\sqrt{x^2+8/\pi}+x)",
    params=[Param("xi", xi, "real", ()), Param.positive("rho", rho), Param.positive("eps", eps)],
    points=_XRE_POINTS, constraint=_pt_check, derive=lambda: _substitution("3"), claimed=lambda: PROOF["3"],
    numeric=_sub_numeric("3"), where="App. B, proof of Lemma B.2", seed=SEED,
    uses=("ZCDP-L3.6-HFORM", "ZCDP-L3.6-T3"),
    notes="The proof's display has the numerator 2; the statements of Lemmas 3.6, B.2 and 8.8 print 1 (ZCDP-L3.6-OPT3).")


def _sub1_derive():
    val = _substitution("1")
    record(Tex(r"\delta"), val * BASE, "first tail bound: $h \\le \\sqrt{\\pi/2}$", rel=r"\le")
    sol = sp.solve(sp.Eq(val * BASE, delta), eps)
    sol = [s for s in sol if sp.simplify(s - xi - rho).is_positive is not False]
    sol = [s for s in sol if sp.N(s.subs({xi: 0, rho: sp.Rational(1, 10), delta: sp.Rational(1, 10**5)})) > sp.Rational(1, 10)]
    if len(sol) != 1:
        raise DerivationError(f"solving for eps: {sol}")
    out = sp.simplify(sol[0])
    record(Tex(r"\varepsilon"), out, "solved for $\\varepsilon \\ge \\xi + \\rho$")
    return out


def _sub1_root(xv, rv, dv):
    r"""The $\varepsilon \ge \xi + \rho$ with $\sqrt{\pi\rho}\,e^{-(\varepsilon - \xi - \rho)^2/4\rho} = \delta$ (bisection)."""
    g = lambda e: mp.log(mp.sqrt(mp.pi * rv)) - (e - xv - rv) ** 2 / (4 * rv) - mp.log(dv)  # noqa: E731 log(bound/delta)
    hi = optimize.expand_until(lambda t: not g(t) > 0, xv + rv + 1)
    hi, lo = optimize.bisection(lambda t: not g(t) > 0, hi, xv + rv)  # g decreases: at most 0 above the root
    return (lo + hi) / 2


def _sub1_numeric(v):
    return _sub1_root(to_mpf(v["xi"]), to_mpf(v["rho"]), to_mpf(v["delta"]))


def _sub1_point(pt):
    if not pt["delta"] < sp.sqrt(sp.pi * pt["rho"]):
        raise ParameterError("the first tail bound is below delta only for delta < sqrt(pi rho)")


SUB1_PRINTED = xi + rho + sp.sqrt(4 * rho * sp.log(sp.sqrt(sp.pi) * rho / delta))

L36_SUB1 = Claim(
    id="ZCDP-L3.6-SUB1", error_kind="typo", paper="zcdp", role="proof",
    label=r"Lemma B.2's proof: the first tail bound 'rearranges to' an $\varepsilon$",
    kind="identity", statement=r"\delta\le\sqrt{2\rho}e^{-(\varepsilon-\xi-\rho)^2/4\rho}\sqrt{\pi/2}\iff\varepsilon\le\xi+\rho"
                               r"+\sqrt{4\rho\cdot\log(\sqrt\pi\cdot\rho/\delta)}",
    quantity=r"\varepsilon:\ \sqrt{2\rho}\,e^{-(\varepsilon-\xi-\rho)^2/4\rho}\sqrt{\pi/2}=\delta",
    params=[Param("xi", xi, "real", ()), Param.positive("rho", rho), Param.unit("delta", delta)],
    points=[{"xi": "0", "rho": "1/10", "delta": "1/100000"}, {"xi": "1/2", "rho": "2", "delta": "1/100"},
            {"xi": "0", "rho": "7/2", "delta": "1/10000000000"}, {"xi": "1", "rho": "1", "delta": "1/1000"}],
    constraint=_sub1_point, derive=_sub1_derive, claimed=lambda: SUB1_PRINTED, numeric=_sub1_numeric,
    corrected=lambda: EPS_L36,
    corrected_statement=r"\varepsilon\le\xi+\rho+\sqrt{4\rho\log(\sqrt{\pi\rho}/\delta)}\quad\text{(the form of Lemma 3.6)}",
    where="App. B, proof of Lemma B.2", seed=SEED, uses=("ZCDP-L3.6-HFORM", "ZCDP-L3.6-T1"),
    conventions=(r"claimed: the printed form; derived: the bound solved for $\varepsilon$ (SymPy); numeric: bisection for "
                 r"the $\varepsilon \ge \xi + \rho$ with $\sqrt{\pi\rho}\,e^{-(\varepsilon - \xi - \rho)^2/4\rho} = \delta$; "
                 "corrected: the form of Lemma 3.6",),
    notes=r"The statement of Lemma 3.6 has $\sqrt{\pi\rho}$; the proof's display has $\sqrt\pi\,\rho$ (a typo in the "
          "proof). The corrected form is audited beside the printed one.")


DOM_RHOS = ("1/10000", "1/1000", "1/10", "1", "10", "1000")
DOM_AS = ("0", "1/10", "1", "10", "50", "1000")
_SYMS = {"xi": xi, "rho": rho, "eps": eps}


def _dominates(ents):
    r"""Evidence that the last entry is the smallest of ``ents`` on a grid of $(\rho, a)$ ($\xi = 0$): each other entry
    against the last, certified in Arb where it fails (closed forms)."""
    fs = [_num(e) for e in ents]

    def point(ra):
        r, a = ra
        rv = _q(r)
        e = rv + 2 * rv * _q(a)
        vals = [f(0, rv, e) for f in fs]
        pt = {"xi": sp.Integer(0), "rho": sp.Rational(r), "eps": sp.Rational(r) * (1 + 2 * sp.Rational(a))}
        return All(*[Compare(claimed=v, computed=vals[-1], rel="<=", at={"rho": r, "a": a},
                             what=f"the last entry against entry {i + 1}", closed=(ents[i], ents[-1], pt, _SYMS))
                     for i, v in enumerate(vals[:-1])])

    return sample(r"$\rho \in \{10^{-4}, 10^{-3}, 1/10, 1, 10, 1000\}$, $a \in \{0, 1/10, 1, 10, 50, 1000\}$, $\xi = 0$",
                  [(r, a) for r in DOM_RHOS for a in DOM_AS], point,
                  what="the last entry at most each of the others")


def _dom(dps):
    """'the last of three options in the minimum dominates the first two': which three options, in two parses of the
    printed text; while the engine re-audits against Lemma 3.6's corrected statement, the entries the proof derives."""
    used = as_used(None, [PROOF["sqrt"], PROOF["2"], PROOF["3"]])
    if used is not None:
        return _dominates(used)
    return Readings((r"the three entries Lemma B.2 prints: $1$, $\sqrt{\pi\rho}/(1 + a)$ and the last",
                     _dominates([PRINTED["1"], PRINTED["2"], PRINTED["3"]])),
                    (r"the three entries of Lemma 3.6's array read as stacked rows: $\sqrt{\pi\rho}$, $1/(1 + a)$ and the "
                     r"last as printed", _dominates([PROOF["sqrt"], PROOF["2"], PRINTED["3"]]),
                     r"seed 004 shows two entries in Lemma 3.6's array and three in Lemma B.2's; the sentence follows "
                     r"Lemma 3.6, whose first entry read as two stacked rows gives three options (ZCDP-L3.6-OPT2)"),
                    what="the last entry of the minimum against the others")


def _dom_corr(dps):
    """The remark with the options the proof of Lemma B.2 derives (the corrected Lemma 3.6)."""
    return _dominates([PROOF["sqrt"], PROOF["2"], PROOF["3"]])


L36_DOM = Claim(
    id="ZCDP-L3.6-DOM", paper="zcdp", label="Sec. 3.2: 'the last of three options in the minimum dominates the first two'",
    kind="check", statement=r"\text{the last of three options in the minimum dominates the first two options}",
    check=cached_check(_dom), corrected=cached_check(_dom_corr),
    corrected_statement=r"\text{the last of the options the proof of Lemma B.2 derives, }\frac{2}{1+a+\sqrt{(1+a)^2+\frac4"
                        r"{\pi\rho}}}\text{, is below }\sqrt{\pi\rho}\text{ and }\frac{1}{1+a}\quad\text{(corrected)}",
    where="Sec. 3.2, after Lemma 3.6", seed=SEED, role="remark", uses=("ZCDP-L3.6",),
    notes="Two parses of 'the three options': the entries Lemma B.2 prints (its minimum has three rows: 1, the fraction, "
          "the last), and Lemma 3.6's array with its first entry read as two stacked rows. With the numerator 2 the proof "
          "derives (the corrected Lemma 3.6), the last entry is below $1/(1 + a)$ (the root exceeds $1 + a$) and below "
          r"$\sqrt{\pi\rho}$ (the root exceeds $\sqrt{4/(\pi\rho)}$).")


def _delta_forms(dps):
    r"""Lemma B.2 step (ii): $\delta(\varepsilon) = \mathbb E[\max(0, 1 - e^{\varepsilon - Z})] = \int_\varepsilon^\infty
    e^{\varepsilon - z}\mathbb P[Z > z]\,dz \le \mathbb P[Z > \varepsilon]$, each side computed on its own."""
    rows, parts = [], []
    for key in ("normal:1/10", "normal:1", "spike:9/10:1/500000000", "rand:101:0", "rand:101:1"):
        z = _pair(key)
        for e in ("0", "1/2", "2"):
            ev = _q(e)
            prof = z.profile(ev)
            if z.kind == "finite":
                expect = mp.fsum(p * max(mp.mpf(0), -mp.expm1(ev - L)) for L, p, q in z._atoms() if p > 0 and q > 0) + \
                    mp.fsum(p for L, p, q in z._atoms() if q == 0 and p > 0)
                cuts = sorted({L for L, p, q in z._atoms() if mp.isfinite(L) and L > ev})
                integ = mp.quad(lambda t: mp.exp(ev - t) * z.tail(t), [ev] + cuts + [mp.inf]) if cuts else mp.mpf(0)
            else:
                P, Q = z.P, z.Q
                Lf = lambda y: P.mp_log_pdf(y) - Q.mp_log_pdf(y)  # noqa: E731
                root = (ev - Lf(0)) / (Lf(1) - Lf(0))  # the log-ratio is affine
                expect = mp.quad(lambda y: P.mp_pdf(y) * -mp.expm1(ev - Lf(y)), [-mp.inf, root - 10, root])
                integ = mp.quad(lambda t: mp.exp(ev - t) * z.tail(t), [ev, ev + 1, ev + 10, mp.inf])
            tail = z.tail(ev)
            at = dict(_pt(key), eps=e)
            parts.append(All(
                Compare(claimed=expect, computed=prof, at=at,
                        what=r"$\mathbb E[\max(0, 1 - e^{\varepsilon - Z})]$ against $\sup_S P(S) - e^\varepsilon Q(S)$"),
                Compare(claimed=integ, computed=prof, at=at,
                        what=r"$\int_\varepsilon^\infty e^{\varepsilon - z}\mathbb P[Z > z]\,dz$ against the profile"),
                Compare(claimed=tail, computed=prof, rel="<=", at=at,
                        what=r"the profile at most $\mathbb P[Z > \varepsilon]$")))
            rows.append([_label(key), f"${e}$", mp_str(prof, 8), mp_str(expect, 8), mp_str(integ, 8), mp_str(tail, 8)])
    node = sample(r"five pairs (Gaussian, spike, random finite) at $\varepsilon = 0, 1/2, 2$", parts, lambda g: g,
                  what="three expressions of the privacy profile and the tail")
    return Evidence(node, tables=[Table(
        "Lemma B.2, step (ii): three expressions of the privacy profile and the tail",
        ["pair", "$\\varepsilon$", "$\\sup_S P(S)-e^\\varepsilon Q(S)$", "$\\mathbb E[(1-e^{\\varepsilon-Z})_+]$",
         "$\\int_\\varepsilon^\\infty e^{\\varepsilon-z}\\mathbb P[Z>z]dz$", "$\\mathbb P[Z>\\varepsilon]$"], rows)])


L36_DELTA = Claim(
    id="ZCDP-L3.6-DELTA", paper="zcdp", role="proof",
    label=r"Lemma B.2's proof: $\delta = \mathbb E[\max(0, 1 - e^{\varepsilon - Z})]$ (integration by parts)",
    kind="check", statement=r"\delta=\mathbb E_Z[\max\{0,1-e^{\varepsilon-Z}\}]=\int_\varepsilon^\infty e^{\varepsilon-z}"
                            r"\mathbb P[Z>z]dz\le\mathbb P[Z>\varepsilon]",
    check=cached_check(_delta_forms), where="App. B, proof of Lemma B.2 (step ii)", seed=SEED, conventions=(PROFILE,))


# -- Section 1.1: the tail of the privacy loss and the DP characterisation ------------------------------------------
def _s11c_derive():
    lam_s = sp.Symbol("lambda", positive=True)
    _root, val = chernoff_exponent(xi, rho, lam_s + xi + rho)
    record(Tex(r"\mathbb P[Z>\lambda+\xi+\rho]"), sp.exp(sp.simplify(val)), "the optimal order is "
           "$\\alpha^* = 1 + \\lambda/2\\rho > 1$ for every $\\lambda > 0$", rel=r"\le")
    return sp.exp(sp.simplify(val))


def _s11c(dps):
    with recording():
        _s11c_derive()
    fams = {}
    for key, mode in _pair_keys(modes=("rho", "half")):
        x0, r0 = _params(key, mode, dps)
        for c in ("1/10", "1", "3", "10"):
            lv = _q(c) * mp.sqrt(r0) * 2
            fams.setdefault(_family_of(key), []).append(point(
                Instance(_family_of(key), f"{_label(key)} ({MODE[mode]}), $\\lambda = {_tex(c)} \\cdot 2\\sqrt\\rho$",
                         {"key": key, "xi": x0, "rho": r0, "lam": lv}),
                dict(_pt(key, x0, r0), **{"lambda": num(lv)})))

    def ev(inst):
        d = inst.data
        return _pair(d["key"]).tail(d["lam"] + d["xi"] + d["rho"]), mp.exp(-d["lam"] ** 2 / (4 * d["rho"]))

    return typed(bound_evidence("upper", fams, ev,
                          what=r"$\mathbb P[Z > \lambda + \xi + \rho] \le e^{-\lambda^2/4\rho}$ (the Chernoff exponent "
                               r"derived: the optimal order $1 + \lambda/2\rho$ lies in $(1, \infty)$ for every "
                               r"$\lambda > 0$; footnote 7's lower tail is the same bound for $Z' = "
                               r"\mathrm{PrivLoss}(M(x')\|M(x))$, and the random pairs cover both orders)",
                          quantity_name=r"$\mathbb P[Z > \lambda + \xi + \rho]$", bound_name=r"$e^{-\lambda^2/4\rho}$"))


S11C = Claim(
    id="ZCDP-S1.1c", paper="zcdp", label=r"Sec. 1.1: $\mathbb P[Z > \lambda + \xi + \rho] \le e^{-\lambda^2/4\rho}$",
    kind="check",
    statement=r"\mathbb P[Z>\lambda+\xi+\rho]\le e^{-\lambda^2/4\rho}\ \forall\lambda>0",
    check=cached_check(_s11c), derive=_s11c_derive, where="Sec. 1.1 and footnote 7", seed=SEED,
    conventions=(FAMILIES,), notes=r"The Gaussian shape of $Z$ (mean $\xi + \rho$, variance $2\rho$ for the Gaussian "
                                   "mechanism) is audited in ZCDP-P1.6-LOSS.")


def _s11b(dps):
    # (i) eps-DP iff P[Z > eps] = 0 (finite pairs: at eps = D_oo the pair is eps-DP and the tail is 0; just below D_oo it
    # is not, and the tail is positive)
    first = []
    for i, (_lab, z) in enumerate(random_finite_pairs(404, 6)):
        dinf = z.renyi(mp.inf)
        below = dinf * (1 - mp.mpf(10) ** -6)
        at, at_below = ({"pair": "random", "seed": "404", "index": str(i), "eps": num(v, 10)} for v in (dinf, below))
        first.append(All(
            Compare(claimed=0, computed=z.profile(dinf), at=at,
                    what=r"$\delta(D_\infty) = 0$: the pair is $D_\infty$-DP"),
            Compare(claimed=0, computed=z.tail(dinf), at=at, what=r"and $\mathbb P[Z > D_\infty] = 0$"),
            Compare(claimed=0, computed=z.profile(below), rel=">", at=at_below,
                    what=r"at $\varepsilon = D_\infty(1 - 10^{-6})$, $\delta(\varepsilon) > 0$: not $\varepsilon$-DP"),
            Compare(claimed=0, computed=z.tail(below), rel=">", at=at_below,
                    what=r"and $\mathbb P[Z > \varepsilon] > 0$")))
    # (ii) delta(eps) <= P[Z > eps]; (iii) P[Z > t] <= delta(eps)/(1 - e^{eps - t}) for t > eps
    second, third, rows = [], [], []
    for key in ("normal:1/100", "normal:1/2", "normal:5", "spike:9/10:1/500000000", "rand:404:0", "rand:404:1",
                "nxf:1/10:1/2"):
        z = _pair(key)
        for e in ("1/10", "1/2", "1", "3"):
            ev = _q(e)
            d, tl = z.profile(ev), z.tail(ev)
            second.append(Compare(claimed=tl, computed=d, rel="<=", at=dict(_pt(key), eps=e)))
            for dt in ("1/10", "1", "3"):
                t = ev + _q(dt)
                third.append(Compare(claimed=d / -mp.expm1(ev - t), computed=z.tail(t), rel="<=",
                                     at=dict(_pt(key), eps=e, t=str(sp.Rational(e) + sp.Rational(dt)))))
            if key.startswith("normal:1/2"):
                rows.append([_label(key), f"${e}$", mp_str(d, 10), mp_str(tl, 10), mp_str(tl / d if d else mp.inf, 6)])
    node = All(sample("six seeded random finite pairs", first, lambda g: g,
                      what=r"(i) $\varepsilon$-DP if and only if $\mathbb P[Z > \varepsilon] = 0$"),
               sample(r"seven pairs (Gaussian, spike, random finite, Gaussian times randomized response) at "
                      r"$\varepsilon = 1/10, 1/2, 1, 3$", second, lambda c: c,
                      what=r"(ii) $\delta(\varepsilon) \le \mathbb P[Z > \varepsilon]$"),
               sample(r"the same pairs and levels, $t - \varepsilon = 1/10, 1, 3$", third, lambda c: c,
                      what=r"(iii) $\mathbb P[Z > t] \le \delta(\varepsilon)/(1 - e^{\varepsilon - t})$ for $t > "
                           r"\varepsilon$"))
    return Evidence(node, tables=[Table(
        r"$(\varepsilon, \delta)$-DP against the tail $\mathbb P[Z > \varepsilon]$, Gaussian mechanism with $\rho = 1/2$",
        ["pair", "$\\varepsilon$", "$\\delta(\\varepsilon)$", "$\\mathbb P[Z>\\varepsilon]$", "ratio"], rows,
        "The 'small loss in parameters' of the text, quantified.")])


S11B = Claim(
    id="ZCDP-S1.1b", paper="zcdp",
    label=r"Sec. 1.1: $\varepsilon$-DP if and only if $\mathbb P[Z > \varepsilon] = 0$; $(\varepsilon, \delta)$-DP is "
          r"about $\mathbb P[Z > \varepsilon] \le \delta$",
    kind="check", statement=r"\varepsilon\text{-DP}\iff\mathbb P[Z>\varepsilon]=0;\ (\varepsilon,\delta)\text{-DP}\approx"
                            r"\mathbb P[Z>\varepsilon]\le\delta",
    check=cached_check(_s11b), where="Sec. 1.1", seed=SEED, conventions=(PROFILE,),
    notes="Qualitative; the two directions of the 'small loss in parameters' are the inequality of Lemma B.2's proof and "
          "the tail bound of Lemma B.3's proof.")


# -- Lemma 3.7 (the partial converse) -------------------------------------------------------------------------------
def _l37_hyp(z, rhat):
    """The smallest xi-hat with delta(xi_hat + sqrt(rhat log(1/delta))) <= delta for every delta in (0, 1):
    sup over eps of eps - sqrt(rhat log(1/delta(eps))) (clipped at 0), by a scan and golden section in eps."""
    if z.kind == "finite":
        top = z.renyi(mp.inf)
    else:
        top = None

    def g(e):
        d = z.profile(e)
        if d <= 0:
            return -mp.inf
        if d >= 1:
            return e
        return e - mp.sqrt(rhat * mp.log(1 / d))

    hi = top if top is not None else mp.mpf(60)
    grid = [hi * i / 200 for i in range(0, 200)]
    vals = [g(e) for e in grid]
    i = max(range(len(grid)), key=lambda j: vals[j])
    _e, top_g = golden_max(g, grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)], iters=80, reuse=False)
    return max(mp.mpf(0), vals[i], top_g)


@cached_numeric
def _renyi_cached(key, a, dps):
    return _pair(key).renyi(mp.mpf(a))


def _pt37(key) -> dict:
    """A pair of Lemma 3.7's instances as a typed point (a Gaussian by its standard deviation)."""
    kind, *a = key.split(":")
    if kind == "normal":
        return {"pair": "Gaussian", "sigma": num(mp.sqrt(1 / (2 * _q(a[0]))))}
    return {"pair": "spike", "w": a[0], "q": a[1]} if kind == "spike" else {"pair": "random", "seed": a[0], "index": a[1]}


L37_CASES = (("normal:1/100", "1/25"), ("normal:1/10", "2/5"), ("normal:1/4", "1"), ("spike:1/2:1/10000", "1/10"),
             ("spike:9/10:1/500000000", "1"), ("rand:505:0", "1/100"), ("rand:505:1", "1/10"), ("rand:505:2", "1"),
             ("rand:505:3", "1/2"))


def _l37(dps):
    fams, outside = {}, []
    for key, rh in L37_CASES:
        z = _pair(key)
        rv = _q(rh)
        xh = _l37_hyp(z, rv * (1 + mp.mpf(10) ** -30))
        if xh > 1:  # the lemma's hypothesis xi-hat in [0, 1] fails: not an instance of the lemma
            outside.append(rf"{_label(key)} ($\hat\xi \approx {mp_str(xh, 4)} > 1$)")
            continue
        xi_c = xh - rv / 4 + 5 * rv ** mp.mpf("0.25")
        for a in ("1.01", "2", "10", "100", "1000"):
            fams.setdefault(_family_of(key), []).append(point(
                Instance(_family_of(key), rf"{_label(key)}, $\hat\rho = {_tex(rh)}$, $\hat\xi \approx {mp_str(xh, 6)}$, "
                                          rf"$\alpha = {a}$",
                         {"key": key, "alpha": mp.mpf(a), "bound": xi_c + rv / 4 * mp.mpf(a)}),
                dict(_pt37(key), rho=rh, xi=num(xh), alpha=a)))

    def ev(inst):
        return _renyi_cached(inst.data["key"], mp_str(inst.data["alpha"], 20), mp.mp.dps), inst.data["bound"]

    conclusion = typed(bound_evidence(
        "upper", fams, ev,
        what=r"$D_\alpha \le (\hat\xi - \hat\rho/4 + 5\hat\rho^{1/4}) + \hat\rho\alpha/4$, with $\hat\xi$ the smallest value "
             r"for which hypothesis (4) holds, computed from the exact profile (at each point $\rho$ and $\xi$ stand for "
             r"$\hat\rho$ and $\hat\xi$)",
        quantity_name=r"$D_\alpha$", bound_name="the printed zCDP curve"))
    if outside:
        conclusion.note = "outside the hypothesis $\\hat\\xi \\le 1$ (left out): " + ", ".join(outside)
    # the proof's numeric steps
    rs = [sp.Rational(k, 100) for k in range(1, 101)]
    xs = [(x, y) for x in ("0", "3/10", "4") for y in ("0", "7/10", "3")]
    steps = All(
        sample(r"$r = k/100$, $k = 1, \dots, 100$", rs,
               lambda r: Compare(claimed=2 / to_mpf(r), computed=1 / -mp.expm1(-to_mpf(r)), rel="<=", at={"r": r}),
               what=r"$1/(1 - e^{-r}) \le 2/r$ on $r = \hat\rho^{1/4} \in (0, 1]$"),
        Compare(claimed=5, computed=1 + 2 * mp.sqrt(mp.pi), rel="<=", what=r"$1 + 2\sqrt\pi \le 5$"),
        sample(r"$x, \xi \in$ a grid of $[0, 4]$", xs,
               lambda p: Compare(claimed=mp.exp(_q(p[0]) + _q(p[1])), computed=1 + _q(p[0]) * mp.exp(_q(p[1])), rel="<=",
                                 at={"x": p[0], "xi": p[1]}),
               what=r"$1 + x e^\xi \le e^{x + \xi}$ for $x, \xi \ge 0$ ($e^{x+\xi} = e^\xi e^x \ge e^\xi(1 + x)$)"),
        what="the numeric steps of Lemma B.3's proof")
    return All(conclusion, steps, what=r"Lemma 3.7's conclusion for each pair and $\hat\rho$, and its proof's steps")


L37 = Claim(
    id="ZCDP-L3.7", paper="zcdp",
    label=r"Lemma 3.7 (= B.3): $(\varepsilon, \delta)$-DP for all $\delta$ with $\varepsilon = \hat\xi + "
          r"\sqrt{\hat\rho\log(1/\delta)}$ gives zCDP",
    kind="check", statement=r"\varepsilon=\hat\xi+\sqrt{\hat\rho\log(1/\delta)}\ \forall\delta\Rightarrow\left(\hat\xi-\tfrac14\hat\rho"
                            r"+5\sqrt[4]{\hat\rho},\tfrac14\hat\rho\right)\text{-zCDP},\ \hat\xi,\hat\rho\in[0,1]",
    check=cached_check(_l37), where="Sec. 3.2, Lemma 3.7; App. B, Lemma B.3", seed=SEED, conventions=(PROFILE,),
    notes=r"Instances: for a pair and a $\hat\rho$, $\hat\xi = \sup_\varepsilon \varepsilon - "
          r"\sqrt{\hat\rho\log(1/\delta(\varepsilon))}$ is the smallest value for which hypothesis (4) holds; the "
          r"conclusion is checked at orders 1.01 to 1000. The proof's end $e^{(\alpha-1)(\xi + (1 + 2\sqrt\pi)"
          r"\rho^{1/4} - \rho/4 + \rho\alpha/4)}$ has $1 + 2\sqrt\pi \approx 4.545 \le 5$.")


# -- approximate zCDP to DP (Section 8) ------------------------------------------------------------------------------
DELTA0 = ("0", "1/100")


def _approx_instances(a_grid=A_GRID):
    """delta0-approximate (xi, rho)-zCDP pairs: (1 - delta0) (P_E, Q_E) plus a bad outcome of mass delta0 for each law
    outside the other's support; P_E, Q_E from the families (both orders' rho*)."""
    fams = {}
    dps = mp.mp.dps
    keys = [(f"normal:{r}", "rho") for r in RHOS] + [(f"spike:{w}:{q}", "sym") for w, q in SPIKES] + \
        [(f"rand:101:{i}", "sym") for i in range(4)]
    for key, mode in keys:
        x0, r0 = _params(key, mode, dps)
        for d0 in DELTA0:
            for a in a_grid:
                av = _q(a)
                if r0 * av**2 > 400:
                    continue
                e = x0 + r0 + 2 * r0 * av
                fams.setdefault(_family_of(key), []).append(point(
                    Instance(_family_of(key), f"{_label(key)} ({MODE[mode]}), $\\delta_0 = {_tex(d0)}$, $a = {_tex(a)}$",
                             {"key": key, "xi": x0, "rho": r0, "eps": e, "a": a, "d0": _q(d0)}),
                    dict(_pt(key, x0, r0), delta=d0, a=a, eps=_eps_at(key, e, a))))
    return fams


def _approx_excess(inst):
    """``delta(eps) - delta0`` of the approximate pair, ``(1 - delta0) delta_E(eps)``: the bad outcome of P counts
    fully, Q's is never in ``{p > e^eps q}`` (computed as a product, never as a difference of nearly equal terms)."""
    d = inst.data
    return (1 - d["d0"]) * _exact_delta(inst)


def _approx_bound(entries_expr, what):
    """Evidence for ``delta(eps) <= delta0 + (1 - delta0) delta'``, compared as ``delta(eps) - delta0 <= (1 - delta0)
    delta'`` so that ``delta0`` does not swallow the digits of the comparison."""
    fn = _num(entries_expr)

    def ev(inst):
        d = inst.data
        dp = BASE_NUM(d["xi"], d["rho"], d["eps"]) * fn(d["xi"], d["rho"], d["eps"])
        return _approx_excess(inst), (1 - d["d0"]) * dp

    return typed(bound_evidence("upper", _approx_instances(), ev, what=what,
                                quantity_name=r"exact $\delta(\varepsilon) - \delta_0$",
                                bound_name=r"$(1 - \delta_0)\delta'$", certify=_certify_delta(BASE * entries_expr)))


def _l88(dps):
    used = as_used(None, B2_CORR_MIN)  # Lemma B.2's minimum (the proof's step) as printed, or corrected (ZCDP-L3.6)
    if used is not None:
        return _approx_bound(used, "the bound with the minimum of Lemma B.2 as corrected")
    return Readings((FUSED, _approx_bound(minimum(*PRINTED.values()), "the bound with the printed minimum")),
                    (ROWS, _approx_bound(two_rows(PRINTED["3"]), "the bound with the second entry as two rows"),
                     ROWS_SEEDS),
                    what="Lemma 8.8 in two parses of its minimum")


def _l88_corr(dps):
    return _approx_bound(minimum(PROOF["1"], PROOF["2"], PROOF["3"]), "the bound with the proof's entries")


L88_CORR_CHECK = cached_check(_l88_corr)
L88_CORR_STMT = (r"\delta'=e^{-(\varepsilon-\xi-\rho)^2/4\rho}\min\left\{1,\frac{1}{1+a},\frac{2}{1+a+\sqrt{(1+a)^2+"
                 r"\frac4{\pi\rho}}}\right\}\quad\text{(corrected)}")

APPROX_NOTE = (r"$\delta$-approximate instances: $P = (1 - \delta_0) P_E + \delta_0$ (a point outside $Q$'s support), $Q$ "
               r"likewise, with $(P_E, Q_E)$ zCDP in both orders (the events $E, E'$ of Def. 8.1 are the complements of "
               r"the bad points); the profile is $\delta_0 + (1 - \delta_0)\delta_E(\varepsilon)$, compared with the bound "
               r"after subtracting $\delta_0$ from both sides")

L88 = Claim(
    id="ZCDP-L8.8", paper="zcdp",
    label=r"Lemma 8.8: $\delta$-approximate $(\xi, \rho)$-zCDP gives $(\varepsilon, \delta + (1 - \delta)\delta')$-DP",
    kind="check",
    statement=r"(\varepsilon,\delta+(1-\delta)\delta')\text{-DP};\ \delta'=e^{-(\varepsilon-\xi-\rho)^2/4\rho}\min\{1,"
              r"\frac{\sqrt{\pi\rho}}{1+(\varepsilon-\xi-\rho)/2\rho},;\ \frac{1}{1+\frac{\varepsilon-\xi-\rho}{2\rho}+\sqrt{(1+"
              r"\frac{\varepsilon-\xi-\rho}{2\rho})^2+\frac{4}{\pi\rho}}}\}",
    check=cached_check(_l88), corrected=L88_CORR_CHECK, corrected_statement=L88_CORR_STMT,
    where="Sec. 8, Lemma 8.8", seed=SEED, conventions=(FAMILIES, PROFILE, APPROX_NOTE),
    uses=("ZCDP-L3.6", "ZCDP-L3.5"),
    notes="The minimum of Lemma B.2 as printed; its last display in the proof has the numerator 2 in the last entry. The "
          "corrected statement has the entries the proof of Lemma B.2 derives (also ZCDP-L8.8-CORR).")

L88_CORR = Claim(
    id="ZCDP-L8.8-CORR", paper="zcdp", role="proof", label="Lemma 8.8 with the entries the proof of Lemma B.2 derives", kind="check",
    statement=L88_CORR_STMT, check=L88_CORR_CHECK, where="Sec. 8, Lemma 8.8 (corrected)", seed=SEED,
    conventions=(FAMILIES, PROFILE, APPROX_NOTE), uses=("ZCDP-L3.6-OPT2-CORR", "ZCDP-L3.6-OPT3-CORR"))


def _l88_rho0(dps):
    fams = {}
    fam = r"random finite pairs ($\xi$ the larger $D_\infty$ of the two orders)"
    for i, (_lab, z) in enumerate(random_finite_pairs(808, 8)):
        x0 = max(z.renyi(mp.inf), ZPair.finite(z.Q, z.P).renyi(mp.inf))
        for d0 in ("0", "1/100", "1/10"):
            fams.setdefault(fam, []).append(point(
                Instance("random pair", f"{i} of seed 808, $\\delta_0 = {_tex(d0)}$", {"pair": z, "xi": x0, "eps": x0,
                                                                                      "d0": _q(d0)}),
                {"pair": "random", "seed": "808", "index": str(i), "delta": d0}))
    for e0 in ("1/10", "1", "3"):
        p = sp.exp(sp.Rational(e0)) / (1 + sp.exp(sp.Rational(e0)))
        z = ZPair.finite(Finite([0, 1], [p, 1 - p]), Finite([0, 1], [1 - p, p]), f"RR eps={e0}")
        for d0 in ("1/100", "1/2"):
            fams.setdefault(r"randomized response ($\xi = \varepsilon_0$)", []).append(point(
                Instance(r"$\mathrm{RR}$", f"$\\varepsilon_0 = {_tex(e0)}$, $\\delta_0 = {_tex(d0)}$",
                         {"pair": z, "xi": _q(e0), "eps": _q(e0), "d0": _q(d0)}),
                {"pair": "RR", "xi": e0, "delta": d0}))

    def ev(inst):
        d = inst.data
        return d["d0"] + (1 - d["d0"]) * d["pair"].profile(d["eps"]), d["d0"]

    return typed(bound_evidence("upper", fams, ev,
                                what=r"$\delta$-approximate $(\xi, 0)$-zCDP gives $(\xi, \delta)$-DP (the profile at "
                                     r"$\xi = D_\infty$ is 0: the bound is attained)",
                                quantity_name=r"exact $\delta(\xi)$", bound_name=r"$\delta$"))


L88_RHO0 = Claim(
    id="ZCDP-L8.8-RHO0", paper="zcdp",
    label=r"Lemma 8.8, $\rho = 0$: $\delta$-approximate $(\xi, 0)$-zCDP gives $(\xi, \delta)$-DP",
    kind="check", statement=r"\rho=0\Rightarrow(\xi,\delta)\text{-DP}", check=cached_check(_l88_rho0),
    where="Sec. 8, Lemma 8.8", seed=SEED, conventions=(APPROX_NOTE,))


# -- Corollaries 8.9-8.11: composition of (eps_i, delta_i)-DP mechanisms ----------------------------------------------
def _mtilde(e0, d0):
    """The pair (M~_{eps,delta}(0), M~_{eps,delta}(1)) of Def. 8.5 on the points (b, top), (1-b, top), (b, bot), (1-b, bot)."""
    e0, d0 = sp.sympify(e0), sp.sympify(d0)
    hi, lo = (1 - d0) * sp.exp(e0) / (1 + sp.exp(e0)), (1 - d0) / (1 + sp.exp(e0))
    P = Finite([0, 1, 2, 3], [d0, 0, hi, lo])
    Q = Finite([0, 1, 2, 3], [0, d0, lo, hi])
    return P, Q


@cached_numeric
def _comp_atoms(e0, d0, k, dps):
    P, Q = _mtilde(sp.Rational(e0), sp.Rational(d0))
    return [list(t) for t in compose_atoms(loss_atoms(P, Q), int(k))]


COMPS = (("1/100", "0", 1), ("1/10", "0", 1), ("1/10", "0", 10), ("1/10", "0", 50), ("1/2", "0", 1), ("1/2", "0", 4),
         ("1/2", "0", 16), ("1", "0", 1), ("1", "0", 3), ("1/10", "1/997", 10), ("1/2", "1/100", 4))


def _comp_instances(param="a"):
    """Compositions of ``k`` complete mechanisms ``M~(eps_i, delta_i)`` with ``rho = k eps_i^2/2``, at ``eps = rho + 2 rho
    a`` (``a >= 0``, Cor. 8.9) or ``eps = rho + 2 lambda sqrt(rho)`` (``lambda >= 0``, Cor. 8.10-8.11)."""
    fams = {}
    for e0, d0, k in COMPS:
        r = k * _q(e0) ** 2 / 2
        grid = ("0", "1/10", "1", "10", "50") if param == "a" else ("0", "1/10", "1/2", "1", "2", "3")
        for g in grid:
            gv = _q(g)
            if param == "a":
                if r * gv**2 > 400:
                    continue
                e = r + 2 * r * gv
            else:
                e = r + 2 * gv * mp.sqrt(r)
            fams.setdefault(r"compositions of $\tilde M(\varepsilon_i, \delta_i)$", []).append(
                Instance("composition", f"$k = {k}$, $\\varepsilon_i = {_tex(e0)}$, $\\delta_i = {_tex(d0)}$, "
                                        f"${'a' if param == 'a' else chr(92) + 'lambda'} = {_tex(g)}$",
                         {"e0": e0, "d0": d0, "k": k, "rho": r, "eps": e, "g": g, "param": param,
                          "at": {"k": str(k), "eps": e0, "delta": d0, ("a" if param == "a" else "lambda"): g}}))
    return fams


def _comp_parts(inst, eps_value=None):
    """The exact profile of the composition at ``eps`` in two parts, from its privacy-loss atoms: the mass of the
    outcomes outside ``Q``'s support (some component at ``(b, top)``), and the rest (every component at a bottom
    point: the composition of randomized response, weighted by ``prod(1 - delta_i)``)."""
    d = inst.data
    e = d["eps"] if eps_value is None else eps_value
    atoms = [tuple(t) for t in _comp_atoms(d["e0"], d["d0"], d["k"], mp.mp.dps)]
    outside = mp.fsum(p for _L, p, q in atoms if q == 0 and p > 0)
    return outside, delta_atoms([t for t in atoms if t[2] > 0], e)


def _comp_eps_exact(d):
    """``eps`` of a composition instance as an exact SymPy number."""
    r = d["k"] * sp.Rational(d["e0"]) ** 2 / 2
    g = sp.Rational(d["g"])
    return r + 2 * r * g if d["param"] == "a" else r + 2 * g * sp.sqrt(r)


def _rr_comp_delta(e0, k, e):
    """The exact profile at ``e`` of ``k`` randomized responses with parameter ``e0`` as a closed form: the sum over the
    outcomes with ``j`` flipped answers whose loss ``(k - 2j) e0`` exceeds ``e``."""
    p = sp.exp(e0) / (1 + sp.exp(e0))
    terms = [sp.binomial(k, j) * (p ** (k - j) * (1 - p) ** j - sp.exp(e) * (1 - p) ** (k - j) * p ** j)
             for j in range(k + 1) if sp.N((k - 2 * j) * e0 - e, 30) > 0]
    return sp.Add(*terms)


def _comp_certify(bound_of):
    """A certificate that ``bound_of(d)`` (a closed form) is below the composition's exact profile, both in Arb."""
    def cert(inst):
        d = inst.data
        e0, d0, k = sp.Rational(d["e0"]), sp.Rational(d["d0"]), d["k"]
        e = _comp_eps_exact(d)
        keep = (1 - d0) ** k
        exact = 1 - keep + keep * _rr_comp_delta(e0, k, e)
        c = certify_lt(bound_of(d, e), exact)
        return (c + rf" ($k = {k}$, $\varepsilon_i = {e0}$, $\delta_i = {d0}$, $\varepsilon = {sp.latex(e)}$; exact "
                    r"$\delta = 1 - \prod(1 - \delta_i) + \prod(1 - \delta_i)\,\delta_{\mathrm{RR}}^{(k)}(\varepsilon)$, "
                    r"the last a finite sum over the outcomes)") if c else None

    return cert


def _comp_bound(entries, what, param="a"):
    """Evidence for Cor. 8.9 / 8.10: ``delta(eps) <= 1 - (1 - delta') prod(1 - delta_i)`` on every composition
    instance, split without cancellation: the outcomes outside ``Q``'s support carry exactly ``1 - prod(1 - delta_i)``
    (an identity), so the bound holds if and only if the rest is at most ``delta' prod(1 - delta_i)``."""
    fn = _num(entries)

    def leaf(inst):
        d = inst.data
        keep = (1 - sp.Rational(d["d0"])) ** d["k"]
        outside, rest = _comp_parts(inst)
        dp = BASE_NUM(0, d["rho"], d["eps"]) * fn(0, d["rho"], d["eps"])
        at = dict(d["at"])
        return All(Compare(claimed=1 - keep, computed=outside, at=at,
                           what=r"the mass outside $Q$'s support equals $1 - \prod_i(1 - \delta_i)$"),
                   Compare(claimed=to_mpf(keep) * dp, computed=rest, rel="<=", at=at,
                           what=r"the rest of $\delta(\varepsilon)$ against $\delta'\prod_i(1 - \delta_i)$",
                           certify=lambda inst=inst: _comp_certify(
                               lambda dd, e: 1 - (1 - _at_point(BASE * entries, {xi: 0, rho: dd["k"] * sp.Rational(dd["e0"]) ** 2 / 2,
                                                                                eps: e}))
                               * (1 - sp.Rational(dd["d0"])) ** dd["k"])(inst)))

    insts = [i for fam in _comp_instances(param).values() for i in fam]
    return sample(r"compositions of $k$ complete mechanisms $\tilde M(\varepsilon_i, \delta_i)$ (Def. 8.5) at "
                  + (r"$\varepsilon = \rho + 2\rho a$" if param == "a" else r"$\varepsilon = \rho + 2\lambda\sqrt\rho$")
                  + r" (at each point, $\varepsilon$ and $\delta$ are each mechanism's $\varepsilon_i$ and $\delta_i$)",
                  insts, leaf, what=what)


def _c89(entries, what):
    def check(dps):
        return _comp_bound(entries, what)

    check.__qualname__ = "c89_" + "".join(ch for ch in what if ch.isalnum() or ch == " ").replace(" ", "_")[:30]
    return check


C89_ENTRIES = minimum(sp.Integer(1), PRINTED["2"], PROOF["3"])  # C8.9 prints the numerator 2 in its last entry
COMPNOTE = (r"each $M_i$ is the complete $(\varepsilon_i, \delta_i)$-DP mechanism $\tilde M$ of Def. 8.5 (randomized "
            r"response when $\delta_i = 0$); the composition's exact profile from the multinomial privacy-loss atoms")


C89_CORR_MIN = minimum(PROOF["1"], PROOF["2"], PROOF["3"])  # the entries the proof of Lemma B.2 derives


def _c89_readings(dps):
    used = as_used(None, B2_CORR_MIN)  # Lemma 8.8's minimum as printed, or corrected (ZCDP-L8.8)
    if used is not None:
        return _comp_bound(used, r"the exact $\delta$ of the composition at most the bound with Lemma 8.8 as corrected")
    return Readings((FUSED, _comp_bound(C89_ENTRIES, r"the exact $\delta$ of the composition at most the printed bound")),
                    (ROWS, _comp_bound(two_rows(PROOF["3"]), "the second entry as two rows"), ROWS_SEEDS),
                    what="Cor. 8.9 in two parses of its minimum")


C89_CORR_CHECK = cached_check(_c89(C89_CORR_MIN, r"the exact $\delta$ of the composition at most the corrected bound"))
C89_CORR_STMT = (r"\delta'=e^{-(\varepsilon-\rho)^2/4\rho}\min\left\{1,\frac{1}{1+\frac{\varepsilon-\rho}{2\rho}},"
                 r"\frac{2}{1+\frac{\varepsilon-\rho}{2\rho}+\sqrt{\cdots}}\right\}\quad\text{(corrected)}")

C89 = Claim(
    id="ZCDP-C8.9", paper="zcdp",
    label=r"Cor. 8.9: composition of $(\varepsilon_i, \delta_i)$-DP mechanisms through approximate zCDP", kind="check",
    statement=r"\left(\varepsilon,1-(1-\delta')\prod_i(1-\delta_i)\right)\text{-DP},\ \rho=\tfrac12\sum_i\varepsilon_i^2;\ "
              r"\delta'=e^{-(\varepsilon-\rho)^2/4\rho}\min\{1,\frac{\sqrt{\pi\rho}}{1+(\varepsilon-\rho)/2\rho},;\ "
              r"\frac{2}{1+\frac{\varepsilon-\rho}{2\rho}+\sqrt{(1+\frac{\varepsilon-\rho}{2\rho})^2+\frac4{\pi\rho}}}\}",
    check=cached_check(_c89_readings), corrected=C89_CORR_CHECK, corrected_statement=C89_CORR_STMT,
    where="Sec. 8, Cor. 8.9", seed=SEED, uses=("ZCDP-C8.7", "ZCDP-L8.2", "ZCDP-L8.8"),
    conventions=(COMPNOTE, r"$\varepsilon = \rho + 2\rho a$, $a$ on a grid"),
    notes=r"Two parses of the second entry of the printed array (one fraction, or two stacked rows $\sqrt{\pi\rho}$ and "
          r"$1/(1 + a)$, as in Lemma 3.6); the last entry has the numerator 2 here. The corrected statement has the "
          "entries the proof of Lemma B.2 derives (also ZCDP-C8.9-CORR).")

C89_CORR = Claim(
    id="ZCDP-C8.9-CORR", paper="zcdp", role="proof", label="Cor. 8.9 with the entries the proof of Lemma B.2 derives", kind="check",
    statement=C89_CORR_STMT, check=C89_CORR_CHECK,
    where="Sec. 8, Cor. 8.9 (corrected)", seed=SEED, conventions=(COMPNOTE,), uses=("ZCDP-C8.7", "ZCDP-L8.2", "ZCDP-L8.8-CORR"))


def _c810_derive():
    e = sp.Symbol("varepsilon", positive=True)  # C8.10's epsilon: rho = e^2
    sub = {rho: e**2, eps: e**2 + 2 * lam * e, xi: 0}
    out = []
    for name, ent in (("base", BASE), ("2", PRINTED["2"]), ("3", PROOF["3"])):
        v = sp.simplify(ent.subs(sub))
        out.append(v)
        record(Tex({"base": r"e^{-(\varepsilon'-\rho)^2/4\rho}", "2": r"\frac{\sqrt{\pi\rho}}{1+(\varepsilon'-\rho)/2\rho}",
                    "3": r"\frac{2}{1+\frac{\varepsilon'-\rho}{2\rho}+\sqrt{\cdots}}"}[name]), v,
               "$\\rho = \\varepsilon^2$, $\\varepsilon' = \\varepsilon^2 + 2\\lambda\\varepsilon$")
    printed = [sp.exp(-lam**2), sp.sqrt(sp.pi) * e / (1 + lam / e), 2 / (1 + lam / e + sp.sqrt((1 + lam / e) ** 2 + 4 / (sp.pi * e**2)))]
    for got, want in zip(out, printed):
        if sp.simplify(got - want) != 0:
            raise DerivationError(f"C8.10 is not C8.9 restated: {got} vs {want}")
    record(Tex(r"\text{Cor. 8.10}"), Tex(r"\text{Cor. 8.9 at }\rho=\varepsilon^2,\ \varepsilon'=\varepsilon^2+2\lambda\varepsilon"),
           "each factor simplifies to the printed one (SymPy)")
    return sp.Integer(1)


def _c810(dps):
    with recording():
        _c810_derive()
    what = (r"the composition at $\varepsilon^2 + 2\lambda\varepsilon$ (the restatement is exact, SymPy: each factor of "
            r"Cor. 8.9 at $\rho = \varepsilon^2$, $\varepsilon' = \varepsilon^2 + 2\lambda\varepsilon$)")
    used = as_used(None, C89_CORR_MIN)  # Cor. 8.9's minimum as printed, or corrected (ZCDP-C8.9)
    if used is not None:
        return _comp_bound(used, what + " with Cor. 8.9 as corrected", "lambda")
    return Readings((FUSED, _comp_bound(C89_ENTRIES, what, "lambda")),
                    (ROWS, _comp_bound(two_rows(PROOF["3"]), what, "lambda"), ROWS_SEEDS),
                    what=r"Cor. 8.10 in two parses of its minimum")


def _c810_corr(dps):
    return _comp_bound(two_rows(PROOF["3"]), r"the composition at $\varepsilon^2 + 2\lambda\varepsilon$ with the second "
                                             r"entry as two rows $\sqrt\pi\varepsilon$ and $1/(1 + \lambda/\varepsilon)$",
                       "lambda")


C810 = Claim(
    id="ZCDP-C8.10", paper="zcdp", label=r"Cor. 8.10: the restatement in $\lambda$", kind="check",
    statement=r"\left(\varepsilon^2+2\lambda\varepsilon,\ldots\right)\text{-DP},\ \delta'=e^{-\lambda^2}\min\left\{1,\frac{\sqrt\pi"
              r"\varepsilon}{1+\lambda/\varepsilon},\frac{2}{1+\frac\lambda\varepsilon+\sqrt{(1+\frac\lambda\varepsilon)^2+\frac4"
              r"{\pi\varepsilon^2}}}\right\}",
    check=cached_check(_c810), corrected=cached_check(_c810_corr),
    corrected_statement=r"\delta'=e^{-\lambda^2}\min\left\{1,\sqrt\pi\varepsilon,\frac{1}{1+\lambda/\varepsilon},\frac{2}{1+"
                        r"\frac\lambda\varepsilon+\sqrt{(1+\frac\lambda\varepsilon)^2+\frac4{\pi\varepsilon^2}}}\right\}"
                        r"\quad\text{(corrected)}",
    derive=_c810_derive, where="Sec. 8, Cor. 8.10", seed=SEED, conventions=(COMPNOTE,), uses=("ZCDP-C8.9",),
    notes=r"Cor. 8.9 restated at $\rho = \varepsilon^2$ (SymPy, in the derivation): the same two parses of the second "
          r"entry; the corrected statement reads it as two rows.")


def _c811_first(form):
    """Evidence for the first form of Cor. 8.11 with its first term read as ``form`` (``"sqrt(2 lambda)"`` as
    printed, or ``"sqrt(2) lambda"``): the whole profile against ``sqrt(pi/2)||eps||_2 e^{-lambda^2} + ||delta||_1``."""
    printed = form == "sqrt(2 lambda)"

    def eps_of(d):
        n2 = mp.sqrt(2 * d["rho"])  # ||eps||_2
        lm = _q(d["g"])
        return n2**2 / 2 + (mp.sqrt(2 * lm) if printed else mp.sqrt(2) * lm) * n2

    def closed_bound(d, _e):
        n = sp.sqrt(d["k"]) * sp.Rational(d["e0"])
        return sp.sqrt(sp.pi / 2) * n * sp.exp(-sp.Rational(d["g"]) ** 2) + d["k"] * sp.Rational(d["d0"])

    def leaf(inst):
        d = inst.data
        e = eps_of(d)
        outside, rest = _comp_parts(inst, e)
        n2 = mp.sqrt(2 * d["rho"])
        bound = mp.sqrt(mp.pi / 2) * n2 * mp.exp(-_q(d["g"]) ** 2) + d["k"] * _q(d["d0"])
        n = sp.sqrt(d["k"]) * sp.Rational(d["e0"])
        g = sp.Rational(d["g"])
        e_exact = n**2 / 2 + (sp.sqrt(2 * g) if printed else sp.sqrt(2) * g) * n
        dd = dict(d, param="exact")
        return Compare(claimed=bound, computed=outside + rest, rel="<=", at=dict(d["at"]),
                       certify=lambda dd=dd, e_exact=e_exact: _cert_c811(dd, e_exact, closed_bound))

    insts = [i for fam in _comp_instances("lambda").values() for i in fam]
    first = (r"$\frac12\lVert\varepsilon\rVert_2^2 + \sqrt{2\lambda}\lVert\varepsilon\rVert_2$" if printed else
             r"$\frac12\lVert\varepsilon\rVert_2^2 + \sqrt2\,\lambda\lVert\varepsilon\rVert_2$")
    return sample(r"compositions of $k$ complete mechanisms $\tilde M(\varepsilon_i, \delta_i)$ (Def. 8.5), $\lambda$ on a "
                  r"grid (at each point, $\varepsilon$ and $\delta$ are each mechanism's $\varepsilon_i$ and $\delta_i$)",
                  insts, leaf,
                  what=rf"the exact $\delta$ at $\varepsilon = $ {first} against $\sqrt{{\pi/2}}\lVert\varepsilon\rVert_2 "
                       r"e^{-\lambda^2} + \lVert\delta\rVert_1$")


def _cert_c811(d, e_exact, closed_bound):
    e0, d0, k = sp.Rational(d["e0"]), sp.Rational(d["d0"]), d["k"]
    keep = (1 - d0) ** k
    exact = 1 - keep + keep * _rr_comp_delta(e0, k, e_exact)
    c = certify_lt(closed_bound(d, e_exact), exact)
    return (c + rf" ($k = {k}$, $\varepsilon_i = {e0}$, $\delta_i = {d0}$, $\varepsilon = {sp.latex(e_exact)}$; exact "
                r"$\delta$ as a finite sum over the outcomes)") if c else None


def _c811_second_form():
    r"""The second form solved from the first (read with $\sqrt2\,\lambda$): $\delta' = \sqrt{\pi/2}\lVert\varepsilon
    \rVert_2 e^{-\lambda^2}$ solved for $\lambda$, against the printed second form (SymPy)."""
    n, dp = sp.symbols("n delta'", positive=True)
    sol = [s for s in sp.solve(sp.Eq(sp.sqrt(sp.pi / 2) * n * sp.exp(-lam**2), dp), lam) if s.is_positive is not False]
    if len(sol) != 1:
        raise DerivationError(f"solving the first form for lambda: {sol}")
    printed2 = sp.sqrt(2 * sp.log(sp.sqrt(sp.pi / 2) * n / dp)) * n
    return Compare(claimed=printed2, computed=sp.sqrt(2) * sol[0] * n,
                   what=r"the second form against the first at $\lambda = \sqrt{\log(\sqrt{\pi/2}\lVert\varepsilon\rVert_2"
                        r"/\delta')}$ (SymPy; real for $\delta' < \sqrt{\pi/2}\lVert\varepsilon\rVert_2$)")


def _c811_table():
    """Cor. 8.11's second form against the advanced composition theorem [DRV10], equal ``eps_i`` (display only)."""
    rows = []
    for e0, k, d in (("1/10", 100, "1/100000"), ("1/100", 1000, "1/100000"), ("1/2", 10, "1/1000000")):
        ev0, dv = _q(e0), _q(d)
        n2 = mp.sqrt(k) * ev0
        ours = n2**2 / 2 + mp.sqrt(2 * mp.log(mp.sqrt(mp.pi / 2) * n2 / dv)) * n2 if mp.sqrt(mp.pi / 2) * n2 > dv else None
        drv = mp.sqrt(2 * k * mp.log(1 / dv)) * ev0 + k * ev0 * mp.expm1(ev0)
        rows.append([f"${_tex(e0)}$", f"${k}$", f"${_tex(d)}$", mp_str(mp.sqrt(mp.pi / 2) * n2, 6),
                     "--" if ours is None else mp_str(ours, 8), mp_str(drv, 8)])
    return Table(
        r"Cor. 8.11 (second form) against the advanced composition theorem [DRV10], equal $\varepsilon_i$",
        ["$\\varepsilon_i$", "$k$", "$\\delta'$", "$\\sqrt{\\pi/2}\\lVert\\varepsilon\\rVert_2$", "Cor. 8.11", "[DRV10]"],
        rows, r"--: the second form is not real ($\delta' \ge \sqrt{\pi/2}\lVert\varepsilon\rVert_2$).")


def _c811_main(dps):
    r"""Cor. 8.11 as printed: the first form with $\sqrt{2\lambda}\lVert\varepsilon\rVert_2$, and the second form."""
    return Evidence(All(_c811_first("sqrt(2 lambda)"), _c811_second_form(),
                        what=r"Cor. 8.11 as printed (first term $\sqrt{2\lambda}\lVert\varepsilon\rVert_2$) and its second form"),
                    tables=[_c811_table()])


def _c811_corr(dps):
    r"""Cor. 8.11 corrected: the first form with $\sqrt2\,\lambda\lVert\varepsilon\rVert_2$ (what Cor. 8.10 gives at
    $\varepsilon = \lVert\varepsilon\rVert_2/\sqrt2$, and what the second form solves), and the second form."""
    return All(_c811_first("sqrt(2) lambda"), _c811_second_form(),
               what=r"Cor. 8.11 with the first term $\sqrt2\,\lambda\lVert\varepsilon\rVert_2$ and its second form")


C811 = Claim(
    id="ZCDP-C8.11", paper="zcdp", label="Cor. 8.11: the simpler composition bound", kind="check",
    statement=r"\left(\tfrac12\lVert\varepsilon\rVert_2^2+\sqrt{2\lambda}\lVert\varepsilon\rVert_2,\sqrt{\tfrac\pi2}\lVert"
              r"\varepsilon\rVert_2e^{-\lambda^2}+\lVert\delta\rVert_1\right)\text{-DP};\ \left(\tfrac12\lVert\varepsilon\rVert_2^2"
              r"+\sqrt{2\log(\sqrt{\pi/2}\lVert\varepsilon\rVert_2/\delta')}\lVert\varepsilon\rVert_2,\delta'+\lVert\delta\rVert_1"
              r"\right)\text{-DP}",
    check=cached_check(_c811_main), corrected=cached_check(_c811_corr), error_kind="typo",
    corrected_statement=r"\left(\tfrac12\lVert\varepsilon\rVert_2^2+\sqrt2\,\lambda\lVert\varepsilon\rVert_2,\sqrt{\tfrac\pi2}"
                        r"\lVert\varepsilon\rVert_2e^{-\lambda^2}+\lVert\delta\rVert_1\right)\text{-DP}\quad\text{(corrected)}",
    where="Sec. 8, Cor. 8.11 and the text around it", seed=SEED, conventions=(COMPNOTE,), uses=("ZCDP-C8.10",),
    notes=r"The printed first term $\sqrt{2\lambda}\lVert\varepsilon\rVert_2$ is unambiguous and false (the same slip as "
          r"$\sqrt\pi\,\rho$ for $\sqrt{\pi\rho}$ in ZCDP-L3.6-SUB1): a typo whose corrected statement, "
          r"$\sqrt2\,\lambda\lVert\varepsilon\rVert_2$, is what Cor. 8.10 gives (with $\varepsilon^2 = "
          r"\frac12\lVert\varepsilon\rVert_2^2$, $2\lambda\varepsilon = \sqrt2\,\lambda\lVert\varepsilon\rVert_2$) and what "
          "the corollary's second form solves; the second form as printed is consistent with it.")


# -- the table of conversions --------------------------------------------------------------------------------------
TABLE_RHOS = ("1/1000", "1/100", "1/10", "1/2", "1", "5")
TABLE_DELTAS = ("1/100000", "1/10000000000")


@cached_derivation
def _gauss_profile():
    from cbdp_sym.conversions import hockey_stick_sym
    from cbdp_sym.mechanisms import gaussian_mechanism

    s = sp.Symbol("sigma", positive=True)
    return s, hockey_stick_sym(*gaussian_mechanism(s, 1), eps)[0]


@cached_numeric
def _table_row(r, d, dps):
    rv, dv = _q(r), _q(d)
    s_sym, prof = _gauss_profile()
    f = sp.lambdify([eps, s_sym], prof, modules="mpmath")
    sig = 1 / mp.sqrt(2 * rv)
    from cbdp_sym.conversions import eps_from_profile

    exact = eps_from_profile(lambda e: f(e, sig), dv)
    exact_num = ZPair.normal(sp.sqrt(1 / (2 * sp.Rational(r))), 1).eps_at(dv)
    p13 = _num(EPS_P13, (rho, delta))(rv, dv)
    l36 = _num(EPS_L36, (xi, rho, delta))(0, rv, dv)
    l36 = l36 if isinstance(l36, mp.mpf) else mp.nan
    pr = _num(BASE * minimum(PRINTED["2"], PRINTED["3"]))
    co = _num(BASE * minimum(PROOF["1"], PROOF["2"], PROOF["3"]))
    printed = eps_from_profile(lambda e: pr(0, rv, e), dv, rv)  # (a bound decreasing in eps, inverted like a profile)
    corr = eps_from_profile(lambda e: co(0, rv, e), dv, rv)
    improved, _a = best_over_alpha(lambda a: eps_improved(rv * a, a, dv), include_inf=False)
    return [p13, l36, printed, corr, improved, exact, exact_num]


def _conv_table(dps):
    rows, cmps = [], []
    for r in TABLE_RHOS:
        for d in TABLE_DELTAS:
            p13, l36, printed, corr, improved, exact, exact_num = _table_row(r, d, mp.mp.dps)
            cmps.append(Compare(claimed=exact, computed=exact_num, at={"rho": r, "delta": d}))

            def cell(v):
                if not mp.isfinite(v):
                    return "n/a"
                return mp_str(v, 6) + (" (< exact)" if v < exact * (1 - mp.mpf(10) ** -(dps - 5)) else "")

            rows.append([f"${r}$", "$10^{-5}$" if d == "1/100000" else "$10^{-10}$", cell(p13), cell(l36), cell(printed),
                         cell(corr), cell(improved), mp_str(exact, 6)])
    node = over("cell", cmps, lambda c: c, domain=r"the table's 12 cells ($\rho$ from $1/1000$ to 5, $\delta = 10^{-5}, "
                                                   r"10^{-10}$)",
                what=r"the exact Gaussian $\varepsilon(\delta)$ from the derived privacy profile (the erfc closed form, "
                     "inverted) against the numeric profile")
    return Evidence(node, tables=[Table(
        r"$\varepsilon$ for a given $(\rho, \delta)$ from each lemma, beside the exact Gaussian mechanism ($\xi = 0$)",
        ["$\\rho$", "$\\delta$", "P1.3 / L3.5", "L3.6 first form", "L3.6 printed min", "B.2 proof's min", "RDP improved",
         "exact Gaussian"], rows,
        r"'printed min': the $\delta$ of the second form of Lemma 3.6 (its two printed entries) inverted for "
        r"$\varepsilon$; 'proof's min': the entries the proof of Lemma B.2 derives; 'RDP improved': the conversion of "
        r"Canonne, Kamath and Steinke optimised over the order; 'exact': the smallest $\varepsilon$ with "
        r"$\delta(\varepsilon) \le \delta$ for the Gaussian mechanism with $\rho = 1/(2\sigma^2)$; (< exact): below the "
        r"exact value, so not a valid $\varepsilon$ for the Gaussian mechanism (ZCDP-L3.6); n/a: the formula is not real "
        r"($\delta > \sqrt{\pi\rho}$).")])


CONV_TABLE = Claim(
    id="ZCDP-L3.6-TABLE", paper="zcdp", role="remark",
    label=r"Table: $\varepsilon$ for a given $(\rho, \delta)$ from each conversion beside the exact Gaussian",
    kind="check", statement=r"\varepsilon(\rho,\delta)\ \text{from Prop. 1.3, Lemmas 3.5, 3.6, B.2 and the exact Gaussian profile}",
    check=cached_check(_conv_table), where="Secs. 1.1, 3.2; App. B", seed=SEED, conventions=(PROFILE,),
    uses=("ZCDP-P1.3", "ZCDP-L3.5", "ZCDP-L3.6-EPS"),
    notes=r"An extra ID (a table of the conversions). A conversion below the exact Gaussian $\varepsilon$ is invalid for "
          r"the Gaussian mechanism, which is $\rho$-zCDP.")
