"""cbdp_sym.core.cachekey: the trust of the cache folder and its key, without SymPy."""
import os
import subprocess
import sys

from cbdp_sym.core import cachekey


def test_the_secret_is_the_stores_and_refused_for_a_shared_folder(tmp_path, monkeypatch):
    import cbdp_sym.core.store as store

    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CBDP_SYM_CACHE_KEY", str(tmp_path / "k" / "cache.key"))
    monkeypatch.setattr(cachekey, "_SECRETS", {})
    monkeypatch.setattr(store, "_TRUST", {})
    secret = cachekey.secret_or_none()
    assert secret is not None and secret == store._secret()
    assert oct((tmp_path / "k" / "cache.key").stat().st_mode & 0o777) == "0o600"
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv("CBDP_SYM_CACHE", str(shared))
    assert cachekey.secret_or_none() is None  # a folder every user can write: no key, no trusted entry


def test_it_imports_no_sympy():
    code = "import sys, cbdp_sym.core.cachekey; print('sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
