"""Adapters to other teams' privacy accountants (autodp, dp_accounting), written once, documented.

The libraries are an optional extra (``pip install .[oracles]``) and are imported lazily: importing
this module never fails; :func:`available` says whether a library can be used.

Parameter conventions (each library's own words, and what our laws are):

================  ===========================================  ==============================================
mechanism         autodp (``rdp_bank``)                         dp_accounting (``RdpAccountant``)
================  ===========================================  ==============================================
Gaussian          ``RDP_gaussian({'sigma': s})``: s = noise     ``GaussianDpEvent(noise_multiplier=s)``:
                  standard deviation / L2 sensitivity           s = standard deviation / L2 sensitivity
Laplace           ``RDP_laplace({'b': b})``: b = Laplace        ``LaplaceDpEvent(noise_multiplier=b)``:
                  scale / L1 sensitivity                        b = scale / L1 sensitivity (its eps = 1/b)
randomized resp.  ``RDP_randresponse({'p': p})``: p = the       ``RandomizedResponseDpEvent(noise_parameter=t,
                  probability of reporting the truth            num_buckets=2)``: with probability t the output
                  (Mironov's ``RR_p``)                          is uniform over the 2 buckets, so the truth is
                                                                reported with probability ``1 - t/2``; under
                                                                ``NeighborRel.REPLACE_ONE`` this is Mironov's
                                                                pair for ``p = 1 - t/2`` (``t = 2(1 - p)``,
                                                                ``p >= 1/2``; ``REPLACE_SPECIAL`` is another
                                                                relation and is not used)
================  ===========================================  ==============================================

Our side: :func:`cbdp_sym.divergences.mechanisms.gaussian_mechanism` ``(std, shift)``, ``laplace_mechanism(scale,
shift)``, ``randomized_response(p)`` with ``shift`` the sensitivity.  A library receives binary64
numbers; every reference value is computed at the **exact binary64 inputs** the library received
(``mp.mpf(float)`` is exact), so that a discrepancy is the library's arithmetic, not input rounding.

Conversions: dp_accounting's ``compute_epsilon(orders, rdp, delta)`` returns 0 when
``delta^2 > 1 - e^{-r}`` (a total-variation bound), ``inf`` for orders ``<= 1.01`` (it declines the
improved conversion there), and otherwise ``max(0, r + log1p(-1/a) - log(delta a)/(a - 1))``
(:func:`cbdp_sym.divergences.conversions.eps_improved`); ``compute_delta`` is the minimum of ``sqrt(1 - e^{-r})``
and :func:`cbdp_sym.divergences.conversions.delta_improved` (the latter only for orders ``> 1.01``).  autodp's
``converter.rdp_to_approxdp(rdp, BBGHS_conversion=...)`` minimises Mironov's Prop. 3 (``False``) or the
improved conversion (``True``, clipped at 0) over a continuous order by Brent's method.  Exact
Gaussian profiles: dp_accounting's ``get_epsilon_gaussian(sigma, delta)`` and autodp's
``dp_bank.get_eps_ana_gaussian(sigma, delta)`` invert the analytic Gaussian profile by root finding
(``sigma`` relative to the L2 sensitivity).

The comparison (:func:`compare`) reports, per value: the library's value, our reference (50 digits),
the relative error, and a status: ``agrees`` (relative error <= ``tol``, 1e-13 by default),
``cancellation`` (the error is explained by the conditioning of the library's formula, which the
adapter predicts: see :func:`predicted_error`), ``declines`` (a documented refusal such as ``inf`` for
orders <= 1.01), ``error`` (an exception: its message), ``overflow`` / ``nan``, or ``inaccurate`` (an
error beyond the formula's conditioning).  :func:`peer_table` renders rows for a check claim.
"""
from __future__ import annotations

import importlib
import math
import warnings
from dataclasses import dataclass

import mpmath as mp
from cbdp_sym.core.numbers import mp_str

__all__ = ["available", "versions", "PeerValue", "call_library", "rdp", "rdp_formula", "predicted_error", "eps_single_order",
           "delta_single_order", "eps_optimised_autodp", "exact_gaussian_eps", "eps_accountant", "compare", "peer_table", "U"]

U = 2.0**-53  # unit roundoff of binary64
_LIBS = {"autodp": "autodp", "dp_accounting": "dp_accounting"}


def _module(lib: str):
    return importlib.import_module(_LIBS[lib])


def available(lib: str) -> bool:
    """Whether ``lib`` ("autodp" or "dp_accounting") can be imported."""
    try:
        _module(lib)
        return True
    except ImportError:
        return False


def versions() -> dict:
    """Installed versions of the peer libraries (``None`` when missing)."""
    from importlib import metadata

    out = {}
    for lib, dist in (("autodp", "autodp"), ("dp_accounting", "dp-accounting")):
        try:
            out[lib] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[lib] = None
    return out


@dataclass
class PeerValue:
    """What a library returned: ``value`` (a float) or ``error`` (the exception's one-line message)."""

    library: str
    call: str
    value: float | None = None
    error: str | None = None


def call_library(lib: str, call: str, fn) -> PeerValue:
    """Run ``fn()`` (a peer library's computation, described by ``call``) and record what it returned: a
    :class:`PeerValue` with the value as a float, or with the exception's one-line message (a library's failure,
    a missing library included, is a result to report, never a crash); the library's warnings are silenced.

    >>> call_library("demo", "1 + 1", lambda: 1 + 1).value
    2.0
    >>> call_library("demo", "1/0", lambda: 1 / 0).error
    'ZeroDivisionError: division by zero'
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = fn()
        return PeerValue(lib, call, float(v))
    except Exception as exc:  # noqa: BLE001 - a library's failure is a result to record
        return PeerValue(lib, call, None, f"{type(exc).__name__}: {exc}".splitlines()[0][:120])


def _dpa_rdp(event, alpha, relation):
    from dp_accounting import privacy_accountant as pa
    from dp_accounting.rdp import rdp_privacy_accountant as ra

    acc = ra.RdpAccountant(orders=[alpha], neighboring_relation=getattr(pa.NeighboringRelation, relation))
    acc.compose(event)
    return acc.rdp[0]


def rdp(lib: str, mechanism: str, alpha: float, *, p=None, scale=None, std=None, sensitivity=1.0, rho=None,
        eps=None) -> PeerValue:
    """The library's RDP value of ``mechanism`` at order ``alpha``.

    Mechanisms: "gaussian" (``std``), "laplace" (``scale``), "rr" (``p``, Mironov's probability of the
    truth), "zcdp" (``rho``: a rho-zCDP guarantee, curve ``rho alpha``; autodp ``RDP_zCDP``,
    dp_accounting ``ZCDpEvent``), "puredp" (``eps``: autodp's ``converter.puredp_to_rdp``, the
    Bun-Steinke curve of an eps-DP mechanism; dp_accounting offers none).  ``std``, ``scale`` and
    ``sensitivity`` are ours; see the module docstring for the translation.
    """
    a = float(alpha)
    if mechanism == "gaussian":
        s = float(std) / float(sensitivity)
        if lib == "autodp":
            from autodp import rdp_bank
            return call_library(lib, f"rdp_bank.RDP_gaussian({{'sigma': {s!r}}}, {a!r})", lambda: rdp_bank.RDP_gaussian({"sigma": s}, a))
        from dp_accounting import dp_event
        return call_library(lib, f"RdpAccountant([{a!r}]).compose(GaussianDpEvent({s!r}))",
                     lambda: _dpa_rdp(dp_event.GaussianDpEvent(s), a, "ADD_OR_REMOVE_ONE"))
    if mechanism == "laplace":
        b = float(scale) / float(sensitivity)
        if lib == "autodp":
            from autodp import rdp_bank
            return call_library(lib, f"rdp_bank.RDP_laplace({{'b': {b!r}}}, {a!r})", lambda: rdp_bank.RDP_laplace({"b": b}, a))
        from dp_accounting import dp_event
        return call_library(lib, f"RdpAccountant([{a!r}]).compose(LaplaceDpEvent({b!r}))",
                     lambda: _dpa_rdp(dp_event.LaplaceDpEvent(b), a, "ADD_OR_REMOVE_ONE"))
    if mechanism == "rr":
        pp = float(p)
        if lib == "autodp":
            from autodp import rdp_bank
            return call_library(lib, f"rdp_bank.RDP_randresponse({{'p': {pp!r}}}, {a!r})", lambda: rdp_bank.RDP_randresponse({"p": pp}, a))
        from dp_accounting import dp_event
        t = 2 * (1 - max(pp, 1 - pp))  # the pair is symmetric in p <-> 1 - p
        return call_library(lib, f"RdpAccountant([{a!r}], REPLACE_ONE).compose(RandomizedResponseDpEvent({t!r}, 2))",
                     lambda: _dpa_rdp(dp_event.RandomizedResponseDpEvent(t, 2), a, "REPLACE_ONE"))
    if mechanism == "zcdp":  # rho-zCDP (Bun-Steinke): the RDP curve rho * alpha
        r = float(rho)
        if lib == "autodp":
            from autodp import rdp_bank
            return call_library(lib, f"rdp_bank.RDP_zCDP({{'rho': {r!r}}}, {a!r})", lambda: rdp_bank.RDP_zCDP({"rho": r}, a))
        from dp_accounting import dp_event
        return call_library(lib, f"RdpAccountant([{a!r}]).compose(ZCDpEvent({r!r}))",
                     lambda: _dpa_rdp(dp_event.ZCDpEvent(r), a, "ADD_OR_REMOVE_ONE"))
    if mechanism == "puredp":  # the RDP curve autodp assigns to an eps-DP mechanism (Bun-Steinke, Prop. 3.3 / Lemma 4)
        e = float(eps)
        if lib != "autodp":
            return PeerValue(lib, "--", None, "not offered by this library")
        from autodp import converter
        return call_library(lib, f"converter.puredp_to_rdp({e!r})({a!r})", lambda: converter.puredp_to_rdp(e)(a))
    raise ValueError(f"unknown mechanism {mechanism!r}")


def rdp_formula(lib: str, mechanism: str) -> str:
    """The library's formula for the value, in words (for the report)."""
    table = {
        ("autodp", "gaussian"): "alpha/(2 sigma^2)",
        ("dp_accounting", "gaussian"): "alpha/(2 s^2)",
        ("autodp", "laplace"): "logsumexp of two terms / (alpha - 1)",
        ("dp_accounting", "laplace"): "eps + log1p((a-1) expm1(eps(1-2a))/(2a-1))/(a-1); Taylor series for a < 1.1",
        ("autodp", "rr"): "logsumexp of two terms / (alpha - 1)",
        ("dp_accounting", "rr"): "logsumexp of three terms / (alpha - 1)",
        ("autodp", "zcdp"): "xi + rho alpha", ("dp_accounting", "zcdp"): "xi + rho alpha",
        ("autodp", "puredp"): "(log-diff of sinh terms - log sinh eps)/(alpha - 1)",
    }
    return table[(lib, mechanism)]


def predicted_error(lib: str, mechanism: str, alpha: float, value, *, p=None, scale=None, std=None, sensitivity=1.0,
                    rho=None, eps=None) -> float | None:
    """The relative rounding error the library's formula can be expected to make (a condition estimate).

    Log-sum-exp formulas ``log(e^a + e^b)/(alpha - 1)`` compute ``log(1 + x)`` with
    ``x = (alpha - 1) D`` from terms of size ``|a| + |b|``: the absolute error ``u (1 + |a| + |b|)``
    becomes the relative error ``u (1 + |a| + |b|) / x``, large when ``alpha -> 1`` or ``D`` is small.
    Closed forms without cancellation (the Gaussian's ``alpha/(2 s^2)``, zCDP's ``rho alpha``,
    dp_accounting's ``log1p``/``expm1`` and Taylor forms for the Laplace mechanism) have ``~ u``.
    ``None``: no model (the comparison then reports any disagreement beyond ``tol`` as inaccurate).
    """
    a = mp.mpf(alpha)
    val = mp.mpf(value)
    if mechanism in ("gaussian", "zcdp") or (lib == "dp_accounting" and mechanism == "laplace"):
        return 4 * U
    if mechanism not in ("laplace", "rr"):
        return None  # no conditioning model for this formula
    x = abs((a - 1) * val)
    if x == 0:
        return math.inf
    if mechanism == "laplace":
        b = mp.mpf(scale) / mp.mpf(sensitivity)
        terms = abs((a - 1) / b) + abs(a / b) + 2
    else:
        pp = mp.mpf(p)
        lp, lq = abs(mp.log(pp)), abs(mp.log(1 - pp))
        terms = a * (lp + lq) + abs(1 - a) * (lp + lq) + 1
    return float(U * terms / x)


# -- conversions -----------------------------------------------------------------------------------
def eps_single_order(alpha: float, r: float, delta: float) -> PeerValue:
    """dp_accounting's ``compute_epsilon([alpha], [r], delta)`` (the epsilon only)."""
    def f():
        from dp_accounting.rdp import rdp_privacy_accountant as ra
        return ra.compute_epsilon([float(alpha)], [float(r)], float(delta))[0]

    return call_library("dp_accounting", f"compute_epsilon([{float(alpha)!r}], [{float(r)!r}], {float(delta)!r})", f)


def delta_single_order(alpha: float, r: float, eps: float) -> PeerValue:
    """dp_accounting's ``compute_delta([alpha], [r], eps)`` (the delta only)."""
    def f():
        from dp_accounting.rdp import rdp_privacy_accountant as ra
        return ra.compute_delta([float(alpha)], [float(r)], float(eps))[0]

    return call_library("dp_accounting", f"compute_delta([{float(alpha)!r}], [{float(r)!r}], {float(eps)!r})", f)


def eps_optimised_autodp(curve, delta: float, bbghs: bool) -> PeerValue:
    """autodp's ``rdp_to_approxdp(curve, BBGHS_conversion=bbghs)(delta)``: a continuous optimisation
    over the order (``curve`` a float function of alpha)."""
    def f():
        from autodp import converter
        return converter.rdp_to_approxdp(curve, BBGHS_conversion=bbghs)(float(delta))

    return call_library("autodp", f"rdp_to_approxdp(curve, BBGHS_conversion={bbghs})({float(delta)!r})", f)


def exact_gaussian_eps(lib: str, std: float, delta: float, sensitivity: float = 1.0) -> PeerValue:
    """The exact epsilon of the Gaussian mechanism at ``delta`` (the analytic Gaussian mechanism)."""
    s = float(std) / float(sensitivity)
    if lib == "dp_accounting":
        from dp_accounting import gaussian_mechanism as gm
        return call_library(lib, f"get_epsilon_gaussian({s!r}, {float(delta)!r})", lambda: gm.get_epsilon_gaussian(s, float(delta)))
    from autodp import dp_bank
    return call_library(lib, f"dp_bank.get_eps_ana_gaussian({s!r}, {float(delta)!r})", lambda: dp_bank.get_eps_ana_gaussian(s, float(delta)))


def _event(mechanism, *, p=None, scale=None, std=None):
    from dp_accounting import dp_event

    if mechanism == "gaussian":
        return dp_event.GaussianDpEvent(float(std)), "ADD_OR_REMOVE_ONE"
    if mechanism == "laplace":
        return dp_event.LaplaceDpEvent(float(scale)), "ADD_OR_REMOVE_ONE"
    if mechanism == "rr":
        return dp_event.RandomizedResponseDpEvent(2 * (1 - float(p)), 2), "REPLACE_ONE"
    raise ValueError(f"unknown mechanism {mechanism!r}")


def eps_accountant(lib: str, method: str, mechanism: str, delta: float, **par) -> PeerValue:
    """A library's epsilon at ``delta`` for one run of a basic mechanism (sensitivity 1).

    ``("dp_accounting", "rdp")``: ``RdpAccountant()`` with its default orders; ``("dp_accounting", "pld")``:
    ``PLDAccountant()`` with its default discretisation; ``("autodp", "prop3")`` / ``("autodp", "bbghs")``:
    ``converter.rdp_to_approxdp`` on autodp's own RDP curve (Mironov's Prop. 3 / the improved conversion,
    optimised over a continuous order).  Randomized response uses ``REPLACE_ONE`` in dp_accounting (Mironov's
    pair, see the module's table)."""
    d = float(delta)
    if lib == "dp_accounting":
        def f():
            from dp_accounting import privacy_accountant as pa
            from dp_accounting.pld import pld_privacy_accountant as pl
            from dp_accounting.rdp import rdp_privacy_accountant as ra

            ev, rel = _event(mechanism, **par)
            rel = getattr(pa.NeighboringRelation, rel)
            acc = ra.RdpAccountant(neighboring_relation=rel) if method == "rdp" else pl.PLDAccountant(neighboring_relation=rel)
            acc.compose(ev)
            return acc.get_epsilon(d)

        return call_library(lib, f"{'RdpAccountant' if method == 'rdp' else 'PLDAccountant'}().compose({mechanism} {par}).get_epsilon({d!r})", f)

    def g():
        from autodp import converter

        curve = lambda a: rdp(lib, mechanism, float(a), **par).value  # noqa: E731
        return converter.rdp_to_approxdp(curve, BBGHS_conversion=(method == "bbghs"))(d)

    return call_library(lib, f"rdp_to_approxdp({mechanism} {par}, BBGHS_conversion={method == 'bbghs'})({d!r})", g)


# -- comparison ------------------------------------------------------------------------------------
def compare(peer: PeerValue, reference, tol: float = 1e-13, predicted: float | None = None, declines=None) -> dict:
    """Classify a library value against our reference (mpf): ``{"value", "reference", "rel_error",
    "status", "detail"}``.  ``predicted``: the library formula's expected relative error
    (:func:`predicted_error`); ``declines``: a predicate on the value for a documented refusal."""
    ref = mp.mpf(reference)
    out = {"value": peer.value, "reference": ref, "rel_error": None, "status": "", "detail": peer.call}
    if peer.error is not None:
        out.update(status="error", detail=peer.error)
        return out
    v = peer.value
    if declines is not None and declines(v):
        out.update(status="declines", detail="documented refusal (returns " + repr(v) + ")")
        return out
    if math.isnan(v):
        out.update(status="nan")
        return out
    if math.isinf(v) and mp.isfinite(ref):
        out.update(status="overflow")
        return out
    if not mp.isfinite(ref):
        out.update(status="agrees" if math.isinf(v) and (v > 0) == (ref > 0) else "inaccurate", rel_error=0.0)
        return out
    err = abs(mp.mpf(v) - ref) / abs(ref) if ref != 0 else abs(mp.mpf(v))
    out["rel_error"] = float(err)
    if err <= tol:
        out["status"] = "agrees"
    elif predicted is not None and err <= 100 * predicted:
        out.update(status="cancellation", detail=f"predicted error ~{predicted:.1e} from the formula's conditioning")
    else:
        out["status"] = "inaccurate"
    return out


def peer_table(rows: list, title: str, note: str = "") -> dict:
    """A table for a check claim: rows of ``(what, alpha, library, comparison dict)``; four columns (case,
    library value, our reference, relative error and status) so that it fits the page.  Values are shown
    to 12 significant digits (the full values are in the comparison dicts / audit.json)."""
    body = []
    for what, alpha, lib, cmp in rows:
        if cmp["value"] is None:
            val = "--"
        elif math.isinf(cmp["value"]) or math.isnan(cmp["value"]):
            val = {"inf": r"$\infty$", "-inf": r"$-\infty$"}.get(repr(cmp["value"]), "NaN")
        else:
            val = mp_str(mp.mpf(cmp["value"]), 17)
        ref = mp_str(cmp["reference"], 17)
        err = "" if cmp["rel_error"] is None else f"{cmp['rel_error']:.1e}, "
        case = f"{what}, $\\alpha = {alpha}$, {lib.replace('_', ' ')}" if alpha != "--" else f"{what}, {lib.replace('_', ' ')}"
        body.append([case, val, ref, err + cmp["status"]])
    return {"title": title, "columns": ["case (library)", "library value", "reference (ours)", "rel. error, status"],
            "rows": body, "note": (" " + note) if note and note[0].isalpha() else note}
