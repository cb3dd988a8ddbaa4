"""The divergence command's options (cbdp_sym.app.divergence_options): light to import, and the same relations as
the subsampling module's."""
import argparse
import subprocess
import sys

from cbdp_sym.app.divergence_options import KINDS, RELATIONS, add_profile_options, extended, register


def test_the_relations_are_the_subsampling_modules():
    from cbdp_sym.divergences.subsampling import RELATIONS as engine

    assert RELATIONS == engine


def test_the_options_parse_and_say_whether_profile_is_extended():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd")
    register(sub)
    args = p.parse_args(["divergence", "renyi", "--P", "dgauss(0,2)", "--Q", "dgauss(1,2)", "--sample", "0.01"])
    assert args.kind in KINDS and args.relation == "remove" and extended(args)
    q = argparse.ArgumentParser()
    add_profile_options(q)
    assert not extended(q.parse_args([]))


def test_importing_the_options_imports_no_engine():
    code = ("import sys, cbdp_sym.app.divergence_options; "
            "print(any(m.split('.')[0] in ('sympy', 'scipy', 'mpmath') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
