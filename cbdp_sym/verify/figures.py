"""Figures: curves computed point by point, cached on disk, computed in parallel, drawn with pgfplots.

A derivation module defines :class:`Figure` objects (like claims, they are discovered by the
registry).  Each curve is a function of the abscissa (an exact decimal string), evaluated at the
figure's precision.  Points are cached on disk (key: figure, curve, abscissa, precision, the code
of the module that defines the curve and of every module it imports: :func:`cbdp_sym.core.cache.code_version`), so a rerun is instant and a change of
code invalidates the right entries.  Claims that read a figure list it in ``Claim.figures``; the
audit computes every needed point first, on all cores, with progress.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Callable

import mpmath as mp

from cbdp_sym.core.cache import _file_version, cached_numeric
from cbdp_sym.core.printing import plain_text


@dataclass
class Curve:
    key: str                   # ASCII name, a column of the data file
    label: str                 # LaTeX legend entry
    fn: Callable               # x (exact decimal string) -> mpf, at the working precision
    kind: str = "computed"     # computed (from the definitions) | printed (a formula as printed)
    style: str = ""            # pgfplots options


@dataclass(eq=False)
class Figure:
    id: str
    paper: str
    title: str
    caption: str
    xlabel: str
    ylabel: str
    xs: tuple
    curves: list
    dps: int = 20
    where: str = ""
    axis: str = ""  # extra pgfplots axis options (ranges)
    draw: bool = True  # False: data only (computed in parallel with the others, written as CSV, not drawn)
    cost: float = 1.0  # relative cost of a point: the most expensive points are scheduled first
    xunit: str = ""  # unit of the abscissa for the CSV header (default: dimensionless)
    yunit: str = ""  # unit of the ordinates (default: nats for privacy parameters and divergences)
    headline: bool = False  # True: drawn in the short appendix (a figure that shows a finding)
    extra_tex: str = ""  # extra pgfplots commands inside the axis
    shade_below: tuple = ()  # (bound key, value key): shade the abscissae where the bound is below the value
    # the paper's panels, when they cut across several Figure objects (one per parameter): panel title ->
    # (curve keys, y label, extra axis options); the figures of one paper figure (same ``where``) are then drawn
    # as these panels, each with the named curves of every figure
    panels: dict = field(default_factory=dict)
    _memo: dict = field(default_factory=dict, repr=False)

    def jobs(self):
        return [(c.key, x) for c in self.curves for x in self.xs]

    def curve(self, key) -> Curve:
        for c in self.curves:
            if c.key == key:
                return c
        raise KeyError(key)

    def point(self, key, x):
        if (key, x) not in self._memo:
            c = self.curve(key)
            src = _file_version(inspect.getsourcefile(c.fn) or "")
            self._memo[(key, x)] = _point(self, key, x, self.dps, src)
        return self._memo[(key, x)]

    def stored_point(self, key, x):
        """The point if it is known (computed in this process or stored on disk), else ``None``; computes nothing."""
        if (key, x) not in self._memo:
            src = _file_version(inspect.getsourcefile(self.curve(key).fn) or "")
            ok, val = _cached_point.stored(_FigKey(self), key, x, self.dps, src)
            if not ok:
                return None
            self._memo[(key, x)] = val
        return self._memo[(key, x)]

    def data(self, compute: bool = True) -> dict:
        """``{curve key: [(x string, y mpf), ...]}`` in the order of ``xs``.  With ``compute=False`` (the reports:
        they are written after the audit's limits, and must not compute without one) a point that was not computed
        in time is ``nan``."""
        if compute:
            return {c.key: [(x, self.point(c.key, x)) for x in self.xs] for c in self.curves}
        out = {}
        for c in self.curves:
            out[c.key] = []
            for x in self.xs:
                v = self.stored_point(c.key, x)
                out[c.key].append((x, mp.nan if v is None else v))
        return out

    def missing(self) -> int:
        """How many points are not known (see :meth:`stored_point`)."""
        return sum(self.stored_point(c.key, x) is None for c in self.curves for x in self.xs)

    def csv(self, compute: bool = True) -> str:
        """The data: a ``#`` line naming each column's meaning and unit, the column names, then one row per
        abscissa (12 significant digits; ``inf`` where a value is infinite, ``nan`` where a point was not computed
        within the audit's limits, with a ``#`` line saying how many)."""
        d = self.data(compute)
        keys = [c.key for c in self.curves]
        xunit = self.xunit or "dimensionless"
        yl = plain_text(self.ylabel).lower()
        yunit = self.yunit or ("nats (natural logarithm)" if any(w in yl for w in ("privacy", "epsilon", "divergence", "rho"))
                               else "dimensionless")
        desc = [f"x = {plain_text(self.xlabel) or 'abscissa'} [{xunit}]"]
        for c in self.curves:
            desc.append(f"{c.key} = {plain_text(c.label)}{' (as printed)' if c.kind == 'printed' else ''}, "
                        f"{plain_text(self.ylabel)} [{yunit}]")
        lines = [f"# {self.id} ({plain_text(self.title)}): " + "; ".join(desc)]
        gaps = sum(1 for k in keys for _, v in d[k] if mp.isnan(v))
        if gaps:
            lines.append(f"# {gaps} point(s) not computed within the audit's limits: nan")
        lines.append("x," + ",".join(keys))
        for i, x in enumerate(self.xs):
            lines.append(x + "," + ",".join(mp.nstr(d[k][i][1], 12, min_fixed=-4, max_fixed=6) for k in keys))
        return "\n".join(lines) + "\n"


class _FigKey:
    """Stable cache-key text for a figure (its id, not its repr)."""

    def __init__(self, fig):
        self.fig = fig

    def __str__(self):
        return self.fig.id


def _point(fig, key, x, dps, src):
    return _cached_point(_FigKey(fig), key, x, dps, src)


@cached_numeric
def _cached_point(figkey, key, x, dps, src):
    fig = figkey.fig
    with mp.workdps(dps):
        return +fig.curve(key).fn(x)


def load_cached(figures) -> int:
    """Fill the figures' memos with the points stored on disk (nothing is computed); returns how many were
    read.  A warm audit then sends no point to a worker."""
    n = 0
    seen = set()
    for fig in figures:
        if id(fig) in seen:
            continue
        seen.add(id(fig))
        for c in fig.curves:
            for x in fig.xs:
                if (c.key, x) not in fig._memo and fig.stored_point(c.key, x) is not None:
                    n += 1
    return n
