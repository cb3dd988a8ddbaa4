"""Up-front cost estimates for the commands whose inputs can ask for more than a time limit allows.

A restricted divergence over ``polyK`` costs about 1.5 times more per degree, its cost grows with the working
precision, and an alpha-divergence of an order within ``1e-6`` of 1 costs about seven times more per further digit
of ``alpha - 1`` (the generator's two terms cancel there).  Rather than run to the time limit and stop (``poly8``,
``--alpha 1.000000001`` and ``--dps 1000`` used to run 300 s and end in a timeout), a command first estimates its
cost: above :data:`NOTE_SECONDS` it says so (one line on standard error), and above the time limit it refuses with
the estimate and what to change.

The estimates are CPU seconds measured on the reference machine (2 cores of a 2024 x86-64 server, one core per
command; :data:`RESTRICTED_BASE`, the factors below); a busy machine takes longer in wall-clock time, which the note
says.  They are estimates, not promises: a command that is not refused can still reach its limit, and then stops
there with its one-line message, as before.

>>> round(restricted_cost("alpha", 8, 50, "3"))  # (measured: 62.7 s)
63
>>> restricted_cost("alpha", 1, 50, "1.000000001") > 1000
True
"""
from __future__ import annotations

import math

import mpmath as mp

from cbdp_sym.core.errors import ParameterError

NOTE_SECONDS = 30.0

# CPU seconds of `restricted alpha lin|polyK --P laplace(0,1) --Q laplace(1,1) --alpha 3` at 50 digits (no cache),
# measured degree by degree: lin 3.5, poly2 4.9, poly3 7.9, poly4 13.7, poly5 18.7, poly6 34.3, poly7 48.2,
# poly8 62.7: a factor of about 1.53 per degree
RESTRICTED_BASE = 3.5
POLY2 = 4.9
PER_DEGREE = 1.53

# the working precision (lin, alpha = 3): 50 -> 3.5 s, 100 -> 4.9 s, 200 -> 8.2 s, 400 -> 30.2 s: about
# (dps/50)^0.6 up to 200 digits, and (dps/200)^1.9 times that above (mpmath's arithmetic and quadrature degree)
DPS_KNEE = 200
DPS_POWER = 0.6
DPS_POWER_ABOVE = 1.9

# alpha near 1: |alpha - 1| = 1e-5 -> 3.8 s, 1e-6 -> 14.5 s, 1e-7 -> over 98 s (lin): about 7x per digit below 1e-5
ALPHA_NEAR = 1e-5
ALPHA_PER_DIGIT = 7.0


def restricted_cost(divergence: str, degree: int, dps: int, alpha=None, dim: int = 1) -> float:
    """Estimated CPU seconds of ``restricted DIVERGENCE lin|polyK`` (``degree`` 1 for ``lin``) at ``dps`` digits,
    for laws of dimension ``dim``."""
    base = RESTRICTED_BASE if degree <= 1 else POLY2 * PER_DEGREE ** (degree - 2)
    d = max(int(dps), 5)
    if d <= DPS_KNEE:
        f_dps = (d / 50) ** DPS_POWER
    else:
        f_dps = (DPS_KNEE / 50) ** DPS_POWER * (d / DPS_KNEE) ** DPS_POWER_ABOVE
    f_alpha = 1.0
    if alpha is not None and str(divergence).lower() in ("alpha", "renyi"):
        with mp.workdps(max(60, d + 20)):
            a = abs(mp.mpf(str(alpha)) - 1) if "/" not in str(alpha) else abs(mp.mpf(_fraction(str(alpha))) - 1)
        if a == 0:
            f_alpha = math.inf
        elif a < ALPHA_NEAR:
            f_alpha = ALPHA_PER_DIGIT ** float(mp.log10(ALPHA_NEAR / a))
    return base * f_dps * f_alpha * max(1, dim)


def _fraction(text: str):
    p, _, q = text.partition("/")
    return mp.mpf(p) / mp.mpf(q)


def _seconds(x: float) -> str:
    if math.isinf(x):
        return "without end"
    if x < 100:
        return f"about {x:.0f} s"
    if x < 7200:
        return f"about {x / 60:.0f} min"
    return f"about {x / 3600:.0f} h"


def check_cost(estimate: float, limit: float | None, what: str, advice: str) -> str | None:
    """Refuse (:class:`ParameterError`, one line) a command whose ``estimate`` (CPU seconds) exceeds ``limit``;
    else return a note for an estimate above :data:`NOTE_SECONDS` (``None`` below it).

    >>> check_cost(64, 300, "restricted alpha poly8", "")
    'restricted alpha poly8 needs about 64 s of CPU (longer on a busy machine)'
    >>> check_cost(5000, 300, "x", "raise --timeout")
    Traceback (most recent call last):
    ...
    cbdp_sym.core.errors.ParameterError: x needs about 83 min of CPU, more than the time limit (300 s): raise --timeout
    """
    if limit is not None and estimate > limit:
        raise ParameterError(f"{what} needs {_seconds(estimate)} of CPU, more than the time limit ({limit:g} s): "
                             f"{advice}")
    if estimate > NOTE_SECONDS:
        return f"{what} needs {_seconds(estimate)} of CPU (longer on a busy machine)"
    return None
