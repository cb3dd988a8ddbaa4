"""RDP-EQ1-EQ's exact side (derivations/rdp/sec3.py): the probabilities of rational laws stay the rationals they are
(``nsimplify`` of a rational ran a PSLQ search and could answer with a product of powers near it)."""
import sympy as sp

from cbdp_sym import Finite
from cbdp_sym.app.registry import builtin_module

_s3 = builtin_module("rdp", "sec3")


def test_kl_exact_keeps_the_rational_probabilities():
    a = sp.Rational(637, 1338)  # nsimplify gave 3125*2**(41/145)*3**(93/145)*5**(6/29)*7**(12/29)/50421 for it
    P, Q = Finite([0, 1], [a, 1 - a]), Finite([0, 1], [sp.Rational(1, 2), sp.Rational(1, 2)])
    want = a * sp.log(2 * a) + (1 - a) * sp.log(2 * (1 - a))
    assert sp.expand(_s3._kl_exact(P, Q) - want) == 0
    assert getattr(_s3, "_exact", lambda v: v)(a) == a
