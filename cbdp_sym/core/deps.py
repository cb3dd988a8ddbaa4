"""What a piece of code depends on, by static analysis of its imports: the key of the caches.

A cached value (a claim's result, a figure's point, a numeric function's value) is keyed by the content of
the files it depends on, not by the whole engine: the file that defines it and every module of the
``cbdp_sym`` package it imports, transitively.  Imports are read with :mod:`ast` from the whole file (those
inside functions too), so an edit of ``report.py`` or ``cli.py`` keeps every claim's result, and an edit of
``restricted.py`` invalidates exactly the results whose code imports it, directly or through other modules.

* ``from cbdp_sym import NAME`` (the paper modules' one way in) depends on the module that defines ``NAME``
  (resolved through the re-exports of ``cbdp_sym/__init__.py`` and ``cbdp_sym/_api.py``), not on the
  package's ``__init__`` (which imports everything);
* relative imports of a paper module (``from ._shared import GRID``, ``from . import _shared``) follow the
  paper folder's own modules; a paper module that imports the registry (``Registry().get(cid)``: it reads other
  claims by ID) depends on every built-in paper module;
* third-party modules are not followed: their versions are part of the key (:func:`versions`).

>>> from pathlib import Path
>>> deps = closure([package_root() / "restricted" / "solver.py"])
>>> "solver.py" in {p.name for p in deps} and "latex.py" not in {p.name for p in deps}
True
"""
from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import json
import os
import sys
from pathlib import Path

import cbdp_sym.core.store as store
_PACKAGE = "cbdp_sym"


def package_root() -> Path:
    """The folder of the engine's sources (``cbdp_sym/``)."""
    return Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def versions() -> str:
    """Python, SymPy, mpmath and python-flint versions (a result may depend on any of them)."""
    import mpmath
    import sympy

    try:
        import flint

        fl = getattr(flint, "__version__", "?")
    except ImportError:  # pragma: no cover - flint is a dependency
        fl = "none"
    return f"python {sys.version.split()[0]}; sympy {sympy.__version__}; mpmath {mpmath.__version__}; flint {fl}"


# -- reading files (cached by path, size and modification time, so an edit is seen in a long process) ---------------
_FILES: dict = {}


def _stat_key(path: Path):
    st = path.stat()
    return (st.st_mtime_ns, st.st_size)


def _read(path: Path) -> tuple[str, bytes]:
    """``(sha256 of the content, content)`` of ``path``, re-read only when its size or time changed."""
    sk = _stat_key(path)
    got = _FILES.get(path)
    if got is None or got[0] != sk:
        data = path.read_bytes()
        got = (sk, hashlib.sha256(data).hexdigest(), data)
        _FILES[path] = got
        _PARSED.pop(path, None)
    return got[1], got[2]


def file_hash(path) -> str:
    """SHA-256 of a file's bytes (``"missing"`` if it cannot be read)."""
    try:
        return _read(Path(path).resolve())[0]
    except OSError:
        return "missing"


# -- imports of one file ---------------------------------------------------------------------------------------
_PARSED: dict = {}


def _module_file(folder: Path, dotted: str) -> Path | None:
    """``folder/a/b.py`` or ``folder/a/b/__init__.py`` for ``a.b`` (``None`` if neither exists)."""
    if not dotted:
        return None
    base = folder.joinpath(*dotted.split("."))
    for cand in (base.with_suffix(".py"), base / "__init__.py"):
        if cand.is_file():
            return cand
    return None


# module -> ("name", "_private as public", ...): the face's (_OWN), a namespace's (_EXPORTS), the old face's (_OLD_*)
_EXPORT_TABLES = ("_EXPORTS", "_OWN", "_OLD_EXPORTS", "_OLD_OWN")
_NAMESPACE_TABLES = ("_NAMESPACES", "_OLD_NAMESPACES")  # name -> module


def _lazy_table(node, exports=_EXPORT_TABLES, namespaces=_NAMESPACE_TABLES) -> dict | None:
    """``{NAME: dotted module}`` from a top-level assignment of one of the package face's tables of names resolved on
    first use (``_EXPORTS = {"cbdp_sym.x": ("f", "_g as g")}``, ``_NAMESPACES = {"ns": "cbdp_sym.y"}``), else
    ``None``."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
        return None
    which = node.targets[0].id
    if which not in exports + namespaces:
        return None
    try:
        value = ast.literal_eval(node.value)
    except ValueError:
        return None
    out = {}
    for key, names in value.items():
        if which in namespaces:
            out[str(key)] = str(names)
            continue
        for item in names:
            attr, _, alias = str(item).partition(" as ")
            out[alias or attr] = str(key)
    return out


@functools.lru_cache(maxsize=None)
def _api_names(root: Path, _stamp) -> dict:
    """``NAME -> module file`` for the names the package re-exports (``from cbdp_sym import NAME``), read from
    ``__init__.py`` and ``_api.py`` (their tables of names resolved on first use, and plain imports); a function
    defined in ``__init__.py`` maps to the modules it imports."""
    out: dict = {}
    for fname in ("_api.py", "__init__.py"):
        path = root / fname
        if not path.is_file():
            continue
        tree = ast.parse(path.read_bytes(), filename=str(path))
        for node in tree.body:
            table = _lazy_table(node)
            if table is not None:  # NAME -> module, resolved on first use (PEP 562): as if imported from there
                for name, module in table.items():
                    target = _module_file(root, module[len(_PACKAGE) + 1:]) if module.startswith(_PACKAGE + ".") else None
                    if target is not None:
                        out.setdefault(name, set()).add(target)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith(_PACKAGE + "."):
                sub = node.module[len(_PACKAGE) + 1:]
                target = _module_file(root, sub)
                for alias in node.names:
                    name = alias.asname or alias.name
                    mod = _module_file(root, f"{sub}.{alias.name}")  # a module of a sub-package
                    if mod is not None:
                        out.setdefault(name, set()).add(mod)
                    elif target is not None:
                        out.setdefault(name, set()).add(target)
            elif isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                target = _module_file(root, node.module)
                if target is None:
                    continue
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    name = alias.asname or alias.name
                    out.setdefault(name, set()).add(target)
            elif isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
                for alias in node.names:
                    target = _module_file(root, alias.name)
                    if target is not None:
                        out.setdefault(alias.asname or alias.name, set()).add(target)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and fname == "__init__.py":
                inner = set()
                for sub in ast.walk(node):
                    if isinstance(sub, ast.ImportFrom) and sub.module:
                        dotted = (sub.module if sub.level == 1 else
                                  sub.module[len(_PACKAGE) + 1:] if sub.module.startswith(_PACKAGE + ".") else None)
                        t = _module_file(root, dotted) if dotted else None
                        if t is not None:
                            inner.add(t)
                out[node.name] = inner
    return {k: frozenset(v) for k, v in out.items()}


@functools.lru_cache(maxsize=None)
def _namespace_names(root: Path, path: Path, _stamp) -> dict:
    """``NAME -> module files`` of a namespace module (``cbdp_sym/certify.py``, a sub-package's ``__init__.py``): its
    tables of names resolved on first use (``_EXPORTS``, ``_NAMESPACES``); empty for a module without them."""
    out: dict = {}
    data = path.read_bytes()
    if b"_EXPORTS" not in data and b"_NAMESPACES" not in data:
        return {}  # (no table can be assigned without its name: most modules, no parse)
    for node in ast.parse(data, filename=str(path)).body:
        table = _lazy_table(node, ("_EXPORTS",), ("_NAMESPACES",))  # (not the face's or the old face's tables)
        for name, module in (table or {}).items():
            target = _module_file(root, module[len(_PACKAGE) + 1:]) if module.startswith(_PACKAGE + ".") else None
            if target is not None:
                out.setdefault(name, set()).add(target)
    return {k: frozenset(v) for k, v in out.items()}


def namespace_targets(root: Path, path: Path, name: str | None = None) -> set:
    """The engine files a namespace module's ``name`` stands for (``None``: the whole namespace, every name of its
    tables), so that ``from cbdp_sym.certify import arb_closed`` depends on ``calculus/certify.py``."""
    table = _namespace_names(root, path, _stat_key(path))
    if name is None:
        return set().union(*table.values()) if table else set()
    return set(table.get(name, ()))


@functools.lru_cache(maxsize=None)
def _moved_table(root: Path, stamp) -> dict:
    """``(old module, name) -> the paper folder's _shared.py`` of the helpers that moved out of the engine into a
    built-in paper's folder (``MOVED`` and ``MOVED_ALIASES`` of ``_api.py``, read from its source): an old path
    resolves there at run time, so a module importing it depends on that file (and on what it imports)."""
    path = root / "_api.py"
    if not path.is_file():
        return {}
    derivs = next((d for d in (root / "derivations", root.parent / "derivations") if d.is_dir()), None)
    out = {}
    for node in ast.parse(path.read_bytes()).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id in ("MOVED", "MOVED_ALIASES") and derivs is not None):
            for module, (paper, names) in ast.literal_eval(node.value).items():
                shared = derivs / paper / "_shared.py"
                if shared.is_file():
                    out.update({(module, name): shared for name in names})
    return out


def _moved(root: Path) -> dict:
    return _moved_table(root, _stat_key(root / "_api.py") if (root / "_api.py").is_file() else None)


def _names_map(root: Path) -> dict:
    stamp = tuple(_stat_key(root / f) if (root / f).is_file() else None for f in ("_api.py", "__init__.py"))
    return _api_names(root, stamp)


_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _import_nodes(tree):
    """The import statements of a module, at any depth of its statements (in functions, classes, ``if``,
    ``try``, ``with``, loops); expressions are not visited (they cannot hold an import statement)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        for name in _STATEMENT_FIELDS:
            children = getattr(node, name, None)
            if children:
                todo.extend(children)


def _specs_from_source(data: bytes, path: Path) -> list:
    """``[[level, module or "", [names]], ...]`` (``level`` -1 for ``import a.b``), in source order."""
    out = []
    for node in sorted(_import_nodes(ast.parse(data, filename=str(path))), key=lambda n: (n.lineno, n.col_offset)):
        if isinstance(node, ast.Import):
            out.append([-1, "", [a.name for a in node.names]])
        else:
            out.append([node.level, node.module or "", [a.name for a in node.names]])
    return out


_SPECS: dict = {}


def _valid_specs(v) -> bool:
    return isinstance(v, list) and all(
        isinstance(i, list) and len(i) == 3 and isinstance(i[0], int) and isinstance(i[1], str)
        and isinstance(i[2], list) and all(isinstance(n, str) for n in i[2]) for i in v)


def import_specs(path: Path) -> list:
    """The import statements of ``path`` as data (:func:`_specs_from_source`), parsed once per content: kept in
    the process and in the cache folder (``imports/``, keyed by the file's SHA-256), so a warm run parses
    nothing."""
    sha, data = _read(path)
    got = _SPECS.get(sha)
    if got is not None:
        return got
    entry = key = None
    if store._ENABLED[0]:
        key = f"imports-v1:{sha}"
        entry = store.cache_dir() / "imports" / sha[:2] / f"{sha}.imp"  # (a checksummed JSON entry)
        got = store.read_valid(entry, key, _valid_specs, "not a list of imports")
    if got is None:
        got = _specs_from_source(data, path)
        if entry is not None:
            store.write_entry(entry, key, got)
    _SPECS[sha] = got
    return got


def imports_of(path: Path, root: Path | None = None) -> set[Path]:
    """The source files ``path`` imports directly: modules of the package under ``root`` (default: the
    engine) and, for a module outside the package, modules of its own folder imported relatively."""
    root = (root or package_root()).resolve()
    path = Path(path).resolve()
    _read(path)
    stamp = (_FILES[path][0], str(root))
    got = _PARSED.get(path)
    if got is not None and got[0] == stamp:
        return set(got[1])
    inside = path.parent == root or root in path.parents
    names = None
    out: set = set()

    def engine(dotted: str, imported=()):
        """``cbdp_sym.X`` (``X`` may be empty: the package itself, then each imported name)."""
        nonlocal names
        target = None
        if dotted:
            target = _module_file(root, dotted)
            if target is not None:
                out.add(target)
                if not imported:  # `import cbdp_sym.certify`: the whole namespace
                    out.update(namespace_targets(root, target))
            base = dotted
        else:
            base = ""
        moved = _moved(root)
        for name in imported:
            old = moved.get((f"{_PACKAGE}.{base}" if base else _PACKAGE, name))
            if old is None and not base:  # `from cbdp_sym import ZPair` (the face's old name of a moved helper)
                if names is None:
                    names = _names_map(root)
                old = next((shared for (module, n), shared in moved.items() if n == name
                            and _module_file(root, module[len(_PACKAGE) + 1:]) in names.get(name, ())), None)
            if old is not None:
                out.add(old)
            sub = _module_file(root, f"{base}.{name}" if base else name) if name != "*" else None
            if sub is not None:
                out.add(sub)
                out.update(namespace_targets(root, sub))  # a namespace imported whole (`from cbdp_sym import peers`)
            elif base and target is not None:
                out.update(namespace_targets(root, target, name))  # `from cbdp_sym.certify import arb_closed`
            elif not base:
                if names is None:
                    names = _names_map(root)
                if name == "*":
                    out.update(p for p in root.rglob("*.py") if "derivations" not in p.relative_to(root).parts)  # everything (never done by the engine's own code)
                else:
                    out.update(names.get(name, ()))

    for level, module, imported in import_specs(path):
        if level == -1:
            for name in imported:
                if name == _PACKAGE:
                    out.update(p for p in root.rglob("*.py") if "derivations" not in p.relative_to(root).parts)  # `import cbdp_sym`: attribute access may reach anything
                elif name.startswith(_PACKAGE + "."):
                    engine(name[len(_PACKAGE) + 1:])
        elif level == 0:
            if module == _PACKAGE:
                engine("", imported)
            elif module.startswith(_PACKAGE + "."):
                engine(module[len(_PACKAGE) + 1:], imported)
        else:
            # relative: inside the package, from the module's package folder; outside, from its own folder
            folder = path.parent
            for _ in range(level - 1):
                folder = folder.parent
            if inside:
                rel = folder.relative_to(root).as_posix().replace("/", ".") if folder != root else ""
                engine(".".join(p for p in (rel, module) if p), imported)
            elif module:
                target = _module_file(folder, module)
                if target is not None:
                    out.add(target)
            else:
                for name in imported:
                    target = _module_file(folder, name)
                    if target is not None:
                        out.add(target)
    if not inside and (root / "app" / "registry.py") in out:
        # a paper module that looks claims up by ID (``Registry().get(cid)``) reads the other paper modules: it
        # depends on every module of the built-in papers (an ID is not an import that could be followed)
        out.update(builtin_paper_modules(root))
    out.discard(path)
    # the package's __init__ re-exports; what a module really uses is what it names
    out.discard(root / "__init__.py")
    out.discard(root / "_api.py")
    _PARSED[path] = (stamp, frozenset(out))
    return out


def builtin_paper_modules(root: Path | None = None) -> set[Path]:
    """The modules of the built-in papers (``derivations/<paper>/*.py``, as :func:`cbdp_sym.app.registry.builtin_root`
    finds them)."""
    root = (root or package_root()).resolve()
    for folder in (root / "derivations", root.parent / "derivations"):
        if folder.is_dir():
            return {p.resolve() for p in folder.glob("*/*.py")}
    return set()


def closure(files, root: Path | None = None) -> list[Path]:
    """``files`` and every source file they import, transitively (sorted)."""
    seen: set = set()
    todo = [Path(f).resolve() for f in files]
    while todo:
        p = todo.pop()
        if p in seen or not p.is_file():
            continue
        seen.add(p)
        try:
            todo.extend(imports_of(p, root) - seen)
        except (SyntaxError, ValueError, OSError):
            pass  # an unreadable file is still in the key (by its bytes, or as missing)
    return sorted(seen)


def _label(p: Path, root: Path) -> str:
    try:
        return "cbdp_sym/" + p.relative_to(root).as_posix()
    except ValueError:
        return f"{p.parent.name}/{p.name}"  # a paper module: its folder and name (no absolute path in keys)


_DIGESTS: dict = {}


def _stamp_or_none(p: Path):
    try:
        return _stat_key(p)
    except OSError:
        return None


def digest(files, root: Path | None = None, extra=()) -> str:
    """SHA-256 of the contents of ``files`` and their transitive imports, of the package versions and of
    ``extra`` (strings): the code version of anything defined in ``files``.  Kept per process and checked
    against the files' sizes and times (an audit asks for the same modules' digest once per claim)."""
    root = (root or package_root()).resolve()
    fs = frozenset(Path(f).resolve() for f in files)
    memo_key = (fs, root, file_hash, tuple(str(e) for e in extra))
    got = _DIGESTS.get(memo_key)
    if got is not None and all(_stamp_or_none(p) == st for p, st in got[0]):
        return got[1]
    members = closure(fs, root)
    h = hashlib.sha256(versions().encode())
    for p in members:
        h.update(b"\0" + _label(p, root).encode() + b"\0" + file_hash(p).encode())
    for e in extra:
        h.update(b"\1" + str(e).encode())
    value = h.hexdigest()
    _DIGESTS[memo_key] = (tuple((p, _stamp_or_none(p)) for p in members), value)
    return value


def dependency_names(files, root: Path | None = None) -> list[str]:
    """The files of :func:`digest`, as ``cbdp_sym/x.py`` or ``paper/x.py`` (for reports and tests)."""
    root = (root or package_root()).resolve()
    return [_label(p, root) for p in closure(files, root)]


# -- function granularity inside paper modules --------------------------------------------------------------------------
# A claim's result depends on the statements of its paper module that its declaration reaches (the functions it calls,
# the constants and laws they name, transitively, through the paper folder's relative imports), not on the whole
# module: an edit of one claim's function leaves the other claims of the module (and of the modules importing it)
# cached.  Engine modules stay whole files (their functions reach each other through methods and attributes that a
# reading of names cannot follow).
_DYNAMIC_NAMES = frozenset({"globals", "vars", "locals", "eval", "exec", "__import__", "importlib"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.GeneratorExp)
_COMPOUND = (ast.If, ast.Try, ast.For, ast.While, ast.With, ast.AsyncFor, ast.AsyncWith)


def _bound_at_top(node) -> set:
    """The module-level names a top-level statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Import):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.ImportFrom):
        return {a.asname or a.name for a in node.names}
    out = set()
    todo = [node]
    while todo:  # stores anywhere in the statement, outside nested scopes (a def inside an `if` binds its name)
        n = todo.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
            out.add(n.name)
            continue
        elif isinstance(n, _SCOPES) and n is not node:
            continue
        todo.extend(ast.iter_child_nodes(n))
    return out


def _statement_data(node, text: bytes) -> dict:
    """What :func:`reached` needs of one top-level statement, as data (kept in the cache folder): the SHA-256 of its
    text, the names it binds and uses, whether it belongs to every value of its module (``always``: it binds nothing,
    as a call or ``mp.mp.dps = 30``, or it is compound, as ``if`` or ``try``), whether it reaches names dynamically
    (``globals()``, ``eval``, ...), its lines, its import if it is one, and the imports inside it (a function's own
    ``from cbdp_sym import NAME``: every name they import is a dependency of the statement)."""
    binds = sorted(_bound_at_top(node))
    uses = sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)})
    docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return {"sha": hashlib.sha256(text).hexdigest(), "binds": binds, "uses": uses,
            "always": (not docstring) and (not binds or isinstance(node, _COMPOUND)),
            "dynamic": bool(set(uses) & _DYNAMIC_NAMES), "span": [first, node.end_lineno], "imp": _imp(node),
            "nested": [_imp(n) for n in _import_nodes(node) if n is not node]}


def _imp(node):
    """An import statement as data: ``[kind, level, module, [[name, asname], ...]]``, or ``None``."""
    if isinstance(node, ast.ImportFrom):
        return ["from", node.level, node.module or "", [[a.name, a.asname or ""] for a in node.names]]
    if isinstance(node, ast.Import):
        return ["import", 0, "", [[a.name, a.asname or ""] for a in node.names]]
    return None


def _valid_statements(v) -> bool:
    keys = {"sha", "binds", "uses", "always", "dynamic", "span", "imp", "nested"}
    return isinstance(v, list) and all(isinstance(d, dict) and set(d) == keys and isinstance(d["sha"], str)
                                       and isinstance(d["binds"], list) and isinstance(d["uses"], list)
                                       and isinstance(d["span"], list) and len(d["span"]) == 2 for d in v)


class _Module:
    """A paper module's top-level statements (:func:`_statement_data`), which of them bind each name, and those
    part of every value."""
    __slots__ = ("stmts", "binders", "always", "targets")

    def __init__(self, stmts):
        self.stmts = stmts
        self.binders: dict = {}
        for i, st in enumerate(stmts):
            for name in st["binds"]:
                self.binders.setdefault(name, []).append(i)
        self.always = [i for i, st in enumerate(stmts) if st["always"]]
        self.targets: dict = {}  # (name, root, the package face's map, the import) -> engine files


_MODULES: dict = {}
_STATEMENTS_FORMAT = "v3"


def _module(path: Path) -> _Module:
    """A module's top-level statements, analysed once per content: kept in the process and in the cache folder
    (``statements/``, keyed by the file's SHA-256), so a warm audit parses no paper module."""
    sha, data = _read(path)
    got = _MODULES.get(sha)
    if got is not None:
        return got
    stmts = entry = key = None
    if store._ENABLED[0]:
        key = f"statements-{_STATEMENTS_FORMAT}:{sha}"
        entry = store.cache_dir() / "statements" / _STATEMENTS_FORMAT / sha[:2] / f"{sha}.stm"  # (a new format: new files)
        text = store.read_valid(entry, key, lambda t: isinstance(t, str), "not a JSON text")
        if text is not None:  # (decoded by json, not by the serialiser's walk)
            try:
                stmts = json.loads(text)
            except ValueError:
                stmts = None
            if not _valid_statements(stmts):
                store.report_bad_entry(entry, "not a list of statements")
                stmts = None
    if stmts is None:
        tree = ast.parse(data, filename=str(path))
        lines = data.splitlines(keepends=True)
        stmts = []
        for node in tree.body:
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            stmts.append(_statement_data(node, b"".join(lines[first - 1:node.end_lineno])))
        if entry is not None:
            store.write_entry(entry, key, json.dumps(stmts, separators=(",", ":")))
    got = _MODULES[sha] = _Module(stmts)
    return got


def _engine_targets(imp, name: str, root: Path, names) -> set:
    """Engine files that an import statement (``imp`` of :func:`_statement_data`) makes ``name`` stand for (``from
    cbdp_sym import NAME``, ``from cbdp_sym.x import NAME``, ``import cbdp_sym.x``); empty for other imports.
    ``names``: the package face's map (:func:`_names_map`)."""
    kind, level, module, aliases = imp
    everything = lambda: {p for p in root.rglob("*.py") if "derivations" not in p.relative_to(root).parts}  # noqa: E731
    out: set = set()
    for a_name, asname in aliases:
        if kind == "from":
            if level != 0 or not module or ((asname or a_name) != name and a_name != "*"):
                continue
            if module == _PACKAGE:
                sub = _module_file(root, a_name) if a_name != "*" else None
                if sub is not None:
                    out.add(sub)
                    out |= namespace_targets(root, sub)
                elif a_name == "*":
                    out |= everything()
                else:
                    out.update(names.get(a_name, ()))
            elif module.startswith(_PACKAGE + "."):
                dotted = module[len(_PACKAGE) + 1:]
                sub = _module_file(root, f"{dotted}.{a_name}")
                target = sub or _module_file(root, dotted)
                if target is not None:
                    out.add(target)
                    out |= namespace_targets(root, target, None if sub else a_name)
        elif (asname or a_name).split(".")[0] == name:
            if a_name == _PACKAGE:
                out |= everything()
            elif a_name.startswith(_PACKAGE + "."):
                target = _module_file(root, a_name[len(_PACKAGE) + 1:])
                if target is not None:
                    out.add(target)
                    out |= namespace_targets(root, target)
    return out


def reached(starts, root: Path | None = None):
    """What values defined by ``starts`` depend on: ``(statements, engine files)``.

    ``starts``: ``[(file, names, lines)]``: for a paper module (outside the engine), the module-level ``names`` a value
    is bound to and the ``lines`` of its code (a function or a lambda: the top-level statement holding the line); both
    empty for the whole module.  An engine file is taken whole.  ``statements``: ``{(file, index)}`` of the paper
    modules' top-level statements reached, following names, the paper folder's relative imports, and the statements
    that bind nothing (part of every value of their module); a module that reaches its own names dynamically
    (``globals()``, ``eval``, ...) is taken whole.  ``engine files``: the engine modules the reached statements import,
    and their imports, transitively (:func:`closure`)."""
    root = (root or package_root()).resolve()
    _fresh(root)
    return _reached(starts, root)


def _reached(starts, root: Path):
    seen: set = set()
    engine: set = set()
    mods: dict = {}  # path -> _Module (one stat per file and call)
    todo: list = []  # (path, name), (path, None): the whole module, or (path, ("import", name, i))

    def module(path):
        m = mods.get(path)
        if m is None:
            m = mods[path] = _module(path)
            for i in m.always:
                add_statement(path, i)
        return m

    def add_statement(path, i):
        if (path, i) in seen:
            return
        seen.add((path, i))
        st = mods[path].stmts[i]
        if st["dynamic"]:
            todo.append((path, None))
        todo.extend((path, name) for name in st["uses"])
        for k, imp in enumerate(st["nested"]):
            todo.append((path, ("nested", i, k)))

    for f, names, lines in starts:
        path = Path(f).resolve()
        if path.parent == root or root in path.parents:
            engine.add(path)
            continue
        module(path)
        if not names and not lines:
            todo.append((path, None))
            continue
        todo.extend((path, name) for name in names or ())
        for ln in lines or ():
            for i, st in enumerate(mods[path].stmts):
                if st["span"][0] <= ln <= st["span"][1]:
                    add_statement(path, i)
    done: set = set()
    face = None  # the package face's names (from cbdp_sym import NAME), read once per call
    while todo:
        item = todo.pop()
        if item in done:
            continue
        done.add(item)
        path, name = item
        m = module(path)
        if name is None:
            for i in range(len(m.stmts)):
                add_statement(path, i)
                if m.stmts[i]["imp"] is not None:
                    todo.extend((path, ("import", b, i)) for b in m.stmts[i]["binds"])
        elif isinstance(name, tuple):  # an import reached through `name` (or nested in a reached statement)
            if name[0] == "nested":
                _, i, k = name
                imp = m.stmts[i]["nested"][k]
                wanted = [(asname or a_name).split(".")[0] if imp[0] == "import" else (asname or a_name)
                          for a_name, asname in imp[3]]
            else:
                _, one, i = name
                imp = m.stmts[i]["imp"]
                wanted = [one]
            if face is None:
                face = _names_map(root)
            for name in wanted:
                tk = (name, root, id(face), repr(imp))
                if tk not in m.targets:
                    m.targets[tk] = frozenset(_engine_targets(imp, name, root, face))
                engine.update(m.targets[tk])
            kind, level, module_name, aliases = imp
            if kind == "from" and level >= 1:
                folder = path.parent
                for _ in range(level - 1):
                    folder = folder.parent
                for a_name, asname in aliases:
                    if (asname or a_name) not in wanted and a_name != "*":
                        continue
                    if module_name:
                        target = _module_file(folder, module_name)
                        if target is not None:
                            todo.append((target, None) if a_name == "*" else (target, a_name))
                            sub = _module_file(folder, f"{module_name}.{a_name}")
                            if sub is not None:
                                todo.append((sub, None))
                    else:  # `from . import other`: the module itself, whole
                        target = _module_file(folder, a_name)
                        if target is not None:
                            todo.append((target, None))
        else:
            for i in m.binders.get(name, ()):
                add_statement(path, i)
                if m.stmts[i]["imp"] is not None:  # (an import binds many names: follow this one only)
                    todo.append((path, ("import", name, i)))
    engine_files = _closure_memo(frozenset(engine), root)[0] if engine else frozenset()
    if (root / "app" / "registry.py") in engine_files and seen:
        # a paper module that looks claims up by ID reads the other paper modules (as :func:`imports_of` says)
        for p in builtin_paper_modules(root):
            for i in range(len(_module(p).stmts)):
                seen.add((p, i))
    return seen, engine_files


_CLOSURES: dict = {}
_EPOCH: list = [None]  # the engine files' sizes and times when the memos below were made


def _engine_epoch(root: Path) -> tuple:
    """Sizes and times of the engine's ``*.py`` files (``os.scandir``: a fraction of a millisecond)."""
    out = []
    todo = [str(root)]
    while todo:
        folder = todo.pop()
        with os.scandir(folder) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    if e.name not in ("__pycache__", "derivations") and not e.name.startswith("."):
                        todo.append(e.path)
                elif e.name.endswith(".py"):
                    st = e.stat()
                    out.append((e.path, st.st_mtime_ns, st.st_size))
    return tuple(sorted(out))


_BATCH: list = [0, None]  # [depth of batch(), the root checked in it]


@contextlib.contextmanager
def batch():
    """A scope in which no engine file changes (an audit's lookup of its claims' keys): the engine files' sizes and
    times are checked once in it, not once per key (282 scans of the engine folder took 0.1-0.3 s)."""
    _BATCH[0] += 1
    try:
        yield
    finally:
        _BATCH[0] -= 1
        if not _BATCH[0]:
            _BATCH[1] = None


def _fresh(root: Path) -> None:
    """Forget the memos of engine closures if an engine file changed since they were made."""
    if _BATCH[0] and _BATCH[1] == root:
        return
    if _BATCH[0]:
        _BATCH[1] = root
    epoch = (root, _engine_epoch(root))
    if _EPOCH[0] != epoch:
        _CLOSURES.clear()
        _EPOCH[0] = epoch


def _closure_memo(files: frozenset, root: Path):
    """``(closure, digest)``: :func:`closure` of engine files (the union of each file's, each computed once) and the
    SHA-256 of their places and contents, kept per process while no engine file changes (the caller checks that with
    :func:`_fresh`)."""
    got = _CLOSURES.get((files, root))
    if got is None:
        members = set()
        for f in files:
            one = _CLOSURES.get((f, root))
            if one is None:
                one = _CLOSURES[(f, root)] = frozenset(closure([f], root))
            members |= one
        members = frozenset(members)
        h = hashlib.sha256()
        for p in sorted(members):
            entry = _CLOSURES.get(("entry", p, root))
            if entry is None:
                entry = _CLOSURES[("entry", p, root)] = (b"\0" + _label(p, root).encode() + b"\0"
                                                         + file_hash(p).encode())
            h.update(entry)
        got = _CLOSURES[(files, root)] = (members, h.hexdigest())
    return got


def granular_digest(starts, root: Path | None = None, extra=()) -> str:
    """:func:`digest` at the granularity of :func:`reached`: SHA-256 of the package versions, of the text of every
    paper-module statement the values of ``starts`` reach (with its file's place), of the engine files they import
    (whole), and of ``extra``.  An edit of a function no start reaches leaves the digest as it was."""
    root = (root or package_root()).resolve()
    stmts, engine_files = reached(starts, root)  # (checks that no engine file changed: the memos below are current)
    h = hashlib.sha256(b"granular 1; " + versions().encode())
    if engine_files:  # (the engine part: the memo's digest of these very files)
        h.update(b"\0" + _closure_memo(frozenset(engine_files), root)[1].encode())
    labels = {p: _label(p, root) for p in {p for p, _ in stmts}}
    for p, i in sorted(stmts, key=lambda t: (labels[t[0]], t[1])):
        h.update(b"\2" + labels[p].encode() + b"\0" + _module(p).stmts[i]["sha"].encode())
    for e in extra:
        h.update(b"\1" + str(e).encode())
    return h.hexdigest()


def reached_names(starts, root: Path | None = None) -> list[str]:
    """What :func:`granular_digest` hashes, as ``paper/x.py: NAME, ...`` per statement (``paper/x.py: <line N>`` for a
    statement that binds nothing) and ``cbdp_sym/x.py`` per engine file (for reports and tests)."""
    root = (root or package_root()).resolve()
    stmts, engine_files = reached(starts, root)
    out = [_label(p, root) for p in sorted(engine_files)]
    for p, i in sorted(stmts, key=lambda t: (_label(t[0], root), t[1])):
        st = _module(p).stmts[i]
        out.append(f"{_label(p, root)}: " + (", ".join(st["binds"]) if st["binds"] else f"<line {st['span'][0]}>"))
    return out
