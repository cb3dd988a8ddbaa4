"""Divergences, privacy profiles and expectations of laws on the integers, from their definitions, at the working
precision: sums over the integers with analytic tail bounds (:func:`cbdp_sym.laws.discrete.lattice_sum`).

The public functions of :mod:`cbdp_sym.divergences` (``fdiv_mp``, ``renyi_mp``, ``renyi_numeric``, ``profile_mp``,
...) send pairs that involve a law on the integers here, so that a discrete Gaussian goes through the same calls as a
Gaussian.  A pair may mix a law on the integers with a finite law (``Finite``, ``PointMass``): the finite law's atoms
are points of the joint support (an atom off the integers has probability 0 under the lattice law).

How each tail is bounded (``U`` upper and ``L`` lower envelopes of the log-pmfs, :class:`TailForm`):

* Rényi, ``alpha > 1``: ``p^alpha q^(1 - alpha) <= n^(alpha - 1) sum_i exp(alpha U_i + (1 - alpha) L_q)`` (the power
  mean inequality for a mixture's ``n`` components); ``0 < alpha < 1``: ``<= alpha p + (1 - alpha) q``.
* KL: ``|p log(p/q)| <= p (|L_p| + |L_q|)`` and ``|L| <= A (1 + x)^2``.
* TV ``|p - q|/2 <= (p + q)/2``; hockey-stick ``(p - e^eps q)_+ <= p``.

The Rényi sum is taken as ``sum_k p(k) expm1((alpha - 1) log(p/q))`` (``= sum p^alpha q^(1-alpha) - 1``), so that
orders near 1 and nearly equal laws keep their digits; digits lost to cancellation in any sum are recovered at higher
precision (:func:`cbdp_sym.laws.discrete.sum_to_precision`).

>>> import mpmath as mp
>>> from cbdp_sym.laws.discrete import DiscreteGaussian
>>> with mp.workdps(30):
...     mp.nstr(renyi_lattice(DiscreteGaussian(0, 2), DiscreteGaussian(1, 2), 3), 20)   # alpha / (2 sigma^2)
'0.375'
"""
from __future__ import annotations

import mpmath as mp
import sympy as sp

from cbdp_sym.divergences.generators import _ALPHA_GENERATORS, T
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import to_mpf
from cbdp_sym.laws.discrete import LatticeLaw, TailForm, _peak, _poly_envelope, lattice_sum, sum_to_precision
from cbdp_sym.laws.distributions import Finite

__all__ = ["involves_lattice", "renyi_lattice", "kl_lattice", "max_lattice", "tv_lattice", "hockey_lattice",
           "fdiv_lattice", "profile_lattice", "alpha_sum_minus_one"]


def involves_lattice(*laws) -> bool:
    """Whether any of ``laws`` is a law on the integers (:class:`cbdp_sym.laws.discrete.LatticeLaw`)."""
    return any(isinstance(L, LatticeLaw) for L in laws)


class _View:
    """The numeric face of an atomic law on the integers: ``log_pmf(k)``, integer ends (``None``: infinite), tail
    envelopes, a mode, and the atoms off the integers (a finite law's)."""

    def __init__(self, law):
        self.law = law
        if isinstance(law, LatticeLaw):
            self.lo, self.hi = law.mp_bounds()
            self.off = {}
            self._lp = law.mp_log_pmf
            self.mode = law.mp_mode()
            self.upper = law.upper_forms
            self.lower = law.lower_form
            return
        if not isinstance(law, Finite):
            raise ParameterError(f"a law on the integers against {law!r}: the other law must be on the integers or "
                                 "finite (no likelihood ratio with a density)")
        ints, off = {}, {}
        for x, p in law.mp_pmf():
            if p == 0:
                continue
            if x == mp.nint(x):
                ints[int(mp.nint(x))] = ints.get(int(mp.nint(x)), mp.mpf(0)) + p
            else:
                off[x] = off.get(x, mp.mpf(0)) + p
        self.ints, self.off = ints, off
        self.lo = min(ints) if ints else 0
        self.hi = max(ints) if ints else -1
        self.mode = max(ints, key=ints.get) if ints else 0
        self._lp = lambda k: mp.log(ints[int(k)]) if int(k) in ints else -mp.inf
        self.upper = lambda d: None
        self.lower = lambda d: None

    def log_pmf(self, k):
        if (self.lo is not None and k < self.lo) or (self.hi is not None and k > self.hi):
            return -mp.inf
        return self._lp(k)

    def end(self, d):
        return self.hi if d > 0 else self.lo

    def inside(self, other) -> bool:
        """Whether this law's support lies in ``other``'s (laws on the integers have no holes in their range)."""
        for d in (1, -1):
            mine, theirs = self.end(d), other.end(d)
            if theirs is not None and (mine is None or d * mine > d * theirs):
                return False
        if isinstance(other.law, Finite):
            if any(self.log_pmf(k) > -mp.inf and other.log_pmf(k) == -mp.inf for k in range(self.lo, self.hi + 1)):
                return False
        return all(x in other.off for x in self.off)


def _views(P, Q):
    return _View(P), _View(Q)


def _union_end(a, b, d):
    ea, eb = a.end(d), b.end(d)
    if ea is None or eb is None:
        return None
    return max(ea, eb) if d > 0 else min(ea, eb)


def _check_forms(forms, what):
    if forms is not None:
        for f in forms:
            if f.diverges():
                return False
    return True


def alpha_sum_minus_one(P, Q, alpha):
    """``sum_k p(k)^alpha q(k)^(1 - alpha) - 1`` (``alpha > 0``, ``alpha != 1``), cancellation-free: the sum of
    ``p expm1((alpha - 1) log(p/q))`` over P's support (``alpha > 1``; ``+inf`` when P has mass where Q has none), or
    of ``q expm1(alpha log(p/q))`` over Q's (``alpha < 1``, where atoms of P outside Q's support count 0 and atoms of
    Q outside P's count ``-q``).  Off-lattice atoms of finite laws are added exactly."""
    al = to_mpf(alpha)
    if not al > 0 or al == 1:
        raise ParameterError(f"alpha must be positive and not 1, got {alpha}")
    A, B = _views(P, Q)
    if al > 1:
        if not A.inside(B):
            return mp.inf
        base, other, power = A, B, al - 1  # p expm1((al - 1)(lp - lq))
    else:
        base, other, power = B, A, al  # q expm1(al (lp - lq)), lp = -inf counts -q
    forms = {}
    for d in (1, -1):
        if base.end(d) is not None:
            forms[d] = None
            continue
        ub = base.upper(d)
        if al > 1:
            lq = B.lower(d)
            if lq is None:
                raise ParameterError("no lower tail bound for Q")
            n = len(ub)
            t = [u.times(al).plus(lq.times(1 - al)).add_const((al - 1) * mp.log(n)) for u in ub]
            if any(f.diverges() for f in t):
                lp = A.lower(d)
                uq = B.upper(d)
                if lp is not None and uq is not None and len(uq) == 1 and lp.times(al).plus(uq[0].times(1 - al)).diverges():
                    return mp.inf
                raise ParameterError("the Renyi sum's tail cannot be bounded (the envelopes diverge)")
            forms[d] = list(ub) + t  # |p expm1(...)| <= p + p^al q^(1 - al)
        else:
            ua = A.upper(d) or []
            forms[d] = list(ub) + [u.add_const(mp.log(al)) for u in ua] + [u.add_const(mp.log(1 - al)) for u in ub]

    def term(k):
        if base is A:
            lp = A.log_pmf(k)
            if lp == -mp.inf:
                return mp.mpf(0)
            return mp.exp(lp) * mp.expm1(power * (lp - B.log_pmf(k)))
        lq = B.log_pmf(k)
        if lq == -mp.inf:
            return mp.mpf(0)
        lp = A.log_pmf(k)
        if lp == -mp.inf:
            return -mp.exp(lq)
        return mp.exp(lq) * mp.expm1(power * (lp - lq))

    center = _peak(lambda k: al * A.log_pmf(k) + (1 - al) * B.log_pmf(k) if al > 1 else B.log_pmf(k),
                   base.mode, base.lo, base.hi)

    def compute():
        r = lattice_sum(term, forms.get(1), forms.get(-1), base.lo, base.hi, center, what="the Renyi sum")
        extra = mp.mpf(0)
        for x, p in A.off.items():
            q = B.off.get(x, mp.mpf(0))
            if al > 1:
                extra += p * mp.expm1((al - 1) * (mp.log(p) - mp.log(q)))
            elif q > 0:
                extra += q * mp.expm1(al * (mp.log(p) - mp.log(q)))
        for x, q in B.off.items():
            if al < 1 and x not in A.off:
                extra -= q
        r.value += extra
        r.abs_sum += abs(extra)
        return r

    return sum_to_precision(compute)


def renyi_lattice(P, Q, alpha):
    """``D_alpha(P || Q)`` for laws on the integers (or one finite law): ``alpha > 1``, 1 (KL) or ``inf`` (max)."""
    al = alpha if isinstance(alpha, mp.mpf) else to_mpf(alpha)
    if mp.isnan(al) or al < 1:
        raise ParameterError(f"the Renyi divergence needs alpha >= 1, got {al}")
    if al == 1:
        return kl_lattice(P, Q)
    if mp.isinf(al):
        return max_lattice(P, Q)
    s = alpha_sum_minus_one(P, Q, al)
    if mp.isinf(s):
        return mp.inf
    return mp.log1p(s) / (al - 1)


def kl_lattice(P, Q):
    """``KL(P || Q) = sum_k p log(p/q)`` (``+inf`` when P has mass where Q has none)."""
    A, B = _views(P, Q)
    if not A.inside(B):
        return mp.inf
    forms = {}
    for d in (1, -1):
        if A.end(d) is not None:
            forms[d] = None
            continue
        lp, lq = A.lower(d), B.lower(d)
        if lp is None or lq is None:
            raise ParameterError("no lower tail bound for the KL sum")
        C = _poly_envelope(lp) + _poly_envelope(lq)
        forms[d] = [u.with_poly(2, C).at_least(1) for u in A.upper(d)]

    def term(k):
        lp = A.log_pmf(k)
        if lp == -mp.inf:
            return mp.mpf(0)
        return mp.exp(lp) * (lp - B.log_pmf(k))

    def compute():
        r = lattice_sum(term, forms.get(1), forms.get(-1), A.lo, A.hi, A.mode, what="the KL sum")
        for x, p in A.off.items():
            t = p * (mp.log(p) - mp.log(B.off[x]))
            r.value += t
            r.abs_sum += abs(t)
        return r

    return sum_to_precision(compute)


def tv_lattice(P, Q):
    """``TV(P, Q) = sum_k |p - q| / 2``."""
    A, B = _views(P, Q)
    forms = {}
    for d in (1, -1):
        if _union_end(A, B, d) is not None:
            forms[d] = None
            continue
        forms[d] = [f.add_const(-mp.log(2)) for V in (A, B) for f in (V.upper(d) or [])]

    def term(k):
        return abs(mp.exp(A.log_pmf(k)) - mp.exp(B.log_pmf(k))) / 2

    lo, hi = _union_end(A, B, -1), _union_end(A, B, 1)
    r = lattice_sum(term, forms.get(1), forms.get(-1), lo, hi, A.mode, what="the total variation sum")
    extra = mp.fsum(abs(A.off.get(x, 0) - B.off.get(x, 0)) for x in set(A.off) | set(B.off)) / 2
    return r.value + extra


def hockey_lattice(P, Q, eps):
    """``delta_{P,Q}(eps) = sum_k (p - e^eps q)_+`` (each term ``p (1 - e^(eps - log(p/q)))``: no cancellation)."""
    e = to_mpf(eps)
    A, B = _views(P, Q)
    forms = {d: (None if A.end(d) is not None else A.upper(d)) for d in (1, -1)}

    def term(k):
        lp = A.log_pmf(k)
        if lp == -mp.inf:
            return mp.mpf(0)
        L = lp - B.log_pmf(k)
        if not L > e:
            return mp.mpf(0)
        return mp.exp(lp) * -mp.expm1(e - L) if mp.isfinite(L) else mp.exp(lp)

    r = lattice_sum(term, forms.get(1), forms.get(-1), A.lo, A.hi, A.mode, what="the privacy profile's sum")
    extra = mp.mpf(0)
    for x, p in A.off.items():
        q = B.off.get(x, mp.mpf(0))
        extra += p if q == 0 else max(mp.mpf(0), p - mp.exp(e) * q)
    return r.value + extra


profile_lattice = hockey_lattice


def max_lattice(P, Q):
    """``D_inf(P || Q) = sup_k log p(k)/q(k)`` over P's support: scanned outward from P's mode until the envelope of
    the log-ratio (``U_p - L_q``, a :class:`TailForm`) is decreasing and below the best value; ``+inf`` when P has
    mass where Q has none or the log-ratio provably grows without bound."""
    A, B = _views(P, Q)
    if not A.inside(B):
        return mp.inf
    best = -mp.inf
    for x, p in A.off.items():
        best = max(best, mp.log(p) - mp.log(B.off[x]))

    def L(k):
        return A.log_pmf(k) - B.log_pmf(k)

    if A.lo is not None and A.hi is not None and A.hi - A.lo < 10**6:
        return max([best] + [L(k) for k in range(A.lo, A.hi + 1) if A.log_pmf(k) > -mp.inf])
    best = max(best, L(A.mode))
    for d in (1, -1):
        end = A.end(d)
        ups, lq = A.upper(d), B.lower(d)
        env = None if end is not None else [u.plus(lq.times(-1)) for u in ups]
        if env is not None:
            exact_lower = A.lower(d).plus(B.upper(d)[0].times(-1)) if len(B.upper(d)) == 1 else None
            if exact_lower is not None and _grows(exact_lower):
                return mp.inf
        k = A.mode + d
        n = 0
        while end is None or d * k <= d * end:
            x = d * k
            v = L(k)
            best = max(best, v)
            if env is not None and all(x >= f.x0 for f in env):
                if all(f.slope_sup(x) <= 0 for f in env):
                    bound = mp.log(mp.fsum(mp.exp(f.value(x)) for f in env))
                    if bound <= best:
                        break
            k += d
            n += 1
            if n > 10**6:
                raise ParameterError("the max-divergence scan did not settle in 10^6 steps")
    return best


def _grows(f: TailForm) -> bool:
    """Whether ``phi(x) -> +inf`` (the log-ratio grows without bound in that tail)."""
    if f.a2 != 0:
        return f.a2 > 0
    nb = f.net_gamma()
    if nb != 0:
        return nb < 0
    if f.a1 != 0:
        return f.a1 > 0
    return mp.fsum(c for c, _r in f.logs) > 0


def fdiv_lattice(gen, P, Q, **params):
    """``D_f(P, Q) = sum_k q f(p/q)`` for the generators whose tails are bounded here: KL, TV, the alpha-divergence
    (``(|t|^alpha - 1)/(alpha^2 - alpha)``: ``(sum p^alpha q^(1-alpha) - 1)/(alpha^2 - alpha)``) and the hockey
    stick ``(t - e^eps)_+``."""
    key = getattr(gen, "key", None)
    if key == "kl":
        return kl_lattice(P, Q)
    if key == "tv":
        return tv_lattice(P, Q)
    if key == "alpha":
        al = _param(gen, params, "alpha")
        s = alpha_sum_minus_one(P, Q, al)
        return s / (al * al - al) if mp.isfinite(s) else mp.inf
    if key == "hockey":
        f = gen.f.subs({p: sp.sympify(params[str(p)]) for p in gen.params if str(p) in params})
        big = sp.Integer(10) ** 6
        gamma = to_mpf(big - f.subs(T, big))
        return hockey_lattice(P, Q, mp.log(gamma))
    raise ParameterError(f"the generator {key!r} has no bounded-tail sum for laws on the integers here "
                         "(kl, tv, alpha and the hockey stick do)")


def _param(gen, params, name):
    if gen.params:
        p = gen.params[0]
        if str(p) not in params:
            raise ParameterError(f"the generator needs a value for {p}")
        return to_mpf(sp.sympify(params[str(p)]))
    for (_tp, a), g in _ALPHA_GENERATORS.items():  # one generator object per numeric order
        if g is gen:
            return to_mpf(a)
    raise ParameterError("cannot read the order off the alpha generator")  # pragma: no cover
