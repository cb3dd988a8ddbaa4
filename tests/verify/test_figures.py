"""Tests of :mod:`cbdp_sym.verify.figures`."""
import mpmath as mp


def test_figure_csv_names_columns_and_units(tmp_path):
    from cbdp_sym.verify.figures import Curve, Figure

    fig = Figure(id="TEST-FIG", paper="cbdp", title="A test, $\\varepsilon = 1$", caption="", xlabel="$\\alpha$",
                 ylabel="privacy parameter", xs=("2", "3"),
                 curves=[Curve("sq", "$\\alpha^2$", lambda x: mp.mpf(x) ** 2)], dps=15)
    lines = fig.csv().splitlines()
    assert lines[0].startswith("# TEST-FIG") and "x = alpha [dimensionless]" in lines[0]
    assert "sq = alpha^2, privacy parameter [nats (natural logarithm)]" in lines[0]
    assert lines[1] == "x,sq" and lines[2] == "2,4.0"
