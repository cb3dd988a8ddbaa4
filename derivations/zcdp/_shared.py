"""Helpers shared by the zCDP modules (the registry skips files starting with ``_``).

The paper's concentrated-DP tools (:class:`ZPair`, :func:`chernoff_exponent`, ... : ``_concentrated.__all__``) live
in :mod:`._concentrated` and are re-exported here: the paper's modules import them ``from ._shared import ZPair``.
(Before 0.3 they were the engine's ``cbdp_sym.divergences.concentrated`` and ``cbdp_sym.concentrated``; those
paths still resolve to these objects for one release, with a ``DeprecationWarning``.)

:func:`cbdp_sym.bound_evidence` names each comparison by a text label, ``{"instance": "family: label"}``, which the
engine prints inside ``$...$`` as ``\\text{...}``: a label with mathematics (or a decimal, which the printer turns into
mathematics) nests ``$`` inside ``$`` and the report's prose conversion breaks it.  A typed point (keys the printer
shows as symbols, ``rho``, ``xi``, ``a``, ``k``; values exact numbers or short decimals) prints as mathematics without
nesting.  :func:`point` records an instance's typed point; :func:`typed` puts it in place of the label.  (What the
engine should offer instead: ``bound_evidence(..., at=lambda instance: {...})``.)

>>> from cbdp_sym import Instance, bound_evidence
>>> import mpmath as mp
>>> insts = [point(Instance("squares", f"x = {k}", {"x": mp.mpf(k)}), {"x": str(k)}) for k in (1, 2)]
>>> ev = typed(bound_evidence("upper", {"small": insts}, lambda i: (i.data["x"] ** 2, 2 ** i.data["x"])))
>>> [c.at for c in ev.parts[0].parts]
[{'x': '1'}, {'x': '2'}]
"""
from types import SimpleNamespace

import mpmath as mp
import sympy as sp

from cbdp_sym import printed_or_corrected

from ._concentrated import (ZPair, affine_loss_law, arb_value, autodp_puredp_rdp, autodp_zcdp_rdp,  # noqa: F401
                            certify_lt, chernoff_exponent, complete_square, dp_group_delta, dpa_zcdp_epsilon,
                            finite_pair_from_logits, group_induction, group_recursion, harmonic, holder_orders,
                            mcdp_exponent, mutual_information, random_finite_pairs, rdp_conversion_optimum, short,
                            spike_pair, sup_over_order, tail_integral)

POINTS: dict = {}  # "family: label" -> the typed point of that instance


def point(inst, at: dict):
    """Record the typed point ``at`` of the instance ``inst`` (and return ``inst``)."""
    POINTS[f"{inst.family}: {inst.label}"] = dict(at)
    return inst


def typed(node):
    """``node`` with each comparison's text label replaced by its instance's typed point (:func:`point`)."""
    parts = getattr(node, "parts", None)
    if parts is not None:
        for p in parts:
            typed(p)
    elif isinstance(getattr(node, "at", None), dict) and node.at.get("instance") in POINTS:
        node.at = dict(POINTS[node.at["instance"]])
    return node


def num(x, digits: int = 6) -> str:
    """A computed parameter as a short decimal for a point (``"0"`` for zero)."""
    x = mp.mpf(x)
    return "0" if x == 0 else mp.nstr(x, digits)


def minimum(*entries):
    """The printed minimum of closed-form entries, ``Min(*entries)``, built without SymPy's symbolic comparison of the
    entries (20-80 ms each minimum, at every import of the modules): the entries of the paper's minima are not
    comparable as symbols, so SymPy would keep them all and the tree is the same (tests/papers/test_zcdp_conv.py
    checks it for every minimum the modules build).

    >>> x = sp.Symbol("x", positive=True)
    >>> minimum(1, 1 / x, sp.sqrt(x)) == sp.Min(1, 1 / x, sp.sqrt(x))
    True
    """
    return sp.Min(*entries, evaluate=False)


def as_used(printed, corrected):
    """A used claim's statement as the current audit reads it: ``printed``, or ``corrected`` while the engine re-audits
    a dependent claim against the corrected statements it uses (``Claim.uses``).  The same switch as
    :func:`cbdp_sym.printed_or_corrected`, for a used *check* claim, whose corrected statement is a check function
    rather than a form: the dependent claim names the two forms it reads.

    >>> from cbdp_sym.verify.claims import using
    >>> as_used("5 n^2", "8 n^2"), using("corrected", lambda: as_used("5 n^2", "8 n^2"))
    ('5 n^2', '8 n^2')
    """
    return printed_or_corrected(SimpleNamespace(claimed=lambda: printed, corrected=lambda: corrected))
