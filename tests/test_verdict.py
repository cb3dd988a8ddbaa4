"""The verdict vocabulary (cbdp_sym.core.verdict) and the verification rules built on it (cbdp_sym.verify.engine)."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import Claim, Param, Reading, Status, audit_claim
from cbdp_sym.restricted.finite import rel_slack
from cbdp_sym.verify.instances import slack_of
from cbdp_sym.core.numbers import Estimate, PrecisionError, evalf_checked, mp_str, to_mpf
from cbdp_sym.core.verdict import MEANING, merge, relative_slack, violated
from cbdp_sym.verify.engine import point_simplicity

x = sp.Symbol("x", positive=True)


def test_status_is_a_string_and_every_status_is_explained():
    assert Status.REFUTED == "refuted" and f"{Status.AMBIGUOUS}" == "ambiguous"
    assert set(MEANING) == set(Status)


@pytest.mark.parametrize("kind,bound,q,expected", [
    ("upper", 2, 3, -0.5), ("upper", 4, 3, 0.25), ("lower", 2, 3, 0.5), ("lower", 4, 3, -0.25),
    ("upper", -2, -1, -0.5), ("upper", 0, 1, -1.0),
])
def test_one_relative_slack_everywhere(kind, bound, q, expected):
    """The same violated bound reads the same slack in every report section (relative to the bound)."""
    assert float(relative_slack(kind, bound, q)) == pytest.approx(expected)
    assert float(slack_of(kind, q, bound)) == pytest.approx(expected)
    if kind == "upper":
        assert float(rel_slack(bound, q)) == pytest.approx(expected)


def test_slack_with_infinite_sides():
    assert relative_slack("upper", mp.inf, 3) == 1
    assert relative_slack("upper", 3, mp.inf) == -mp.inf
    assert relative_slack("lower", 3, mp.inf) == 1


def test_tolerance_rule_and_strict_bounds():
    assert not violated("upper", mp.mpf("-1e-46"), 50)
    assert violated("upper", mp.mpf("-1e-44"), 50)
    assert violated("strict-upper", mp.mpf(0), 50) and not violated("upper", mp.mpf(0), 50)


def test_merge_takes_the_worst():
    assert merge(["verified", "verified"]) == "verified"
    assert merge(["verified", "holds"]) == "holds"
    assert merge(["holds", "ambiguous"]) == "ambiguous"
    assert merge(["inconclusive", "refuted", "holds"]) == "refuted"
    with pytest.raises(ValueError):
        merge(["maybe"])


def test_evalf_never_returns_a_number_without_digits():
    # SymPy's plain evalf gives 0.e-190 (one bit) for 1 - erf(30); the true value is 2.56e-393
    assert (1 - sp.erf(x)).evalf(60, subs={x: 30})._prec < 10
    v = evalf_checked(1 - sp.erf(x), 60, {x: 30})
    assert str(v).startswith("2.564656203756111600033397277501447")
    with mp.workdps(60):
        assert mp.almosteq(to_mpf(1 - sp.erf(sp.Integer(30))), mp.erfc(30), rel_eps=mp.mpf(10) ** -55)
    assert evalf_checked(sp.sin(sp.pi), 30) == 0


def test_evalf_refuses_what_it_cannot_resolve():
    # 1 - tanh(10^6) = 2 e^{-2 10^6} / (1 + e^{-2 10^6}) is far below what evalf resolves by cancellation
    with pytest.raises(PrecisionError):
        evalf_checked(1 - sp.tanh(x), 30, {x: sp.Integer(10) ** 6})


def test_printed_digits_never_exceed_the_established_ones():
    with mp.workdps(60):
        v = Estimate(mp.mpf(1) / 3, 25)
        text = mp_str(v, 50)
    assert sum(ch.isdigit() for ch in text.lstrip("0.")) == 25


def _identity(numeric, claimed):
    eps = sp.Symbol("epsilon", positive=True)
    return Claim(id="T-ID", paper="t", label="t", kind="identity", statement="", params=[Param.positive("eps", eps)],
                 points=[{"eps": "1"}, {"eps": "3"}], claimed=lambda: claimed(eps), numeric=numeric)


def test_an_identity_needs_the_digits_it_claims():
    """A numeric side that established 25 digits cannot verify an identity at 45: inconclusive, not verified."""
    c = _identity(lambda v: Estimate(mp.exp(-to_mpf(v["eps"])), 25), lambda e: sp.exp(-e))
    r = audit_claim(c, dps=50)
    assert r.status == "inconclusive" and "established only 25 digits" in r.message
    assert r.checks[0].as_json()["established_digits"] == 25
    full = audit_claim(_identity(lambda v: mp.exp(-to_mpf(v["eps"])), lambda e: sp.exp(-e)), dps=50)
    assert full.status == "verified"


def test_readings_split_make_a_claim_ambiguous():
    eps = sp.Symbol("epsilon", positive=True)
    base = dict(id="T-RD", paper="t", label="t", kind="identity", statement="e^{-2 eps}",
                params=[Param.positive("eps", eps)], points=[{"eps": "1"}, {"eps": "2"}],
                derive=lambda: sp.exp(-eps), numeric=lambda v: mp.exp(-to_mpf(v["eps"])))
    literal_wrong = Claim(**base, claimed=lambda: sp.exp(-2 * eps),
                          readings=(Reading("superscript restored", lambda: sp.exp(-eps), "e^{-eps}", "seed 002"),))
    r = audit_claim(literal_wrong, dps=30)
    assert r.status == "ambiguous" and r.error_kind == "reading"
    assert [d["status"] for d in r.readings] == ["refuted", "verified"]
    all_wrong = Claim(**base, claimed=lambda: sp.exp(-2 * eps),
                      readings=(Reading("other", lambda: sp.exp(-3 * eps)),))
    r2 = audit_claim(all_wrong, dps=30)
    assert r2.status == "refuted" and r2.error_kind == "result"


def test_the_headline_counterexample_is_the_simplest_certified_point():
    eps = sp.Symbol("epsilon", positive=True)
    c = Claim(id="T-UB", paper="t", label="t", kind="upper", statement="", params=[Param.positive("eps", eps)],
              sweep=[{"eps": "1/1000"}, {"eps": "1"}, {"eps": "1000"}],
              claimed=lambda: eps / 2, derive=lambda: eps, numeric=lambda v: to_mpf(v["eps"]))
    r = audit_claim(c, dps=30)
    assert r.status == "refuted"
    assert r.counterexample["params"] == {"eps": "1"} and r.counterexample["certified"]
    assert r.counterexample["worst"]["params"]["eps"] in ("1/1000", "1000") or "worst" not in r.counterexample
    assert point_simplicity({"eps": "1"}) < point_simplicity({"eps": "1000"})


def test_a_claim_over_a_finite_family_checks_every_member():
    n = sp.Symbol("n", positive=True, integer=True)
    c = Claim(id="T-FIN", paper="t", label="t", kind="upper", statement="", params=[Param.integer_range("n", n, 1, 100)],
              claimed=lambda: 2 ** n, derive=lambda: n ** 2, numeric=lambda v: to_mpf(v["n"]) ** 2)
    assert [int(p["n"]) for p in c.sweep_points()] == list(range(1, 101))
    r = audit_claim(c, dps=20)  # n^2 <= 2^n fails only at n = 3: a sample of the range would miss it
    assert r.status == "refuted" and r.counterexample["params"] == {"n": "3"}
    sampled = Claim(id="T-FIN2", paper="t", label="t", kind="upper", statement="",
                    params=[Param.integer_range("n", n, 1, 100)], sweep=[{"n": "1"}, {"n": "50"}],
                    claimed=lambda: 2 ** n, derive=lambda: n ** 2)
    with pytest.raises(ValueError, match="checked at every member"):
        sampled.sweep_points()


def test_a_vector_printed_as_a_python_tuple_reads_back():
    """Counterexample points are stored as text ("(1,)" for a 1-vector) and parsed again to certify them."""
    p = Param.vector("v", sp.IndexedBase("v"), ("1",))
    assert p.validate("(1,)") == sp.Tuple(1) and p.validate("(1, -2)") == sp.Tuple(1, -2)
    for bad in ("1,,2", "(1,,)", ",", "()"):
        with pytest.raises(Exception, match="must be a vector"):
            p.validate(bad)
