"""The half-line masses of RDP-BAD / RDP-T1-1 (sec3), RDP-P3-PROOF (sec4_5) and RDP-P10 (appendix): one function,
derivations/rdp/_shared.py ``half_line_mass``, remembered in the process by law, abscissa and working precision: one
quadrature per half-line, whatever the order and whichever claim asks."""
import mpmath as mp

from cbdp_sym import Normal
from cbdp_sym.app.registry import builtin_module


def test_a_half_line_is_integrated_once_per_law_abscissa_and_precision(monkeypatch):
    shared = builtin_module("rdp", "_shared")
    users = [builtin_module("rdp", m) for m in ("sec3", "sec4_5", "appendix")]
    assert all(getattr(m, "half_line_mass", None) is shared.half_line_mass or getattr(m, "_half", None) is
               shared.half_line_mass for m in users), "the three modules use the one function"
    calls = []
    real = mp.quad

    def quad(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(shared.mp, "quad", quad)
    monkeypatch.setattr(shared, "_HALF_LINE", {})
    L = Normal(mp.mpf(1) / 2, 2)
    with mp.workdps(30):
        a = shared.half_line_mass(L, mp.mpf(-1))
        b = shared.half_line_mass(L, mp.mpf(-1))
        assert a == b and abs(a - mp.ncdf((-1 - mp.mpf(1) / 2) / 2)) < mp.mpf(10) ** -28
    with mp.workdps(40):
        c = shared.half_line_mass(L, mp.mpf(-1))
    assert len(calls) == 2 and mp.almosteq(c, a, 1e-28)
