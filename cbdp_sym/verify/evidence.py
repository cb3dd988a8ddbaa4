"""Evidence: what a claim's check computed, from which the engine alone decides the verdict.

A paper module never types a verdict.  A ``check`` claim's function returns *evidence*: what the paper claims
and what the definitions give, side by side, over the family or domain the statement quantifies over.  The
engine (:func:`decide`) turns the evidence into the claim's status, message, checks and counterexample, with one
rule for every claim (:mod:`cbdp_sym.core.verdict`): the same tolerance, the same relative slack, the same
precision gate (a difference smaller than the digits both sides established is never a counterexample).

The shapes (all exported at :mod:`cbdp_sym`):

* :class:`Compare` -- one comparison at one point: the claimed side (a printed value, a bound, a closed form's
  value) and the computed side (the definition's value), with the relation the paper asserts
  (``computed REL claimed``: ``=``, ``<=``, ``<``, ``>=``, ``>``, or ``~`` "rounds to the printed decimal").
* :func:`over` -- a statement over a family: the engine evaluates every member (``over("n", range(1, 101), f)``
  is 100 evaluations) and records the coverage; a finite family must be covered whole.
* :func:`sample` -- a statement about all instances, checked on a declared sample (seeded random laws, a grid).
* :class:`All` -- every part must hold; :class:`Exists` -- a witness; :class:`Chain` -- a proof's chain of
  (in)equalities, link by link; :class:`Readings` -- the readings of a printed sentence, audited each.
* :class:`Crossing` / :class:`Extremum` -- a root or an extremum located to the working precision by the engine
  and compared with the printed number.
* :class:`Table` -- a display-only table (no verdict column: the engine writes verdicts).
* :func:`requires` -- a claim that needs an optional library: ``skipped`` (outside the counts) when it is missing.

Evidence is collected (functions evaluated, families enumerated) into a pure data tree (:func:`collect`), stored
with the result (``audit.json``'s ``evidence``), and decided from that data (:func:`decide`): the mutation battery
(``tests/verify/test_mutations.py``) perturbs the claimed sides of the stored data and re-decides.

>>> import mpmath as mp
>>> from fractions import Fraction
>>> ev = collect(over("n", range(1, 4), lambda n: Compare(claimed=Fraction(n * (n + 1), 2),
...                   computed=sum(range(1, n + 1)), at={"n": n}, what="$1 + \\\\dots + n = n(n+1)/2$")), 50)
>>> decide(ev, 50).status.value
'verified'
>>> decide(collect(Compare(claimed=1, computed=mp.mpf("1.5"), rel="<=", at={"x": 2}), 50), 50).status.value
'refuted'
>>> decide(collect(Compare(claimed=1, computed=1 - mp.mpf(10) ** -70, rel="<", at={"x": 2}), 50), 50).status.value
'inconclusive'
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable

import mpmath as mp
import sympy as sp

from cbdp_sym.core.errors import CbdpError
from cbdp_sym.core.numbers import Estimate, digits as digits_of, established, mp_str
from cbdp_sym.core.verdict import Check, Status, merge, relative_slack
from cbdp_sym.calculus.certify import certify_different, certify_less
from cbdp_sym.core.errors import DerivationTimeout
from cbdp_sym.core.numbers import to_mpf
from cbdp_sym.core.printing import is_number, latex, params_tex
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.verify.points import point_simplicity

RELATIONS = ("=", "<=", "<", ">=", ">", "~")
_BOUND_KIND = {"<=": "upper", "<": "strict-upper", ">=": "lower", ">": "strict-lower"}
_REL_TEX = {"=": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">", "~": r"\approx"}
INF = float("inf")


class Skipped(CbdpError):
    """A claim needs an optional library the environment lacks: the claim is ``skipped`` (outside the verdict
    counts), never ``inconclusive``; ``install`` says how to get it."""

    def __init__(self, message: str, install: str = ""):
        super().__init__(message)
        self.install = install


def requires(*modules: str, install: str = 'pip install "cbdp-sym[oracles]"') -> None:
    """Raise :class:`Skipped` unless every module in ``modules`` imports (a peer library, an optional backend).

    >>> requires("math")
    >>> try:
    ...     requires("no_such_module_xyz")
    ... except Skipped as exc:
    ...     print(exc)
    needs no_such_module_xyz (not installed)
    """
    import importlib

    missing = []
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError:
            missing.append(m)
    if missing:
        raise Skipped(f"needs {', '.join(missing)} (not installed)", install)


# -- values -------------------------------------------------------------------------------------------------
def _is_exact(x) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, (int, Fraction)):
        return True
    if isinstance(x, sp.Basic):
        return bool(x.is_Rational or x in (sp.oo, -sp.oo) or (x.is_number and not x.has(sp.Float)))
    return False


def _is_symbolic(x) -> bool:
    return isinstance(x, sp.Basic) and bool(x.free_symbols)


def _arb_class():
    try:
        import flint

        return flint.arb
    except ImportError:  # pragma: no cover
        return None


def _to_mp(x):
    """An mpf (or ``mp.inf``) of a value at the working precision."""
    if isinstance(x, mp.mpf):
        return x
    if isinstance(x, bool):
        raise TypeError("a comparison side must be a number, not a bool")
    if isinstance(x, int):
        return mp.mpf(x)
    if isinstance(x, Fraction):
        return mp.mpf(x.numerator) / x.denominator
    if isinstance(x, float):
        return mp.mpf(x)
    if isinstance(x, str):
        s = x.strip()
        if s in ("inf", "oo", "+inf"):
            return mp.inf
        if s in ("-inf", "-oo"):
            return -mp.inf
        if "/" in s:
            a, b = s.split("/")
            return mp.mpf(int(a)) / int(b)
        return mp.mpf(s)
    A = _arb_class()
    if A is not None and isinstance(x, A):
        return mp.mpf(x.mid().str(mp.mp.dps + 5, radius=False))
    if isinstance(x, sp.Basic):
        if x is sp.oo:
            return mp.inf
        if x is -sp.oo:
            return -mp.inf
        if x.is_Rational:
            return mp.mpf(int(x.p)) / int(x.q)
        return to_mpf(x)
    raise TypeError(f"cannot compare a value of type {type(x).__name__}")


def _established(x, dps: int) -> float:
    """Significant digits a value established: exact values ``inf``; an :class:`Estimate` its own; an Arb ball
    from its radius; any other computed value ``dps`` (numerics run at ``dps + 10``, 10 digits of guard)."""
    if _is_exact(x) or _is_symbolic(x):
        return INF
    if isinstance(x, str):
        return INF if _exact_text(x) else float(_sig_digits(x))
    est = established(x)
    if est is not None:
        return float(est)
    A = _arb_class()
    if A is not None and isinstance(x, A):
        if x.rad() == 0:
            return INF
        mid = abs(x.mid())
        if mid == 0:
            return 0.0
        return max(0.0, float(-(x.rad() / mid).log() / A(10).log()))
    if isinstance(x, mp.mpf) and mp.isinf(x):
        return INF
    return float(dps)


def _exact_text(s: str) -> bool:
    s = s.strip()
    if s in ("inf", "-inf", "oo", "-oo"):
        return True
    if "/" in s:
        return True
    return bool(s) and s.lstrip("-").isdigit()


def _sig_digits(s: str) -> int:
    t = s.strip().lstrip("-+").split("e")[0].split("E")[0].replace(".", "").lstrip("0")
    return max(len(t), 1)


def value_text(x, digits_max: int) -> str:
    """A value as text with only the digits it established (an exact value exactly: ``3/4``, ``inf``)."""
    if isinstance(x, str):
        return x
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, int):
        return str(x)
    if isinstance(x, Fraction):
        return str(x) if x.denominator != 1 else str(x.numerator)
    if isinstance(x, sp.Basic) and (x.is_Rational or x in (sp.oo, -sp.oo)):
        return {sp.oo: "inf", -sp.oo: "-inf"}.get(x, str(x))
    if isinstance(x, sp.Basic) and x.free_symbols:
        return "$" + latex(x) + "$"
    est = _established(x, digits_max)
    n = int(min(est, digits_max)) if est != INF else digits_max
    with mp.workdps(max(mp.mp.dps, n + 10)):  # (an exact closed form evaluated to the digits printed)
        text = mp_str(_to_mp(x), max(n, 1))
    mant, _e, exp = text.partition("e")
    if "." in mant and mant.endswith("0" * 8):  # a terminating value (1 - 2e-12): its zeros are digits, not shown
        mant = mant.rstrip("0").rstrip(".")
        text = mant + (_e + exp if _e else "")
    return text


# -- the shapes ---------------------------------------------------------------------------------------------
@dataclass
class Compare:
    """One comparison: ``computed REL claimed`` at the point ``at``.

    ``claimed``: the paper's side (a printed value, a bound's value, an exact number, ``inf``, a SymPy closed form,
    or for ``~`` the printed decimal as a string); ``computed``: the value of the defining object (an mpf, an
    :class:`~cbdp_sym.core.numbers.Estimate` with fewer established digits, an Arb ball, an exact number, a SymPy
    form).  ``rel`` is what the paper asserts of the computed value against the claimed one: ``=`` (an identity),
    ``<=``/``<`` (the claimed side is an upper bound), ``>=``/``>`` (a lower bound), ``~`` (the computed value
    rounds to the printed digits).  ``at``: the point or instance (``{"alpha": "3/2"}``, ``{"instance": "RR
    p=0.75"}``); ``what``: the statement compared, prose with ``$...$`` mathematics.  ``certify``: a function
    returning a ball-arithmetic certificate sentence of a violation (or ``None``), called only when the comparison
    fails; ``closed``: ``(claimed_expr, computed_expr, point, symbols)`` closed forms the engine certifies with
    Arb itself.  ``needs``: the digits of agreement an identity needs when it is checked against a value known to
    fewer digits by construction (a peer library computing in double precision: ``needs=10``); by default
    ``dps - 5``."""

    claimed: Any
    computed: Any
    rel: str = "="
    at: dict = field(default_factory=dict)
    what: str = ""
    certify: Callable | None = None
    closed: tuple | None = None
    origin: str = "grid"
    needs: int | None = None  # an identity checked only to these digits (a peer library in double precision)

    def __post_init__(self):
        if self.rel not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {self.rel!r}")


@dataclass
class Group:
    """Parts decided together: ``kind`` ``all`` (every part), ``family`` (every member of a family: coverage is
    checked), ``sample`` (a declared sample of an infinite family), ``exists`` (a witness), ``chain`` (a proof's
    chain), ``readings`` (the first part is the text as printed)."""

    kind: str
    parts: list
    what: str = ""
    domain: str = ""
    size: int | None = None  # members of a finite family (``covered`` must equal it)
    names: list = field(default_factory=list)  # readings: the name of each part
    seeds: list = field(default_factory=list)  # readings: which extraction prints each
    note: str = ""


def All(*parts, what: str = "", note: str = "") -> Group:
    """Every part must hold: the claim's status is the worst of its parts'."""
    return Group("all", list(parts), what, note=note)


def Exists(*witnesses, what: str = "", note: str = "") -> Group:
    """An existence statement shown by a witness: ``verified`` when a witness holds; a failing witness does not
    refute existence (``inconclusive``)."""
    return Group("exists", list(witnesses), what, note=note)


def over(name: str, members: Iterable, each: Callable, *, what: str = "", size: int | None = None,
         domain: str = "", note: str = "") -> Group:
    """A statement over a finite family: ``each(member)`` (a :class:`Compare` or a group) for **every** member, in
    order; ``size`` (default ``len(members)``) is the family's size, and a verdict needs all of it covered."""
    members = list(members)
    parts = [each(m) for m in members]
    return Group("family", parts, what, domain or name, size if size is not None else len(members), note=note)


def sample(name: str, members: Iterable, each: Callable, *, what: str = "", note: str = "") -> Group:
    """A statement over an infinite family (all laws, all scales), checked on a declared sample ``members``
    (seeded random laws, a grid, the instances a search found): the verdict is evidence on the sample."""
    members = list(members)
    return Group("sample", [each(m) for m in members], what, name, None, note=note)


def Chain(links: list, at: dict, *, what: str = "", digits: int | None = None, note: str = "") -> Group:
    """A proof's chain ``M_0 rel_1 M_1 rel_2 ...`` (:class:`cbdp_sym.verify.proofchain.Link`) at the point ``at``:
    every member evaluated from its definition or as printed, every relation compared (a failing link is a
    failing proof step).  ``digits``: the digits every member is established to (a chain evaluated at a lower
    precision; a link's own ``digits`` wins), which an equality link needs."""
    parts = []
    prev = None
    for k, link in enumerate(links):
        val = link.value(at)
        got = link.digits if link.digits is not None else digits
        if got is not None and not isinstance(val, Estimate) and isinstance(val, mp.mpf) and mp.isfinite(val):
            val = Estimate(val, int(got))
        if k and prev is not None:
            parts.append(Compare(claimed=prev[1], computed=val, rel=_chain_rel(link.rel), at=dict(at),
                                 what=f"({k - 1}) ${prev[0]}$ {link.rel} ({k}) ${link.expr}$"
                                      + (f" ({link.reason})" if link.reason else ""),
                                 needs=int(got) if got is not None else None))
        prev = (link.expr, val)
    return Group("chain", parts, what, note=note)


def _chain_rel(rel: str) -> str:
    """A link ``M_{k-1} rel M_k`` read as ``M_k REL' M_{k-1}`` (the computed side is the new member)."""
    return {"=": "=", "<=": ">=", "<": ">", ">=": "<=", ">": "<"}[rel]


def Readings(literal, *others, what: str = "") -> Group:
    """The readings of a printed sentence: ``literal`` is ``(name, evidence)`` for the text as printed, each of
    ``others`` ``(name, evidence, seeds)``.  Refuted only when every reading fails; ``ambiguous`` when their
    verdicts differ."""
    names = [literal[0]] + [o[0] for o in others]
    seeds = [""] + [o[2] if len(o) > 2 else "" for o in others]
    return Group("readings", [literal[1]] + [o[1] for o in others], what, names=names, seeds=seeds)


@dataclass
class Crossing:
    """A printed crossing or threshold ("the curves cross at alpha ~ 3.3"): the engine locates the sign change of
    ``f`` in ``[lo, hi]`` to the working precision, checks the sign on both sides of the printed number's rounding
    interval, and compares the root with the printed digits."""

    f: Callable
    lo: Any
    hi: Any
    printed: str
    at: dict = field(default_factory=dict)
    what: str = ""


@dataclass
class Extremum:
    """A printed extremum location ("peaks at alpha = 3"): the engine locates the maximum (``sense="max"``) or
    minimum of ``f`` on ``[lo, hi]`` by golden-section search to the working precision and compares the location
    with the printed digits."""

    f: Callable
    lo: Any
    hi: Any
    printed: str
    sense: str = "max"
    at: dict = field(default_factory=dict)
    what: str = ""


@dataclass
class Table:
    """A display-only table of a check (``title``, ``columns``, ``rows``, ``note``): shown in the supplement, never
    deciding anything."""

    title: str
    columns: list
    rows: list
    note: str = ""

    def as_dict(self):
        return {"title": self.title, "columns": list(self.columns), "rows": [list(r) for r in self.rows],
                "note": self.note}


@dataclass
class Evidence:
    """A check's return value: the evidence and display tables (``Evidence(node, tables=[...])``); a bare node
    is accepted too."""

    node: Any
    tables: list = field(default_factory=list)
    error_kind: str | None = None


# -- collection: functions evaluated into data -------------------------------------------------------------
def locate_extremum(f, lo, hi, sense: str = "max", grid: int = 64):
    """The location of the extremum of ``f`` on ``[lo, hi]`` (a grid scan, then golden-section refinement at the
    working precision) as an :class:`~cbdp_sym.core.numbers.Estimate` with the digits the search established
    (about half the working precision: the value is flat at an extremum), and the extremal value.  ``grid``: the
    scan's intervals (``1``: ``[lo, hi]`` is already a bracket of a unimodal ``f``)."""
    lo, hi = _to_mp(lo), _to_mp(hi)
    sign = 1 if sense == "max" else -1
    n = max(int(grid), 1)
    xs = [lo + (hi - lo) * k / n for k in range(n + 1)]
    ys = [sign * f(x) for x in xs]
    k = max(range(len(xs)), key=lambda i: ys[i])
    a, b = xs[max(k - 1, 0)], xs[min(k + 1, n)]
    invphi = (mp.sqrt(5) - 1) / 2
    tol = mp.mpf(10) ** (-(mp.mp.dps // 2 - 2))
    c, d = b - invphi * (b - a), a + invphi * (b - a)
    fc, fd = sign * f(c), sign * f(d)
    for _ in range(4 * mp.mp.dps):
        if abs(b - a) <= tol * max(1, abs(a)):
            break
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = sign * f(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = sign * f(d)
    x = (a + b) / 2
    width = abs(b - a) / max(abs(x), mp.mpf(10) ** -mp.mp.dps)
    got = int(max(1, min(mp.mp.dps - 10, -mp.log10(width) if width > 0 else mp.mp.dps - 10)))
    return Estimate(x, got), sign * max(fc, fd)


def _locate_root(f, lo, hi):
    a, b = _to_mp(lo), _to_mp(hi)
    fa, fb = f(a), f(b)
    if fa == 0:
        return Estimate(a, mp.mp.dps - 10)
    if fb == 0:
        return Estimate(b, mp.mp.dps - 10)
    if (fa > 0) == (fb > 0):
        return None
    for _ in range(int(3.4 * mp.mp.dps) + 20):
        m = (a + b) / 2
        fm = f(m)
        if fm == 0:
            a = b = m
            break
        if (fm > 0) == (fa > 0):
            a, fa = m, fm
        else:
            b, fb = m, fm
    x = (a + b) / 2
    return Estimate(x, mp.mp.dps - 10)


def _printed_interval(printed: str):
    d = len(printed.split(".")[1]) if "." in printed else 0
    h = mp.mpf(5) / mp.mpf(10) ** (d + 1)
    p = mp.mpf(printed)
    return p - h, p + h


def collect(node, dps: int):
    """The evidence as data: families evaluated, crossings and extrema located, failing comparisons certified.
    Returns a tree of :class:`Compare` (values only) and :class:`Group` nodes; tables are kept aside."""
    if isinstance(node, Evidence):
        return collect(node.node, dps)
    if isinstance(node, Group):
        return Group(node.kind, [collect(p, dps) for p in node.parts], node.what, node.domain, node.size,
                     list(node.names), list(node.seeds), node.note)
    if isinstance(node, (list, tuple)):
        return Group("all", [collect(p, dps) for p in node])
    if isinstance(node, Crossing):
        root = _locate_root(node.f, node.lo, node.hi)
        lo, hi = _printed_interval(node.printed)
        cert = None
        if root is not None:
            a, b = node.f(lo), node.f(hi)
            if (a > 0) != (b > 0) and a != 0 and b != 0:
                cert = (f"sign change of the difference on the printed rounding interval [{mp_str(lo, 8)}, "
                        f"{mp_str(hi, 8)}] ({mp_str(a, 4)}, {mp_str(b, 4)})")
        c = Compare(claimed=node.printed, computed=root if root is not None else mp.nan, rel="~", at=dict(node.at),
                    what=node.what)
        c._certificate = cert
        return c
    if isinstance(node, Extremum):
        x, _val = locate_extremum(node.f, node.lo, node.hi, node.sense)
        return Compare(claimed=node.printed, computed=x, rel="~", at=dict(node.at), what=node.what)
    if isinstance(node, Compare):
        c = Compare(node.claimed, node.computed, node.rel, dict(node.at), node.what, None, None, node.origin,
                    node.needs)
        leaf = decide_leaf(c, dps)
        c._certificate = None
        if leaf.status == Status.REFUTED:
            c._certificate = _certificate(node, leaf)
        return c
    raise TypeError(f"a check must return evidence (Compare, over, All, ...), not {type(node).__name__}")


def _certificate(node: Compare, leaf) -> str | None:
    if leaf.exact:
        return "exact arithmetic"
    A = _arb_class()
    if A is not None and isinstance(node.computed, A) and isinstance(node.claimed, A):
        return "Arb balls of both sides are disjoint"
    if node.certify is not None:
        try:
            return node.certify()
        except Exception:  # noqa: BLE001 - a failed certificate leaves the refutation uncertified
            return None
    if node.closed is not None:
        cla, com, pt, syms = node.closed
        try:
            if node.rel == "=":
                return certify_different(cla, com, pt, syms)
            if node.rel in ("<=", "<"):
                return certify_less(cla, com, pt, syms)
            return certify_less(com, cla, pt, syms)
        except Exception:  # noqa: BLE001
            return None
    return None


# -- decision ------------------------------------------------------------------------------------------------
@dataclass
class Leaf:
    status: Status
    slack: Any = None  # bounds: signed relative slack
    digits: float | None = None  # identities: digits of agreement
    established: float = INF  # digits both sides established (the smaller)
    exact: bool = False
    reason: str = ""  # inconclusive: why
    precision: bool = False  # undecided only for want of precision (a higher precision may decide it)
    equal: bool = False  # a bound whose two sides are equal within the digits they established


def decide_leaf(c: Compare, dps: int) -> Leaf:
    """The verdict of one comparison (the one rule): identities agree to ``dps - 5`` digits; a bound fails when its
    relative slack is below ``-10^-e`` with ``e`` the digits both sides established (capped at ``dps - 5``); a
    difference inside the established digits is not a counterexample (``inconclusive``, a precision question)."""
    tol = dps - 5 if c.needs is None else min(dps - 5, c.needs)
    if c.rel == "~":
        return _decide_printed(c, dps)
    a, b = c.claimed, c.computed
    if _is_symbolic(a) or _is_symbolic(b):
        return _decide_symbolic(c)
    exact = _is_exact(a) and _is_exact(b)
    if exact:
        A, B = _exact_sympy(a), _exact_sympy(b)
        if c.rel == "=":
            same = sp.simplify(A - B) == 0 if (A.is_finite and B.is_finite) else A == B
            return Leaf(Status.VERIFIED if same else Status.REFUTED, digits=INF if same else None, exact=True)
        holds = {"<=": B <= A, "<": B < A, ">=": B >= A, ">": B > A}[c.rel]
        with mp.workdps(dps + 10):
            s = relative_slack(_BOUND_KIND[c.rel].replace("strict-", ""), _to_mp(A), _to_mp(B))
        return Leaf(Status.HOLDS if bool(holds) else Status.REFUTED, slack=s, exact=True)
    est = min(_established(a, dps), _established(b, dps))
    with mp.workdps(dps + 10):
        x, y = _to_mp(b), _to_mp(a)
        if mp.isnan(x) or mp.isnan(y):
            return Leaf(Status.INCONCLUSIVE, reason="a side is not a number (nan)")
        if c.rel == "=":
            if x == y:
                return Leaf(Status.VERIFIED, digits=INF, established=est)
            if mp.isinf(x) or mp.isinf(y):
                return Leaf(Status.REFUTED, digits=0.0, established=est)
            d = float(digits_of(x, y))
            if d >= tol:
                return Leaf(Status.VERIFIED, digits=d, established=est)
            if d >= est - 1:
                return Leaf(Status.INCONCLUSIVE, digits=d, established=est, precision=True,
                            reason=f"the sides agree to all {_fmt_digits(est)} digits established, fewer than the "
                                   f"{tol} an identity needs")
            return Leaf(Status.REFUTED, digits=d, established=est)
        kind = _BOUND_KIND[c.rel]
        s = relative_slack(kind.replace("strict-", ""), y, x)
        strict = kind.startswith("strict")
        if mp.isinf(s):
            return Leaf(Status.HOLDS if s > 0 else Status.REFUTED, slack=s, established=est)
        # the sides' uncertainties: each value is known to its established digits (at most the identity tolerance's),
        # relative to itself; an exact side (an exact 0 bound) is known exactly
        e_b = min(tol, _established(a, dps)) if _established(a, dps) != INF else None
        e_q = min(tol, _established(b, dps)) if _established(b, dps) != INF else None
        unc = (abs(y) * mp.mpf(10) ** -e_b if e_b is not None else 0) + \
              (abs(x) * mp.mpf(10) ** -e_q if e_q is not None else 0)
        margin = (x - y) if kind.endswith("lower") else (y - x)
        if margin < -unc:
            return Leaf(Status.REFUTED, slack=s, established=est)
        if strict and margin <= unc:
            return Leaf(Status.INCONCLUSIVE, slack=s, established=est, precision=True, equal=True,
                        reason=f"the two sides agree to the {_fmt_digits(min(tol, est))} digits established: the "
                               "strict inequality is not decided at this precision")
        return Leaf(Status.HOLDS, slack=s, established=est, equal=bool(abs(margin) <= unc))


def _exact_sympy(x):
    """An exact value as a SymPy number (never through a float: ``Fraction(1, 3)`` is ``1/3``)."""
    if isinstance(x, sp.Basic):
        return x
    if isinstance(x, Fraction):
        return sp.Rational(x.numerator, x.denominator)
    return sp.Integer(x)


def _fmt_digits(d) -> str:
    return "all" if d == INF else f"{int(d)}"


def _decide_printed(c: Compare, dps: int) -> Leaf:
    printed = str(c.claimed)
    with mp.workdps(dps + 10):
        v = _to_mp(c.computed)
        if mp.isnan(v):
            return Leaf(Status.INCONCLUSIVE, reason="the value could not be located")
        lo, hi = _printed_interval(printed)
        est = _established(c.computed, dps)
        d = len(printed.split(".")[1]) if "." in printed else 0
        if est != INF and est < _sig_digits(printed) + 1:
            return Leaf(Status.INCONCLUSIVE, established=est, precision=True,
                        reason=f"the value is established to {int(est)} digits, too few to round to {printed}")
        inside = lo <= v < hi
        margin = min(v - lo, hi - v) / max(abs(v), mp.mpf(10) ** -(d + 2))
        return Leaf(Status.VERIFIED if inside else Status.REFUTED, slack=margin, established=est)


def _decide_symbolic(c: Compare) -> Leaf:
    a, b = sp.sympify(c.claimed), sp.sympify(c.computed)
    if c.rel != "=":
        return Leaf(Status.INCONCLUSIVE, reason="a symbolic inequality is decided at points, not symbolically")
    try:
        with time_limit(30, "symbolic comparison"):
            d = sp.simplify(a - b)
            if d == 0 or sp.simplify(sp.expand_log(sp.expand(d), force=True)) == 0:
                return Leaf(Status.VERIFIED, digits=INF, exact=True)
            if sp.simplify((a - b).rewrite(sp.exp)) == 0:  # hyperbolic and exponential forms of one function
                return Leaf(Status.VERIFIED, digits=INF, exact=True)
    except DerivationTimeout:
        pass
    return Leaf(Status.INCONCLUSIVE, reason="SymPy could not simplify the difference of the two forms to 0")


@dataclass
class Decision:
    """What the engine decided from a check's evidence."""

    status: Status
    message: str
    checks: list = field(default_factory=list)
    counterexample: dict | None = None
    tables: list = field(default_factory=list)
    readings: list = field(default_factory=list)
    evidence: dict | None = None  # the summary audit.json carries (domain, coverage, decisive point, digits)
    precision_limited: bool = False
    error_kind: str | None = None


def _leaves(node, path=()):
    if isinstance(node, Compare):
        yield path, node
    elif isinstance(node, Group):
        for i, p in enumerate(node.parts):
            yield from _leaves(p, path + (i,))


def _node_status(node, dps, memo) -> tuple[Status, bool]:
    """``(status, precision_limited)`` of a node."""
    if isinstance(node, Compare):
        leaf = decide_leaf(node, dps)
        memo[id(node)] = leaf
        return leaf.status, leaf.precision and leaf.status == Status.INCONCLUSIVE
    subs = [_node_status(p, dps, memo) for p in node.parts]
    sts = [s for s, _ in subs]
    prec = any(p for s, p in subs if s == Status.INCONCLUSIVE)
    if not sts:
        return Status.INCONCLUSIVE, False
    if node.kind == "exists":
        if any(s in (Status.VERIFIED, Status.HOLDS) for s in sts):
            return Status.VERIFIED, False
        return Status.INCONCLUSIVE, prec
    if node.kind == "readings":
        failing = [s for s in sts if s == Status.REFUTED]
        if Status.ERROR in sts:
            return Status.ERROR, False
        if failing and len(failing) < len(sts):
            return Status.AMBIGUOUS, False
        if failing:
            return Status.REFUTED, False
        return Status(merge(sts)), prec
    st = Status(merge(sts))
    if node.kind == "family" and node.size is not None and len(node.parts) < node.size and st != Status.REFUTED:
        return Status.INCONCLUSIVE, False
    return st, prec


def _point_text(at: dict) -> str:
    """A point as prose: numeric coordinates as one math span (``$\\alpha = 3,\\ n = 2$``), labels (an instance's
    description, prose that may hold its own ``$...$``) as text after it; never ``$`` inside ``$``."""
    if not at:
        return ""
    nums = {k: _at_text(v) for k, v in at.items() if _numeric_coordinate(v)}
    labels = [(k, str(v)) for k, v in at.items() if not _numeric_coordinate(v)]
    parts = (["$" + params_tex(nums) + "$"] if nums else [])
    parts += [(label if k == "instance" else f"{k.replace('_', ' ')} {label}") for k, label in labels]
    return ", ".join(parts)


def _numeric_coordinate(v) -> bool:
    if isinstance(v, (tuple, list, sp.Tuple)):
        return all(_numeric_coordinate(x) for x in v)
    if isinstance(v, (int, Fraction, mp.mpf)) or (isinstance(v, sp.Basic) and v.is_number):
        return True
    return isinstance(v, str) and "$" not in v and is_number(v)


def _at_text(v):
    if isinstance(v, (tuple, list, sp.Tuple)):
        return "(" + ", ".join(_at_text(x) for x in v) + ")"
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, mp.mpf):
        return mp_str(v, 12)
    return str(v)


def params_json(at: dict) -> dict:
    """A point as typed JSON parameters: numbers as exact strings, vectors as arrays, instance labels as text."""
    out = {}
    for k, v in at.items():
        if isinstance(v, (tuple, list, sp.Tuple)):
            out[str(k)] = [_at_text(x) for x in v]
        else:
            out[str(k)] = _at_text(v)
    return out


def _leaf_line(c: Compare, leaf: Leaf, dps: int) -> str:
    where = _point_text(c.at)
    where = f" at {where}" if where else ""
    cla, com = value_text(c.claimed, 12), value_text(c.computed, 12)
    rel = _REL_TEX[c.rel]
    if leaf.status == Status.INCONCLUSIVE:
        return f"undecided{where}: {leaf.reason}"
    if c.rel == "~":
        word = "rounds" if leaf.status == Status.VERIFIED else "does not round"
        return f"the located value {com} {word} to the printed {c.claimed}{where}"
    if c.rel == "=":
        if leaf.status == Status.VERIFIED:
            if leaf.digits == INF:
                agree = "exactly" if leaf.established == INF else f"to all {int(leaf.established)} digits established"
            else:
                agree = f"to {leaf.digits:.1f} digits"
            return f"equal {agree}{where}"
        return f"computed {com} against the claimed {cla}{where}"
    if leaf.status == Status.REFUTED:
        return (f"computed ${com} {_not_rel(c.rel)} {cla}$" if not _has_inf(cla, com) else f"computed {com} vs {cla}") + \
               f"{where} (relative slack {value_text(leaf.slack, 4)})"
    return f"smallest relative slack {_slack_text(leaf)}{where}"


def _has_inf(*xs):
    return any("inf" in str(x) for x in xs)


def _not_rel(rel):
    return {"<=": ">", "<": r"\ge", ">=": "<", ">": r"\le"}[rel]


def _slack_text(leaf: Leaf) -> str:
    s = leaf.slack
    if s is None:
        return "--"
    if leaf.equal:
        return ("0 (equal to the digits established)" if leaf.established == INF else
                f"0 (equal to the {int(leaf.established)} digits established)")
    return value_text(s, 4) if not isinstance(s, str) else s


def _check_row(c: Compare, leaf: Leaf, dps: int) -> Check:
    ch = Check(params_json(c.at), claimed=value_text(c.claimed, dps), numeric=value_text(c.computed, dps),
               origin=c.origin)
    if leaf.digits is not None:
        ch.digits = float(min(round(leaf.digits, 1), dps + 10)) if leaf.digits != INF else float(dps + 10)
    if leaf.slack is not None:
        ch.slack = value_text(leaf.slack, 8)
    if leaf.established != INF:
        ch.established = int(leaf.established)
    return ch


def _simplicity(c: Compare) -> float:
    try:
        return point_simplicity({k: _at_text(v) for k, v in c.at.items()})
    except Exception:  # noqa: BLE001
        return 1e9


#: the keys of every counterexample in audit.json, always all present (null where they do not apply)
CX_KEYS = ("params", "what", "relation", "quantity", "bound", "derived", "relative_slack", "digits", "certified",
           "certificate", "worst")


def counterexample(params: dict, *, relation: str, quantity, bound, derived=None, relative_slack=None, digits=None,
                   certified: bool = False, certificate: str | None = None, what: str | None = None,
                   worst: dict | None = None) -> dict:
    """A counterexample in the one layout of ``audit.json`` (:data:`CX_KEYS`): the point (typed ``params``: exact
    strings, vectors as arrays), the relation the claim asserts (``computed REL claimed``), the computed
    ``quantity``, the claimed side ``bound`` (a bound, or the printed value of an identity), the derived closed
    form's value where it differs from the quantity, the relative slack (bounds) or digits of agreement
    (identities), whether ball arithmetic certifies it and how, and the worst point when it is not the one shown."""
    return {"params": params, "what": what or None, "relation": relation, "quantity": quantity, "bound": bound,
            "derived": derived, "relative_slack": relative_slack, "digits": digits, "certified": bool(certified),
            "certificate": certificate, "worst": worst}


def _counterexample(c: Compare, leaf: Leaf, dps: int) -> dict:
    cert = getattr(c, "_certificate", None)
    return counterexample(
        params_json(c.at), what=c.what, relation=c.rel, quantity=value_text(c.computed, dps),
        bound=value_text(c.claimed, dps),
        relative_slack=value_text(leaf.slack, 6) if leaf.slack is not None and c.rel != "~" else None,
        digits=(None if leaf.digits is None else (float(dps + 10) if leaf.digits == INF else round(leaf.digits, 1))),
        certified=cert is not None,
        certificate=cert or "not certified: the sides were computed with mpmath at the working precision")


def _group_text(node: Group, status: Status, dps: int, memo) -> str:
    """The engine's sentence for a group: coverage, the decisive member, the smallest slack."""
    leaves = [(c, memo[id(c)]) for _p, c in _leaves(node) if id(c) in memo]
    head = node.what + ": " if node.what else ""
    n = len(node.parts)
    if node.kind == "family":
        cov = f"{n} of {node.size} members of {node.domain}" if node.size and n < node.size else \
              f"all {n} members of {node.domain}"
    elif node.kind == "sample":
        cov = f"{n} instances of {node.domain}" if node.domain else f"{n} instances"
    else:
        cov = ""
    failing = [(c, l) for c, l in leaves if l.status == Status.REFUTED]
    undecided = [(c, l) for c, l in leaves if l.status == Status.INCONCLUSIVE]
    if status == Status.REFUTED and failing:
        c, l = min(failing, key=lambda t: (getattr(t[0], "_certificate", None) is None, _simplicity(t[0])))
        return head + _leaf_line(c, l, dps) + (f" ({len(failing)} of {len(leaves)} comparisons fail" +
                                              (f" on {cov})" if cov else ")") if len(leaves) > 1 else "") + \
            (" (certified)" if getattr(c, "_certificate", None) else "")
    if node.kind == "family" and node.size is not None and n < node.size:
        return head + f"only {cov} were checked: a verdict on a finite family needs every member"
    if undecided and status == Status.INCONCLUSIVE:
        c, l = undecided[0]
        return head + _leaf_line(c, l, dps)
    bounds = [(c, l) for c, l in leaves if l.slack is not None and c.rel != "~"]
    idents = [(c, l) for c, l in leaves if l.digits is not None]
    parts = []
    if cov:
        parts.append(("on " if leaves else "") + cov)
    if bounds:
        c, l = min(bounds, key=lambda t: t[1].slack)
        parts.append(f"smallest relative slack {_slack_text(l)}" + (f" at {_point_text(c.at)}" if c.at else ""))
    if idents:
        c, l = min(idents, key=lambda t: t[1].digits)
        parts.append("every comparison equal " + (("exactly" if l.established == INF else
                                                   f"to all {int(l.established)} digits established")
                                                  if l.digits == INF else f"to at least {l.digits:.1f} digits"))
    printed = [(c, l) for c, l in leaves if c.rel == "~"]
    for c, l in printed:
        parts.append(_leaf_line(c, l, dps))
    return head + "; ".join(parts) if parts else head.rstrip(": ")


#: a family's comparisons beyond this many are summarised in the checks (all of them stay in the evidence tree)
SHOWN_PER_FAMILY = 8


def _shown_leaves(node, memo) -> list:
    """The comparisons shown as checks: every comparison outside families; of a family with more than
    :data:`SHOWN_PER_FAMILY` members, the failing and undecided ones (up to that many) and the decisive one (the
    smallest slack or digits), in the family's order.  The evidence tree keeps every comparison."""
    if isinstance(node, Compare):
        return [node]
    if node.kind in ("family", "sample"):
        leaves = [c for _p, c in _leaves(node)]
        if len(leaves) > SHOWN_PER_FAMILY:
            bad = [c for c in leaves if memo[id(c)].status in (Status.REFUTED, Status.INCONCLUSIVE)]
            dec = _decisive(leaves, Status.HOLDS if not bad else Status.REFUTED, memo)
            keep = {id(c) for c in bad[:SHOWN_PER_FAMILY]} | ({id(dec[0])} if dec else set())
            return [c for c in leaves if id(c) in keep]
    return [c for p in node.parts for c in _shown_leaves(p, memo)]


def decide(node, dps: int) -> Decision:
    """The verdict of collected evidence (:func:`collect`): the status by the one rule, the engine's message, the
    checks (one per comparison), the simplest certified counterexample, and the evidence summary."""
    memo: dict = {}
    status, prec = _node_status(node, dps, memo)
    checks = [_check_row(c, memo[id(c)], dps) for c in _shown_leaves(node, memo)]
    cx = None
    failing = [c for _p, c in _leaves(node) if memo[id(c)].status == Status.REFUTED]
    if status in (Status.REFUTED, Status.AMBIGUOUS) and failing:
        c = min(failing, key=lambda c: (getattr(c, "_certificate", None) is None, _simplicity(c)))
        cx = _counterexample(c, memo[id(c)], dps)
    message = _message(node, status, dps, memo)
    readings = []
    if isinstance(node, Group) and node.kind == "readings":
        for i, p in enumerate(node.parts):
            st, _ = _node_status(p, dps, memo)
            row = {"name": node.names[i], "status": st.value, "message": _message(p, st, dps, memo),
                   "seeds": node.seeds[i] if i < len(node.seeds) else ""}
            if i == 0:
                row["literal"] = True
            readings.append(row)
    ek = "proof-step" if isinstance(node, Group) and node.kind == "chain" and status == Status.REFUTED else None
    if status == Status.AMBIGUOUS:
        ek = "reading"
    return Decision(status, message, checks, cx, [], readings, summary(node, status, dps, memo), prec, ek)


def _message(node, status, dps, memo) -> str:
    text = _message_body(node, status, dps, memo)
    if isinstance(node, Group) and node.note:
        text += f" ({node.note})"
    return text


def _message_body(node, status, dps, memo) -> str:
    if isinstance(node, Compare):
        leaf = memo.get(id(node)) or decide_leaf(node, dps)
        return (node.what + ": " if node.what else "") + _leaf_line(node, leaf, dps)
    if node.kind in ("all", "chain", "readings") and len(node.parts) > 1:
        subs = []
        for p in node.parts:
            st, _ = _node_status(p, dps, memo)
            subs.append((st, _message(p, st, dps, memo)))
        if node.kind == "readings":
            text = "; ".join(f"{node.names[i]}: {s.value}" for i, (s, _m) in enumerate(subs))
            return (node.what + ": " if node.what else "") + text + ". " + subs[0][1]
        if node.kind == "chain" and status == Status.REFUTED:
            bad = [m for s, m in subs if s == Status.REFUTED]
            return (node.what + ": " if node.what else "") + "the first failing link: " + bad[0]
        return (node.what + ": " if node.what else "") + "; ".join(m for _s, m in subs)
    if node.kind in ("all", "chain", "readings") and len(node.parts) == 1:
        st, _ = _node_status(node.parts[0], dps, memo)
        inner = _message(node.parts[0], st, dps, memo)
        return (node.what + ": " if node.what else "") + inner
    if node.kind == "exists":
        st, _ = _node_status(node, dps, memo)
        inner = "; ".join(_message(p, _node_status(p, dps, memo)[0], dps, memo) for p in node.parts)
        lead = "a witness: " if st == Status.VERIFIED else "the witness does not show it: "
        return (node.what + ": " if node.what else "") + lead + inner
    return _group_text(node, status, dps, memo)


def summary(node, status, dps, memo) -> dict:
    """The evidence summary of ``audit.json``: the family or domain, its coverage, the decisive comparison and the
    digits each side established there."""
    leaves = [c for _p, c in _leaves(node)]
    fams = [g for g in _groups(node) if g.kind in ("family", "sample")]
    out = {"comparisons": len(leaves),
           "families": [{"domain": g.domain, "kind": "finite" if g.kind == "family" else "sample",
                         "size": g.size, "covered": len(g.parts)} for g in fams]}
    dec = _decisive(leaves, status, memo)
    if dec is not None:
        c, leaf = dec
        out["decisive"] = {"params": params_json(c.at), "what": c.what or None, "relation": c.rel,
                           "claimed": value_text(c.claimed, dps), "computed": value_text(c.computed, dps),
                           "established_claimed": _dig_json(_established(c.claimed, dps)),
                           "established_computed": _dig_json(_established(c.computed, dps))}
    return out


def _dig_json(d):
    return None if d == INF else int(d)


def _groups(node):
    if isinstance(node, Group):
        yield node
        for p in node.parts:
            yield from _groups(p)


def _decisive(leaves, status, memo):
    if not leaves:
        return None
    decided = [(c, memo[id(c)]) for c in leaves if id(c) in memo]
    if status == Status.REFUTED:
        bad = [(c, l) for c, l in decided if l.status == Status.REFUTED]
        return min(bad, key=lambda t: (getattr(t[0], "_certificate", None) is None, _simplicity(t[0]))) if bad else None
    und = [(c, l) for c, l in decided if l.status == Status.INCONCLUSIVE]
    if und:
        return und[0]
    slacked = [(c, l) for c, l in decided if l.slack is not None and c.rel != "~"]
    if slacked:
        return min(slacked, key=lambda t: t[1].slack)
    dg = [(c, l) for c, l in decided if l.digits is not None]
    if dg:
        return min(dg, key=lambda t: t[1].digits)
    return decided[0]


# -- stored evidence: JSON, and back ------------------------------------------------------------------------
def _value_json(x, dps):
    if isinstance(x, sp.Basic) and (x.free_symbols or (_is_exact(x) and not x.is_Rational
                                                       and x not in (sp.oo, -sp.oo))):
        return {"expr": sp.srepr(x)}  # a closed form (sqrt(2), pi/4) stays exact
    return value_text(x, dps + 10 if _established(x, dps) == INF else dps)


def to_json(node, dps: int) -> dict:
    """The collected evidence as JSON (values with the digits they established; exact values exactly)."""
    if isinstance(node, Compare):
        out = {"claimed": _value_json(node.claimed, dps), "computed": _value_json(node.computed, dps),
               "rel": node.rel, "at": params_json(node.at)}
        ec, eq = _established(node.claimed, dps), _established(node.computed, dps)
        if ec != INF and not isinstance(node.claimed, str):
            out["established_claimed"] = int(ec)
        if eq != INF:
            out["established_computed"] = int(eq)
        if node.what:
            out["what"] = node.what
        cert = getattr(node, "_certificate", None)
        if cert:
            out["certificate"] = cert
        if node.origin != "grid":
            out["origin"] = node.origin
        if node.needs is not None:
            out["needs"] = node.needs
        return out
    out = {"group": node.kind, "parts": [to_json(p, dps) for p in node.parts]}
    for k in ("what", "domain", "note"):
        if getattr(node, k):
            out[k] = getattr(node, k)
    if node.size is not None:
        out["size"] = node.size
    if node.names:
        out["names"] = list(node.names)
        out["seeds"] = list(node.seeds)
    return out


def _value_from(v, est):
    if isinstance(v, dict) and "expr" in v:
        return sp.sympify(v["expr"])  # (srepr of an expression the engine wrote; see from_json's note)
    if est is None:
        s = str(v)
        if s in ("inf", "-inf"):
            return sp.oo if s == "inf" else -sp.oo
        if "/" in s:
            a, b = s.split("/")
            return Fraction(int(a), int(b))
        if s.lstrip("-").isdigit():
            return int(s)
        return s  # a printed decimal (the ``~`` relation's claimed side)
    return Estimate(mp.mpf(v), est)


def from_json(data: dict):
    """Evidence read back from :func:`to_json` (for the mutation battery and re-decisions): comparisons with their
    values and established digits, groups with their coverage.  Only audit output the engine itself wrote is
    read this way (never a cache entry)."""
    if "group" in data:
        return Group(data["group"], [from_json(p) for p in data["parts"]], data.get("what", ""),
                     data.get("domain", ""), data.get("size"), list(data.get("names", [])),
                     list(data.get("seeds", [])), data.get("note", ""))
    ec = data.get("established_claimed")
    eq = data.get("established_computed")
    claimed = _value_from(data["claimed"], ec)
    computed = _value_from(data["computed"], eq)
    if data["rel"] != "~" and isinstance(claimed, str):
        claimed = Estimate(mp.mpf(claimed), _sig_digits(claimed))
    c = Compare(claimed, computed, data["rel"], dict(data.get("at", {})), data.get("what", ""),
                origin=data.get("origin", "grid"), needs=data.get("needs"))
    c._certificate = data.get("certificate")
    return c


# -- a check's output, collected ----------------------------------------------------------------------------
@dataclass
class Collected:
    """A check's evidence after :func:`collect`: the data tree, the display tables, a declared error kind."""

    tree: Any
    tables: list = field(default_factory=list)
    error_kind: str | None = None

    def as_json(self, dps: int) -> dict:
        return {"tree": to_json(self.tree, dps), "tables": [t.as_dict() if isinstance(t, Table) else t
                                                            for t in self.tables],
                "error_kind": self.error_kind}

    @classmethod
    def from_json(cls, data: dict) -> "Collected":
        return cls(from_json(data["tree"]), list(data.get("tables", [])), data.get("error_kind"))


SHAPES = (Compare, Group, Crossing, Extremum, Evidence, Collected)


def is_evidence(out) -> bool:
    """Whether a check returned evidence (the engine decides) rather than a legacy result."""
    return isinstance(out, SHAPES) or (isinstance(out, (list, tuple)) and out and all(isinstance(o, SHAPES) for o in out))


def collect_evidence(out, dps: int) -> Collected:
    """:func:`collect` of a check's return value, its tables kept aside."""
    if isinstance(out, Collected):
        return out
    tables, ek = [], None
    if isinstance(out, Evidence):
        tables, ek, out = [t.as_dict() if isinstance(t, Table) else t for t in out.tables], out.error_kind, out.node
    return Collected(collect(out, dps), tables, ek)
