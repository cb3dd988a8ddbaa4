import contextlib
import io
import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", deadline=None, derandomize=True, max_examples=30)
settings.register_profile("dev", deadline=None, max_examples=30)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent  # the checkout: README.md, derivations/, examples/, scripts/
FIXTURES = TESTS / "fixtures"  # deliberately wrong claims (mutants), loaded with --path
LATEX = TESTS / "latex"  # the host documents the appendix bodies are compiled in


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """Each test session gets its own numeric cache (never the user's).  The pytest-xdist workers of one
    session share it, as the tests of a session run in one process do: a value one worker computed is read
    by the other (cache entries are written atomically, so concurrent workers are safe, as an audit's are)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # no xdist, -n 0 or -p no:xdist
        cache = tmp_path_factory.mktemp("cache")
    else:  # each worker's basetemp is <session folder>/popen-gwN: the session folder is common to all
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "run")  # this session's, even under a reused --basetemp
        cache = tmp_path_factory.getbasetemp().parent / f"cache-{run}"
        cache.mkdir(exist_ok=True)
    os.environ["CBDP_SYM_CACHE"] = str(cache)
    # the cache's secret key (core/store.py), outside the cache folder and shared by the session's workers; never
    # the user's own key
    os.environ["CBDP_SYM_CACHE_KEY"] = str(cache.parent / f"{cache.name}.key")
    yield


@pytest.fixture(autouse=True)
def _cache_switch_restored():
    """A test that runs ``main([... "--no-cache"])`` in this process turns the on-disk cache off
    (:func:`cbdp_sym.core.store.set_enabled`); the switch is put back after each test, so that a later test in the
    same worker reads the cache as it expects."""
    import cbdp_sym.core.store as store

    before = store._ENABLED[0]
    yield
    store._ENABLED[0] = before


@pytest.fixture(scope="session")
def registry():
    from cbdp_sym.app.registry import Registry

    return Registry()


@pytest.fixture(scope="session")
def mutant_registry():
    from cbdp_sym.app.registry import Registry

    return Registry([FIXTURES / "mutants"])


_ONCE: dict = {}


def once(key, compute):
    """``compute()`` the first time ``key`` is asked for in this worker process, the stored value afterwards.  For
    the costly module fixtures (audited subsets): pytest tears a module fixture down and sets it up again when
    pytest-xdist runs another module's tests between two of the module's own, and the subset would be audited
    twice."""
    if key not in _ONCE:
        _ONCE[key] = compute()
    return _ONCE[key]


def cli_in_process(args):
    """``cbdp-sym ARGS`` in this process: ``(exit code, standard output)``."""
    from cbdp_sym.app.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(args)
    return rc, buf.getvalue()


def tex_required() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")
collect_ignore = ["fixtures"]


# the longest tests of the slow set, started first so that pytest-xdist's other workers run the rest meanwhile
# (the cold full audit alone takes about 9 minutes on 2 cores)
LONGEST_FIRST = ("tests/integration/test_full_audit.py::",
                 "tests/integration/test_reproducible.py::test_reports_identical_on_a_wider_subset",
                 "tests/integration/test_install.py::")


def pytest_collection_modifyitems(config, items):
    def rank(item):
        for i, prefix in enumerate(LONGEST_FIRST):
            if item.nodeid.startswith(prefix):
                return i
        return len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: every other test keeps its place
