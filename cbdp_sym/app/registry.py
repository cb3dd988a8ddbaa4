"""Discovery of derivations, the way pytest discovers tests.

A *derivation root* is a folder with one sub-folder per paper.  A paper folder holds ``_paper.py``
(metadata: ``PAPER = {...}``), optionally ``catalogue.tsv`` (every catalogued claim ID, for coverage)
and any number of ``*.py`` modules (not starting with ``_``) whose module-level :class:`Claim`
objects are the paper's claims.  Modules are imported under unique names
(``cbdp_sym_derivations.<root hash>.<paper>.<module>``), so two papers may both have a ``t9.py``.

The built-in root ships inside the package (``cbdp_sym/derivations`` after ``pip install``, the
repository's ``derivations/`` in a checkout); users add roots with ``--path DIR``.
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cbdp_sym.verify.claims import Claim
from cbdp_sym.verify.figures import Figure
from cbdp_sym.report.latexbuild import check_claim_latex
from cbdp_sym.core.errors import CbdpError, UnknownClaimError


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


def _import(path: Path, name: str):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except CbdpError:
        del sys.modules[name]
        raise
    except Exception as exc:  # a broken module of a user's folder: one line naming the file
        del sys.modules[name]
        line = ""
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == str(path):
                line = f", line {tb.tb_lineno}"
            tb = tb.tb_next
        if isinstance(exc, SyntaxError) and exc.lineno:
            line = f", line {exc.lineno}"
        msg = str(exc).splitlines()[0] if str(exc) else ""
        raise CbdpError(f"cannot load {path}{line}: {type(exc).__name__}" + (f": {msg}" if msg else "")) from None
    return mod


class Registry:
    """All papers and claims under the given roots (built-in first)."""

    def __init__(self, extra_roots=(), builtin=True, only=None):
        """``only``: load just these paper folders (``{(root, folder name)}``, roots resolved), as ``eval ID`` does
        for the paper of its claim (:mod:`cbdp_sym.app.claimindex`); ``None`` loads every paper of every root."""
        self.papers: dict[str, Paper] = {}
        self._only = only
        roots = ([builtin_root()] if builtin else []) + [Path(r) for r in extra_roots]
        for root in roots:
            if not root.is_dir():
                raise CbdpError(f"--path {root}: not a folder")
            if (root / "_paper.py").exists():
                raise CbdpError(f"--path {root} is a paper folder (it holds _paper.py): pass the folder that contains "
                                f"it, --path {root.parent}")
            self._load_root(root.resolve())

    def _load_root(self, root: Path):
        tag = "r" + hashlib.sha1(str(root).encode()).hexdigest()[:8]
        for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
            if self._only is not None and (root, folder.name) not in self._only:
                continue
            meta_file = folder / "_paper.py"
            if meta_file.exists():
                meta = getattr(_import(meta_file, f"cbdp_sym_derivations.{tag}.{folder.name}._paper"), "PAPER", {})
            else:
                meta = {"key": folder.name, "title": folder.name}
            key = meta.get("key", folder.name)
            paper = self.papers.setdefault(key, Paper(key, meta, folder))
            cat = folder / "catalogue.tsv"
            if cat.exists():
                for line in cat.read_text(encoding="utf-8").splitlines():
                    if line and not line.startswith("#"):
                        cid, _, label = line.partition("\t")
                        paper.catalogue.append((cid.strip(), label.strip()))
            _package(f"cbdp_sym_derivations.{tag}", root)
            _package(f"cbdp_sym_derivations.{tag}.{folder.name}", folder)
            for mod_path in sorted(folder.glob("*.py")):
                if mod_path.name.startswith("_"):
                    continue
                mod = _import(mod_path, f"cbdp_sym_derivations.{tag}.{folder.name}.{mod_path.stem}")
                for obj in vars(mod).values():
                    if isinstance(obj, Figure) and obj not in paper.figures:
                        paper.figures.append(obj)
                    if isinstance(obj, Claim) and obj not in paper.claims:
                        obj.source = f"{folder.name}/{mod_path.name}"
                        obj.paper = obj.paper or key  # `paper` and `seed` default from the folder
                        obj.seed = obj.seed or meta.get("seed", "")
                        check_claim_latex(obj)  # a statement may not open files or end the report
                        paper.claims.append(obj)
        ids = {}
        for paper in self.papers.values():
            for c in paper.claims:
                if c.id in ids and ids[c.id] is not c:
                    raise CbdpError(f"claim {c.id} is defined twice")
                ids[c.id] = c

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
        raise UnknownClaimError(f"unknown claim ID {cid!r}{self._suggest(folded, claims)} (see `cbdp-sym list`; "
                                "a claim in a folder of your own needs `--path DIR`)")

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
