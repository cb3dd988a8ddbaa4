"""Discovery of derivations, the way pytest discovers tests.

A *derivation root* is a folder with one sub-folder per paper.  A paper folder holds ``_paper.py``
(metadata: ``PAPER = {...}``), optionally ``catalogue.tsv`` (every catalogued claim ID, for coverage)
and any number of ``*.py`` modules (not starting with ``_``) whose module-level :class:`Claim`
objects are the paper's claims.  Modules are imported under unique names
(``cbdp_sym_derivations.<root hash>.<paper>.<module>``), so two papers may both have a ``t9.py``.

The built-in root ships inside the package (``cbdp_sym/derivations`` after ``pip install``, the
repository's ``derivations/`` in a checkout); users add roots with ``--path DIR``.

A user's root is read with care (issue 30):

* only sub-folders that *are* papers are imported: a folder with ``_paper.py`` or ``catalogue.tsv``, or whose
  modules declare claims at module level (``T1 = Claim(...)``, read from the source without running it); a
  checkout, a virtual environment or a folder of scripts beside the papers is left alone (its ``setup.py`` is
  never run);
* a paper that cannot be loaded (a module that raises, calls ``sys.exit``, loops past the import time limit,
  declares an ID another paper has, or uses LaTeX the reports refuse) is set aside with one line saying why
  (:attr:`Registry.broken`), and the other papers work as before;
* a paper key, a claim ID and a label are names a terminal and a file system can take (no control characters,
  at most 64 / 100 characters).
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cbdp_sym.verify.claims import Claim
from cbdp_sym.verify.figures import Figure
from cbdp_sym.report.latexbuild import check_claim_latex, check_figure_latex, check_paper_latex
from cbdp_sym.core.errors import CbdpError, UnknownClaimError
from cbdp_sym.core.timelimit import TimeLimitExceeded, time_limit

PAPER_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}\Z")
CLAIM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:+-]{0,99}\Z")


@dataclass
class Paper:
    key: str
    meta: dict
    folder: Path
    claims: list = field(default_factory=list)
    catalogue: list = field(default_factory=list)  # [(id, label)]
    figures: list = field(default_factory=list)


def builtin_root() -> Path:
    here = Path(__file__).resolve().parent.parent  # the cbdp_sym package
    for candidate in (here / "derivations", here.parent / "derivations"):
        if candidate.is_dir():
            return candidate
    raise CbdpError("the built-in derivations are missing from this installation")


def root_tag(root: Path) -> str:
    """The tag of a derivations root in its modules' names (``cbdp_sym_derivations.<tag>.<paper>.<module>``)."""
    return "r" + hashlib.sha1(str(root).encode()).hexdigest()[:8]


def builtin_module(paper: str, module: str):
    """A module of a built-in paper folder (``builtin_module("zcdp", "_shared")``), imported under the name the
    registry gives it, so that its objects are the very ones the audit uses (the engine's deprecated paths of helpers
    that moved into a paper's folder forward here, :mod:`cbdp_sym._api`)."""
    root = builtin_root().resolve()
    tag = root_tag(root)
    _package(f"cbdp_sym_derivations.{tag}", root)
    _package(f"cbdp_sym_derivations.{tag}.{paper}", root / paper)
    return _import(root / paper / f"{module}.py", f"cbdp_sym_derivations.{tag}.{paper}.{module}")


def _package(name: str, folder: Path):
    """Register ``name`` as a package whose modules live in ``folder``: a claim module of a paper may then
    import the paper's shared modules relatively (``from ._shared import GRID``)."""
    import types

    parts = name.split(".")
    for i in range(1, len(parts) + 1):
        sub = ".".join(parts[:i])
        if sub not in sys.modules:
            mod = types.ModuleType(sub)
            mod.__path__ = []
            sys.modules[sub] = mod
    sys.modules[name].__path__ = [str(folder)]


def _among(claim, claims: list, same_id: dict) -> bool:
    """``claim in claims`` (a claim's dataclass equality compares the IDs, among its fields), asked of the claims with
    its ID (``same_id``: ID -> those of ``claims``) instead of the whole list (each comparison builds both claims' field
    tuples: quadratic in a paper's claims)."""
    try:
        bucket = same_id.get(claim.id, ())
    except TypeError:  # (an ID that is not hashable, refused just after: the plain test)
        return claim in claims
    return any(c is claim or c == claim for c in bucket)


def _import(path: Path, name: str, seconds: float | None = None):
    """Import ``path`` as module ``name`` (under a time limit of ``seconds``); a module that fails in any way
    (an exception, ``sys.exit``, the time limit) raises :class:`CbdpError` in one line naming the file."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    what = f"importing {path}"
    try:
        with time_limit(seconds, what, hard=True) if seconds else _no_limit():
            spec.loader.exec_module(mod)
    except CbdpError:
        del sys.modules[name]
        raise
    except KeyboardInterrupt:
        del sys.modules[name]
        raise
    except TimeLimitExceeded as exc:
        del sys.modules[name]
        if getattr(exc, "what", None) != what:
            raise  # an enclosing limit
        raise CbdpError(f"cannot load {path}: its import did not finish within {seconds:g} s (the time limit; "
                        "change it with --timeout)") from None
    except BaseException as exc:  # a broken module of a user's folder (SystemExit too): one line naming the file
        del sys.modules[name]
        line = ""
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == str(path):
                line = f", line {tb.tb_lineno}"
            tb = tb.tb_next
        if isinstance(exc, SyntaxError) and exc.lineno:
            line = f", line {exc.lineno}"
        if isinstance(exc, SystemExit):
            raise CbdpError(f"cannot load {path}{line}: it calls sys.exit({exc.code!r}) when imported") from None
        msg = str(exc).splitlines()[0] if str(exc) else ""
        if isinstance(exc, ModuleNotFoundError) and str(getattr(exc, "name", "") or "").startswith("cbdp_sym."):
            msg += (" (the engine's modules moved into sub-packages in 0.2: import the names a paper uses from "
                    "cbdp_sym itself, e.g. `from cbdp_sym import Claim, Laplace`)")
        raise CbdpError(f"cannot load {path}{line}: {type(exc).__name__}" + (f": {msg}" if msg else "")) from None
    return mod


class _no_limit:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _declares_claims(path: Path) -> bool:
    """Whether the module at ``path`` assigns a ``Claim(...)`` at module level (read from its source, not run)."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError, ValueError, RecursionError):
        return False
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for node in ast.walk(stmt.value):
                if isinstance(node, ast.Call):
                    f = node.func
                    if (isinstance(f, ast.Name) and f.id == "Claim") or (isinstance(f, ast.Attribute) and f.attr == "Claim"):
                        return True
    return False


def is_paper_folder(folder: Path) -> bool:
    """A folder that holds a paper: ``_paper.py``, ``catalogue.tsv``, or a module declaring claims at module level."""
    if (folder / "_paper.py").is_file() or (folder / "catalogue.tsv").is_file():
        return True
    return any(_declares_claims(p) for p in sorted(folder.glob("*.py")) if not p.name.startswith("_"))


class Registry:
    """All papers and claims under the given roots (built-in first).

    ``import_timeout``: seconds an import of a user's module may take (``None``: no limit).  :attr:`broken` maps
    each paper folder that could not be loaded to the one-line reason; the other papers are loaded."""

    def __init__(self, extra_roots=(), builtin=True, import_timeout: float | None = None, only=None):
        """``only``: load just these paper folders (``{(root, folder name)}``, roots resolved), as ``eval ID`` does
        for the paper of its claim (:mod:`cbdp_sym.app.claimindex`); ``None`` loads every paper of every root."""
        self.papers: dict[str, Paper] = {}
        self._only = only
        self.broken: dict[str, str] = {}
        self.import_timeout = import_timeout
        roots = ([builtin_root()] if builtin else []) + [Path(r) for r in extra_roots]
        for k, root in enumerate(roots):
            if not root.is_dir():
                raise CbdpError(f"--path {root}: not a folder")
            if (root / "_paper.py").exists():
                raise CbdpError(f"--path {root} is a paper folder (it holds _paper.py): pass the folder that contains "
                                f"it, --path {root.parent}")
            self._load_root(root.resolve(), user=not (builtin and k == 0))

    def _load_root(self, root: Path, user: bool = True):
        tag = root_tag(root)
        folders = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
        for folder in folders:
            if self._only is not None and (root, folder.name) not in self._only:
                continue
            if user and not is_paper_folder(folder):
                continue  # (a checkout, a venv, a folder of scripts: never imported)
            try:
                self._load_paper(root, tag, folder, seconds=self.import_timeout if user else None)
            except CbdpError as exc:
                if not user:
                    raise
                self.broken[str(folder)] = str(exc)

    def _load_paper(self, root: Path, tag: str, folder: Path, seconds=None):
        meta_file = folder / "_paper.py"
        if meta_file.exists():
            meta = getattr(_import(meta_file, f"cbdp_sym_derivations.{tag}.{folder.name}._paper", seconds), "PAPER", {})
            if not isinstance(meta, dict):
                raise CbdpError(f"{meta_file}: PAPER is a {type(meta).__name__}, not a dict")
            meta = dict(meta)
        else:
            meta = {"key": folder.name, "title": folder.name}
        key = meta.get("key", folder.name)
        if not isinstance(key, str) or not PAPER_KEY.match(key):
            raise CbdpError(f"paper folder {folder}: its key {str(key)[:40]!r}{'...' if len(str(key)) > 40 else ''} is "
                            "not a paper key (a letter, then at most 63 letters, digits, '_' or '-')")
        if "conventions" in meta and not meta["conventions"]:
            del meta["conventions"]  # (none of its own: the reports state the general ones)
        check_paper_latex(key, meta, str(meta_file) if meta_file.exists() else "")
        if key in self.papers and self.papers[key].folder != folder:
            raise CbdpError(f"paper folder {folder}: the key {key!r} is taken by {self.papers[key].folder}")
        paper = Paper(key, meta, folder)
        cat = folder / "catalogue.tsv"
        if cat.exists():
            for line in cat.read_text(encoding="utf-8", errors="replace").splitlines():
                if line and not line.startswith("#"):
                    cid, _, label = line.partition("\t")
                    paper.catalogue.append((cid.strip(), label.strip()))
        _package(f"cbdp_sym_derivations.{tag}", root)
        _package(f"cbdp_sym_derivations.{tag}.{folder.name}", folder)
        taken = {c.id: p.key for p in self.papers.values() for c in p.claims}
        seen_figures = {id(f) for f in paper.figures}
        same_id: dict = {}  # claim ID -> this paper's claims with it (a claim equals another only if their IDs do)
        for mod_path in sorted(folder.glob("*.py")):
            if mod_path.name.startswith("_"):
                continue
            mod = _import(mod_path, f"cbdp_sym_derivations.{tag}.{folder.name}.{mod_path.stem}", seconds)
            for obj in vars(mod).values():
                if isinstance(obj, Figure) and id(obj) not in seen_figures:  # (figures compare by identity)
                    check_figure_latex(obj, f"{folder.name}/{mod_path.name}")
                    paper.figures.append(obj)
                    seen_figures.add(id(obj))
                if isinstance(obj, Claim) and not _among(obj, paper.claims, same_id):
                    obj.source = f"{folder.name}/{mod_path.name}"
                    obj.paper = obj.paper or key  # `paper` and `seed` default from the folder
                    obj.seed = obj.seed or meta.get("seed", "")
                    if not isinstance(obj.id, str) or not CLAIM_ID.match(obj.id):
                        raise CbdpError(f"{obj.source}: the claim ID {str(obj.id)[:40]!r} is not an ID (a letter or "
                                        "digit, then at most 99 letters, digits and . _ : + -)")
                    for fig in obj.figures or ():
                        check_figure_latex(fig, obj.source)
                    check_claim_latex(obj)  # a statement may not open files or end the report
                    if obj.id in taken and taken[obj.id] != key:
                        raise CbdpError(f"claim {obj.id} ({obj.source}) is defined twice: paper {taken[obj.id]} has it too")
                    dup = next((c for c in paper.claims if c.id == obj.id), None)
                    if dup is not None:
                        raise CbdpError(f"claim {obj.id} is defined twice ({dup.source} and {obj.source})")
                    paper.claims.append(obj)
                    same_id.setdefault(obj.id, []).append(obj)
        if key in self.papers:  # (the same folder twice: --path given twice)
            return
        self.papers[key] = paper

    def claims(self) -> list[Claim]:
        """Every encoded claim, papers in order, claims in catalogue order (then by ID)."""
        out = []
        for paper in self.papers.values():
            order = {cid: i for i, (cid, _) in enumerate(paper.catalogue)}

            def key(c, order=order):
                base = c.id.split("-")
                # a part (CBDP-EQ1-KL) sorts right after its parent ID
                for n in range(len(base), 0, -1):
                    cand = "-".join(base[:n])
                    if cand in order:
                        return (order[cand], c.id)
                return (len(order), c.id)

            out.extend(sorted(paper.claims, key=key))
        return out

    def get(self, cid: str) -> Claim:
        """The claim with ID ``cid``, matched case-insensitively (``cbdp-t9`` is ``CBDP-T9``).

        An unknown ID raises :class:`UnknownClaimError` with the closest IDs ("did you mean ...?").
        """
        claims = self.claims()
        for c in claims:
            if c.id == cid:
                return c
        folded = str(cid).strip().casefold()
        for c in claims:
            if c.id.casefold() == folded:
                return c
        for paper in self.papers.values():
            for cat_id, label in paper.catalogue:
                if cat_id.casefold() == folded:
                    raise UnknownClaimError(f"{cat_id} ({label}) is catalogued but not encoded yet")
        broken = ""
        if self.broken:
            broken = (f"; {len(self.broken)} paper folder{'s' if len(self.broken) > 1 else ''} could not be loaded ("
                      + "; ".join(f"{Path(f).name}: {why}" for f, why in sorted(self.broken.items()))[:300] + ")")
        raise UnknownClaimError(f"unknown claim ID {cid!r}{self._suggest(folded, claims)} (see `cbdp-sym list`; "
                                "a claim in a folder of your own needs `--path DIR`)" + broken)

    def _suggest(self, folded: str, claims) -> str:
        import difflib

        ids = {c.id.casefold(): c.id for c in claims}
        close = difflib.get_close_matches(folded, list(ids), n=3, cutoff=0.6)
        return f"; did you mean {', '.join(ids[k] for k in close)}?" if close else ""

    def coverage(self) -> dict:
        out = {}
        for key, paper in self.papers.items():
            cat = {cid for cid, _ in paper.catalogue}
            enc = {c.id for c in paper.claims}
            out[key] = (len(cat & enc), len(cat), sorted(enc - cat))
        return out

    def paper_of(self, claim: Claim) -> Paper:
        return self.papers[claim.paper]
