"""Tests of :mod:`cbdp_sym.report.outputs`."""
import os
import subprocess
import sys

import pytest
from ..conftest import ROOT


def test_second_audit_into_a_locked_folder_is_refused(tmp_path, capsys, monkeypatch):
    from cbdp_sym.report.outputs import folder_lock

    import cbdp_sym.app.audit as audit

    monkeypatch.setattr(audit, "run", lambda *a, **k: pytest.fail("ran while the folder was locked"))
    with folder_lock(tmp_path):
        code = subprocess.run([sys.executable, "-m", "cbdp_sym", "audit", "RDP-P6", "--no-pdf", "--out",
                               str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert code.returncode == 2 and "another audit is writing" in code.stderr
    assert "Traceback" not in code.stderr


def test_write_atomic_never_leaves_a_truncated_file(tmp_path, monkeypatch):
    import cbdp_sym.report.outputs as outputs
    from cbdp_sym.core.errors import CbdpError

    target = tmp_path / "a.tex"
    target.write_text("old complete text")
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[:5])
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    with pytest.raises(CbdpError, match="No space left"):
        outputs.write_atomic(target, "new text " * 100)
    assert target.read_text() == "old complete text"
    assert [p.name for p in tmp_path.iterdir()] == ["a.tex"]
