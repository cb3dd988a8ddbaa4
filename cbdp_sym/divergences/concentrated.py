"""Deprecated (kept one release): concentrated DP's helpers moved into the zCDP paper's folder in 0.3.

:class:`ZPair`, :func:`chernoff_exponent`, :func:`affine_loss_law`, ... were used by the zCDP paper only; they live in
``derivations/zcdp/_concentrated.py`` and are re-exported by ``derivations/zcdp/_shared.py`` (a module of that folder
imports them with ``from ._shared import ZPair``).  ``cbdp_sym.divergences.concentrated.NAME`` still resolves each
old name to that very object (the one the audit uses), with a ``DeprecationWarning`` naming the new home: the module
is imported on first use (PEP 562 ``__getattr__``), never at this module's top, so the engine still imports no paper
content.  ``merge_checks`` (a legacy verdict helper no paper uses) stays here, deprecated: use
``CheckResult.combine``.
"""
from __future__ import annotations

from cbdp_sym import _api
from cbdp_sym.core.verdict import CheckResult

_PAPER, _NAMES = _api.MOVED[__name__]
__all__: list = []  # (nothing new is exported from here)


def _merge_checks(parts, prefix: str = "", limit: int = 1200):
    """Combine check results (:meth:`cbdp_sym.core.verdict.CheckResult.combine`): the worst status wins, checks and
    tables are concatenated, the first counterexample is kept, messages are joined."""
    return CheckResult.combine(parts, prefix, limit)


_merge_checks.__name__ = _merge_checks.__qualname__ = "merge_checks"


def __getattr__(name):  # noqa: N807
    if name in _NAMES:
        return _api.moved(__name__, name, _PAPER)
    if name == "merge_checks":
        import warnings

        warnings.warn(f"{__name__}.merge_checks is deprecated: use CheckResult.combine(parts, prefix, limit) "
                      "(the old path is kept one release)", DeprecationWarning, stacklevel=2)
        return _merge_checks
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():  # noqa: N807
    return sorted(set(globals()) | set(_NAMES) | {"merge_checks"})
