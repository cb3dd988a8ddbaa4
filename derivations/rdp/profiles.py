"""Mironov's Prop. 3 (and the improved conversion) against the exact eps(delta) of the basic mechanisms.

For the Gaussian, Laplace and randomized-response mechanisms (sensitivity 1) at two deltas, the exact
``eps(delta)`` is the root of the privacy profile ``delta(eps) = E_Q[(dP/dQ - e^eps)_+]``: the profile is
derived with the engine (the hockey-stick generator split where the likelihood ratio crosses ``e^eps``),
inverted at the working precision, certified in Arb, and cross-checked against the root of the
quadrature / sum profile computed from the densities.  Each conversion is evaluated on the engine-derived
Rényi curve (Table II, audited in RDP-P5/P6/P7) and optimised over the order; the relative slack
``(eps_conv - eps_exact)/eps_exact`` says how loose it is.  The peers' epsilons (autodp's continuous
optimisation, dp_accounting's RDP accountant with its default orders and its PLD accountant) are in the same
table with their relative error against the exact value.
"""
import functools

import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Estimate, Evidence, over
from cbdp_sym import Claim
from cbdp_sym.families import Curve, Figure
from cbdp_sym import peers
from cbdp_sym.conversions import eps_from_curve
from cbdp_sym.families import cached_check
from cbdp_sym.families import disk_cached_derivation as cached_derivation
from cbdp_sym import max_divergence
from cbdp_sym.mechanisms import curve_function, renyi_curve
from cbdp_sym.conversions import mechanism_exact_eps, mechanism_pair, slack_table
from cbdp_sym.symbols import alpha, lam, sigma
from cbdp_sym.calculus import recording

SEED = "003_e6980684d37f3439.txt"
CASES = (("gaussian", "1"), ("gaussian", "4"), ("laplace", "1"), ("laplace", "8"), ("rr", "3/4"), ("rr", "7/8"))
DELTAS = ("1/100000", "1/10000000000")
PEER_METHODS = (("autodp", "prop3", "autodp, Prop. 3"), ("autodp", "bbghs", "autodp, improved"),
                ("dp_accounting", "rdp", "dp_accounting RDP"), ("dp_accounting", "pld", "dp_accounting PLD"))


_PARAM = {"gaussian": sigma, "laplace": lam, "rr": sp.Symbol("p", positive=True)}


@cached_derivation
def _curves_sym():
    """The three mechanisms' Rényi curves derived once with their parameter a symbol (Table II's forms)."""
    with recording():
        return {m: renyi_curve(*mechanism_pair(m, s_)[1:], alpha) for m, s_ in _PARAM.items()}


@cached_derivation
def _curve(mech, value):
    """The curve of a mechanism at an exact parameter: the symbolic curve with the value substituted (one derivation
    for the six cases: 1 s, where deriving each case took 2.7 s), and its ``D_oo`` derived at the value."""
    _l, P, Q = mechanism_pair(mech, sp.Rational(value))
    c = _curves_sym()[mech].subs(_PARAM[mech], sp.Rational(value))
    with recording():
        top = max_divergence(P, Q)[0]  # the order alpha = oo (pure DP)
    return c, top


def _curve_fn(mech, value):
    c, top = _curve(mech, value)
    f = sp.lambdify(alpha, c, modules="mpmath")
    inf = mp.inf if top == sp.oo else sp.N(top, mp.mp.dps + 5)

    def curve(a):
        if a == mp.inf:
            return mp.mpf(inf) if inf != mp.inf else mp.inf
        return f(a)

    return curve


@functools.lru_cache(maxsize=None)
def _curve_float(mech, value):
    """The derived curve in binary64 at finite orders (log-sum-exp form, :func:`curve_function`): it only locates the
    optimal order of a conversion (:func:`eps_from_curve`'s ``locate``); the value is the curve's at the working
    precision."""
    c, _top = _curve(mech, value)
    return curve_function(c, [alpha], "math")


def _delta_short(d):
    return "1e-%d" % round(-mp.log10(mp.mpf(sp.Rational(d))))


def _delta_text(d):
    return "10^{-%d}" % round(-mp.log10(mp.mpf(sp.Rational(d))))


def _check(dps):
    rows, exact_ev, prop3_ev = [], [], []
    have_peers = all(peers.available(lib) for lib in ("autodp", "dp_accounting"))
    for mech, value in CASES:
        label = mechanism_pair(mech, sp.Rational(value))[0]
        curve = _curve_fn(mech, value)
        for d in DELTAS:
            ex = mechanism_exact_eps(mech, value, d)
            exact = ex["eps"]
            at = {"mechanism": label, "delta": _delta_short(d)}
            # the exact eps(delta) twice: the root of the derived profile and the root of the quadrature profile
            exact_ev.append(Compare(claimed=exact, computed=ex["numeric"], at=at))
            dd = mp.mpf(sp.Rational(d))
            for method, name in (("mironov", "Prop. 3, $\\min_\\alpha$"), ("improved", "improved (CKS), $\\min_\\alpha$")):
                val, a_star = eps_from_curve(curve, dd, method=method, locate=_curve_float(mech, value))
                rows.append((label, _delta_text(d), name, val, exact, ""))
                if method == "mironov":
                    prop3_ev.append(Compare(claimed=exact, computed=val, rel=">=", at=at))
            if have_peers:
                for lib, meth, name in PEER_METHODS:
                    par = {"gaussian": "std", "laplace": "scale", "rr": "p"}[mech]
                    pv = peers.eps_accountant(lib, meth, mech, float(dd), **{par: float(sp.Rational(value))})
                    if pv.error is not None:
                        rows.append((label, _delta_text(d), name, None, exact, "error: " + pv.error[:40]))
                        continue
                    rows.append((label, _delta_text(d), name, mp.mpf(pv.value), exact, ""))
    note = ("exact $\\varepsilon(\\delta)$: the root of the derived profile $\\delta(\\varepsilon) = E_Q[(dP/dQ - "
            "e^\\varepsilon)_+]$ (certified in Arb) and of the quadrature profile; conversions on the derived Rényi "
            "curve, optimised over $\\alpha \\in (1, \\infty]$; rel. slack $= (\\varepsilon_{\\rm conv} - "
            "\\varepsilon)/\\varepsilon$; peers at binary64 (dp_accounting: default orders or PLD discretisation; "
            "autodp: continuous order)" + ("" if have_peers else "; peer libraries not installed"))
    cases = r"the six mechanisms at $\delta = 10^{-5}, 10^{-10}$"
    return Evidence(
        All(over("case", exact_ev, lambda c: c, domain=cases,
                 what=r"the exact $\varepsilon(\delta)$: the derived profile's root against the quadrature profile's"),
            over("case", prop3_ev, lambda c: c, domain=cases,
                 what=r"Prop. 3 optimised over $\alpha$ at least the exact $\varepsilon(\delta)$"),
            what=r"Prop. 3 against the exact privacy profile"),
        tables=[slack_table(rows, "RDP to $(\\varepsilon, \\delta)$: slack to the exact $\\varepsilon(\\delta)$", note)])


P3_PROFILE = Claim(
    id="RDP-P3-PROFILE", role="remark", uses=("RDP-P3",), cost=40, paper="rdp", label="Prop. 3 against the exact privacy profile: the slack of each conversion",
    kind="check",
    statement=r"\varepsilon_{\rm Prop.3}(\delta)=\min_\alpha D_\alpha+\frac{\log1/\delta}{\alpha-1}\ \ge\ "
              r"\varepsilon(\delta)=\min\{\varepsilon:\sup_S P(S)-e^\varepsilon Q(S)\le\delta\}",
    check=cached_check(_check), where="Sec. IV, Prop. 3; Sec. VII", seed=SEED,
    conventions=(r"mechanisms at sensitivity 1: Gaussian $\mathcal{N}(0, \sigma^2)$ against $\mathcal{N}(1, \sigma^2)$, "
                 r"Laplace $\Lambda(0, \lambda)$ against $\Lambda(1, \lambda)$, $\mathrm{RR}_p$ (the pair is symmetric: "
                 r"$\delta_{PQ} = \delta_{QP}$)",
                 r"exact $\varepsilon(\delta)$: the derived hockey-stick profile inverted and certified, and the "
                 "quadrature profile inverted"),
    notes=r"An extra ID: how loose each conversion from RDP to $(\varepsilon, \delta)$-DP is, and the peers' values, "
          r"against the exact $\varepsilon(\delta)$.")


# -- the figure: each conversion's eps(delta) against the exact one, as delta goes to 0 ------------------
FIG_DELTAS = ("1e-1", "1e-2", "1e-3", "1e-4", "1e-6", "1e-8", "1e-10", "1e-12")
FIG_MECHS = (("gaussian", "1", "Gaussian mechanism, $\\sigma = 1$"), ("laplace", "1", "Laplace mechanism, $\\lambda = 1$"))
FIG_DPS = 25


def _fig_delta(x):
    return str(sp.Rational(x))  # "1e-5" -> "1/100000": the exact delta (and the key of the cached exact eps)


def exact_eps_point(mech, value, x):
    """The exact eps(delta) from the definition: the root of the quadrature profile (mechanism_exact_eps also
    inverts the derived profile and certifies it; the figure's check compares the two)."""
    return mechanism_exact_eps(mech, value, _fig_delta(x))["numeric"]


def conversion_point(mech, value, x, method):
    return eps_from_curve(_curve_fn(mech, value), mp.mpf(sp.Rational(x)), method=method,
                          locate=_curve_float(mech, value))[0]


def _conv_figure(mech, value, name):
    return Figure(
        id=f"RDP-CONV-FIG-{mech.upper()}", paper="rdp", title=f"RDP to $(\\varepsilon, \\delta)$: {name}",
        caption=("The $\\varepsilon(\\delta)$ of Prop. 3 and of the improved conversion (both on the derived Rényi curve, "
                 "optimised over $\\alpha \\in (1, \\infty]$) against the exact $\\varepsilon(\\delta)$: the root of the "
                 "privacy profile $\\delta(\\varepsilon) = E_Q[(dP/dQ - e^\\varepsilon)_+]$ computed by quadrature from the "
                 "densities (sensitivity 1). A conversion is sound where its curve lies above the exact one."),
        xlabel="$\\delta$", ylabel="$\\varepsilon(\\delta)$ (privacy parameter)", xs=FIG_DELTAS, dps=FIG_DPS,
        where="Sec. IV, Prop. 3", axis="xmode=log, x dir=reverse, ymin=0, legend pos=south east", cost=3.0,
        curves=[Curve("exact", "exact $\\varepsilon(\\delta)$ (profile)", lambda x: exact_eps_point(mech, value, x),
                      "computed", "thick"),
                Curve("prop3", "Prop. 3, $\\min_\\alpha$", lambda x: conversion_point(mech, value, x, "mironov"),
                      "printed", "dashed"),
                Curve("improved", "improved (CKS), $\\min_\\alpha$", lambda x: conversion_point(mech, value, x, "improved"),
                      "computed", "dotted")])


CONV_FIGS = [_conv_figure(m, v, n) for m, v, n in FIG_MECHS]
CONV_FIG_GAUSSIAN, CONV_FIG_LAPLACE = CONV_FIGS


def _figure_check(dps):
    """Every conversion curve lies above the exact curve at every delta of the figures; the exact curve (the
    quadrature profile's root, at the figures' precision) agrees with the root of the derived profile."""
    parts = []
    for (mech, value, name), fig in zip(FIG_MECHS, CONV_FIGS):
        d = fig.data()
        refs, above = [], []
        for i, x in enumerate(fig.xs):
            with mp.workdps(FIG_DPS):
                ex = mechanism_exact_eps(mech, value, _fig_delta(x))
            exact = Estimate(d["exact"][i][1], FIG_DPS - 4)
            at = {"mechanism": name.split(",")[0], "delta": x}
            refs.append(Compare(claimed=Estimate(ex["eps"], FIG_DPS - 4), computed=exact, needs=FIG_DPS - 5, at=at))
            for c in fig.curves:
                if c.key != "exact":
                    above.append(Compare(claimed=exact, computed=Estimate(d[c.key][i][1], FIG_DPS - 4), rel=">=",
                                         at=dict(at, curve=c.key)))
        span = f"the {len(fig.xs)} values of $\\delta$ of the figure ({name.split(',')[0]})"
        parts.append(over("delta", refs, lambda c: c, domain=span,
                          what="the exact curve (quadrature profile) against the derived profile's root"))
        parts.append(over("delta", above, lambda c: c, domain=span, what="every conversion curve at or above the exact one"))
    return All(*parts, what=r"the conversions against the exact $\varepsilon(\delta)$ for $\delta$ from $10^{-1}$ to "
                            r"$10^{-12}$")


CONV_FIGURE = Claim(
    id="RDP-CONV-FIGURE", role="figure", uses=("RDP-P3",), paper="rdp",
    label=r"Prop. 3 and the improved conversion above the exact $\varepsilon(\delta)$ (figure)",
    kind="check",
    statement=r"\varepsilon_{\rm conv}(\delta)\ \ge\ \varepsilon(\delta)\ \text{for}\ \delta\in[10^{-12},10^{-1}]"
              r"\ \text{(Gaussian, Laplace)}",
    check=cached_check(_figure_check), figures=tuple(CONV_FIGS), where="Sec. IV, Prop. 3", seed=SEED,
    conventions=(r"mechanisms at sensitivity 1: $\mathcal{N}(0, 1)$ against $\mathcal{N}(1, 1)$, $\Lambda(0, 1)$ against "
                 r"$\Lambda(1, 1)$",
                 f"figure points at {FIG_DPS} digits (compared to {FIG_DPS - 5}); exact $\\varepsilon(\\delta)$: the "
                 "quadrature profile's root, compared with the certified root of the derived profile"),
    notes=r"An extra ID: the figure of how loose each conversion from RDP to $(\varepsilon, \delta)$-DP is.")
