"""What the restricted solvers share: the function classes (``lin``, ``polyK``), the generator of a named divergence,
the result with its certificate, and the conjugate's structure and profile (derived once per process).

>>> parse_class("poly3")
3
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import mpmath as mp
import sympy as sp

from cbdp_sym.core.display import restricted_markdown, restricted_repr
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.divergences.generators import ALPHA_DIV, KL, TV
from cbdp_sym.core.numbers import parse_number
from cbdp_sym.divergences.reduction import conjugate_structure, profile
from cbdp_sym.core.tape import cached_derivation


def parse_class(text: str) -> int:
    """``lin`` -> 1, ``polyK`` -> K (the polynomial degree).

    >>> parse_class("poly3")
    3
    """
    t = str(text).strip().lower()
    if t == "lin":
        return 1
    m = re.match(r"^poly_?(\d+)$", t)
    if m and int(m.group(1)) >= 1:
        return int(m.group(1))
    raise ParameterError(f"function class {text!r} not understood: use lin or polyK with K >= 1 (poly1, poly2, ...)")


def generator_for(divergence: str, alpha=None):
    """``(generator, params, renyi)`` for ``kl``, ``tv``, ``alpha`` or ``renyi`` (the last two need alpha > 1)."""
    d = str(divergence).strip().lower()
    if d in ("kl", "tv"):
        if alpha is not None:
            raise ParameterError(f"--alpha is meaningless for {d}")
        return (KL if d == "kl" else TV), {}, False
    if d in ("alpha", "renyi"):
        if alpha is None:
            raise ParameterError(f"{d} needs --alpha (a number > 1)")
        a = parse_number(str(alpha), "alpha") if not isinstance(alpha, (sp.Basic, int)) else sp.sympify(alpha)
        if not a.is_finite:
            raise ParameterError(f"{d} needs a finite alpha > 1, got alpha = {alpha}")
        if not a > 1:
            raise ParameterError(f"{d} needs alpha > 1, got alpha = {alpha}")
        return ALPHA_DIV, {"alpha": a}, d == "renyi"
    raise ParameterError(f"divergence {divergence!r} not understood: use kl, alpha, renyi or tv")


@dataclass
class RestrictedResult:
    """A restricted divergence with its certificate (values are mpf at the working precision)."""

    divergence: str
    cls: str
    value: mp.mpf                 # the restricted divergence (Rényi through Eq. (3) for ``renyi``)
    f_value: mp.mpf               # the restricted f-divergence itself (before Eq. (3))
    optimum: list                 # coefficients of the maximising h in powers of x (constant first)
    gradient_norm: mp.mpf         # of the reduced problem at the optimum (see notes)
    hessian: list                 # of the reduced problem (maximised form) at the optimum
    negative_definite: bool
    infinite: bool = False
    second_method_digits: object = None
    second_value: object = None
    iterations: int = 0
    ray: object = None
    notes: list = field(default_factory=list)
    converged: bool = True

    def as_json(self, digits_out: int | None = None) -> dict:
        dg = digits_out or max(mp.mp.dps - 10, 15)

        def s(v):
            if v is None:
                return None
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                v = mp.mpf(v)
            return mp.nstr(v, dg, strip_zeros=False) if mp.isfinite(v) else ("inf" if v > 0 else "-inf")

        return {
            "divergence": self.divergence, "class": self.cls,
            "value": s(self.value), "f_value": s(self.f_value),
            "optimum": [s(c) for c in self.optimum],
            "gradient_norm": s(self.gradient_norm),
            "hessian": [[s(v) for v in row] for row in self.hessian],
            "hessian_negative_definite": self.negative_definite,
            "second_method_digits": (None if self.second_method_digits is None
                                     else mp.nstr(self.second_method_digits, 4)),
            "infinite": self.infinite,
            "notes": list(self.notes),
        }

    def __repr__(self):
        return restricted_repr(self)

    def _repr_markdown_(self):
        return restricted_markdown(self)


@functools.lru_cache(maxsize=None)
def _lam(expr, sym):
    return sp.lambdify(sym, expr, modules="mpmath")


def _memo_derivation(fn):
    """``fn`` memoised in-process by its (hashable) arguments, its tape steps replayed on every call
    (:func:`cbdp_sym.core.tape.cached_derivation`): the solver re-derives the conjugate's structure and profile
    at each call otherwise (seconds of SymPy per point), and a memo keeps the tapes identical."""
    return cached_derivation(fn)


def _structure_impl(gen, params):
    return conjugate_structure(gen, dict(params))


def _profile_impl(st):
    return profile(st)


_structure_memo = _memo_derivation(_structure_impl)
_profile_memo = _memo_derivation(_profile_impl)


def structure_and_profile(gen, params):
    """``(conjugate_structure(gen, params), profile)`` memoised in-process (steps replayed on the tape); the
    profile is ``None`` where the structure has none (bounded / general conjugates)."""
    key = tuple(sorted((str(k), sp.sympify(v)) for k, v in (params or {}).items()))
    st = _structure_memo(gen, key)
    prof = _profile_memo(st) if st.kind in ("exp", "power") else None
    return st, prof
