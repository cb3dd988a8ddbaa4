"""``cbdp-sym divergence`` and the subsampling / composition options of ``cbdp-sym profile``.

``cbdp-sym divergence KIND --P SPEC --Q SPEC [--alpha A] [--dps N] [--json] [--sample q] [--relation remove|add]
[--compose K]`` prints ``D(P, Q)`` for KIND in ``kl``, ``renyi``, ``alpha`` (CBDP's alpha-divergence generator),
``tv``, ``max``, computed from the definition at ``dps + 10`` digits and again at ``dps + 30``; ``digits`` are those
on which the two (or the closed form and the definition) agree.  ``--sample q`` replaces the pair by its Poisson
subsampling with rate ``q`` (``--relation remove``, the default: ``(1 - q) Q + q P`` against ``Q``; ``add``: ``Q``
against the mixture), ``--compose K`` by its ``K``-fold composition.

``cbdp-sym profile ... --sample q --compose K [--symmetric]`` computes the profile or ``eps(delta)`` of the subsampled
and composed pair (:mod:`cbdp_sym.divergences.composition`: exact for Gaussian pairs and finite laws, otherwise the
inversion of the privacy-loss MGF with a stated error), compares it with the accountants of autodp, dp_accounting and
Opacus (when installed; each peer's relative error), and audits the conversion of the exact RDP curve to
``(eps, delta)`` against it.

The hook in :mod:`cbdp_sym.app.cli` is :func:`register` (the ``divergence`` sub-command), :func:`add_profile_options`
(the options of ``profile``) and :func:`extended` (whether ``profile`` runs here).
"""
from __future__ import annotations

import json
import time

import mpmath as mp
import sympy as sp

from cbdp_sym.core.errors import CbdpError, ParameterError
from cbdp_sym.core.numbers import check_magnitude, digits, parse_number
from cbdp_sym.core.printing import latex
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.divergences.accountant_peers import peer_rows, subsampled_gaussian_eps_peers
from cbdp_sym.divergences.composition import Composition
from cbdp_sym.divergences.conversions import eps_improved, eps_mironov
from cbdp_sym.divergences.fdiv import f_divergence, renyi_divergence
from cbdp_sym.divergences.generators import KL, TV, alpha_generator
from cbdp_sym.divergences.mechanisms import max_divergence, renyi_numeric
from cbdp_sym.divergences.numeric import fdiv_mp
from cbdp_sym.divergences.profiles import parse_profile_law, privacy_profile, profile_point
from cbdp_sym.divergences.subsampling import RELATIONS, poisson_subsample, subsampled_rdp, subsampled_renyi_sym
from cbdp_sym.laws.distributions import Normal

__all__ = ["register", "add_profile_options", "extended", "cmd_divergence", "cmd_profile", "divergence_record",
           "composed_profile_record"]

from cbdp_sym.app.divergence_options import KINDS, add_profile_options, extended, register  # noqa: F401 (the parser's part)


def _check_dps(dps):
    if dps < 5 or dps > 1000:
        raise ParameterError(f"--dps must be between 5 and 1000, got {dps}")


def _rate(text):
    q = parse_number(text, "--sample")
    if not (0 < q <= 1):
        raise ParameterError(f"--sample must lie in (0, 1], got {text}")
    check_magnitude(q, "--sample")
    return q


def _compose_count(k):
    if k is None:
        return 1
    if not 1 <= k <= 10**7:
        raise ParameterError(f"--compose must be a positive integer (at most 10^7), got {k}")
    return int(k)


def _pairs(P, Q, q, relations):
    if q is None:
        return {"plain": (P, Q)}
    return {rel: poisson_subsample(P, Q, q, rel) for rel in relations}


def _dstr(x, n):
    if x is None:
        return None
    if not mp.isfinite(x):
        return "inf" if x > 0 else ("-inf" if x < 0 else "nan")
    return mp.nstr(x, n, strip_zeros=False, min_fixed=-4, max_fixed=6)


# -- divergence ----------------------------------------------------------------------------------------------
def _value(kind, P, Q, K, al, alpha_exact=None):
    """The divergence of the ``K``-fold composition of ``(P, Q)`` at the working precision: ``(value, rel_error)``
    (``rel_error`` an estimate from the method, ``None`` where the two-precision comparison decides)."""
    if K == 1:
        if kind == "kl":
            return renyi_numeric(P, Q, 1), None
        if kind == "renyi":
            return renyi_numeric(P, Q, al), None
        if kind == "max":
            return renyi_numeric(P, Q, mp.inf), None
        if kind == "alpha":
            return fdiv_mp(alpha_generator(alpha_exact), P, Q), None
        return fdiv_mp(TV, P, Q), None
    C = Composition([(P, Q, K)])
    if kind == "kl":
        return C.kl(), None
    if kind == "renyi":
        return C.renyi(al), None
    if kind == "max":
        return C.max_divergence(), None
    if kind == "alpha":
        return C.alpha_divergence(al), None
    out = C.profile(0)
    return out["delta"], out["error"]


def _derived(kind, P, Q, q, relation, K, alpha_exact):
    """The closed form of the divergence where the engine derives one (a SymPy number), else ``None``."""
    try:
        with time_limit(60, "deriving the divergence"):
            if q is not None:
                if kind == "renyi" and relation == "remove" and alpha_exact is not None and alpha_exact.is_integer:
                    Pb, Qb = P, Q
                    e = subsampled_renyi_sym(Pb, Qb, q, alpha_exact)[0]
                    return K * e
                return None
            if kind == "kl":
                e = f_divergence(KL, P, Q)[0]
            elif kind == "renyi":
                if alpha_exact is None or alpha_exact == sp.oo:
                    e = max_divergence(P, Q)[0]
                else:
                    e = renyi_divergence(P, Q, alpha_exact)[0]
            elif kind == "max":
                e = max_divergence(P, Q)[0]
            elif kind == "alpha":
                if K != 1:
                    return None
                e = f_divergence(alpha_generator(alpha_exact), P, Q)[0]
            else:
                if K != 1:
                    return None
                e = f_divergence(TV, P, Q)[0]
            return K * e
    except (CbdpError, NotImplementedError, TypeError, ValueError, ZeroDivisionError):
        return None


def divergence_record(kind, P, Q, alpha=None, dps=50, sample=None, relation="remove", compose=None):
    """``{"kind", "P", "Q", "alpha", "sample", "relation", "compose", "dps", "value", "digits", "derived", "method"}``:
    one divergence (values as decimal strings with ``dps`` significant digits; ``digits`` those on which the value
    computed at ``dps + 10`` and at ``dps + 30`` digits agree, or the closed form and the definition)."""
    kind = str(kind).lower()
    if kind not in KINDS:
        raise ParameterError(f"KIND must be one of {', '.join(KINDS)}, got {kind!r}")
    _check_dps(dps)
    alpha_exact = None
    if kind in ("renyi", "alpha"):
        if alpha is None:
            raise ParameterError(f"{kind} needs --alpha")
        alpha_exact = parse_number(str(alpha), "--alpha")
        if alpha_exact == sp.oo and kind == "renyi":
            kind = "max"
        elif not alpha_exact > 1:
            raise ParameterError(f"--alpha must be greater than 1, got {alpha}")
        else:
            check_magnitude(alpha_exact - 1, "alpha - 1")
    elif alpha is not None:
        raise ParameterError(f"{kind} takes no --alpha")
    q = _rate(sample) if sample is not None else None
    K = _compose_count(compose)
    pairs = _pairs(P, Q, q, [relation])
    A, B = next(iter(pairs.values()))
    vals = []
    for extra in (10, 30):
        with mp.workdps(dps + extra):
            al = None if alpha_exact is None or kind == "max" else mp.mpf(alpha_exact.p) / alpha_exact.q
            vals.append(_value(kind, A, B, K, al, alpha_exact))
    (v1, e1), (v2, _e2) = vals
    derived = _derived(kind, P, Q, q, relation, K, alpha_exact if kind != "max" else None)
    dval = None
    if derived is not None and not derived.free_symbols:
        try:
            with mp.workdps(dps + 10):
                dval = mp.mpf(sp.N(derived, dps + 15)) if derived != sp.oo else mp.inf
        except (TypeError, ValueError):
            dval = None
    if mp.isinf(v2):
        dg = mp.mpf(dps)
    elif e1 is not None:
        dg = min(-mp.log10(e1) if e1 > 0 else mp.mpf(dps), digits(v1, v2) if v1 != v2 else mp.mpf(dps))
    else:
        dg = digits(v1, v2) if v1 != v2 else mp.mpf(dps)
    if dval is not None and mp.isfinite(dval) and mp.isfinite(v2):
        dg = min(dg, digits(dval, v2) if dval != v2 else mp.mpf(dps))
    dg = min(dg, mp.mpf(dps))
    shown = max(1, int(mp.floor(dg))) if mp.isfinite(dg) else dps
    method = ("the definition" + (f", {K}-fold composition" if K > 1 else "")
              + (f", Poisson subsampling (q = {q}, {relation})" if q is not None else ""))
    return {"kind": kind, "P": repr(P), "Q": repr(Q), "alpha": None if alpha is None else str(alpha),
            "sample": None if q is None else str(q), "relation": relation if q is not None else None,
            "compose": K, "dps": dps, "value": _dstr(v2, min(shown, dps)), "digits": _dstr(dg, 4),
            "derived": latex(derived) if derived is not None else None,
            "derived_value": _dstr(dval, dps) if dval is not None else None, "method": method}


def cmd_divergence(reg, args):
    P, Q = parse_profile_law(args.P), parse_profile_law(args.Q)
    out = divergence_record(args.kind, P, Q, args.alpha, args.dps, args.sample, args.relation, args.compose)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    head = f"{out['kind']} divergence of P = {out['P']} and Q = {out['Q']}"
    if out["alpha"]:
        head += f", alpha = {out['alpha']}"
    print(head)
    for k in ("method", "value", "digits", "derived"):
        if out.get(k) is not None:
            print(f"  {k:<8} {out[k]}")
    return 0


# -- the profile of subsampled / composed pairs ----------------------------------------------------------------
def _gaussian_pair(P, Q):
    """``(q-free sigma)``: the noise multiplier of a Gaussian location pair ``N(mu + Delta, s) / N(mu, s)``, else None."""
    if isinstance(P, Normal) and isinstance(Q, Normal) and P.std == Q.std and P.loc != Q.loc:
        return abs(sp.sympify(P.std) / (sp.sympify(P.loc) - sp.sympify(Q.loc)))
    return None


def _rdp_conversions(P, Q, q, K, delta, exact, relation="remove"):
    """The exact RDP curve of the subsampled pair (integer orders 2..64, exact), times ``K``, converted to ``eps`` by
    Mironov's Prop. 3 and the improved conversion (CKS 2020 Prop. 12), optimised over the orders: rows with the
    relative slack against the exact ``eps``."""
    rows = []
    curve = {a: K * subsampled_rdp(P, Q, q, a, relation) for a in range(2, 65)}
    for name, conv in (("Mironov 2017, Prop. 3", eps_mironov), ("improved (CKS 2020, Prop. 12)", eps_improved)):
        best, at = mp.inf, None
        for a, r in curve.items():
            v = conv(r, a, delta)
            if v < best:
                best, at = v, a
        rows.append({"conversion": name, "orders": "2..64 (exact, the remove pair)", "eps": _dstr(best, 15),
                     "alpha": at, "relative_slack": _dstr((best - exact) / exact, 3) if exact else None})
    return rows


def composed_profile_record(P, Q, eps=None, delta=None, dps=50, symmetric=False, sample=None, relation="remove",
                            compose=None, peers=True):
    """One point of the profile of the subsampled and / or composed pair: ``{"delta", "eps", "error", "digits",
    "method", "directions", "peers", "conversions", ...}`` (see the module docstring)."""
    _check_dps(dps)
    if (eps is None) == (delta is None):
        raise ParameterError("give exactly one of eps and delta")
    q = _rate(sample) if sample is not None else None
    K = _compose_count(compose)
    relations = list(RELATIONS) if symmetric else [relation]
    if q is None:
        base = {"remove": (P, Q), "add": (Q, P)}
        pairs = {("P,Q" if r == "remove" else "Q,P"): base[r] for r in (["remove", "add"] if symmetric else ["remove"])}
    else:
        pairs = {r: poisson_subsample(P, Q, q, r) for r in relations}
    ev, dv = profile_point(eps, delta)
    out = {"P": repr(P), "Q": repr(Q), "sample": None if q is None else str(q),
           "relations": relations if q is not None else None, "symmetric": bool(symmetric), "compose": K, "dps": dps}
    directions = {}
    with mp.workdps(dps + 10):
        for name, (A, B) in pairs.items():
            if K == 1:
                r = privacy_profile(A, B, eps=eps, delta=delta, dps=dps)
                directions[name] = {"eps": r["eps"], "delta": r["delta"], "digits": r["digits"],
                                    "method": "the definition (quadrature / sums)", "error": None}
                continue
            C = Composition([(A, B, K)])
            if ev is not None:
                r = C.profile(mp.mpf(ev.p) / ev.q)
                err = r["error"]
                directions[name] = {"eps": _dstr(mp.mpf(ev.p) / ev.q, dps), "delta": _dstr(r["delta"], dps),
                                    "error": _dstr(err, 3), "method": r["method"], "_v": r["delta"], "_e": err}
            else:
                r = C.eps(mp.mpf(dv.p) / dv.q)
                err = r["error"]
                directions[name] = {"eps": _dstr(r["eps"], dps), "delta": _dstr(mp.mpf(dv.p) / dv.q, dps),
                                    "error": _dstr(err, 3), "method": r["method"], "_v": r["eps"], "_e": err}
            e = directions[name]["_e"]
            directions[name]["digits"] = _dstr(min(mp.mpf(dps), -mp.log10(e)) if e and e > 0 else mp.mpf(dps), 4)
        # the pair's value: the worst direction
        key = "delta" if ev is not None else "eps"
        worst = max(directions, key=lambda n: mp.mpf(directions[n][key]))
        out.update({"eps": directions[worst]["eps"], "delta": directions[worst]["delta"],
                    "error": directions[worst].get("error"), "digits": directions[worst]["digits"],
                    "method": directions[worst]["method"], "worst": worst})
        exact = directions[worst].get("_v")
        sig = _gaussian_pair(P, Q)
        if peers and q is not None and sig is not None and dv is not None and symmetric:
            rows = peer_rows(subsampled_gaussian_eps_peers(float(q), float(sig), K, float(dv)), exact)
            out["peers"] = rows
            out["peer_note"] = ("dp_accounting's ADD_OR_REMOVE_ONE and autodp's two relations are the worse of remove "
                                "and add, as --symmetric; the RDP accountants convert an RDP curve (an upper bound)")
        if q is not None and dv is not None and K > 1 and exact is not None:
            out["conversions"] = _rdp_conversions(P, Q, q, K, mp.mpf(dv.p) / dv.q, exact)
    for d in directions.values():
        d.pop("_v", None)
        d.pop("_e", None)
    out["directions"] = directions
    return out


def cmd_profile(reg, args):
    P, Q = parse_profile_law(args.P), parse_profile_law(args.Q)
    t0 = time.process_time()
    out = composed_profile_record(P, Q, eps=args.eps, delta=args.delta, dps=args.dps, symmetric=args.symmetric,
                                  sample=args.sample, relation=args.relation, compose=args.compose)
    cpu = time.process_time() - t0
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    what = []
    if out["compose"] > 1:
        what.append(f"the {out['compose']}-fold composition")
    if out["sample"] is not None:
        what.append(f"Poisson subsampling (q = {out['sample']}, {' and '.join(out['relations'])})")
    print(f"privacy profile of {' of '.join(what) or 'the pair'} of P = {out['P']}, Q = {out['Q']}"
          + (" (both directions)" if out["symmetric"] else ""))
    for k in ("eps", "delta", "error", "digits", "method"):
        if out.get(k) is not None:
            print(f"  {k:<8} {out[k]}" + ("   (relative, estimated)" if k == "error" else ""))
    if len(out["directions"]) > 1:
        for name, d in out["directions"].items():
            print(f"  {name:<8} eps = {d['eps']}, delta = {d['delta']}" + (f", error {d['error']}" if d.get("error") else ""))
    for row in out.get("peers", []):
        val = row["value"] if row["value"] is not None else "--"
        err = f"relative error {row['relative_error']}" if row["relative_error"] is not None else row["status"]
        print(f"  peer {row['library']} {row['version'] or ''} ({row['method']}): {val}  [{err}]")
    for row in out.get("conversions", []):
        print(f"  RDP conversion {row['conversion']}: eps = {row['eps']} at alpha = {row['alpha']}, "
              f"relative slack {row['relative_slack']}")
    print(f"  cost     {cpu:.1f} CPU-seconds")
    return 0
