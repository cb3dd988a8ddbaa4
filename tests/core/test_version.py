"""Tests of :mod:`cbdp_sym.core.version`: one version string, read by the package, pyproject.toml and reports."""
import re

import cbdp_sym
from cbdp_sym.core.version import __version__

from ..conftest import ROOT


def test_version_is_a_release_number():
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__), __version__


def test_package_and_pyproject_read_this_module():
    assert cbdp_sym.__version__ == __version__
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'version = { attr = "cbdp_sym.core.version.__version__" }' in text
    assert re.search(r"^dynamic = \[.*\"version\"", text, re.M)


def test_source_commit_is_the_reports():
    """``cbdp-sym --version`` reads the commit here (without the report's imports); the reports read it in
    :mod:`cbdp_sym.report.latex`: the two must say the same."""
    from cbdp_sym.core.version import source_commit
    from cbdp_sym.report.latex import source_commit as report_commit

    assert source_commit() == report_commit()
