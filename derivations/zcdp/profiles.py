"""Bun-Steinke's zCDP -> (eps, delta) conversions (Prop. 1.3, Lemmas 3.5 and 3.6 / B.2) against the exact
eps(delta) of the basic mechanisms.

Each mechanism (Gaussian, Laplace, randomized response; sensitivity 1) is rho-zCDP with
``rho = sup_{alpha > 1} D_alpha / alpha`` (the Rényi curve derived by the engine; the supremum over a
scan in ``log(alpha - 1)`` refined by golden section, and the ``alpha -> 1`` end, KL, from the definition).
The conversions are the printed formulas (``xi = 0``): Prop. 1.3 = Lemma 3.5, Lemma 3.6's epsilon form,
and Lemma 3.6 / B.2's delta form (the minimum as printed, and with the entries the proof of B.2 derives),
turned into an epsilon by solving ``delta(eps) = delta`` for ``eps >= rho`` (an implicit quantity, bracketed).
Lemma 3.7 is the converse direction ((eps, delta)-DP for all delta gives zCDP) and has no slack here.
The exact ``eps(delta)``: the derived hockey-stick profile inverted, certified in Arb, cross-checked against
the quadrature / sum profile (:mod:`cbdp_sym.divergences.profiles`).

Every check returns evidence (:mod:`cbdp_sym.verify.evidence`): the engine decides the verdicts.
"""
import functools

import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Estimate, Evidence, sample
from cbdp_sym import Claim
from cbdp_sym.calculus import Implicit
from cbdp_sym.families import Curve, Figure
from cbdp_sym.conversions import best_over_alpha
from cbdp_sym.families import cached_check
from cbdp_sym.families import disk_cached_derivation as cached_derivation
from cbdp_sym.mechanisms import renyi_curve, renyi_numeric
from cbdp_sym.calculus import to_mpf
from cbdp_sym.conversions import mechanism_exact_eps, mechanism_pair, slack_table
from cbdp_sym.calculus import recording
from cbdp_sym.calculus import optimize

from ._shared import as_used, minimum

SEED = "004_f41028c8afd8f9e7.txt"
CASES = (("gaussian", "1"), ("gaussian", "4"), ("laplace", "1"), ("laplace", "8"), ("rr", "3/4"), ("rr", "7/8"))
DELTAS = ("1/100000", "1/10000000000")
rho = sp.Symbol("rho", positive=True)
eps = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", positive=True)
alpha = sp.Symbol("alpha", positive=True)

# the statements as printed (xi = 0)
A_ = (eps - rho) / (2 * rho)
ROOT = sp.sqrt((1 + A_) ** 2 + 4 / (sp.pi * rho))
BASE = sp.exp(-((eps - rho) ** 2) / (4 * rho))
EPS_P13 = rho + 2 * sp.sqrt(rho * sp.log(1 / delta))
EPS_L36 = rho + sp.sqrt(4 * rho * sp.log(sp.sqrt(sp.pi * rho) / delta))
DELTA_L36_PRINTED = BASE * minimum(sp.sqrt(sp.pi * rho) / (1 + A_), 1 / (1 + A_ + ROOT))
DELTA_B2_PROOF = BASE * minimum(1, 1 / (1 + A_), 2 / (1 + A_ + ROOT))
# each mechanism as a typed point (its kind and its parameter), each conversion by name (points print as mathematics)
MECH_POINT = {"gaussian": ("Gaussian", "sigma"), "laplace": ("Laplace", "lambda"), "rr": ("RR", "p")}
CONV_NAME = {"P1.3": "Prop. 1.3", "L3.6-EPS": "Lemma 3.6 (1)", "L3.6-DELTA": "Lemma 3.6 (2)",
             "B.2-PROOF": "Lemma B.2 (proof)"}  # Lemma 3.6's first (epsilon) and second (delta, as printed) forms


def _mech_point(mech, value) -> dict:
    kind, param = MECH_POINT[mech]
    return {"mechanism": kind, param: value}


CONVERSIONS = (("P1.3", "Prop. 1.3 = Lemma 3.5"), ("L3.6-EPS", "Lemma 3.6, $\\varepsilon$ form"),
               ("L3.6-DELTA", "Lemma 3.6, $\\delta$ form as printed"), ("B.2-PROOF", "Lemma B.2, entries of its proof"))


_PARAM = {"gaussian": sp.Symbol("sigma", positive=True), "laplace": sp.Symbol("lam", positive=True),
          "rr": sp.Symbol("p", positive=True)}


@cached_derivation
def _curves_sym():
    """The three mechanisms' Rényi curves derived once with their parameter a symbol."""
    with recording():
        return {m: renyi_curve(*mechanism_pair(m, s_)[1:], alpha) for m, s_ in _PARAM.items()}


@cached_derivation
def _curve(mech, value):
    """The curve at an exact parameter: the symbolic curve with the value substituted (one derivation for the six
    cases, where deriving each case took 2.7 s)."""
    return _curves_sym()[mech].subs(_PARAM[mech], sp.Rational(value))


def zcdp_rho(mech, value):
    """``sup_{alpha > 1} D_alpha / alpha`` of the mechanism, and where (``alpha = 1`` means the KL end)."""
    f = sp.lambdify(alpha, _curve(mech, value), modules="mpmath")
    neg, a_star = best_over_alpha(lambda a: -f(a) / a, include_inf=False, lo_t=-12)
    _l, P, Q = mechanism_pair(mech, sp.Rational(value))
    with mp.workdps(mp.mp.dps + 10):
        kl = renyi_numeric(P, Q, mp.mpf(1))
    return (kl, 1) if kl >= -neg else (-neg, a_star)


def _eps_from_delta_form(form, r, d):
    """The smallest eps >= rho with form(eps) <= delta (the form decreases in eps): an implicit root."""
    fn = sp.lambdify([eps, rho], form, modules="mpmath")
    g = lambda e: mp.log(fn(e, r)) - mp.log(d)  # noqa: E731
    if g(r) <= 0:
        return r
    hi = optimize.expand_until(lambda t: not g(t) > 0, r + 2 * mp.sqrt(r * mp.log(1 / d)) + 1)
    return Implicit.root_mp(g, (r, hi))


def _conversion(key, r, d):
    if key == "P1.3":
        return sp.lambdify([rho, delta], EPS_P13, modules="mpmath")(r, d)
    if key == "L3.6-EPS":
        if d >= mp.sqrt(mp.pi * r):  # the formula is not real there; any eps >= rho works (the entry sqrt(pi rho))
            return r
        return sp.lambdify([rho, delta], EPS_L36, modules="mpmath")(r, d)
    if key == "L3.6-DELTA":
        return _eps_from_delta_form(DELTA_L36_PRINTED, r, d)
    return _eps_from_delta_form(DELTA_B2_PROOF, r, d)


@functools.lru_cache(maxsize=4)
def _rows(dps):
    """Every (mechanism, delta, conversion) with its epsilon and the exact one (computed once per precision)."""
    out = []
    for mech, value in CASES:
        label = mechanism_pair(mech, sp.Rational(value))[0]
        r, a_star = zcdp_rho(mech, value)
        for dl in DELTAS:
            ex = mechanism_exact_eps(mech, value, dl)
            d = to_mpf(sp.Rational(dl))
            for key, name in CONVERSIONS:
                out.append({"label": label, "mech": mech, "value": value, "delta": dl, "key": key, "name": name,
                            "rho": r, "alpha": a_star, "eps": _conversion(key, r, d), "exact": ex})
    return out


def _delta_text(d):
    return "10^{-%d}" % round(-mp.log10(mp.mpf(sp.Rational(d))))


def _exact_value(ex, dps):
    r"""The exact $\varepsilon(\delta)$ with the digits its two computations (the derived profile inverted, the quadrature
    profile inverted) agree on: an :class:`Estimate` when fewer than the working precision."""
    dg = ex["digits"]
    if dg is None:
        return Estimate(ex["eps"], 1)
    return ex["eps"] if dg >= dps else Estimate(ex["eps"], int(dg))


def _profile_check(keys, what):
    def check(dps):
        # Lemma 3.6's delta form as printed, or (while the engine re-audits against the corrected Lemma 3.6) the
        # entries the proof of Lemma B.2 derives
        used = as_used(keys, tuple("B.2-PROOF" if k == "L3.6-DELTA" else k for k in keys))
        rows, leaves, tab = _rows(dps), [], []
        certified = 0
        for row in rows:
            ex = row["exact"]
            certified += bool(ex["certificate"]) and not str(ex["certificate"]).startswith("not certified")
            tab.append((row["label"] + f", $\\rho = {mp.nstr(row['rho'], 6)}$", _delta_text(row["delta"]), row["name"],
                        row["eps"], ex["eps"], ""))
            if row["key"] in used:
                leaves.append(Compare(claimed=row["eps"], computed=_exact_value(ex, dps), rel="<=",
                                      at=dict(_mech_point(row["mech"], row["value"]), delta=row["delta"],
                                              conversion=CONV_NAME[row["key"]])))
        note = ("$\\rho = \\sup_{\\alpha > 1} D_\\alpha/\\alpha$ of the mechanism ($\\xi = 0$); exact "
                "$\\varepsilon(\\delta)$: the derived profile inverted and the quadrature / sum profile inverted "
                f"({certified} of {len(rows)} roots certified in Arb); $\\delta$ forms turned into $\\varepsilon$ by "
                "solving $\\delta(\\varepsilon) = \\delta$ for $\\varepsilon \\ge \\rho$; rel. slack $= "
                "(\\varepsilon_{\\rm conv} - \\varepsilon)/\\varepsilon$")
        node = sample(r"six mechanisms (Gaussian, Laplace, randomized response; sensitivity 1) at $\delta = 10^{-5}$ "
                      r"and $10^{-10}$", leaves, lambda c: c,
                      what=what + r" at least the exact $\varepsilon(\delta)$ of the mechanism")
        return Evidence(node, tables=[slack_table(tab, "zCDP to $(\\varepsilon, \\delta)$: slack to the exact "
                                                       "$\\varepsilon(\\delta)$", note)])

    check.__qualname__ = "zcdp_profile_" + "_".join(keys).replace(".", "")
    return cached_check(check)


MECH_CONV = (r"mechanisms at sensitivity 1 (Gaussian of standard deviation $\sigma$, Laplace of scale $\lambda$, "
             r"randomized response $\mathrm{RR}_p$), $\rho = \sup_{\alpha > 1} D_\alpha/\alpha$")

P13_PROFILE = Claim(
    id="ZCDP-P1.3-PROFILE", after=("RDP-P3-PROFILE",), paper="zcdp",
    label=r"Prop. 1.3 (= Lemma 3.5, $\xi = 0$) against the exact privacy profile",
    kind="check",
    statement=r"\rho\text{-zCDP}\Rightarrow\varepsilon=\rho+2\sqrt{\rho\log(1/\delta)}\ \ge\ \varepsilon(\delta)"
              r"=\min\{\varepsilon:\sup_SP(S)-e^\varepsilon Q(S)\le\delta\}",
    check=_profile_check(("P1.3",), r"Prop. 1.3's $\varepsilon = \rho + 2\sqrt{\rho\log(1/\delta)}$ is"),
    where="Sec. 1.1, Prop. 1.3; Sec. 3.2, Lemma 3.5", seed=SEED, role="remark", uses=("ZCDP-P1.3", "ZCDP-L3.5"),
    conventions=(MECH_CONV, r"exact $\varepsilon(\delta)$: the derived hockey-stick profile inverted and certified in "
                            "Arb, beside the quadrature / sum profile inverted"),
    notes="An extra ID: the slack of each zCDP conversion to the exact $\\varepsilon(\\delta)$.")

L36_PROFILE = Claim(
    id="ZCDP-L3.6-PROFILE", paper="zcdp", label="Lemma 3.6 / B.2 (both forms) against the exact privacy profile",
    kind="check",
    statement=r"\varepsilon=\rho+\sqrt{4\rho\log(\sqrt{\pi\rho}/\delta)};\ \delta=e^{-(\varepsilon-\rho)^2/4\rho}"
              r"\min\{\ldots\}\ \text{as printed}\ \Rightarrow\ \varepsilon\ge\varepsilon(\delta)",
    check=_profile_check(("L3.6-EPS", "L3.6-DELTA"), r"the $\varepsilon$ of Lemma 3.6 (both forms as printed) is"),
    where="Sec. 3.2, Lemma 3.6; App. B, Lemma B.2",
    seed=SEED, role="remark", uses=("ZCDP-L3.6", "ZCDP-L3.6-EPS"),
    conventions=(MECH_CONV, r"the $\delta$ form inverted for $\varepsilon \ge \rho$"),
    notes="An extra ID. The table also shows Lemma B.2 with the entries its proof derives (ZCDP-L3.6-OPT*-CORR).")


# -- the figure: each conversion's eps(delta) against the exact one, as delta goes to 0 ------------------
FIG_DELTAS = ("1e-1", "1e-2", "1e-3", "1e-4", "1e-6", "1e-8", "1e-10", "1e-12")
FIG_MECHS = (("gaussian", "1", "Gaussian mechanism, $\\sigma = 1$"), ("laplace", "1", "Laplace mechanism, $\\lambda = 1$"))
FIG_DPS = 25
FIG_STYLES = {"P1.3": "dashed", "L3.6-EPS": "dotted", "L3.6-DELTA": "dashdotted", "B.2-PROOF": "densely dotted"}


def _fig_delta(x):
    return str(sp.Rational(x))  # "1e-5" -> "1/100000": the exact delta (and the key of the cached exact eps)


def exact_eps_point(mech, value, x):
    """The exact eps(delta) from the definition: the root of the quadrature profile (mechanism_exact_eps also
    inverts the derived profile and certifies it; the figure's check compares the two)."""
    return mechanism_exact_eps(mech, value, _fig_delta(x))["numeric"]


def conversion_point(mech, value, x, key):
    r, _a = zcdp_rho(mech, value)
    return _conversion(key, r, mp.mpf(sp.Rational(x)))


def _conv_figure(mech, value, name):
    curves = [Curve("exact", "exact $\\varepsilon(\\delta)$ (profile)", lambda x: exact_eps_point(mech, value, x),
                    "computed", "thick")]
    for key, label in CONVERSIONS:
        curves.append(Curve(key.replace(".", "").replace("-", "").lower(), label,
                            (lambda k: lambda x: conversion_point(mech, value, x, k))(key),
                            "computed" if key == "B.2-PROOF" else "printed", FIG_STYLES[key]))
    return Figure(
        id=f"ZCDP-CONV-FIG-{mech.upper()}", paper="zcdp", title=f"zCDP to $(\\varepsilon, \\delta)$: {name}",
        caption=("The $\\varepsilon(\\delta)$ of Prop. 1.3 (= Lemma 3.5), Lemma 3.6 (both forms as printed; the $\\delta$ "
                 "form inverted for $\\varepsilon \\ge \\rho$) and Lemma B.2 with the entries of its proof, at "
                 "$\\rho = \\sup_{\\alpha > 1} D_\\alpha/\\alpha$ of the mechanism ($\\xi = 0$), against the exact "
                 "$\\varepsilon(\\delta)$: the root of the privacy profile $\\delta(\\varepsilon) = E_Q[(dP/dQ - "
                 "e^\\varepsilon)_+]$ computed by quadrature from the densities (sensitivity 1). A conversion is sound "
                 "where its curve lies above the exact one."),
        xlabel="$\\delta$", ylabel="$\\varepsilon(\\delta)$ (privacy parameter)", xs=FIG_DELTAS, dps=FIG_DPS,
        where="Sec. 3.2, Lemmas 3.5, 3.6", axis="xmode=log, x dir=reverse, ymin=0, legend pos=south east", cost=3.0, curves=curves)


CONV_FIGS = [_conv_figure(m, v, n) for m, v, n in FIG_MECHS]
CONV_FIG_GAUSSIAN, CONV_FIG_LAPLACE = CONV_FIGS


_curve_key = {key.replace(".", "").replace("-", "").lower(): key for key, _label in CONVERSIONS}


def _figure_check(dps):
    r"""Every conversion curve lies at or above the exact curve at every $\delta$ of the figures; the exact curve (the
    quadrature profile's root) agrees with the certified root of the derived profile.  The figures' points are
    computed at :data:`FIG_DPS` working digits: by the engine's rule (numerics at ``dps + 10`` establish ``dps``),
    they establish ``FIG_DPS - 10``."""
    est = FIG_DPS - 10
    refs, above = [], []
    # every conversion curve, with Lemma 3.6's printed delta form left out while the engine re-audits against the
    # corrected Lemma 3.6 (whose entries are the curve of Lemma B.2's proof, compared as well)
    skip = as_used((), ("l36delta",))
    for (mech, value, _name), fig in zip(FIG_MECHS, CONV_FIGS):
        d = fig.data()
        for i, x in enumerate(fig.xs):
            with mp.workdps(FIG_DPS):
                ex = mechanism_exact_eps(mech, value, _fig_delta(x))
            exact = Estimate(d["exact"][i][1], est)
            at = dict(_mech_point(mech, value), delta=_fig_delta(x))
            refs.append(Compare(claimed=exact, computed=Estimate(ex["eps"], est), at=at, needs=est))
            for c in fig.curves:
                if c.key != "exact" and c.key not in skip:
                    above.append(Compare(claimed=Estimate(d[c.key][i][1], est), computed=exact, rel="<=",
                                         at=dict(at, curve=CONV_NAME[_curve_key[c.key]])))
    span = r"$\delta \in \{10^{-1}, 10^{-2}, 10^{-3}, 10^{-4}, 10^{-6}, 10^{-8}, 10^{-10}, 10^{-12}\}$"
    return All(sample(span + " of both figures", refs, lambda c: c,
                      what=r"the exact curve (the quadrature profile's root) against the certified root of the derived "
                           "profile"),
               sample(span + " of both figures, every conversion", above, lambda c: c,
                      what=r"every conversion's $\varepsilon(\delta)$ at or above the exact $\varepsilon(\delta)$"),
               what=r"the conversions of Prop. 1.3 and Lemma 3.6 / B.2 against the exact $\varepsilon(\delta)$ of the "
                    "Gaussian and Laplace mechanisms")


CONV_FIGURE = Claim(
    id="ZCDP-CONV-FIGURE", paper="zcdp", label=r"Prop. 1.3, Lemma 3.6 / B.2 above the exact $\varepsilon(\delta)$ (figure)",
    kind="check",
    statement=r"\varepsilon_{\rm conv}(\delta)\ \ge\ \varepsilon(\delta)\ \text{for}\ \delta\in[10^{-12},10^{-1}]"
              r"\ \text{(Gaussian, Laplace)}",
    check=cached_check(_figure_check), figures=tuple(CONV_FIGS), where="Sec. 1.1, Prop. 1.3; Sec. 3.2, Lemma 3.6",
    seed=SEED, role="remark", uses=("ZCDP-P1.3", "ZCDP-L3.6"),
    conventions=(r"mechanisms at sensitivity 1: $\mathcal N(0, 1)$ against $\mathcal N(1, 1)$, $\Lambda(0, 1)$ against "
                 r"$\Lambda(1, 1)$; $\rho = \sup_\alpha D_\alpha/\alpha$, $\xi = 0$",
                 f"figure points at {FIG_DPS} working digits ({FIG_DPS - 10} established); exact "
                 "$\\varepsilon(\\delta)$: the quadrature profile's root, compared with the certified root of the derived "
                 "profile"),
    notes=r"An extra ID: the figure of how loose each conversion from zCDP to $(\varepsilon, \delta)$-DP is.")
