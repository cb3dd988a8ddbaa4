"""The verdict vocabulary: statuses, the one relative slack, the one tolerance rule, and how checks merge.

Every part of the toolkit that decides or prints a verdict uses these definitions, so that a number
means the same thing in every report section.

* :class:`Status`: ``verified``, ``holds``, ``refuted``, ``ambiguous``, ``inconclusive``, ``error``,
  ``definition``, ``cited``, ``skipped`` (a ``str`` enum: ``Status.REFUTED == "refuted"``).
* :func:`relative_slack`: the signed relative slack of a bound, **relative to the bound**:
  ``(bound - quantity) / |bound|`` for an upper bound, ``(quantity - bound) / |bound|`` for a lower one
  (absolute where the bound is exactly 0); positive when the bound holds.
* :func:`identity_digits` / :func:`agrees`: an identity passes at ``dps - 5`` digits of relative agreement;
  :func:`violated`: a bound fails when its slack is below ``-10^-(dps - 5)`` (any amount for a strict bound).
* :func:`merge`: the verdict of several checks of one claim.
* :class:`CheckResult`: what a ``check`` claim returns (status, message and evidence), typed; :meth:`CheckResult.decide`
  states the verdict rule of a check in one call, :meth:`CheckResult.combine` merges several checks' results.

>>> import mpmath as mp
>>> float(relative_slack("upper", bound=2, quantity=3))
-0.5
>>> float(relative_slack("lower", bound=2, quantity=3))
0.5
>>> violated("upper", mp.mpf("-1e-48"), 50), violated("upper", mp.mpf("-1e-30"), 50)
(False, True)
>>> merge(["verified", "holds"]), merge(["holds", "refuted", "inconclusive"])
('holds', 'refuted')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import mpmath as mp


class Status(str, Enum):
    """A claim's verdict (compares equal to its name as a string)."""

    VERIFIED = "verified"  # an identity: symbolically, or numerically at every point to dps - 5 digits
    HOLDS = "holds"  # a bound or a claim about all instances: no violation found (evidence, not proof)
    REFUTED = "refuted"  # a counterexample (certified in ball arithmetic where the quantities allow)
    AMBIGUOUS = "ambiguous"  # the printed text has several plausible readings whose verdicts differ
    INCONCLUSIVE = "inconclusive"  # with a one-line reason (a timeout, numerics that disagree, ...)
    ERROR = "error"  # a crash, with its message
    DEFINITION = "definition"  # listed, not audited
    CITED = "cited"  # a cited result, not audited
    SKIPPED = "skipped"  # needs an optional library the environment lacks: outside the verdict counts

    __str__ = str.__str__
    __format__ = str.__format__


#: what each status means, for reports and legends
MEANING = {
    Status.VERIFIED: "an identity: the derived form equals the printed one symbolically, or numerically at every "
                     "audited point to the identity tolerance",
    Status.HOLDS: "a bound or a claim about all instances: no violation on the stated sweep, adversarial search and "
                  "instance families; the smallest relative slack is reported (evidence, not a proof)",
    Status.REFUTED: "a counterexample that anyone can re-run, certified in ball arithmetic where the quantities allow",
    Status.AMBIGUOUS: "the printed text admits several plausible readings whose verdicts differ; each is reported",
    Status.INCONCLUSIVE: "not decided, with a one-line reason",
    Status.ERROR: "the audit crashed, with the message",
    Status.DEFINITION: "a definition: not audited (its derivation, if any, is sanity-checked)",
    Status.CITED: "a result cited from elsewhere: not audited",
    Status.SKIPPED: "needs an optional library this environment lacks: not audited here, outside the verdict "
                    "counts (the provenance names the install command)",
}

#: how bad a status is when checks are merged (the worst wins)
_ORDER = [Status.ERROR, Status.REFUTED, Status.AMBIGUOUS, Status.INCONCLUSIVE, Status.HOLDS, Status.VERIFIED]

BOUND_KINDS = ("upper", "lower", "strict-upper")

#: what a refutation shows (cbdp_sym.verify.findings): a false result, a failing proof step, a typo, a reading
ERROR_KINDS = ("result", "proof-step", "reading", "typo")


def identity_digits(dps: int) -> int:
    """Digits of relative agreement an identity needs at ``dps`` requested digits (``dps - 5``)."""
    return dps - 5


def agrees(digits_found, dps: int) -> bool:
    """Whether ``digits_found`` meets the identity tolerance at ``dps``."""
    return digits_found is not None and digits_found >= identity_digits(dps)


def relative_slack(kind: str, bound, quantity):
    """Signed relative slack of ``quantity <= bound`` (``kind`` upper / strict-upper) or ``quantity >= bound``
    (lower): the margin divided by ``|bound|`` (the margin itself when the bound is 0); positive when it holds.
    Infinite sides: an infinite bound on the right side holds with slack 1, an infinite quantity past a finite
    bound fails with slack -inf."""
    b, q = mp.mpf(bound), mp.mpf(quantity)
    lower = kind == "lower"
    if q == b:
        return mp.mpf(0)
    if mp.isinf(b):
        return mp.mpf(1) if (b > 0) != lower else -mp.inf
    if mp.isinf(q):
        return -mp.inf if (q > 0) != lower else mp.mpf(1)
    margin = (q - b) if lower else (b - q)
    return margin / abs(b) if b != 0 else margin


def violated(kind: str, slack, dps: int) -> bool:
    """Whether a slack is a violation: below ``-10^-(dps - 5)`` (at or below 0 for a strict bound)."""
    if kind == "strict-upper":
        return slack <= 0
    return slack < -mp.mpf(10) ** (-identity_digits(dps))


def merge(statuses) -> str:
    """The verdict of several checks: the worst of them (error > refuted > ambiguous > inconclusive >
    holds > verified); ``verified`` only when every check verifies."""
    seen = [Status(s) for s in statuses]
    if not seen:
        return Status.INCONCLUSIVE.value
    return min(seen, key=_ORDER.index).value


@dataclass
class Check:
    """One row of evidence: a point of the parameters, the printed, derived and computed values there, the digits
    of agreement (identities) or the relative slack (bounds)."""

    params: dict
    claimed: str | None = None
    derived: str | None = None
    numeric: str | None = None
    digits: float | None = None  # numeric vs claimed (vs derived when nothing is claimed)
    digits_derived: float | None = None  # numeric vs derived
    slack: str | None = None  # bounds: relative slack (claimed - quantity) / |claimed|, signed
    origin: str = "grid"  # "grid" (the sweep) or "search" (found by the adversarial search)
    established: int | None = None  # digits the numeric side established, when it says (numbers.Estimate)

    def as_json(self):
        out = {"params": self.params, "claimed": self.claimed, "derived": self.derived,
               "numeric": self.numeric, "digits": self.digits, "digits_derived": self.digits_derived}
        if self.slack is not None:
            out["slack"] = self.slack
        if self.origin != "grid":
            out["origin"] = self.origin
        if self.established is not None:
            out["established_digits"] = self.established
        return out


@dataclass
class CheckResult:
    """The result of a ``check`` claim's check: a :class:`Status`, a one-paragraph message and the evidence.

    ``checks`` are :class:`Check` rows (point, printed value, computed value, digits or slack),
    ``tables`` report tables (``{"title", "header", "rows"}``), ``counterexample`` a re-runnable point (dict),
    ``error_kind`` what kind of error a refutation shows (``result``, ``proof-step``, ``typo``, ``reading``),
    ``readings`` the per-reading verdicts of :func:`cbdp_sym.verify.engine.with_readings`.

    >>> r = CheckResult.decide(True, "E[Z] = rho at 12 points")
    >>> r.status, r.message
    (<Status.HOLDS: 'holds'>, 'E[Z] = rho at 12 points')
    >>> CheckResult.decide(False, "a violation at alpha = 3", yes="refuted").status.value
    'inconclusive'
    >>> CheckResult.combine([r, CheckResult("refuted", "fails at 3")]).status.value
    'refuted'
    """

    status: Status
    message: str
    checks: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    counterexample: dict | None = None
    error_kind: str | None = None
    readings: list = field(default_factory=list)

    def __post_init__(self):
        self.status = Status(self.status)

    @classmethod
    def decide(cls, ok: bool, message: str, *, yes="holds", no="inconclusive", **evidence) -> "CheckResult":
        """The check's verdict rule in one call: status ``yes`` when ``ok`` (the check established what it set out
        to: the claim holds, or its counterexample is established), ``no`` otherwise (by default ``inconclusive``:
        a check that could not establish its facts decides nothing)."""
        return cls(yes if ok else no, message, **evidence)

    @classmethod
    def of(cls, out) -> "CheckResult":
        """A :class:`CheckResult` from a check's return value (a CheckResult, or a mapping with the same keys)."""
        if isinstance(out, CheckResult):
            return out
        known = {k: out[k] for k in ("status", "message", "checks", "tables", "counterexample", "error_kind", "readings")
                 if k in out and out[k] is not None}
        return cls(**known)

    @classmethod
    def combine(cls, parts, prefix: str = "", limit: int = 1200) -> "CheckResult":
        """Several checks of one claim as one: the status by :func:`merge`, checks and tables concatenated, the
        first counterexample kept, the messages joined (cut at ``limit`` characters)."""
        parts = [cls.of(p) for p in parts]
        out = cls(merge([p.status for p in parts]), "")
        for p in parts:
            out.checks += p.checks
            out.tables += p.tables
            if p.counterexample and out.counterexample is None:
                out.counterexample = p.counterexample
        text = prefix + "; ".join(p.message for p in parts)
        out.message = text if len(text) <= limit else text[: limit - 3] + "..."
        return out

    # read and written like the dict it replaces (``out["message"]``), while paper modules move to attributes
    def __getitem__(self, key):
        if key not in self.__dataclass_fields__:
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key, value):
        if key not in self.__dataclass_fields__:
            raise KeyError(key)
        setattr(self, key, Status(value) if key == "status" else value)

    def __contains__(self, key):
        return key in self.__dataclass_fields__ and getattr(self, key) not in (None, [])

    def get(self, key, default=None):
        return getattr(self, key) if key in self else default
