import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", deadline=None, derandomize=True, max_examples=30)
settings.register_profile("dev", deadline=None, max_examples=30)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """Each test session gets its own numeric cache (never the user's)."""
    os.environ["CBDP_SYM_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield


@pytest.fixture(scope="session")
def registry():
    from cbdp_sym.registry import Registry

    return Registry()


@pytest.fixture(scope="session")
def mutant_registry():
    from cbdp_sym.registry import Registry

    return Registry([FIXTURES / "mutants"])


def tex_required() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")
collect_ignore = ["fixtures"]
