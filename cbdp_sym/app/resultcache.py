"""A cache of whole claim results: a rerun with nothing changed redoes no derivation and no numerics.

A claim's :class:`~cbdp_sym.verify.engine.Result` is stored as data (:mod:`cbdp_sym.core.serial`: a JSON tree of
whitelisted SymPy classes and the registered result data classes, never pickle; a checksummed entry of
:mod:`cbdp_sym.core.cache`, where a damaged entry gives one warning and is recomputed), under a key made of

* the claim's ID and the working precision,
* the code it depends on (:func:`cbdp_sym.core.deps.granular_digest` of :func:`claim_starts`): in the paper modules,
  the statements the claim's declaration, functions and figures reach (the functions they call, the constants and
  laws they name, through the paper folder's relative imports), and the engine modules all of these import,
  transitively, with the audit's own code (``verify.py`` and what it imports), whole: an edit of ``report.py`` or
  ``cli.py`` keeps every result, an edit of one claim's function keeps the results of the other claims of its module,
  an edit of an engine module invalidates the results of the claims whose code imports it,
* the versions of Python, SymPy, mpmath and python-flint, and the settings a result reads
  (``CBDP_SYM_REGIONS``).

Results that say more about the run than about the claim are not stored: errors (a crash, a worker that
died) and time limits (``timeout`` in a message), so a rerun tries them again.  A result is stored only if it
decodes to the identical tree (:func:`cbdp_sym.core.serial.same_tree`), so a report built from the cache is
byte-identical to one built from scratch.  The cache is off with ``--no-cache`` / ``CBDP_SYM_NO_CACHE=1``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import os
import sys
import time
from pathlib import Path

import cbdp_sym.core.store as disk

import cbdp_sym.core.deps as deps
from cbdp_sym.verify.claims import BY_ID, Claim
from cbdp_sym.verify.figures import Figure
from cbdp_sym.core.serial import register_dataclass, round_trips
from cbdp_sym.verify.engine import Check, Result

register_dataclass(Result)
register_dataclass(Check)

FORMAT = 2  # (2: the code part at the granularity of the statements a claim reaches)
_VERIFY = Path(__file__).resolve().parent.parent / "verify" / "engine.py"
_CALLABLE_FIELDS = ("derive", "claimed", "numeric", "check", "constraint", "laws", "certify", "corrected")


_SOURCES: dict = {}  # code object -> its file (resolved)


def _source(fn) -> Path | None:
    fn = getattr(fn, "func", fn)  # functools.partial
    fn = inspect.unwrap(fn) if callable(fn) else fn
    code = getattr(fn, "__code__", None)
    if code is not None and code in _SOURCES:
        return _SOURCES[code]
    try:
        src = inspect.getsourcefile(fn)
    except TypeError:
        return None
    out = Path(src).resolve() if src else None
    if code is not None:
        _SOURCES[code] = out
    return out


class _Where(dict):
    """``id(object) -> file`` (a dict), with ``names``: ``id(object) -> the names it is bound to in that file``."""

    def __init__(self):
        super().__init__()
        self.names: dict = {}


def _defining_modules() -> dict:
    """``id(object) -> file`` for the claims and figures defined at the top of the loaded paper modules (and, as
    ``.names``, the module-level names each is bound to there)."""
    out = _Where()
    for name, mod in list(sys.modules.items()):
        if not name.startswith("cbdp_sym_derivations.") or not getattr(mod, "__file__", None):
            continue
        for key, obj in vars(mod).items():
            if isinstance(obj, (Claim, Figure)):
                if id(obj) not in out:
                    out[id(obj)] = Path(mod.__file__).resolve()
                    out.names[id(obj)] = [key]
                elif out[id(obj)] == Path(mod.__file__).resolve():
                    out.names[id(obj)].append(key)
    return out


def claim_files(claim: Claim, where: dict | None = None) -> list[Path] | None:
    """The files a claim's result depends on directly (their imports are followed by :mod:`cbdp_sym.core.deps`), or
    ``None`` when the claim's code cannot be located (a claim built in a notebook: not cached)."""
    where = _defining_modules() if where is None else where
    files = set()
    if id(claim) in where:
        files.add(where[id(claim)])
    fns = [getattr(claim, f, None) for f in _CALLABLE_FIELDS]
    fns += [getattr(rd, "claimed", None) for rd in (claim.readings or ())]
    for fn in fns:
        if fn is not None:
            src = _source(fn)
            if src is None:
                return None
            files.add(src)
    for u in claim.uses or ():  # a claim re-audited against a used claim's corrected statement depends on its code too
        used = BY_ID.get(u)
        if used is not None and used.corrected is not None:
            src = _source(used.corrected)
            if src is None:
                return None
            files.add(src)
            if id(used) in where:
                files.add(where[id(used)])
    for fig in claim.figures or ():
        if id(fig) in where:
            files.add(where[id(fig)])
        for c in fig.curves:
            src = _source(c.fn)
            if src is None:
                return None
            files.add(src)
    if not files or not any(f.suffix == ".py" for f in files):
        return None
    return sorted(files | {_VERIFY})


def _lines(fn) -> tuple:
    """The first line of a function's code (a lambda's too), or ``()`` for a callable without code of its own."""
    fn = getattr(fn, "func", fn)
    fn = inspect.unwrap(fn) if callable(fn) else fn
    code = getattr(fn, "__code__", None)
    return (code.co_firstlineno,) if code is not None else ()


def _names_bound(obj, file: Path, where) -> tuple:
    """The module-level names of the paper module ``file`` bound to ``obj``."""
    names = getattr(where, "names", None)
    if names is None or id(obj) not in names:
        names = _defining_modules().names
    return tuple(sorted(names.get(id(obj), ())))


def claim_starts(claim: Claim, where: dict | None = None) -> list | None:
    """What a claim's result depends on, for :func:`cbdp_sym.core.deps.granular_digest`: ``[(file, names, lines)]``:
    the names its declaration (and its figures') is bound to in its paper module, the first line of each of its
    functions (a lambda's too) in the module that defines it, and the audit's own code (whole); ``None`` when the
    claim's code cannot be located (a claim built in a notebook: not cached)."""
    files = claim_files(claim, where)
    if files is None:
        return None
    where = _defining_modules() if where is None else where
    starts = []
    if id(claim) in where:
        starts.append((where[id(claim)], _names_bound(claim, where[id(claim)], where), ()))
    fns = [getattr(claim, f, None) for f in _CALLABLE_FIELDS]
    fns += [getattr(rd, "claimed", None) for rd in (claim.readings or ())]
    for fig in claim.figures or ():
        if id(fig) in where:
            starts.append((where[id(fig)], _names_bound(fig, where[id(fig)], where), ()))
        fns += [c.fn for c in fig.curves]
    for fn in fns:
        if fn is not None:
            starts.append((_source(fn), (), _lines(fn)))
    starts.append((_VERIFY, (), ()))
    return starts


def claim_key(claim: Claim, dps: int, where: dict | None = None) -> str | None:
    """The text of a claim result's cache key (``None``: not cacheable).  The code part is
    :func:`cbdp_sym.core.deps.granular_digest` of :func:`claim_starts`: in a paper module, the statements the claim
    reaches (an edit of another claim's function keeps this result); engine modules whole."""
    starts = claim_starts(claim, where)
    if starts is None:
        return None
    return json.dumps(["result", FORMAT, claim.id, int(dps), deps.granular_digest(starts),
                       os.environ.get("CBDP_SYM_REGIONS", "")])


# results known to be what their key names (looked up, or stored after an exact round trip): id -> (result, key)
_KNOWN: dict = {}


def key_of(res: Result) -> str | None:
    """The cache key ``res`` was looked up or stored under in this process, or ``None``."""
    got = _KNOWN.get(id(res))
    return got[1] if got is not None and got[0] is res else None


def _path(key: str) -> Path:
    h = hashlib.sha256(key.encode()).hexdigest()
    return disk.cache_dir() / "results" / h[:2] / f"{h}.json"


def _detached(res: Result) -> Result:
    """A copy without the claim objects (closures: code, not data), the parent re-attaches them; the nested audits (the
    corrected statement, the audit against the corrected statements the claim uses) likewise."""
    corrected = _detached(res.corrected) if res.corrected is not None else None
    k = getattr(res, "against_corrected", None)  # (the knock-on audit: the report reads its status and message)
    against = _detached(k) if k is not None else None
    return dataclasses.replace(res, claim=None, corrected=corrected, against_corrected=against)


def storable(res: Result) -> bool:
    """``False`` for a result that describes the run rather than the claim: an error or a time limit."""
    for r in (res, res.corrected, getattr(res, "against_corrected", None),
              getattr(res.corrected, "against_corrected", None)):
        if r is None:
            continue
        if r.status == "error" or "timeout" in (r.message or "").lower():
            return False
        for rd in r.readings or ():
            if isinstance(rd, dict) and (rd.get("status") == "error" or "timeout" in str(rd.get("message", "")).lower()):
                return False
    return True


def lookup(claim: Claim, dps: int, where: dict | None = None) -> Result | None:
    """The stored result of ``claim`` at ``dps`` with the claim re-attached, or ``None`` (not stored, cache off,
    or a bad entry: reported once, then recomputed by the caller)."""
    if not disk._ENABLED[0]:
        return None
    key = claim_key(claim, dps, where)
    if key is None:
        return None
    path = _path(key)
    t0 = time.perf_counter()
    try:
        res = disk.read_entry(path, key)
        if not isinstance(res, Result) or not (res.corrected is None or isinstance(res.corrected, Result)):
            raise disk.BadEntry("not a claim result")
    except FileNotFoundError:
        return None
    except disk.BadEntry as exc:
        disk.report_bad_entry(path, str(exc))
        return None
    res.claim = claim
    res.seconds = time.perf_counter() - t0  # (the time of this run: the lookup; never written into reports)
    _KNOWN[id(res)] = (res, key)
    if res.corrected is not None:
        res.corrected.claim = dataclasses.replace(claim, claimed=claim.corrected, corrected=None,
                                                  statement=claim.corrected_statement or claim.statement)
    if res.against_corrected is not None:
        res.against_corrected.claim = dataclasses.replace(claim, uses=(), readings=(), corrected=None)
    return res


def store(claim: Claim, dps: int, res: Result, where: dict | None = None) -> bool:
    """Store ``res`` (the result of ``claim`` at ``dps``); ``False`` if it is not stored (cache off, not
    cacheable, an error or a time limit, or a value that does not round-trip exactly)."""
    if not disk._ENABLED[0] or not storable(res):
        return False
    key = claim_key(claim, dps, where)
    if key is None:
        return False
    value = _detached(res)
    if not round_trips(value):
        return False
    if not disk.write_entry(_path(key), key, value):
        return False
    _KNOWN[id(res)] = (res, key)
    return True
