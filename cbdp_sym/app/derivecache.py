"""One claim's derivation from the cache folder, for ``cbdp-sym eval`` and ``show``.

A claim's derivation (its derived form and the steps the engine recorded) depends on the code the claim reaches and on
nothing else, so it is kept as data in the cache folder (``derivations/``) under the code part of the key of the claim's
result (:func:`cbdp_sym.app.resultcache.claim_starts` and :func:`cbdp_sym.core.deps.granular_digest`: the statements of
its paper modules the claim reaches, every engine module they import, transitively, and the library versions).  An edit of that code gives another key.  An entry
is stored only if it decodes to the identical trees (:func:`cbdp_sym.core.serial.same_tree`), so ``show`` prints the
same steps and ``eval`` the same values as a derivation run now; a damaged entry is reported once and the derivation
run again.  Off with the cache (``--no-cache``, ``CBDP_SYM_NO_CACHE=1``).  SymPy's derivation of CBDP-T9 takes about a
second; reading it, a few milliseconds.

>>> from cbdp_sym import Claim
>>> derivation_key(Claim("NB-1", "a claim built in a notebook"), where={}) is None  # (its code has no file)
True
"""
from __future__ import annotations

import hashlib
import json

import cbdp_sym.app.resultcache as resultcache
import cbdp_sym.core.deps as deps
import cbdp_sym.core.store as store
from cbdp_sym.core.serial import round_trips
from cbdp_sym.core.tape import Step
from cbdp_sym.verify.claims import Claim
from cbdp_sym.verify.engine import derive

__all__ = ["derivation_key", "cached_derive"]

FORMAT = 1


def derivation_key(claim: Claim, where: dict | None = None) -> str | None:
    """The text of the key of ``claim``'s derivation (``None``: its code cannot be located, not cached)."""
    starts = resultcache.claim_starts(claim, where)
    if starts is None:
        return None
    return json.dumps(["derivation", FORMAT, claim.id, deps.granular_digest(starts)])


def _valid(value) -> bool:
    return (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], list)
            and all(isinstance(st, Step) for st in value[1]))


def cached_derive(claim: Claim, where: dict | None = None):
    """``(expr, steps)`` of :func:`cbdp_sym.verify.engine.derive`, from the cache folder when the claim's code is
    unchanged since it was stored."""
    key = derivation_key(claim, where) if store._ENABLED[0] else None
    if key is None:
        return derive(claim)
    path = store.cache_dir() / "derivations" / "claims" / (hashlib.sha256(key.encode()).hexdigest() + ".json")
    got = store.read_valid(path, key, _valid, "not a claim's derivation")
    if got is not None:
        return got[0], list(got[1])
    expr, steps = derive(claim)
    value = (expr, list(steps))
    if round_trips(value):
        store.write_entry(path, key, value)
    return expr, steps
