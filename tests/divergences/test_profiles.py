"""Kinked generators, privacy profiles, eps(delta) and the profile command (issue 16)."""
import json
import random

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import privacy_profile
from cbdp_sym.conversions import profile_mp, profile_sym
from cbdp_sym.app.cli import main
from cbdp_sym.laws.distributions import Finite, Laplace, Normal, PointMass, Product
from cbdp_sym.core.errors import DerivationError, ParameterError
from cbdp_sym.calculus.implicit import certify_root
from cbdp_sym.core.numbers import digits
from cbdp_sym.divergences.profiles import EPS, Phi, eps_for_delta, erfc_form, value_with_digits, symmetric_profile_mp

b, v, sg = sp.symbols("b v sigma", positive=True)


def _conv_figure(registry, paper, fid):
    return next(f for f in registry.papers[paper].figures if f.id == fid)


def test_gaussian_profile_is_written_through_phi():
    expr = profile_sym(Normal(0, sg), Normal(v, sg))[0]
    assert expr.has(Phi) and not expr.has(sp.erf)
    want = Phi(v / (2 * sg) - EPS * sg / v) - sp.exp(EPS) * Phi(-v / (2 * sg) - EPS * sg / v)
    assert sp.simplify(expr - want) == 0


@pytest.mark.parametrize("eps, std", [("37", "1"), ("300", "1"), ("40", "3/2"), ("1/3", "2")])
def test_tail_accuracy_relative_digits_below_1e_300(eps, std):
    P, Q = Normal(0, sp.Rational(std)), Normal(1, sp.Rational(std))
    expr = profile_sym(Normal(0, sg), Normal(1, sg))[0]
    with mp.workdps(60):
        num = profile_mp(P, Q, sp.Rational(eps))
        der, dg = value_with_digits(expr, {EPS: sp.Rational(eps), sg: sp.Rational(std)}, 60)
        assert der > 0 and digits(num, der) > 45 and dg >= 45
    if eps == "300":
        assert num < mp.mpf(10) ** -300


def test_laplace_tail_and_randomized_response_exact():
    with mp.workdps(60):
        got = profile_mp(Laplace(0, 1), Laplace(1, 1), mp.mpf("0.999999"))
        want = -mp.expm1((mp.mpf("0.999999") - 1) / 2)  # 1 - e^{(eps - 1)/2}, tiny: relative digits kept
        assert digits(got, want) > 50
        P, Q = Finite([0, 1], [sp.Rational(1, 4), sp.Rational(3, 4)]), Finite([0, 1], [sp.Rational(3, 4), sp.Rational(1, 4)])
        assert digits(profile_mp(P, Q, mp.mpf(1) / 2), mp.mpf(3) / 4 - mp.exp(mp.mpf(1) / 2) / 4) > 55
        assert digits(symmetric_profile_mp(P, Q, 0), mp.mpf(1) / 2) > 55


def test_product_of_gaussians_equals_the_one_dimensional_shift():
    P = Product(Normal(0, 2), Normal(0, 2))
    Q = Product(Normal(3, 2), Normal(4, 2))  # |v| = 5
    expr = profile_sym(P, Q)[0]
    with mp.workdps(50):
        want = profile_mp(Normal(0, 2), Normal(5, 2), mp.mpf(2))
        got = value_with_digits(expr, {EPS: 2}, 50)[0]
        assert digits(got, want) > 40


def test_one_minus_erf_without_digits_is_rewritten_or_refused():
    x = sp.Symbol("x")
    val, dg = value_with_digits(1 - sp.erf(x), {x: 30}, 50)
    with mp.workdps(60):
        assert digits(val, mp.erfc(30)) > 45
    assert erfc_form(1 - sp.erf(x)) == 2 * Phi(-sp.sqrt(2) * x)
    # a low-precision float has no digits left after the cancellation: refused, not returned
    with pytest.raises(DerivationError):
        value_with_digits(1 - sp.cos(x), {x: sp.Rational(1, 10**40)}, 50)


def test_eps_of_delta_inverts_the_profile_and_is_certified():
    P, Q = Normal(0, sp.Rational(3, 2)), Normal(1, sp.Rational(3, 2))
    expr = profile_sym(Normal(0, sg), Normal(1, sg))[0].subs(sg, sp.Rational(3, 2))
    with mp.workdps(60):
        d = mp.mpf(10) ** -8
        num = eps_for_delta(lambda e: profile_mp(P, Q, e), d)
        fn = sp.lambdify(EPS, expr, modules=[{"Phi": Phi.mp}, "mpmath"])
        der = eps_for_delta(fn, d)
        assert digits(num, der) > 45
        assert digits(fn(der), d) > 45
        lo, hi, sentence = certify_root(expr - sp.Rational(1, 10**8), EPS, der)
        assert mp.mpf(lo.p) / lo.q < der < mp.mpf(hi.p) / hi.q and "opposite signs" in sentence
        with pytest.raises(DerivationError):  # a wrong root does not certify
            certify_root(expr - sp.Rational(1, 10**8), EPS, der * (1 + mp.mpf(10) ** -20))


def test_privacy_profile_function_and_bad_input():
    out = privacy_profile(Laplace(0, 2), Laplace(1, 2), eps="1/5", dps=30, check=True)
    with mp.workdps(40):
        assert digits(mp.mpf(out["delta"]), -mp.expm1((mp.mpf(1) / 5 - mp.mpf(1) / 2) / 2)) > 29
    assert float(out["digits"]) >= 29 and out["derived"]
    quick = privacy_profile(Laplace(0, 2), Laplace(1, 2), eps="1/5", dps=30)  # the check in double precision
    assert quick["delta"] == out["delta"] and float(quick["digits"]) >= 13 and "double precision" in quick["check"]
    for kw in ({"eps": "-1"}, {"delta": "0"}, {"delta": "1"}, {"eps": 1, "delta": "0.1"}):
        with pytest.raises(ParameterError):
            privacy_profile(Laplace(0, 1), Laplace(1, 1), dps=20, **kw)
    with pytest.raises(ParameterError):
        privacy_profile(PointMass(0), Laplace(1, 1), eps=1, dps=20)


def test_cli_profile_json_and_errors(capsys):
    assert main(["profile", "--P", "laplace(0,1)", "--Q", "laplace(1,1)", "--delta", "0.1", "--dps", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"delta", "eps", "derived", "digits"} <= set(out)
    with mp.workdps(40):
        assert digits(mp.mpf(out["eps"]), 1 + 2 * mp.log(mp.mpf("0.9"))) > 29  # 1 - e^{(eps-1)/2} = 0.1
    for bad in (["--eps", "-1"], ["--delta", "0"], ["--delta", "2"]):
        assert main(["profile", "--P", "laplace(0,1)", "--Q", "laplace(1,1)"] + bad) == 2
        err = capsys.readouterr().err
        assert err.startswith("cbdp-sym: error:") and len(err.strip().splitlines()) == 1
    assert main(["profile", "--P", "point(0)", "--Q", "normal(1,1)", "--eps", "1"]) == 2
    assert "not comparable" in capsys.readouterr().err


def test_a_wrong_profile_is_refuted_not_verified():
    """Mutant: the Laplace profile with the kink's factor 1/2 dropped must come out refuted."""
    from cbdp_sym import Claim, Param, audit_claim

    e = sp.Symbol("epsilon", positive=True)
    c = Claim(id="MUT-PROFILE", paper="toy", label="Laplace profile, a dropped factor", kind="identity", statement="",
              params=[Param.positive("eps", e, ("1/10", "1/2")), Param.positive("b", b, ("2", "3"))],
              claimed=lambda: 1 - sp.exp(e - 1 / b),
              derive=lambda: profile_sym(Laplace(0, b), Laplace(1, b), e)[0],
              numeric=lambda p: profile_mp(Laplace(0, p["b"]), Laplace(1, p["b"]), p["eps"]))
    res = audit_claim(c, dps=30)
    assert res.status == "refuted"
    assert all(ch.digits_derived >= 25 for ch in res.checks)  # the derivation itself agrees with the definition


def test_profile_runs_under_the_time_limit(capsys):
    """`profile` is stopped from outside at --timeout like eval and restricted: one line, exit 2."""
    from cbdp_sym.app.cli import main

    assert main(["profile", "--P", "normal(0,1)", "--Q", "normal(1,1)", "--delta", "1/100000", "--check",
                 "--timeout", "0.5"]) == 2
    assert "time limit" in capsys.readouterr().err


def test_conversion_figure_curves_against_independent_gaussian_formulas(registry):
    """The figure's exact curve is the root of the Gaussian profile (written here from the normal CDF, not the
    engine's), and its Prop. 3 / Prop. 1.3 curves are 1/2 + sqrt(2 log 1/delta) for sigma = 1 (the optimum order)."""
    rdp = _conv_figure(registry, "rdp", "RDP-CONV-FIG-GAUSSIAN")
    zc = _conv_figure(registry, "zcdp", "ZCDP-CONV-FIG-GAUSSIAN")
    x = "1e-3"
    with mp.workdps(rdp.dps):
        exact = rdp.curve("exact").fn(x)
        prop3 = rdp.curve("prop3").fn(x)
        p13 = zc.curve("p13").fn(x)
    with mp.workdps(40):
        d = mp.mpf("1e-3")
        want = mp.findroot(lambda e: mp.ncdf(mp.mpf(1) / 2 - e) - mp.exp(e) * mp.ncdf(-mp.mpf(1) / 2 - e) - d, 3)
        closed = mp.mpf(1) / 2 + mp.sqrt(2 * mp.log(1 / d))
        assert digits(exact, want) >= rdp.dps - 5
        assert digits(prop3, closed) >= 12 and digits(p13, closed) >= rdp.dps - 5
    assert prop3 > exact  # a conversion is an upper bound on eps(delta)
    assert [c.key for c in zc.curves] == ["exact", "p13", "l36eps", "l36delta", "b2proof"]


@pytest.mark.slow
def test_conversion_figure_claims_hold(registry):
    from cbdp_sym import audit_claim

    for cid in ("RDP-CONV-FIGURE", "ZCDP-CONV-FIGURE"):
        res = audit_claim(registry.get(cid), dps=50)
        assert res.status == "holds", res.message
        # ZCDP: each figure's 8 abscissae, the exact curve against the derived root and 4 conversions above it
        assert len(res.checks) == 2 * 8 * (2 if cid.startswith("RDP") else 1 + 4)


def _normal_laplace_profile_by_definition(eps):
    """delta(eps) of N(0, 1) against Lap(1, 2) from the definition, independently of profile_mp: p > e^eps q only
    left of 1, where log p - log q = -x^2/2 - x/2 + 1/2 + log 4 - log sqrt(2 pi) is a downward parabola; its two
    crossings with eps (the quadratic formula) bound the region, integrated by mp.quad."""
    c = mp.log(4) - mp.log(mp.sqrt(2 * mp.pi))
    disc = 1 - 8 * (eps - mp.mpf(1) / 2 - c)
    if disc <= 0:
        return mp.mpf(0)
    r1, r2 = (-1 - mp.sqrt(disc)) / 2, (-1 + mp.sqrt(disc)) / 2
    assert r2 < 1
    p = lambda x: mp.exp(-x * x / 2) / mp.sqrt(2 * mp.pi)  # noqa: E731
    q = lambda x: mp.exp(-abs(x - 1) / 2) / 4  # noqa: E731
    return mp.quad(lambda x: p(x) - mp.exp(eps) * q(x), [r1, -mp.mpf(1) / 2, r2])


@pytest.mark.parametrize("eps", ["1/2", "99/100", "105/100"])
def test_profile_of_a_non_monotone_log_ratio_matches_the_definition(eps):
    # L rises above eps and falls back between two break points (at 0.99 and 1.05 both crossings lie in (-2, 0)):
    # the roots must be found at L's interior maximum, not only from sign changes at the breaks (0.0 was returned)
    with mp.workdps(40):
        e = mp.mpf(sp.Rational(eps).p) / sp.Rational(eps).q
        want = _normal_laplace_profile_by_definition(e)
        got = profile_mp(Normal(0, 1), Laplace(1, 2), e)
        assert want > 0 and digits(got, want) > 30


def test_profile_of_a_non_monotone_log_ratio_is_zero_above_its_maximum():
    # max L = 5/8 + log 4 - log sqrt(2 pi) = 1.0919...: no x with p > e^eps q at eps = 1.1
    with mp.workdps(40):
        assert _normal_laplace_profile_by_definition(mp.mpf("1.1")) == 0
        assert profile_mp(Normal(0, 1), Laplace(1, 2), mp.mpf("1.1")) == 0
        assert profile_mp(Normal(0, 1), Laplace(1, 2), mp.mpf("1.09")) > 0


def test_mechanism_pairs_skip_the_search_for_turning_points(monkeypatch):
    # the log-ratio of one family at one width is monotone between breaks: no extra work (audit hot path)
    import cbdp_sym.divergences.profiles as pr

    def boom(*_a, **_k):
        raise AssertionError("turning points searched for a monotone log-ratio")

    monkeypatch.setattr(pr, "_turning_points", boom)
    with mp.workdps(20):
        assert profile_mp(Normal(0, 2), Normal(1, 2), 1) > 0
        assert profile_mp(Laplace(0, 2), Laplace(1, 2), mp.mpf(1) / 4) > 0
        with pytest.raises(AssertionError):
            profile_mp(Normal(0, 1), Normal(1, 2), 1)


# -- the raw-value integrand and the located eps(delta) root (issue 18: the same values bit for bit as the
# generic code, with fewer Python calls and evaluations)
import cbdp_sym.divergences.profiles as profiles  # noqa: E402

PAIRS = [(Normal(0, 1), Normal(1, 1)), (Normal(0, 4), Normal(1, 4)), (Laplace(0, 1), Laplace(1, 1)),
         (Laplace(0, 8), Laplace(1, 8)), (Normal(0, sp.Rational(1, 3)), Normal(sp.Rational(1, 2), 2)),
         (Laplace(sp.Rational(1, 2), 3), Normal(0, 1))]


def _points(rng):
    half = mp.mpf(1) / 2
    return [mp.mpf(rng.uniform(-40, 40)), half + mp.mpf(rng.gauss(0, 1e-9)), half - mp.mpf(10) ** -rng.randint(1, 80),
            half - mp.mpf(2) ** -rng.randint(100, 300), mp.mpf(rng.uniform(-1, 2))]


@pytest.mark.parametrize("dps", [15, 25, 60])
def test_profile_integrand_is_the_generic_one_bit_for_bit(dps):
    rng = random.Random(dps)
    for P, Q in PAIRS:
        with mp.workdps(dps):
            for _ in range(40):
                e = mp.mpf(rng.choice([0, 0, rng.uniform(0, 3), 1, "0.125"]))
                M = P.mp_log_pdf(mp.mpf(rng.uniform(-3, 3)))
                fast = profiles._fast_integrand(P, Q, e, M)
                if type(P) is not type(Q) and fast is None:
                    continue

                def g(x):
                    lp, lq = P.mp_log_pdf(x), Q.mp_log_pdf(x)
                    if not lp - lq > e:
                        return mp.mpf(0)
                    return mp.exp(lp - M) * (-mp.expm1(e + lq - lp))

                for x in _points(rng):
                    with mp.extraprec(20):  # (mp.quad calls the integrand 20 bits above the working precision)
                        assert fast(x)._mpf_ == g(x)._mpf_, (P, Q, e, x)


def test_expm1_raw_is_mpmath_expm1():
    rng = random.Random(1)
    for dps in (15, 30, 60):
        with mp.workdps(dps):
            prec, rnd = mp.mp._prec_rounding
            ys = [mp.mpf(0), mp.mpf(-1), mp.mpf(-40), mp.mpf(10) ** -(dps + 30), -mp.mpf(2) ** -(prec + 11)]
            ys += [-mp.mpf(10) ** -rng.randint(1, 3 * dps) for _ in range(50)]
            ys += [mp.mpf(rng.uniform(-30, 3)) for _ in range(50)]
            for y in ys:
                assert profiles._expm1_raw(y._mpf_, prec, rnd) == mp.expm1(y)._mpf_, y


def test_locator_estimates_the_profile_and_knows_its_laws():
    for P, Q in PAIRS[:4]:
        est = profiles.profile_locator(P, Q)
        with mp.workdps(20):
            for e in ("0", "0.9", "2"):
                exact = profiles.profile_mp(P, Q, mp.mpf(e))
                approx = est(e)
                if exact > mp.mpf(10) ** -200:
                    assert approx is not None and abs(approx / float(exact) - 1) < 1e-6, (P, Q, e)
    assert profiles.profile_locator(Normal(0, 1), Laplace(1, 1)) is None
    assert profiles.profile_locator(Normal(0, 1), Normal(1, 2)) is None


def test_locator_laws_are_the_float_densities_of_a_mechanism_pair():
    # the locator's float log-densities: -(x - m)^2/(2 s s) - log(s sqrt(2 pi)) and -|x - m|/b - log(2 b) in IEEE
    # doubles, bit for bit, with their locations and widths; a pair of two families or two widths has none
    import math

    rng = random.Random(5)
    xs = [rng.uniform(-50, 50) for _ in range(300)] + [0.0, 1e-300, -1e100]
    with mp.workdps(30):
        for P, Q in PAIRS[:4] + [(Normal(sp.Rational(1, 3), sp.sqrt(3)), Normal(sp.Float("-2.5", 30), sp.sqrt(3)))]:
            for (lp, m, w), D in zip(profiles._float_laws(P, Q), (P, Q)):
                assert (m, w) == (float(D.mp_loc()), float(D.mp_width()))
                for x in xs:
                    if isinstance(D, Normal):
                        want = -((x - m) ** 2) / (2 * w * w) - math.log(w * math.sqrt(2 * math.pi))
                    else:
                        want = -abs(x - m) / w - math.log(2 * w)
                    assert type(lp(x)) is float and lp(x) == want, (D, x)
        for P, Q in PAIRS[4:] + [(Laplace(0, 1), Normal(1, 1)), (Normal(0, sp.Rational(1, 3)), Normal(1, sp.Float(1 / 3, 15)))]:
            assert profiles._float_laws(P, Q) is None and not profiles._one_family_one_width(P, Q)
        assert profiles._one_family_one_width(Laplace(0, 2), Laplace(5, 2))


def _remembered(profile):
    """``profile`` (deterministic) with its values kept by the exact point and the working precision: two root searches
    in one test that ask for the same points compute each once, and each gets the value a fresh call returns."""
    seen = {}

    def f(e):
        key = (mp.mpf(e)._mpf_, mp.mp.prec)
        if key not in seen:
            seen[key] = profile(e)
        return seen[key]

    return f


@pytest.mark.parametrize("P, Q, delta", [
    (Laplace(0, 8), Laplace(1, 8), "1/100"),
    pytest.param(Normal(0, 1), Normal(1, 1), "1/1000", marks=pytest.mark.slow),
    pytest.param(Laplace(0, 1), Laplace(1, 1), "1/100000", marks=pytest.mark.slow)])
def test_located_root_is_the_unlocated_root_bit_for_bit_with_fewer_evaluations(P, Q, delta):
    value = _remembered(lambda e: profiles.profile_mp(P, Q, e))  # (each call counted; a point's value computed once)

    def counted(log):
        def prof(e):
            log.append(mp.mp.prec)
            return value(e)
        return prof

    with mp.workdps(22):  # (above the rough stage's 20 digits: its evaluations and the final ones are told apart)
        d = mp.mpf(sp.Rational(delta))
        plain, located = [], []
        a = profiles.eps_for_delta(counted(plain), d)
        b = profiles.eps_for_delta(counted(located), d, locate=profiles.profile_locator(P, Q))
    assert a._mpf_ == b._mpf_
    assert len(located) < len(plain)
    assert located.count(max(located)) == plain.count(max(plain))  # the working-precision steps are the same


def test_a_wrong_locator_cannot_change_the_root_unless_it_claims_a_wide_margin():
    """The locator is trusted only where it puts the profile 0.1 % above delta: an estimate that is merely close
    (here: delta itself) skips nothing."""
    P, Q = Laplace(0, 1), Laplace(1, 1)
    value = _remembered(lambda e: profiles.profile_mp(P, Q, e))  # (the second search asks for the first one's points)
    with mp.workdps(15):
        d = mp.mpf("1e-1")
        a = profiles.eps_for_delta(value, d)
        b = profiles.eps_for_delta(value, d, locate=lambda e: float(d))
    assert a._mpf_ == b._mpf_


# -- issue 31: answers at the precision asked ------------------------------------------------------------------------
@pytest.mark.parametrize("p, q, e", [
    ("normal(1,1)", "normal(0,1)", "4.3771780956812246"), ("normal(0,1)", "normal(1,2)", "1/5"),
    ("normal(0,1)", "normal(1,2)", "1"), ("laplace(0,1)", "normal(1,1)", "7/10"), ("normal(0,2)", "laplace(0,1)", "3/10"),
    ("product(normal(0,1),normal(0,1))", "product(normal(1,1),normal(2,1))", "3/2"), ("laplace(0,1)", "laplace(1,1)", "1/2"),
    ("normal(0,1)", "normal(1,1)", "30"), ("laplace(0,1)", "laplace(1,1)", "999/1000"), ("normal(0,1)", "normal(1,1)", "0")])
def test_the_double_precision_profile_is_the_definition(p, q, e):
    """:func:`profile_float` (the quick check of `profile`) against the working-precision quadrature: 13 digits."""
    from cbdp_sym.divergences.profiles import parse_profile_law, profile_float

    P, Q = parse_profile_law(p), parse_profile_law(q)
    with mp.workdps(30):
        ref = profile_mp(P, Q, sp.Rational(e))
    got = profile_float(P, Q)(float(sp.Rational(e)))
    assert (got == 0 and ref == 0) or digits(mp.mpf(got), ref) > 13


def test_the_quick_check_catches_a_wrong_closed_form(monkeypatch):
    """Mutant: a Gaussian profile with the shift's factor 1/2 dropped; the double-precision check of the definition
    disagrees at the answer and says so (the value is the closed form's, as printed)."""
    import cbdp_sym.divergences.profiles as profiles

    wrong = Phi(1 - EPS) - sp.exp(EPS) * Phi(-EPS - 1)  # (the right one has 1/2 - eps and -eps - 1/2)
    monkeypatch.setattr(profiles, "_derived_safe", lambda P, Q, seconds=60: wrong)
    out = privacy_profile(Normal(1, 1), Normal(0, 1), delta="1e-5", dps=30)
    assert float(out["digits"]) < 3 and "agree to only" in out["note"]


def test_the_quick_answer_is_the_checked_answer():
    """Default (closed form, certified, checked in double precision) and --check (the root of the working-precision
    quadrature too) print the same eps(delta); the check differs only in how far it goes."""
    quick = privacy_profile(Normal(1, 1), Normal(0, 1), delta="1e-5", dps=40)
    full = privacy_profile(Normal(1, 1), Normal(0, 1), delta="1e-5", dps=40, check=True)
    assert quick["eps"] == full["eps"] and quick["certificate"] == full["certificate"]
    assert "opposite signs" in quick["certificate"] and float(quick["digits"]) >= 14 and float(full["digits"]) >= 40


def test_a_failed_derivation_is_remembered(monkeypatch):
    import cbdp_sym.divergences.profiles as profiles

    calls = []

    def fails(P, Q, eps):
        calls.append(1)
        raise DerivationError("no closed form here")

    monkeypatch.setattr(profiles, "profile_sym", fails)
    monkeypatch.setattr(profiles, "_DERIVED", {})
    P, Q = Normal(0, 1), Normal(sp.Rational(7, 3), 1)
    assert profiles._derived_safe(P, Q) is None and calls == [1]
    assert profiles._derived_safe(P, Q) is None and calls == [1]  # this process
    monkeypatch.setattr(profiles, "_DERIVED", {})
    assert profiles._derived_safe(P, Q) is None and calls == [1]  # the cache folder


def test_eps_for_delta_from_a_double_precision_start_is_the_same_root():
    from cbdp_sym.divergences.profiles import float_root, profile_float

    P, Q = Normal(0, 1), Normal(sp.Rational(3, 2), 2)  # no closed form needed: both roots of the definition
    start = float_root(profile_float(P, Q), 1e-3)
    with mp.workdps(40):
        a = eps_for_delta(lambda e: profile_mp(P, Q, e), mp.mpf("1e-3"))
        b = eps_for_delta(lambda e: profile_mp(P, Q, e), mp.mpf("1e-3"), start=start)
        assert abs(start / a - 1) < 1e-12 and digits(a, b) > 38


def test_a_finite_law_of_30_atoms_is_answered_exactly_and_not_echoed(capsys):
    """A 30-atom law: no symbolic case analysis (seconds per atom); the exact sum's root, its piece of the profile
    as the closed form, certified in Arb, and the laws named by their size."""
    from fractions import Fraction
    import math

    xs = range(-15, 15)

    def law(c):
        w = [Fraction(round(1e6 * math.exp(-(x - c) ** 2 / 8))) for x in xs]
        return "finite(" + ", ".join(f"{x}:{wi / sum(w)}" for x, wi in zip(xs, w)) + ")"

    assert main(["profile", "--P", law(0), "--Q", law(1), "--delta", "1e-5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["P"] == "Finite(30 atoms on [-15.0, 14.0])" and "active atoms" in out["certificate"]
    assert out["eps"] == out["numeric_eps"] and out["derived"].startswith("\\log")


def test_a_closed_form_naming_code_is_never_run(tmp_path):
    """Before: the derived profile (a cached tree) was compiled with lambdify: a symbol named as Python ran."""
    import sympy as sp

    from cbdp_sym.core.errors import DerivationError
    from cbdp_sym.divergences.profiles import EPS, exact_eps
    from cbdp_sym.laws.distributions import Laplace

    marker = tmp_path / "PWNED"
    evil = sp.Symbol(f"__import__('os').system('touch {marker}') or 0")
    closed = sp.exp(-EPS) / 2 + 0 * evil + evil
    try:
        exact_eps(Laplace(0, 1), Laplace(1, 1), "1/10", closed=closed, quadrature=False)
    except (DerivationError, TypeError, NameError, SyntaxError, ValueError):
        pass
    assert not marker.exists()


# -- the working-precision polish of a root located in double precision (profiles._secant_polish) --------------
def _counted_profile(P, Q):
    calls = []

    def f(e):
        calls.append(e)
        return profile_mp(P, Q, e)

    return f, calls


@pytest.mark.parametrize("mech, value, delta", [("gaussian", 1, "1e-5"), ("laplace", 1, "1e-10")])
def test_polish_from_the_double_precision_root_takes_four_profiles_and_finds_the_bracketed_root(mech, value, delta):
    """Four working-precision profiles from the double-precision root (the bracketed Illinois polish took 6 for the
    Gaussian, 12 for the Laplace pair near its largest log-ratio), and the root of the 20-digit bracket search (with
    the double-precision locator, which skips evaluations and leaves that root the same bit for bit: see
    test_located_root_is_the_unlocated_root_bit_for_bit_with_fewer_evaluations)."""
    _l, P, Q = profiles.mechanism_pair(mech, sp.Integer(value))
    d = mp.mpf(delta)
    start = profiles.float_root(profiles.profile_float(P, Q), float(d))
    with mp.workdps(40):
        f, calls = _counted_profile(P, Q)
        fast = eps_for_delta(f, d, start=start)
        slow = eps_for_delta(lambda e: profile_mp(P, Q, e), d, locate=profiles.profile_locator(P, Q))
        assert len(calls) <= 4
        assert digits(fast, slow) >= 38
        assert abs(start / fast - 1) < 1e-13  # the double-precision locator was within its bracket of the root


def test_polish_declines_where_the_secant_cannot_go_and_the_bracket_search_answers():
    """A start whose secant step leaves ``[0, oo)`` (a flat profile there): no decision, the bracketed path answers."""
    calls = []

    def prof(e):
        calls.append(e)
        return mp.mpf("0.5")  # flat: the secant is undefined

    with mp.workdps(30):
        assert profiles._secant_polish(prof, mp.mpf("0.1"), mp.mpf(2)) is None
    assert len(calls) == 2


def test_polish_stops_on_the_predicted_error_not_on_a_repeated_evaluation():
    """A smooth exact profile ``e^-eps``: the root ``log(1/d)`` to the working precision."""
    with mp.workdps(50):
        d = mp.mpf("1e-7")
        seen = []
        r = profiles._secant_polish(lambda e: seen.append(e) or mp.exp(-e), d, mp.mpf(float(-mp.log(d))))
        assert digits(r, -mp.log(d)) >= 49 and len(seen) <= 5
