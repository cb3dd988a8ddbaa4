"""scripts/setup.sh with Debian's own Python first on PATH makes a virtual environment whose cbdp-sym runs
from any directory and knows its version and commit (slow: it installs every dependency)."""
import os
import subprocess
from pathlib import Path

import pytest

from ..conftest import ROOT, tex_required


@pytest.mark.slow
def test_setup_with_the_system_python_makes_a_working_venv(tmp_path):
    if not Path("/usr/bin/python3").exists():
        if tex_required():
            pytest.fail("CI runs on Debian: /usr/bin/python3 must exist")
        pytest.skip("no system Python at /usr/bin/python3")
    venv = tmp_path / "venv"
    env = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""), CBDP_SYM_VENV=str(venv))
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "setup.sh")], env=env, capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    base = subprocess.run([str(venv / "bin" / "python"), "-c", "import sys; print(sys.base_prefix)"],
                          capture_output=True, text=True).stdout.strip()
    assert base == "/usr"
    exe = str(venv / "bin" / "cbdp-sym")
    version = subprocess.run([exe, "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert version.returncode == 0, version.stderr
    import cbdp_sym

    assert version.stdout.startswith(f"cbdp-sym {cbdp_sym.__version__} (commit ")
    assert "recorded at build time" in version.stdout  # an installed copy, not the checkout
    listing = subprocess.run([exe, "list"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert listing.returncode == 0 and "CBDP-T9" in listing.stdout and "coverage zcdp:" in listing.stdout
