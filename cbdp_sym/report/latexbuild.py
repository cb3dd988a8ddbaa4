"""Compiling a report to PDF safely, and refusing LaTeX that reaches outside the document.

* :func:`build_pdf` runs ``latexmk -norc -no-shell-escape`` in a private temporary folder (the
  ``.tex`` and what it inputs are copied in; no ``latexmkrc`` of the output folder, the user or the
  system is read), with ``openin_any=p`` / ``openout_any=p`` (TeX reads and writes only below the build
  folder), standard input closed, and a time limit that kills the whole process group.  The PDF is
  moved into place with an atomic rename only when the run succeeded, so an interrupted or failed
  run leaves the previous PDF intact and two runs into one folder never see each other's files; a ``SIGTERM``
  stops the builds and removes their temporary folders (:func:`cleanup_on_sigterm`).
* :func:`check_claim_latex` (and :func:`check_figure_latex`, :func:`check_paper_latex`) let the LaTeX of a user's
  paper into a report by allow-list (:mod:`cbdp_sym.report.usertex`: known math and text macros, a few
  environments, balanced groups): anything else (``\\input``, ``\\loop``, ``\\pdfcatalog``, ``\\end{document}``)
  is refused with a message naming the claim and the field.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path

from cbdp_sym.core.errors import CbdpError
from cbdp_sym.core.timelimit import die_with_parent
from cbdp_sym.report import usertex
from cbdp_sym.report.outputs import file_mode, refuse_unless_regular

DEFAULT_TIMEOUT = 300.0

_OVERFULL = re.compile(r"Overfull \\hbox \(([\d.]+)pt too wide\)")

_FIELDS = ("statement", "quantity", "corrected_statement")  # LaTeX (mathematics) as written
_PROSE_FIELDS = ("label", "notes", "where", "seed")  # prose: $...$ is mathematics, the rest is escaped


def latex_problem(text, prose: bool = False) -> str | None:
    """Why ``text`` may not go into a report (``None`` if it may): user LaTeX is let in by allow-list
    (:func:`cbdp_sym.report.usertex.problem`, where the list of allowed macros and environments lives).

    >>> latex_problem(r"D_\\alpha(P \\| Q) \\le \\frac{\\alpha}{2}")
    >>> latex_problem(r"x \\input{/etc/passwd}")
    '\\\\input is not an allowed macro'
    """
    return usertex.problem(text, prose)


def _refuse(owner: str, name: str, why: str):
    raise CbdpError(f"{owner}: its {name} uses {why}; such LaTeX is refused in reports (allowed: the math and text "
                    "macros of cbdp_sym.report.usertex)")


def check_claim_latex(claim) -> None:
    """Raise :class:`CbdpError` naming the claim and the field if any of its LaTeX is refused."""
    where = f" ({claim.source})" if getattr(claim, "source", "") else ""
    owner = f"claim {claim.id}{where}"
    texts = [(name, getattr(claim, name, ""), False) for name in _FIELDS]
    texts += [(name, getattr(claim, name, ""), True) for name in _PROSE_FIELDS]
    texts += [("conventions", c, True) for c in getattr(claim, "conventions", ()) or ()]
    for rd in getattr(claim, "readings", ()) or ():
        texts += [(f"reading's {n}", getattr(rd, n, ""), False) for n in ("name", "statement", "seeds")]
    for name, text, prose in texts:
        why = latex_problem(text, prose)
        if why:
            _refuse(owner, name, why)


def check_figure_latex(fig, source: str = "") -> None:
    """The same for a figure: its titles, labels, caption and pgfplots options (raw LaTeX in the report)."""
    owner = f"figure {fig.id}" + (f" ({source})" if source else "")
    texts = [(n, getattr(fig, n, "")) for n in ("title", "caption", "xlabel", "ylabel", "where", "axis", "extra_tex")]
    texts += [(f"panel {k!r}", v) for k, v in (getattr(fig, "panels", None) or {}).items()]
    for c in getattr(fig, "curves", ()) or ():
        texts += [(f"curve {getattr(c, 'key', '')}'s {n}", getattr(c, n, "")) for n in ("label", "style")]
    for name, value in texts:
        for text in _strings(value) if not isinstance(value, str) else [value]:
            why = latex_problem(text)
            if why:
                _refuse(owner, name, why)


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


def check_paper_latex(key: str, meta: dict, source: str = "") -> None:
    """The same for a paper's metadata (``PAPER`` of ``_paper.py``): every string in it is LaTeX of a report
    (titles, conventions, tables, findings, the BibTeX entry); a label-like field is checked as prose."""
    owner = f"paper {key}" + (f" ({source})" if source else "")
    for name, value in (meta or {}).items():
        for text in _strings(value):
            why = latex_problem(text, prose=name in ("conventions",))
            if why:
                _refuse(owner, f"PAPER[{name!r}]", why)


def latexmk_available() -> bool:
    return shutil.which("latexmk") is not None and shutil.which("pdflatex") is not None


def _tex_env(epoch: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXMF", "TEXINPUTS", "LATEXMK"))}
    env.update(SOURCE_DATE_EPOCH=epoch or os.environ.get("SOURCE_DATE_EPOCH") or "0", FORCE_SOURCE_DATE="1",
               openin_any="p", openout_any="p", shell_escape="f")
    return env


def _limits(cpu_seconds):
    def setup():  # in the child, before latexmk starts
        import resource

        die_with_parent()  # latexmk dies with the audit
        soft = max(1, int(cpu_seconds) + 1)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))  # inherited by each pdflatex run

    return setup


# the builds running in this process: their temporary folders and latexmk's process groups (abort_builds)
_ACTIVE: dict = {"dirs": set(), "groups": set()}
_ACTIVE_LOCK = threading.Lock()


def abort_builds() -> None:
    """Stop every LaTeX build of this process: kill latexmk's process groups and remove the temporary folders
    (what a ``SIGTERM`` would otherwise leave behind).  The builds then return a failure; nothing is moved into
    place."""
    with _ACTIVE_LOCK:
        groups, dirs = list(_ACTIVE["groups"]), list(_ACTIVE["dirs"])
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            os.killpg(pgid, signal.SIGKILL)
    for d in dirs:
        shutil.rmtree(d, ignore_errors=True)


def _on_sigterm(signum, frame):
    abort_builds()
    raise SystemExit(128 + signum)


def _default_sigterm_in_child():
    """In a forked child (a figure or claim worker, a command's child process): ``SIGTERM`` back to its default
    action, and no builds of the parent's to stop.  The handler belongs to the process that runs the builds; a
    worker that inherited it turned the pool's ``SIGTERM`` into a ``SystemExit`` that the code it was running could
    catch, and the audit waited for that worker for ever."""
    if signal.getsignal(signal.SIGTERM) is _on_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    global _ACTIVE_LOCK
    _ACTIVE_LOCK = threading.Lock()  # (another thread may have held it at the fork)
    _ACTIVE["groups"] = set()
    _ACTIVE["dirs"] = set()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_default_sigterm_in_child)


@contextlib.contextmanager
def cleanup_on_sigterm():
    """While the block runs (in the main thread, where ``SIGTERM`` keeps its default action): a ``SIGTERM`` stops
    the LaTeX builds, removes their temporary folders (:func:`abort_builds`) and exits with status 143.  The CLI
    holds it for a whole command; :func:`build_pdf` for one build when nobody does."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(cmd, cwd, env, timeout):
    """Run ``cmd`` in its own process group; at the limit the whole group is killed.
    Returns ``(returncode or None at the timeout, output)``."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_limits(timeout))
    with _ACTIVE_LOCK:
        _ACTIVE["groups"].add(proc.pid)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, ""
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # pdflatex and anything else left in the group
        proc.wait()
        with _ACTIVE_LOCK:
            _ACTIVE["groups"].discard(proc.pid)


@contextlib.contextmanager
def _active_dir(path):
    with _ACTIVE_LOCK:
        _ACTIVE["dirs"].add(str(path))
    try:
        yield
    finally:
        with _ACTIVE_LOCK:
            _ACTIVE["dirs"].discard(str(path))


_SOURCE_SUFFIXES = (".tex", ".sty", ".bib", ".bst", ".cls", ".csv")


def inputs_of(tex_path: Path) -> list[Path]:
    """The files a report's ``.tex`` may read beside it: the LaTeX sources, style and bibliography files
    and data of its folder (``*.tex``, ``*.sty``, ``*.bib``, ``*.bst``, ``*.cls``, ``*.csv``; never a
    ``latexmkrc``), the ``figures/`` sub-folder being copied separately."""
    return sorted(p for p in tex_path.parent.iterdir()
                  if p.is_file() and p.suffix in _SOURCE_SUFFIXES and p != tex_path and not p.name.startswith("."))


def build_pdf(tex_path: Path, epoch: str | None = None, timeout: float | None = None,
              extra_inputs=None) -> tuple[bool, list[float], str]:
    """Compile ``tex_path`` to ``tex_path.with_suffix('.pdf')``; returns ``(ok, overfull widths over 1pt,
    log tail)``.  Nothing is written next to ``tex_path`` except the finished PDF (atomic rename)."""
    with cleanup_on_sigterm():
        return _build_pdf(Path(tex_path), epoch, timeout, extra_inputs)


def _build_pdf(tex_path: Path, epoch, timeout, extra_inputs):
    timeout = DEFAULT_TIMEOUT if timeout is None else timeout
    env = _tex_env(epoch)
    with tempfile.TemporaryDirectory(prefix="cbdp-sym-latex-", ignore_cleanup_errors=True) as tmp, _active_dir(tmp):
        build = Path(tmp)
        for f in [tex_path, *(extra_inputs if extra_inputs is not None else inputs_of(tex_path))]:
            shutil.copyfile(f, build / f.name)
        fig = tex_path.parent / "figures"
        if fig.is_dir():
            (build / "figures").mkdir()
            for f in sorted(fig.glob("*.csv")):
                shutil.copyfile(f, build / "figures" / f.name)
        cmd = ["latexmk", "-norc", "-pdf", "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error",
               "-file-line-error", tex_path.name]
        code, output = _run(cmd, build, env, timeout)
        log_path = build / tex_path.with_suffix(".log").name
        log = log_path.read_text(errors="replace") if log_path.exists() else output
        over = [float(w) for w in _OVERFULL.findall(log) if float(w) > 1.0]
        if code is None:
            return False, over, f"LaTeX stopped after {timeout:g} s (time limit); the previous PDF is kept"
        pdf = build / tex_path.with_suffix(".pdf").name
        tail = "\n".join(log.splitlines()[-15:])
        if code != 0 or not pdf.is_file():
            return False, over, tail
        dest = tex_path.with_suffix(".pdf")
        refuse_unless_regular(dest, "cannot write")
        fd, part = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
        os.close(fd)
        try:
            shutil.copyfile(pdf, part)
            with open(part, "rb+") as fh:
                os.fchmod(fh.fileno(), file_mode())  # (mkstemp's 0600: the PDF gets the umask's permissions)
                os.fsync(fh.fileno())
            refuse_unless_regular(dest, "cannot write")
            os.replace(part, dest)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(part)
            raise
        return True, over, tail


# -- rebuilding only what changed ----------------------------------------------------------------------------
_NAMES = re.compile(r"\\(input|include|usepackage|RequirePackage|bibliography|addbibresource)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}")
_FILES_MENTIONED = re.compile(r"[A-Za-z0-9_./-]+\.(?:csv|dat|bib|sty|tex)\b")
_STAMP_FORMAT = 1


def source_digest(tex_path: Path, epoch: str | None = None) -> str:
    """SHA-256 of what a PDF is built from: the ``.tex``, the files of its folder it reads (``\\input`` bodies,
    local ``\\usepackage`` styles such as ``cbdpsym.sty``, bibliographies, data files it names, recursively),
    the source date and the build command."""
    tex_path = Path(tex_path).resolve()
    folder = tex_path.parent
    h = hashlib.sha256(json.dumps([_STAMP_FORMAT, epoch or os.environ.get("SOURCE_DATE_EPOCH") or "0",
                                   "latexmk -norc -pdf -no-shell-escape"]).encode())
    seen, todo = set(), [tex_path]
    while todo:
        p = todo.pop(0)
        if p in seen:
            continue
        seen.add(p)
        data = p.read_bytes()
        h.update(b"\0" + p.relative_to(folder).as_posix().encode() + b"\0" + hashlib.sha256(data).digest())
        if p.suffix not in (".tex", ".sty"):
            continue
        text = data.decode("utf-8", errors="replace")
        cands = []
        for cmd, arg in _NAMES.findall(text):
            ext = {"input": ".tex", "include": ".tex", "usepackage": ".sty", "RequirePackage": ".sty",
                   "bibliography": ".bib"}.get(cmd, "")
            for name in arg.split(","):
                name = name.strip()
                if name:
                    cands += [name, name + ext]
        cands += _FILES_MENTIONED.findall(text)
        for name in sorted(set(cands)):
            q = (folder / name).resolve()
            if folder in q.parents and q.is_file() and q not in seen:
                todo.append(q)
    return h.hexdigest()


def _stamp_path(pdf: Path) -> Path:
    return pdf.with_name(f".{pdf.name}.sources.json")


def _file_sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def up_to_date(tex_path: Path, epoch: str | None = None):
    """The overfull widths of the last build if ``tex_path``'s PDF exists, is the one that build wrote, and
    was built from the same sources (:func:`source_digest`); else ``None`` (it must be built)."""
    tex_path = Path(tex_path)
    pdf = tex_path.with_suffix(".pdf")
    try:
        stamp = json.loads(_stamp_path(pdf).read_text(encoding="utf-8"))
        if (stamp.get("format") != _STAMP_FORMAT or stamp.get("sources") != source_digest(tex_path, epoch)
                or stamp.get("pdf") != _file_sha(pdf)):
            return None
        over = stamp.get("overfull")
        if not isinstance(over, list) or not all(isinstance(w, (int, float)) for w in over):
            return None
        return [float(w) for w in over]
    except (OSError, ValueError, AttributeError):
        return None


def build_pdf_if_changed(tex_path: Path, epoch: str | None = None, timeout: float | None = None):
    """:func:`build_pdf` unless the PDF is up to date (:func:`up_to_date`); returns ``(ok, overfull widths,
    log tail, rebuilt)``.  After a successful build, a stamp ``.<name>.pdf.sources.json`` beside the PDF records
    the sources' digest, the PDF's SHA-256 and the overfull boxes (so a skipped build reports the same)."""
    tex_path = Path(tex_path)
    over = up_to_date(tex_path, epoch)
    if over is not None:
        return True, over, "", False
    digest = source_digest(tex_path, epoch)
    ok, over, tail = build_pdf(tex_path, epoch, timeout)
    stamp = _stamp_path(tex_path.with_suffix(".pdf"))
    if ok:
        doc = {"format": _STAMP_FORMAT, "sources": digest, "pdf": _file_sha(tex_path.with_suffix(".pdf")),
               "overfull": over}
        refuse_unless_regular(stamp, "cannot write")
        fd, part = tempfile.mkstemp(prefix=stamp.name + ".", suffix=".part", dir=stamp.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            os.fchmod(fh.fileno(), file_mode())
            json.dump(doc, fh, sort_keys=True)
        os.replace(part, stamp)
    else:
        with contextlib.suppress(OSError):
            stamp.unlink()
    return ok, over, tail, True
