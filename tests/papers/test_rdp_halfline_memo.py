"""The half-line masses of RDP-BAD / RDP-T1-1 (sec3._halfline_mass) and RDP-P3-PROOF (sec4_5._half), remembered in
the process by law, abscissa and working precision (and appendix._half, RDP-P10): one quadrature per half-line, whatever the order."""
import mpmath as mp

from cbdp_sym import Normal
from cbdp_sym.app.registry import builtin_module


def _counting(monkeypatch, mod):
    calls = []
    real = mp.quad

    def quad(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(mod.mp, "quad", quad)
    return calls


def test_a_half_line_is_integrated_once_per_law_abscissa_and_precision(monkeypatch):
    for module, fn in (("sec3", "_halfline_mass"), ("sec4_5", "_half"), ("appendix", "_half")):
        mod = builtin_module("rdp", module)
        calls = _counting(monkeypatch, mod)
        L = Normal(mp.mpf(1) / 2, 2)
        with mp.workdps(30):
            a = getattr(mod, fn)(L, mp.mpf(-1))
            b = getattr(mod, fn)(L, mp.mpf(-1))
            assert a == b and abs(a - mp.ncdf((-1 - mp.mpf(1) / 2) / 2)) < mp.mpf(10) ** -28
        with mp.workdps(40):
            c = getattr(mod, fn)(L, mp.mpf(-1))
        assert len(calls) == 2 and mp.almosteq(c, a, 1e-28)
        monkeypatch.undo()
