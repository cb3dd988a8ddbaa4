"""Claims: one object per statement of a paper, with its parameters, forms and numeric definition.

A derivation module under ``derivations/<paper>/`` defines module-level :class:`Claim` objects; the
registry (:mod:`cbdp_sym.app.registry`) collects them the way pytest collects tests.

A claim carries

* ``claimed``: the statement **as printed** (a SymPy expression built from the parameters' symbols),
* ``derive``: a function that derives the quantity with the engine's operations (the steps are
  recorded on the tape while it runs),
* ``numeric``: the independent numeric definition, a function of the parameter point ``{name: value}`` with
  **exact SymPy numbers** as values (``Rational``, ``Integer``; a vector is a ``Tuple``), called inside
  ``mpmath.workdps(dps + 10)``; it integrates and optimises the defining objects and returns an mpf (or a
  :class:`cbdp_sym.core.numbers.Estimate` when it established fewer digits).

Which side is which: for an identity, ``claimed`` is the printed closed form and ``derive`` / ``numeric``
compute the same quantity; for a bound (``upper``, ``lower``, ``strict-upper``), ``claimed`` is the printed
**bound** and ``derive`` / ``numeric`` compute the **quantity** it bounds (``quantity <= bound`` for upper).

Example (a claim of one's own, in a notebook)::

    >>> import sympy as sp
    >>> from cbdp_sym import Claim, Param, Laplace, KL, f_divergence, fdiv_mp
    >>> eps = sp.Symbol("epsilon", positive=True)
    >>> c = Claim(
    ...     id="MY-KL", paper="mine", label="KL of two Laplace laws", kind="identity",
    ...     statement=r"\\mathrm{KL} = \\varepsilon - 1 + e^{-\\varepsilon}",
    ...     params=[Param.positive("eps", eps)],
    ...     claimed=lambda: eps - 1 + sp.exp(-eps),
    ...     derive=lambda: f_divergence(KL, Laplace(0, 1/eps), Laplace(1, 1/eps))[0],
    ...     numeric=lambda v: fdiv_mp(KL, Laplace(0, 1/v["eps"]), Laplace(1, 1/v["eps"])),
    ... )
    >>> from cbdp_sym import audit_claim
    >>> audit_claim(c, dps=30).status
    'verified'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.verdict import ERROR_KINDS
from cbdp_sym.core.numbers import parse_number

class Kind(str, Enum):
    """What a claim states: an ``identity``, a bound (``upper``, ``lower``, ``strict-upper``), a ``check`` (its
    function returns evidence the engine decides), or a ``definition`` / ``cited`` result (listed, not audited).
    A ``str`` enum: ``Kind.UPPER == "upper"``."""

    IDENTITY = "identity"
    UPPER = "upper"
    LOWER = "lower"
    STRICT_UPPER = "strict-upper"
    DEFINITION = "definition"
    CITED = "cited"
    CHECK = "check"

    __str__ = str.__str__
    __format__ = str.__format__


KINDS = tuple(k.value for k in Kind)


class Domain(str, Enum):
    """A parameter's domain (a ``str`` enum: ``Domain.POSITIVE == "positive"``)."""

    POSITIVE = "positive"
    REAL = "real"
    GT1 = "gt1"  # greater than 1 (an order alpha)
    GT1_OR_INF = "gt1-or-inf"
    NONZERO = "nonzero"
    UNIT = "unit"  # the open interval (0, 1)
    POSITIVE_INT = "positive-int"
    INTEGER = "integer"
    VECTOR = "vector"

    __str__ = str.__str__
    __format__ = str.__format__


class Role(str, Enum):
    """What part of a paper a claim is: a finding's severity follows from its claims' roles and error kinds
    (:mod:`cbdp_sym.verify.findings`).  Inferred from the claim's ``where``/ID when not declared."""

    THEOREM = "theorem"
    LEMMA = "lemma"
    COROLLARY = "corollary"
    PROPOSITION = "proposition"
    TABLE = "table"
    CONSTANT = "constant"  # a constant or an asymptotic order inside a result (the result itself survives)
    PROOF = "proof"  # a step or chain of a proof
    FIGURE = "figure"
    REMARK = "remark"  # a remark, an example, a sentence of prose
    DEFINITION = "definition"

    __str__ = str.__str__
    __format__ = str.__format__


def infer_role(claim) -> Role:
    """A claim's role: declared, else from its ID (``-CHAIN``, ``-PROOF``, ``-STEP``: a proof) and ``where``
    (Theorem, Lemma, Corollary, Proposition, Table, Fig., Remark), else a remark of the prose.

    >>> infer_role(Claim(id="X-T1", where="Sec. 3, Theorem 2")).value, infer_role(Claim(id="X-T1-CHAIN")).value
    ('theorem', 'proof')
    """
    if claim.role is not None:
        return Role(claim.role)
    parts = claim.id.upper().split("-")
    if any(p in ("CHAIN", "PROOF") or p.startswith("STEP") for p in parts[2:]):
        return Role.PROOF
    if claim.kind in ("definition", "cited"):
        return Role.DEFINITION
    where = f"{claim.where} {claim.label}".lower()
    for words, role in ((("theorem", "thm."), Role.THEOREM), (("lemma",), Role.LEMMA),
                        (("corollary", "cor."), Role.COROLLARY), (("proposition", "prop."), Role.PROPOSITION),
                        (("table",), Role.TABLE), (("fig.", "figure"), Role.FIGURE), (("remark",), Role.REMARK)):
        if any(w in where for w in words):
            return role
    return Role.REMARK


#: claims by ID, as their modules define them (a claim's ``uses`` names others by ID)
BY_ID: dict = {}


class Search(dict):
    """An adversarial search box for a bound: ``{param name: (lo, hi)}`` (exact strings), with the evaluation
    budget ``evals`` (a count, never a time: reports are reproducible) and the digits ``dps`` it runs at.

    >>> s = Search({"eps": ("1/1000", "100")}, evals=40)
    >>> s["eps"], s.evals, s.dps
    (('1/1000', '100'), 40, 20)
    """

    def __init__(self, box=(), *, evals: int = 120, dps: int = 20):
        super().__init__(box)
        self.evals, self.dps = int(evals), int(dps)

    @property
    def box(self) -> dict:
        return dict(self)


@dataclass
class Param:
    """A parameter of a claim: CLI name, SymPy symbol, domain and points spread over the domain."""

    name: str
    symbol: sp.Symbol
    domain: Domain  # a Domain (a string of one of its values is accepted and converted)
    points: tuple
    description: str = ""
    bounds: tuple | None = None  # (lo, hi) strict, for an extra restriction (e.g. |a| < eps)
    length_of: str | None = None  # vectors: the name of the dimension parameter
    finite: bool = False  # a finite domain: ``points`` is all of it, and every point is checked

    @classmethod
    def positive(cls, name, symbol, points=("1/1000", "1/10", "1", "7/2", "100"), description=""):
        return cls(name, symbol, "positive", tuple(points), description)

    @classmethod
    def real(cls, name, symbol, points=("-3", "-1/2", "0", "1", "5/2"), description=""):
        return cls(name, symbol, "real", tuple(points), description)

    @classmethod
    def greater_than_one(cls, name, symbol, points=("1001/1000", "3/2", "2", "7/2", "50"), description=""):
        return cls(name, symbol, "gt1", tuple(points), description)

    @classmethod
    def unit(cls, name, symbol, points=("1/1000", "1/10", "1/2", "9/10", "999/1000"), description=""):
        """A parameter in the open interval (0, 1) (a probability, delta, a mixing weight)."""
        return cls(name, symbol, "unit", tuple(points), description)

    @classmethod
    def positive_int(cls, name, symbol, points=("1", "2", "3", "4"), description=""):
        return cls(name, symbol, "positive-int", tuple(points), description)

    @classmethod
    def integer_range(cls, name, symbol, lo: int, hi: int, description=""):
        """An integer parameter over the finite range ``lo..hi``: a claim over it is checked at **every** member
        (its default points and sweep enumerate the range), never on a sample."""
        if not (isinstance(lo, int) and isinstance(hi, int) and lo <= hi):
            raise ValueError(f"{name}: integer_range needs integers lo <= hi, got {lo!r}, {hi!r}")
        return cls(name, symbol, "positive-int" if lo >= 1 else "integer", tuple(str(k) for k in range(lo, hi + 1)),
                   description, bounds=(str(lo - 1), str(hi + 1)), finite=True)

    @classmethod
    def vector(cls, name, symbol, points, description="", length_of=None):
        """A vector of real numbers (a shift ``v``): ``symbol`` is an ``IndexedBase`` used as ``v[i]``,
        1-based, in the claim's expressions (sums over ``i`` from 1 to the dimension); on the command
        line ``--at v=1,2,3``.  ``length_of`` names the claim's dimension parameter (e.g. ``"d"``), whose
        value must then equal the vector's length."""
        return cls(name, symbol, "vector", tuple(points), description, length_of=length_of)

    def __post_init__(self):
        try:
            self.domain = Domain(self.domain)
        except ValueError:
            raise ValueError(f"{self.name}: unknown domain {self.domain!r} (one of {[d.value for d in Domain]})") from None

    def _validate_vector(self, value):
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("(") and text.replace(" ", "").endswith(",)"):  # a 1-tuple as Python prints it: (1,)
                text = text.replace(" ", "")[:-2] + ")"
            text = text.strip("()[]")
            parts = text.split(",")
            if not text.strip() or any(not t.strip() for t in parts):  # ``1,,2`` is not (1, 2)
                raise ParameterError(f"{self.name} must be a vector such as 1,2,3 (comma-separated numbers)")
            value = [parse_number(t, self.name) for t in parts]
        vals = [sp.Rational(v) if isinstance(v, int) else sp.sympify(v) for v in value]
        for v in vals:
            if not (v.is_real and v.is_finite):
                raise ParameterError(f"{self.name} must have finite real coordinates, got {v}")
        return sp.Tuple(*vals)

    def validate(self, value) -> sp.Expr:
        """Parse and check a value; raises :class:`ParameterError` with a one-line message."""
        if self.domain == "vector":
            return self._validate_vector(value)
        if isinstance(value, str):
            value = parse_number(value, self.name)
        value = sp.Rational(value) if isinstance(value, int) else sp.sympify(value)
        if value.is_infinite and self.domain != "gt1-or-inf":
            raise ParameterError(f"{self.name} must be finite, got {value}")
        if self.domain == "positive" and not value > 0:
            raise ParameterError(f"{self.name} must be positive, got {value}")
        if self.domain == "gt1" and not value > 1:
            raise ParameterError(f"{self.name} must be greater than 1 (alpha > 1), got {value}")
        if self.domain == "nonzero" and value == 0:
            raise ParameterError(f"{self.name} must be non-zero")
        if self.domain == "unit" and not (0 < value < 1):
            raise ParameterError(f"{self.name} must lie strictly between 0 and 1, got {value}")
        if self.domain == "positive-int" and not (value.is_integer and value >= 1):
            raise ParameterError(f"{self.name} must be a positive integer, got {value}")
        if self.domain == "integer" and not value.is_integer:
            raise ParameterError(f"{self.name} must be an integer, got {value}")
        if self.domain == "gt1-or-inf" and not (value == sp.oo or value > 1):
            raise ParameterError(f"{self.name} must be greater than 1 or inf, got {value}")
        if self.bounds is not None:
            lo, hi = (sp.sympify(x) if x is not None else None for x in self.bounds)
            if (lo is not None and not value > lo) or (hi is not None and not value < hi):
                raise ParameterError(f"{self.name} must lie in ({lo}, {hi}), got {value}")
        return value


@dataclass(frozen=True)
class Reading:
    """Another plausible reading of a claim's printed statement.

    ``claimed`` builds the SymPy form of this reading (like :attr:`Claim.claimed`), ``statement`` is its
    LaTeX, ``seeds`` says which extraction supports it (e.g. "seed 002 (arXiv LaTeX source)"), and
    ``name`` is a short label ("superscript restored", "+ sign").  The claim's own ``claimed`` is the
    literal reading.
    """

    name: str
    claimed: Callable
    statement: str = ""
    seeds: str = ""


@dataclass
class Claim:
    """One statement of a paper, audited by :func:`cbdp_sym.verify.engine.audit_claim`."""

    id: str
    paper: str = ""  # the paper's key; by default the folder the registry found the claim in
    label: str = ""
    kind: str = "identity"
    statement: str = ""  # LaTeX of the statement as printed
    params: list = field(default_factory=list)
    derive: Callable | None = None
    claimed: Callable | None = None
    numeric: Callable | None = None
    quantity: str = ""  # LaTeX of the quantity (left-hand side)
    where: str = ""  # section / page in the paper
    seed: str = ""  # seed file the statement was read from
    conventions: tuple = ()
    notes: str = ""
    points: list | None = None  # explicit parameter points (dicts name -> string)
    sweep: list | None = None  # points for bounds (default: points)
    constraint: Callable | None = None  # a predicate on a parameter point: True, or False to refuse it (or raises)
    laws: Callable | None = None  # values -> {law name: Distribution} for Expect(...) atoms
    timeout: float = 120.0
    check: Callable | None = None  # kind "check": dps -> dict(status, message, checks, counterexample)
    figures: tuple = ()  # Figure objects the claim reads (computed first, in parallel, by the audit)
    # IDs of claims that compute values this claim reuses (through the numeric cache): in one audit it is
    # dispatched after them, so it reads their values instead of computing them at the same time (a scheduling
    # hint only: the result is the same in any order)
    after: tuple = ()
    # relative cost (about the seconds of a cold audit on one core): an audit dispatches the costliest claims
    # first, so that a long claim does not start last and leave the other cores idle (a scheduling hint only)
    cost: float = 1.0
    # other plausible readings of the printed text (a garbled extraction, a vague word): each is audited
    # like the printed form; the claim is refuted only when every plausible reading fails, and
    # ``ambiguous`` when their verdicts differ (see :class:`Reading`)
    readings: tuple = ()
    # a corrected statement the derivation supports, audited the same way and shown next to the printed one (for a
    # ``check`` claim: a check function of its own, returning the corrected statement's evidence)
    corrected: Callable | None = None
    corrected_statement: str = ""
    # adversarial search for bounds: {param name: (lo, hi)} (exact strings); the relative slack is minimised
    # from the worst sweep points with at most ``search_evals`` evaluations at ``search_dps`` digits (a
    # count, not a time, so that reports are reproducible; see :func:`cbdp_sym.verify.engine.adversarial_search`)
    search: dict | None = None
    search_evals: int = 120
    # bounds whose quantity has no closed form (a supremum computed by the solver): ``certify(point)``
    # returns a sentence proving the violation at that point in ball arithmetic (e.g. an Arb lower bound
    # of the supremum from a feasible h), or None
    certify: Callable | None = None
    search_dps: int = 20
    tags: tuple = ()
    # a refutation's kind ("result", "proof-step", "typo", "reading"; see cbdp_sym.verify.findings); by default
    # "proof-step" for IDs that name a proof's chain or step, "result" otherwise
    error_kind: str | None = None
    source: str = ""  # set by the registry: paper folder / module file
    # what part of the paper the claim is (a Role; inferred from ``where`` and the ID when None)
    role: str | None = None
    # the IDs of the claims this claim's statement or proof rests on (from the paper's proofs and text): a finding on
    # one of them reaches this claim, and where one has a corrected statement this claim is audited against it too
    uses: tuple = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind must be one of {KINDS}, got {self.kind!r}")
        self.kind = Kind(self.kind)
        if self.role is not None:
            self.role = Role(self.role)
        self.uses = tuple(self.uses)
        BY_ID.setdefault(self.id, self)  # (the module's own claim: copies made by the engine keep the ID)
        if self.search is not None and not isinstance(self.search, Search):
            self.search = Search(self.search, evals=self.search_evals, dps=self.search_dps)
        if self.error_kind is not None and self.error_kind not in ERROR_KINDS:
            raise ValueError(f"{self.id}: error_kind must be one of {ERROR_KINDS}, got {self.error_kind!r}")

    @property
    def audited(self) -> bool:
        return self.kind not in ("definition", "cited") or self.derive is not None

    def symbols(self) -> dict:
        return {p.name: p.symbol for p in self.params}

    def parse_point(self, raw: dict) -> dict:
        """Validate a parameter point ``{name: value}``; returns ``{name: exact SymPy number}``."""
        known = {p.name: p for p in self.params}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise ParameterError(f"{self.id} has no parameter {unknown[0]!r} (its parameters: {', '.join(known) or 'none'})")
        missing = [n for n in known if n not in raw]
        if missing:
            raise ParameterError(f"{self.id} needs --at {missing[0]}=VALUE")
        point = {n: known[n].validate(v) for n, v in raw.items()}
        for n, p in known.items():
            dim = p.length_of
            if p.domain == "vector" and dim and dim in point and len(point[n]) != point[dim]:
                raise ParameterError(f"{self.id}: {n} has {len(point[n])} coordinates but {dim} = {point[dim]}")
        self.check_constraint(point)
        return point

    def check_constraint(self, point: dict) -> None:
        """Apply :attr:`constraint` to ``point``: ``True`` (or ``None``, from a check that raises
        :class:`ParameterError` itself) accepts it, ``False`` refuses it with a one-line :class:`ParameterError`
        naming the claim; any other answer is an error of the claim's definition."""
        if self.constraint is None:
            return
        ok = self.constraint(point)
        if ok is None or ok is True or ok is sp.true:
            return
        if ok is False or ok is sp.false or type(ok).__name__ == "bool_":
            if bool(ok):
                return
            shown = ", ".join(f"{k}={v}" for k, v in point.items())
            raise ParameterError(f"{self.id}: the point {shown} is outside the claim's domain (its constraint is False)")
        raise ParameterError(f"{self.id}: its constraint returned {type(ok).__name__} {str(ok)[:40]!r}; a constraint "
                             "returns True or False (or raises ParameterError)")

    def default_points(self) -> list:
        if self.points is not None:
            return [self.parse_point(p) for p in self.points]
        if not self.params:
            return [{}]
        finite = [p for p in self.params if p.finite]
        if finite:  # every member of each finite domain, crossed with the other parameters' points in turn
            import itertools

            rest = [p for p in self.params if not p.finite]
            pts = []
            for i, combo in enumerate(itertools.product(*[p.points for p in finite])):
                raw = {p.name: v for p, v in zip(finite, combo)}
                raw.update({p.name: p.points[i % len(p.points)] for p in rest})
                pts.append(self.parse_point(raw))
            return pts
        n = max(len(p.points) for p in self.params)
        pts = []
        for i in range(n):
            pts.append(self.parse_point({p.name: p.points[i % len(p.points)] for p in self.params}))
        return pts

    def sweep_points(self) -> list:
        if self.sweep is None:
            return self.default_points()
        pts = [self.parse_point(p) for p in self.sweep]
        for p in self.params:  # a claim over a finite family checks every member, not a sample
            if p.finite:
                seen = {str(pt[p.name]) for pt in pts}
                missing = [v for v in p.points if v not in seen]
                if missing:
                    raise ValueError(f"{self.id}: the sweep misses {p.name} = {', '.join(missing[:5])} of its finite "
                                     "range; a claim over a finite family is checked at every member")
        return pts


# -- knock-on effects: a claim audited against the statements it uses, as printed and as corrected ---------------
_USING = ["printed"]


def printed_or_corrected(claim: "Claim"):
    """The statement of a used claim (a SymPy form) in the current audit: as printed, or its corrected statement
    while the engine re-audits a dependent claim against the corrections (``Claim.uses``).

    >>> c = Claim(id="X-B", claimed=lambda: 1, corrected=lambda: 2)
    >>> printed_or_corrected(c), using("corrected", lambda: printed_or_corrected(c))
    (1, 2)
    """
    if _USING[0] == "corrected" and claim.corrected is not None:
        return claim.corrected()
    return claim.claimed()


def using(which: str, fn):
    """``fn()`` with the used claims read as ``which`` (``printed`` or ``corrected``)."""
    old = _USING[0]
    _USING[0] = which
    try:
        return fn()
    finally:
        _USING[0] = old
