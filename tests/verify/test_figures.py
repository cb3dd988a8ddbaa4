"""Tests of :mod:`cbdp_sym.verify.figures`."""

import mpmath as mp
import pytest

from cbdp_sym.app.audit import run


# one pytest-xdist worker runs this module: the audited subset is computed once (module fixture)
pytestmark = pytest.mark.xdist_group("appendix")
# fast claims of each paper: refuted ones (findings, counterexamples, corrected statements), verified and
# holding ones (the compact table), a definition and a proof chain.  CBDP-T9 and CBDP-T11 (16 s and 18 s of
# the subset's 56 s) were dropped for the fast set: T8 is a verified identity too (and T9 is in test_report's
# PDF), L3-CONJ-CS a refuted one with a finding, and the slow full audit (test_full_audit.py) compiles every
# appendix body in the four hosts and checks its PDF text the same way
SUBSET = ["CBDP-D2", "CBDP-EQ1-KL", "CBDP-T8", "CBDP-L3-CONJ-CS", "CBDP-C1-CHAIN",
          "RDP-P6", "RDP-P7", "RDP-GAUSS-NODP", "RDP-EQ1-EQ", "RDP-P4-CHAIN", "RDP-L1-TV", "ZCDP-L2.4",
          "ZCDP-P1.4-EXACT"]


@pytest.fixture(scope="module")
def subset(registry):
    present = [i for i in SUBSET if i in {c.id for c in registry.claims()}]
    return run([registry.get(i) for i in present], dps=20, jobs=2)


def test_figure_csv_names_columns_and_units(tmp_path):
    from cbdp_sym.verify.figures import Curve, Figure

    fig = Figure(id="TEST-FIG", paper="cbdp", title="A test, $\\varepsilon = 1$", caption="", xlabel="$\\alpha$",
                 ylabel="privacy parameter", xs=("2", "3"),
                 curves=[Curve("sq", "$\\alpha^2$", lambda x: mp.mpf(x) ** 2)], dps=15)
    lines = fig.csv().splitlines()
    assert lines[0].startswith("# TEST-FIG") and "x = alpha [dimensionless]" in lines[0]
    assert "sq = alpha^2, privacy parameter [nats (natural logarithm)]" in lines[0]
    assert lines[1] == "x,sq" and lines[2] == "2,4.0"
