"""Probability laws with a symbolic density that knows its kinks and an mpmath density.

Conventions (stated in every report):

* ``Laplace(loc, scale)`` has density ``exp(-|x - loc| / scale) / (2 scale)``. CBDP's
  ``Lap(mu, 1/eps)`` is ``Laplace(mu, 1/eps)``; Mironov's ``Lambda(mu, lambda)`` is ``Laplace(mu, lam)``.
* ``Normal(loc, std)`` takes the **standard deviation**; the papers' ``N(mu, sigma^2)`` takes the variance
  and is ``Normal(mu, sigma)``.
* ``Product(D1, ..., Dd)`` is the law of independent coordinates.

Parameters may be SymPy expressions (derivations) or numbers (numerics); they are validated on
construction: a scale must be positive (for a symbol, its assumptions must make it positive).

>>> import sympy as sp
>>> eps = sp.Symbol("epsilon", positive=True)
>>> P = Laplace(0, 1 / eps)
>>> P.pdf()
epsilon*exp(-epsilon*Abs(x))/2
>>> P.kinks()
[0]
>>> Laplace(0, -1)
Traceback (most recent call last):
...
cbdp_sym.core.errors.ParameterError: Laplace: scale must be positive, got -1
"""
from __future__ import annotations

from dataclasses import dataclass

import mpmath as mp
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import parse_number, to_mpf
from cbdp_sym.core.serial import register_function
from cbdp_sym.core.printing import latex

X = sp.Symbol("x", real=True)


def _as_param(value):
    if isinstance(value, mp.mpf):
        return value
    if isinstance(value, str):
        return parse_number(value)
    try:
        return sp.sympify(value)
    except (sp.SympifyError, TypeError):
        raise ParameterError(f"{value!r} is not a number or a SymPy expression") from None


def _check_real(owner: str, name: str, value):
    if isinstance(value, mp.mpf):
        if not mp.isfinite(value):
            raise ParameterError(f"{owner}: {name} must be finite, got {value}")
        return
    if value.is_real is False or value.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        raise ParameterError(f"{owner}: {name} must be a finite real number, got {value}")
    if value.is_real is None:
        raise ParameterError(f"{owner}: {name}={value} is not known to be real (declare its symbols real)")


def _check_positive(owner: str, name: str, value):
    _check_real(owner, name, value)
    if isinstance(value, mp.mpf):
        ok = value > 0
    else:
        ok = value.is_positive
    if ok is not True:
        raise ParameterError(f"{owner}: {name} must be positive, got {value}")


class Distribution:
    """Base class: a law on the real line (or on R^d for :class:`Product`)."""

    dim = 1
    atomic = False

    def pdf(self, x=X) -> sp.Expr:  # pragma: no cover - abstract
        raise NotImplementedError

    def log_pdf(self, x=X) -> sp.Expr:  # pragma: no cover - abstract
        raise NotImplementedError

    def kinks(self) -> list:
        """Points where the density is not smooth (symbolic or numeric, as the parameters)."""
        return []

    def mp_pdf(self, x):  # pragma: no cover - abstract
        raise NotImplementedError

    def mp_log_pdf(self, x):  # pragma: no cover - abstract
        raise NotImplementedError

    def mp_kinks(self) -> list:
        return [to_mpf(k) for k in self.kinks()]

    def mp_width(self):
        """The law's scale (Laplace scale, Gaussian standard deviation), a quadrature hint."""
        raise NotImplementedError  # pragma: no cover

    def mp_breaks(self) -> list:
        """Kinks plus points that help quadrature resolve the bulk of the density."""
        c, w = self.mp_loc(), self.mp_width()
        return list(self.mp_kinks()) + [c + w * k for k in (-8, -2, 2, 8)] + [c]

    def mp_reach(self):
        """A distance from the location beyond which the tails are checked for integrability."""
        raise NotImplementedError  # pragma: no cover

    def subs(self, mapping) -> "Distribution":  # pragma: no cover - abstract
        raise NotImplementedError

    def latex(self, printer=None) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True, init=False)
class Laplace(Distribution):
    """Laplace law with density ``exp(-|x - loc|/scale) / (2 scale)`` (kink at ``loc``)."""

    loc: object
    scale: object

    def __init__(self, loc, scale):
        loc, scale = _as_param(loc), _as_param(scale)
        _check_real("Laplace", "loc", loc)
        _check_positive("Laplace", "scale", scale)
        object.__setattr__(self, "loc", loc)
        object.__setattr__(self, "scale", scale)

    def pdf(self, x=X):
        return sp.exp(-sp.Abs(x - self.loc) / self.scale) / (2 * self.scale)

    def log_pdf(self, x=X):
        return -sp.Abs(x - self.loc) / self.scale - sp.log(2 * self.scale)

    def kinks(self):
        return [self.loc]

    def _mp(self):
        key = mp.mp.prec
        cache = self.__dict__.setdefault("_mpcache", {})
        if key not in cache:
            loc, b = to_mpf(self.loc), to_mpf(self.scale)
            cache[key] = (loc, 1 / b, 1 / (2 * b), mp.log(2 * b))
        return cache[key]

    def mp_pdf(self, x):
        loc, inv, half_inv, _ = self._mp()
        return mp.exp(-abs(x - loc) * inv) * half_inv

    def mp_log_pdf(self, x):
        loc, inv, _, log2b = self._mp()
        return -abs(x - loc) * inv - log2b

    def mp_reach(self):
        return 200 * to_mpf(self.scale)

    def mp_width(self):
        return to_mpf(self.scale)

    def mp_loc(self):
        return self._mp()[0]

    def subs(self, mapping):
        return Laplace(_subs(self.loc, mapping), _subs(self.scale, mapping))

    def latex(self, printer=None):
        return rf"\mathrm{{Lap}}\left({latex(self.loc)}, {latex(self.scale)}\right)"


@dataclass(frozen=True, init=False)
class Normal(Distribution):
    """Gaussian law ``N(loc, std^2)``: the second argument is the standard deviation."""

    loc: object
    std: object

    def __init__(self, loc, std):
        loc, std = _as_param(loc), _as_param(std)
        _check_real("Normal", "loc", loc)
        _check_positive("Normal", "std", std)
        object.__setattr__(self, "loc", loc)
        object.__setattr__(self, "std", std)

    def pdf(self, x=X):
        return sp.exp(-((x - self.loc) ** 2) / (2 * self.std**2)) / (self.std * sp.sqrt(2 * sp.pi))

    def log_pdf(self, x=X):
        return -((x - self.loc) ** 2) / (2 * self.std**2) - sp.log(self.std * sp.sqrt(2 * sp.pi))

    def _mp(self):
        key = mp.mp.prec
        cache = self.__dict__.setdefault("_mpcache", {})
        if key not in cache:
            loc, s = to_mpf(self.loc), to_mpf(self.std)
            cache[key] = (loc, 1 / (2 * s**2), 1 / (s * mp.sqrt(2 * mp.pi)), mp.log(s * mp.sqrt(2 * mp.pi)))
        return cache[key]

    def mp_pdf(self, x):
        loc, c, norm, _ = self._mp()
        return mp.exp(-((x - loc) ** 2) * c) * norm

    def mp_log_pdf(self, x):
        loc, c, _, lognorm = self._mp()
        return -((x - loc) ** 2) * c - lognorm

    def mp_reach(self):
        return 40 * to_mpf(self.std)

    def mp_width(self):
        return to_mpf(self.std)

    def mp_loc(self):
        return self._mp()[0]

    def subs(self, mapping):
        return Normal(_subs(self.loc, mapping), _subs(self.std, mapping))

    def latex(self, printer=None):
        return rf"\mathcal{{N}}\left({latex(self.loc)}, {latex(self.std**2 if not isinstance(self.std, mp.mpf) else self.std**2)}\right)"


@dataclass(frozen=True, init=False)
class Finite(Distribution):
    """A law on finitely many real points: ``Finite([x_1, ..., x_n], [p_1, ..., p_n])``.

    Probabilities must be non-negative and sum to 1 (checked exactly for numbers; for symbols their
    assumptions must make them non-negative).  Randomized response, Bernoulli outputs and the
    finite instance families of structural claims are finite laws.  Expectations are sums, exact on
    the symbolic side (:meth:`expect_sym`) and in mpmath (:meth:`mp_expect`).

    >>> B = Finite([0, 1], [sp.Rational(1, 4), sp.Rational(3, 4)])
    >>> B.expect_sym(X**2)
    3/4
    >>> Finite([0, 1], [sp.Rational(1, 2), sp.Rational(1, 4)])
    Traceback (most recent call last):
    ...
    cbdp_sym.core.errors.ParameterError: Finite: probabilities must sum to 1, got 3/4
    """

    points: tuple
    probs: tuple

    atomic = True

    def __init__(self, points, probs):
        points = tuple(_as_param(x) for x in points)
        probs = tuple(_as_param(q) for q in probs)
        if not points or len(points) != len(probs):
            raise ParameterError(f"Finite: need as many probabilities as points, got {len(points)} and {len(probs)}")
        for x in points:
            _check_real("Finite", "a point", x)
        numeric = all(not isinstance(x, mp.mpf) and x.is_number for x in points)
        if numeric and len(set(points)) != len(points):
            raise ParameterError("Finite: the points must be distinct")
        for q in probs:
            _check_real("Finite", "a probability", q)
            if (q < 0) if isinstance(q, mp.mpf) else q.is_negative:
                raise ParameterError(f"Finite: probabilities must be non-negative, got {q}")
        total = sum(probs[1:], probs[0])
        if all(isinstance(q, mp.mpf) for q in probs):
            if abs(total - 1) > mp.mpf(10) ** (-mp.mp.dps + 5):
                raise ParameterError(f"Finite: probabilities must sum to 1, got {total}")
        elif sp.sympify(total).is_number and sp.simplify(total - 1) != 0:
            raise ParameterError(f"Finite: probabilities must sum to 1, got {total}")
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "probs", probs)

    def pmf(self) -> list:
        """``[(x_i, p_i)]`` in the given order."""
        return list(zip(self.points, self.probs))

    def expect_sym(self, g, x=X):
        """``E[g(X)] = sum_i p_i g(x_i)`` (exact)."""
        g = sp.sympify(g)
        return sp.Add(*[p * g.subs(x, pt) for pt, p in self.pmf()])

    def mp_pmf(self) -> list:
        return [(to_mpf(x), to_mpf(p)) for x, p in self.pmf()]

    def mp_expect(self, g):
        return mp.fsum(p * g(x) for x, p in self.mp_pmf() if p != 0)

    def mp_loc(self):
        return self.mp_expect(lambda x: x)

    def mp_width(self):
        m = self.mp_loc()
        v = self.mp_expect(lambda x: (x - m) ** 2)
        return mp.sqrt(v) if v > 0 else mp.mpf(1)

    def mp_reach(self):
        return mp.mpf(0)

    def subs(self, mapping):
        return Finite([_subs(x, mapping) for x in self.points], [_subs(p, mapping) for p in self.probs])

    def latex(self, printer=None):
        return r"\sum_i p_i \delta_{x_i}" if len(self.points) > 4 else (
            " + ".join(rf"{latex(p)}\,\delta_{{{latex(x)}}}" for x, p in self.pmf()))


@dataclass(frozen=True, init=False)
class PointMass(Finite):
    """The law of a constant (a non-private release): all mass at ``loc``.

    It has no density; the numerics evaluate expectations exactly (``E[g] = g(loc)``), and the
    symbolic side does not integrate against it.
    """

    loc: object

    def __init__(self, loc):
        loc = _as_param(loc)
        _check_real("PointMass", "loc", loc)
        object.__setattr__(self, "loc", loc)
        object.__setattr__(self, "points", (loc,))
        object.__setattr__(self, "probs", (sp.Integer(1),))

    def __repr__(self):
        return f"PointMass(loc={self.loc!r})"

    def mp_loc(self):
        return to_mpf(self.loc)

    def mp_width(self):
        return mp.mpf(1)

    def mp_expect(self, g):
        return g(self.mp_loc())

    def subs(self, mapping):
        return PointMass(_subs(self.loc, mapping))

    def latex(self, printer=None):
        return rf"\delta_{{{latex(self.loc)}}}"


@dataclass(frozen=True, init=False)
class Mixture(Distribution):
    """``Mixture([w_1, ..., w_m], [D_1, ..., D_m])``: density ``sum_i w_i p_i`` of one-dimensional laws.

    Components must be laws with a density (Laplace, Normal, or mixtures of them); weights are
    non-negative and sum to 1.  The mixture's kinks are the union of its components' kinks.

    >>> M = Mixture([sp.Rational(1, 2), sp.Rational(1, 2)], [Laplace(0, 1), Laplace(2, 1)])
    >>> M.kinks()
    [0, 2]
    """

    weights: tuple
    components: tuple

    def __init__(self, weights, components):
        weights = tuple(_as_param(w) for w in weights)
        components = tuple(components)
        if not components or len(weights) != len(components):
            raise ParameterError("Mixture: need one weight per component")
        for c in components:
            if not isinstance(c, Distribution) or c.atomic or c.dim != 1:
                raise ParameterError(f"Mixture: components must be one-dimensional laws with a density, got {c!r}")
        for w in weights:
            _check_real("Mixture", "a weight", w)
            if (w < 0) if isinstance(w, mp.mpf) else w.is_negative:
                raise ParameterError(f"Mixture: weights must be non-negative, got {w}")
        total = sum(weights[1:], weights[0])
        if not isinstance(total, mp.mpf) and sp.sympify(total).is_number and sp.simplify(total - 1) != 0:
            raise ParameterError(f"Mixture: weights must sum to 1, got {total}")
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "components", components)

    def pdf(self, x=X):
        return sp.Add(*[w * c.pdf(x) for w, c in zip(self.weights, self.components)])

    def log_pdf(self, x=X):
        return sp.log(self.pdf(x))

    def kinks(self):
        out = []
        for c in self.components:
            for k in c.kinks():
                if k not in out:
                    out.append(k)
        return out

    def mp_pdf(self, x):
        return mp.fsum(to_mpf(w) * c.mp_pdf(x) for w, c in zip(self.weights, self.components))

    def _mp_log_weights(self):
        """``[(log w_i, D_i)]`` over the components of non-zero weight, at the working precision (remembered per
        precision, as :meth:`Normal._mp`: the logarithms were the larger part of a quadrature's density calls)."""
        key = mp.mp.prec
        cache = self.__dict__.setdefault("_mpcache", {})
        if key not in cache:
            cache[key] = [(mp.log(to_mpf(w)), c) for w, c in zip(self.weights, self.components) if w != 0]
        return cache[key]

    def mp_log_pdf(self, x):
        terms = [lw + c.mp_log_pdf(x) for lw, c in self._mp_log_weights()]
        top = max(terms)
        if not mp.isfinite(top):
            return top
        return top + mp.log(mp.fsum(mp.exp(t - top) for t in terms))

    def mp_loc(self):
        return mp.fsum(to_mpf(w) * c.mp_loc() for w, c in zip(self.weights, self.components))

    def mp_width(self):
        m = self.mp_loc()
        return max(max(c.mp_width() for c in self.components),
                   max(abs(c.mp_loc() - m) for c in self.components))

    def mp_breaks(self):
        out = []
        for c in self.components:
            out += c.mp_breaks()
        return out

    def mp_reach(self):
        m = self.mp_loc()
        return max(c.mp_reach() + abs(c.mp_loc() - m) for c in self.components)

    def subs(self, mapping):
        return Mixture([_subs(w, mapping) for w in self.weights], [c.subs(mapping) for c in self.components])

    def latex(self, printer=None):
        return " + ".join(rf"{latex(w)}\,{c.latex()}" for w, c in zip(self.weights, self.components))


@dataclass(frozen=True, init=False)
class Product(Distribution):
    """Independent coordinates: ``Product(D1, ..., Dd)`` is a law on R^d."""

    components: tuple

    def __init__(self, *components):
        if not components:
            raise ParameterError("Product: at least one component is needed")
        for c in components:
            if not isinstance(c, Distribution) or isinstance(c, Product):
                raise ParameterError(f"Product: components must be one-dimensional laws, got {c!r}")
        object.__setattr__(self, "components", tuple(components))

    @property
    def dim(self):  # type: ignore[override]
        return len(self.components)

    def symbols(self):
        return [sp.Symbol(f"x_{i + 1}", real=True) for i in range(self.dim)]

    def pdf(self, xs=None):
        xs = xs or self.symbols()
        return sp.Mul(*[c.pdf(x) for c, x in zip(self.components, xs)])

    def log_pdf(self, xs=None):
        xs = xs or self.symbols()
        return sp.Add(*[c.log_pdf(x) for c, x in zip(self.components, xs)])

    def subs(self, mapping):
        return Product(*[c.subs(mapping) for c in self.components])

    def latex(self, printer=None):
        return r"\bigotimes_{i} " + "".join(c.latex() for c in self.components[:1])


def _subs(value, mapping):
    if isinstance(value, mp.mpf):
        return value
    return sp.sympify(value).subs(mapping)


def shift(law: Distribution, by) -> Distribution:
    """The law of ``X + by`` (for a product, ``by`` is a vector)."""
    if isinstance(law, Product):
        if len(by) != law.dim:
            raise ParameterError(f"shift vector has {len(by)} coordinates, the law has {law.dim}")
        return Product(*[shift(c, b) for c, b in zip(law.components, by)])
    if isinstance(law, PointMass):
        return PointMass(law.loc + _as_param(by))
    if isinstance(law, Finite):
        return Finite([x + _as_param(by) for x in law.points], law.probs)
    if isinstance(law, Mixture):
        return Mixture(law.weights, [shift(c, by) for c in law.components])
    return type(law)(law.loc + _as_param(by), getattr(law, "scale", None) if isinstance(law, Laplace) else law.std)


def joint_support(P, Q):
    """``[(x, p(x), q(x))]`` over the union of two finite supports (exact points)."""
    pts = []
    for x in list(P.points) + list(Q.points):
        if not any(sp.simplify(x - y) == 0 for y in pts):
            pts.append(x)

    def mass(L, x):
        return sp.Add(*[p for y, p in L.pmf() if sp.simplify(x - y) == 0])

    return [(x, mass(P, x), mass(Q, x)) for x in pts]


@register_function
class Phi(sp.Function):
    """The standard normal CDF ``Phi(x) = erfc(-x/sqrt(2))/2`` (evaluated through ``erfc``: accurate in both tails).

    >>> Phi(0)
    1/2
    >>> sp.N(Phi(-40), 15)
    3.65589354091503e-350
    """

    nargs = 1

    @classmethod
    def eval(cls, x):
        if x.is_zero:
            return sp.S.Half
        if x is sp.oo:
            return sp.S.One
        if x is -sp.oo:
            return sp.S.Zero
        return None

    def _eval_is_real(self):
        return self.args[0].is_real

    def _eval_is_positive(self):
        return True if self.args[0].is_real else None

    def fdiff(self, argindex=1):
        x = self.args[0]
        return sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)

    def _eval_rewrite_as_erfc(self, x, **kwargs):
        return sp.erfc(-x / sp.sqrt(2)) / 2

    def _eval_evalf(self, prec):
        x = self.args[0]._eval_evalf(prec + 10) if hasattr(self.args[0], "_eval_evalf") else None
        if x is None or not x.is_number:
            return None
        with mp.workprec(prec + 10):
            return sp.Float(Phi.mp(x._to_mpmath(prec + 10)), mp.libmp.prec_to_dps(prec))

    def _latex(self, printer):
        return r"\Phi\left(%s\right)" % printer._print(self.args[0])

    @staticmethod
    def mp(x):
        return mp.erfc(-x / mp.sqrt(2)) / 2
