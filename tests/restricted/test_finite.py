"""The finite-law engine: exact LPs, certified restricted divergences, classes, families and searches.

Every expected value is computed independently of the solver: closed forms of the unrestricted divergences
(sums over the support), one-dimensional maximisations by mpmath's root finder, exact rational sums.
"""
import random
from fractions import Fraction as F

import mpmath as mp
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cbdp_sym.restricted.finite as fr
from cbdp_sym.laws.distributions import Finite, PointMass, Product
from cbdp_sym.core.errors import ParameterError

X = fr.Feature("x", lambda a: a[0])


def _law(ws, atoms=None):
    tot = sum(ws)
    atoms = atoms or [(i,) for i in range(len(ws))]
    return fr.FiniteND(atoms, [F(w, tot) for w in ws])


P3 = _law([3, 2, 1], [(0,), (1,), (3,)])
Q3 = _law([1, 2, 4], [(0,), (1,), (3,)])


def _pq(P, Q):
    atoms, p, q = fr.joint_law(P, Q)
    return [mp.mpf(v.numerator) / v.denominator for v in p], [mp.mpf(v.numerator) / v.denominator for v in q]


# -- exact LPs -----------------------------------------------------------------------------------------
def test_lp_exact_optimum_and_certificate():
    r = fr.lp_max([2, 3], [[1, 1], [1, -1], [-1, 0], [0, -1]], [4, 2, 0, 0])
    assert r.value == 12 and r.x == [F(0), F(4)]
    # the certificate: y >= 0, A^T y = obj, c . y = value
    assert all(y >= 0 for y in r.dual) and sum(y * c for y, c in zip(r.dual, [4, 2, 0, 0])) == 12


def test_lp_unbounded_gives_a_ray():
    r = fr.lp_max([1, 0], [[0, 1], [-1, 0]], [1, 0])
    assert r.infinite and r.ray[0] > 0


def test_lp_needs_zero_feasible():
    with pytest.raises(ParameterError):
        fr.lp_max([1], [[1]], [-1])


@given(st.lists(st.integers(1, 30), min_size=2, max_size=5), st.lists(st.integers(1, 30), min_size=5, max_size=5))
def test_ipm_all_functions_range_one_is_l1(wp, wq):
    P = _law(wp)
    Q = _law(wq[:len(wp)])
    atoms, p, q = fr.joint_law(P, Q)
    H = fr.bounded([fr.indicator(a) for a in atoms], 1)
    assert fr.ipm(P, Q, H).value == sum(abs(a - b) for a, b in zip(p, q))


def test_lemma6_fails_for_a_cone():
    cone = fr.FunctionClass("cone", (X,), rows=(((F(1),), F(1)), ((F(-1),), F(0))))
    P, Q = _law([3, 1], [(1,), (3,)]), _law([1, 3], [(1,), (3,)])
    assert fr.sup_diff(P, Q, cone).value == 0 and fr.ipm(P, Q, cone).value == 1
    assert not fr.hypotheses(cone, P, Q)["closed_under_negation"]


# -- restricted divergences ----------------------------------------------------------------------------
@pytest.mark.parametrize("alpha", ["7/2", "3/2"])
def test_all_functions_reproduce_the_unrestricted_divergences(alpha):
    with mp.workdps(40):
        p, q = _pq(P3, Q3)
        al = mp.mpf(F(alpha).numerator) / F(alpha).denominator
        kl = mp.fsum(a * mp.log(a / b) for a, b in zip(p, q))
        s = mp.fsum(a**al * b ** (1 - al) for a, b in zip(p, q))
        r = fr.restricted_finite("kl", fr.all_functions(), P3, Q3)
        tiny = mp.mpf(10) ** -36  # the reference sums carry rounding errors larger than the certified width
        assert abs(r.value - kl) < mp.mpf(10) ** -35 and r.lower - tiny <= kl <= r.upper + tiny
        ra = fr.restricted_finite("alpha", fr.all_functions(), P3, Q3, alpha=alpha)
        assert abs(ra.value - (s - 1) / (al**2 - al)) < mp.mpf(10) ** -35
        rr = fr.restricted_finite("renyi", fr.all_functions(), P3, Q3, alpha=alpha)
        ref = mp.log(s) / (al - 1)
        assert abs(rr.value - ref) < mp.mpf(10) ** -35 and rr.lower - tiny <= ref <= rr.upper + tiny
        rt = fr.restricted_finite("tv", fr.all_functions(), P3, Q3)
        assert rt.exact == sum(abs(a - b) for a, b in zip(fr.joint_law(P3, Q3)[1], fr.joint_law(P3, Q3)[2])) / 2


def test_lin_kl_is_donsker_varadhan_one_dimensional():
    """sup_a a E_P x - log E_Q e^{a x}, maximised by mpmath's root finder on the derivative (independent)."""
    with mp.workdps(40):
        p, q = _pq(P3, Q3)
        xs = [mp.mpf(0), mp.mpf(1), mp.mpf(3)]
        mean = mp.fsum(a * x for a, x in zip(p, xs))

        def dJ(t):
            z = mp.fsum(b * mp.exp(t * x) for b, x in zip(q, xs))
            return mean - mp.fsum(b * x * mp.exp(t * x) for b, x in zip(q, xs)) / z

        t = mp.findroot(dJ, 0)
        ref = t * mean - mp.log(mp.fsum(b * mp.exp(t * x) for b, x in zip(q, xs)))
        r = fr.restricted_finite("kl", fr.lin(), P3, Q3)
        assert abs(r.value - ref) < mp.mpf(10) ** -33
        assert r.certified and r.width < mp.mpf(10) ** -35


def test_bounded_class_optimum_on_the_boundary_matches_a_1d_maximum():
    """bounded(x) without a constant: sup over |a| <= 1/3 of a E_P x - E_Q e^{a x - 1}, on a grid."""
    P, Q = _law([1, 1, 8], [(0,), (1,), (3,)]), _law([8, 1, 1], [(0,), (1,), (3,)])
    with mp.workdps(30):
        p, q = _pq(P, Q)
        xs = [mp.mpf(0), mp.mpf(1), mp.mpf(3)]

        def J(t):
            return t * mp.fsum(a * x for a, x in zip(p, xs)) - mp.fsum(b * mp.exp(t * x - 1) for b, x in zip(q, xs))

        ref = max(J(t) for t in mp.linspace(-mp.mpf(1) / 3, mp.mpf(1) / 3, 2001))
        r = fr.restricted_finite("kl", fr.bounded([X], 1), P, Q)
        assert abs(r.value - J(mp.mpf(1) / 3)) < mp.mpf(10) ** -25 and r.value >= ref - mp.mpf(10) ** -25
        assert r.active, "the optimum lies on the boundary: a constraint must be active"


def test_enclosure_excludes_a_wrong_value():
    with mp.workdps(30):
        r = fr.restricted_finite("renyi", fr.poly(2), P3, Q3, alpha="2")
        assert r.certified and not (r.lower <= r.value + mp.mpf(10) ** -20 <= r.upper)


def test_infinite_suprema_come_with_a_ray():
    with mp.workdps(20):
        r = fr.restricted_finite("kl", fr.lin(), PointMass(0), PointMass(1))
        assert r.infinite and r.value == mp.inf and r.ray is not None
        not_ac = fr.restricted_finite("renyi", fr.lin(), _law([1, 1]), _law([1]), alpha="2")
        assert not_ac.infinite
        bounded = fr.restricted_finite("kl", fr.translate(fr.bounded([X], 1)), PointMass(0), PointMass(1))
        assert not bounded.infinite and abs(bounded.value - 1) < mp.mpf(10) ** -15


def test_supremum_at_infinity_is_certified():
    with mp.workdps(30):
        r = fr.restricted_finite("kl", fr.lin(), _law([1]), _law([1, 1]))  # sup_a -log((1 + e^a)/2) = log 2
        assert abs(r.value - mp.log(2)) < mp.mpf(10) ** -25 and r.certified


def test_finite_set_class_is_an_exact_maximum():
    with mp.workdps(30):
        cls = fr.FiniteSetClass("two", (X, fr.Feature("-x", lambda a: -a[0])))
        p, q = _pq(P3, Q3)
        xs = [0, 1, 3]
        vals = [mp.fsum(a * s * x for a, x in zip(p, xs)) - mp.fsum(b * mp.exp(s * x - 1) for b, x in zip(q, xs))
                for s in (1, -1)]
        r = fr.restricted_finite("kl", cls, P3, Q3)
        assert abs(r.value - max(vals)) < mp.mpf(10) ** -25


def test_product_laws_and_sum_classes():
    P1, Q1 = _law([1, 2]), _law([2, 1])
    P2, Q2 = _law([1, 1, 2]), _law([2, 1, 1])
    b1 = fr.lift(fr.lin(), (0,), [(0,), (1,)])
    b2 = fr.lift(fr.lin(), (1,), [(0,), (1,), (2,)])
    H = fr.sum_class(b1, b2)
    with mp.workdps(30):
        joint = fr.restricted_finite("kl", H, fr.product(P1, P2), fr.product(Q1, Q2)).value
        parts = fr.restricted_finite("kl", fr.lin(), P1, Q1).value + fr.restricted_finite("kl", fr.lin(), P2, Q2).value
    assert abs(joint - parts) < mp.mpf(10) ** -25  # the restricted KL separates over H1 + H2 (Donsker-Varadhan)


def test_engine_laws_are_accepted():
    P = Finite([0, 1], [F(1, 4), F(3, 4)])
    Pr = Product(P, P)
    assert len(fr.as_pmf(Pr)) == 4 and sum(fr.as_pmf(Pr).values()) == 1


# -- laws, classes, hypotheses -------------------------------------------------------------------------
def test_pushforward_merges_atoms_and_mixture_product():
    P = fr.FiniteND([(-1,), (1,), (2,)], [F(1, 4), F(1, 4), F(1, 2)])
    sq = fr.pushforward(P, lambda a: a[0] ** 2)
    assert fr.as_pmf(sq) == {(F(1),): F(1, 2), (F(4),): F(1, 2)}
    m = fr.mixture(F(1, 3), _law([1]), _law([0, 1]))
    assert fr.as_pmf(m) == {(0,): F(1, 3), (1,): F(2, 3)}
    g = fr.linear_map([[1, 1]])
    assert fr.pushforward(fr.product(_law([1, 1]), _law([1, 1])), g).pmf()[(F(1),)] == F(1, 2)


def test_hypotheses_are_decided_per_instance():
    h = fr.hypotheses(fr.bounded([X], 1), P3, Q3)
    assert h["closed_under_negation"] and not h["translation_invariant"] and h["range"] == 1 and h["range_in_unit"]
    h2 = fr.hypotheses(fr.translate(fr.bounded([X], 1)), P3, Q3)
    assert h2["translation_invariant"] and h2["range"] == float("inf") and not h2["range_in_unit"]
    hb = fr.hypotheses(fr.box([X], [F(1, 2)]), P3, Q3)
    assert hb["range"] == F(3, 2)  # |x| <= 3 on the support


@pytest.mark.parametrize("bad", [
    lambda: fr.FiniteND([(0,), (0,)], [F(1, 2), F(1, 2)]),
    lambda: fr.FiniteND([(0,), (1,)], [F(1, 2), F(1, 3)]),
    lambda: fr.FiniteND([(0,)], [0.5 + 0.5]),
    lambda: fr.restricted_finite("renyi", fr.lin(), P3, Q3, alpha="1"),
    lambda: fr.restricted_finite("hellinger", fr.lin(), P3, Q3),
    lambda: fr.restricted_finite("kl", fr.lin(), P3, Q3, alpha="2"),
    lambda: fr.restricted_finite("kl", fr.FunctionClass("bad", (X,), rows=(((F(1),), F(-1)),)), P3, Q3),
    lambda: fr.mixture(F(3, 2), P3, Q3),
    lambda: fr.restricted_finite("kl", fr.lin(), P3, fr.product(P3, Q3)),
])
def test_bad_input_is_a_parameter_error(bad):
    with pytest.raises(ParameterError):
        bad()


# -- families and searches -----------------------------------------------------------------------------
def test_budgeted_search_is_deterministic_and_counts_evaluations():
    calls = []

    def ev(x):
        calls.append(x)
        return (x - 0.3) ** 2

    sample = lambda rng: rng.random()  # noqa: E731
    perturb = lambda x, rng, s: x + s * (rng.random() - 0.5)  # noqa: E731
    a = fr.budgeted_search(ev, sample, perturb, 50, seed=3, progress_every=0)
    n = len(calls)
    b = fr.budgeted_search(ev, sample, perturb, 50, seed=3, progress_every=0)
    assert n == 50 and len(calls) == 100 and a.best == b.best and a.best_value < 1e-3


def test_run_family_certifies_a_violation():
    # a false statement: KL^lin(P, Q) <= 0 for P != Q; the certificate must prove the violation
    def ev(inst):
        r = fr.restricted_finite("kl", fr.lin(), *inst)
        return {"slack": fr.rel_slack(0, r.value), "lhs": r.value, "rhs": mp.mpf(0)}

    def cert(inst):
        r = fr.restricted_finite("kl", fr.lin(), *inst)
        return "certified" if r.certified and r.lower_arb > 0 else None

    rng = random.Random(1)
    fam = fr.Family("neg", "false", "none", True, ev, instances=((P3, Q3),),
                    sample=lambda g: (fr.random_law(g, [(0,), (1,)]), fr.random_law(g, [(0,), (1,)])),
                    perturb=lambda x, g, s: x, budget=4, seed=rng.randint(0, 9), certify=cert)
    with mp.workdps(30):
        res = fr.run_family(fam, 15)
    status, msg = fr.family_verdict({"neg": res}, [fam])
    assert res["violated"] and res["certificate"] == "certified" and status == "refuted"
