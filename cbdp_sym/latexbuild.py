"""Compiling a report to PDF safely, and refusing LaTeX that reaches outside the document.

* :func:`build_pdf` runs ``latexmk -norc -no-shell-escape`` in a private temporary folder (the
  ``.tex`` and what it inputs are copied in; no ``latexmkrc`` of the output folder, the user or the
  system is read), with ``openin_any=p`` / ``openout_any=p`` (TeX reads and writes only below the build
  folder), standard input closed, and a time limit that kills the whole process group.  The PDF is
  moved into place with an atomic rename only when the run succeeded, so an interrupted or failed
  run leaves the previous PDF intact and two runs into one folder never see each other's files.
* :func:`check_claim_latex` refuses the LaTeX of a claim (its statement and notes, taken from a user's
  paper) that opens files or changes TeX's reading (``\\input``, ``\\write``, ``\\catcode``,
  ``\\end{document}``, ...), with a message naming the claim.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from .errors import CbdpError

DEFAULT_TIMEOUT = 300.0

_OVERFULL = re.compile(r"Overfull \\hbox \(([\d.]+)pt too wide\)")

# control sequences that read or write files, run programs, re-tokenise text or build control-sequence
# names (which would let the others through); matched as whole control words
_FORBIDDEN_WORDS = (
    "input", "include", "includeonly", "InputIfFileExists", "IfFileExists", "openin", "openout", "read",
    "readline", "write", "immediate", "closein", "closeout", "newread", "newwrite", "catcode", "lccode",
    "uccode", "endinput", "directlua", "latelua", "luaexec", "luadirect", "special", "pdfobj", "pdffiledump",
    "pdffilesize", "pdffilemoddate", "pdfmdfivesum", "csname", "endcsname", "scantokens", "everyeof",
    "documentclass", "usepackage", "RequirePackage", "LoadClass", "includegraphics", "verbatiminput",
    "lstinputlisting", "inputminted", "ShellEscape", "shellescape", "write18", "def", "gdef", "edef", "xdef",
    "let", "futurelet", "newcommand", "renewcommand", "providecommand", "DeclareRobustCommand", "shipout",
    "output", "everypar", "everymath", "everydisplay", "everyjob", "outer", "jobname", "dump", "batchmode",
    "nonstopmode", "scrollmode", "errorstopmode", "afterassignment", "aftergroup", "lowercase", "uppercase",
    "expandafter", "noexpand", "pdfprimitive", "primitive", "url", "href",
)
_WORD = re.compile(r"\\([A-Za-z@]+)")
_DOCUMENT_ENV = re.compile(r"\\(begin|end)\s*\{\s*document\s*\}")
_FIELDS = ("statement", "quantity", "corrected_statement", "notes", "label", "where", "seed")


def latex_problem(text: str) -> str | None:
    """Why ``text`` may not go into a report (``None`` if it may).

    >>> latex_problem(r"D_\\alpha(P \\| Q) \\le \\frac{\\alpha}{2}")
    >>> latex_problem(r"x \\input{/etc/passwd}")
    '\\\\input (file access)'
    >>> latex_problem(r"done \\end{document}")
    '\\\\end{document} (would end the report)'
    """
    if not isinstance(text, str):
        return None
    m = _DOCUMENT_ENV.search(text)
    if m:
        return f"\\{m.group(1)}{{document}} (would {'end' if m.group(1) == 'end' else 'restart'} the report)"
    if "^^" in text:
        return "^^ character codes (they can spell a forbidden command)"
    for m in _WORD.finditer(text):
        if m.group(1) in _FORBIDDEN_WORDS:
            return f"\\{m.group(1)} (file access)" if m.group(1) in ("input", "include", "openin", "openout", "read",
                                                                    "readline", "write", "includegraphics") \
                else f"\\{m.group(1)} (not allowed in a statement)"
    return None


def check_claim_latex(claim) -> None:
    """Raise :class:`CbdpError` naming the claim and the field if any of its LaTeX is refused."""
    texts = [(name, getattr(claim, name, "")) for name in _FIELDS]
    texts += [("conventions", c) for c in getattr(claim, "conventions", ()) or ()]
    for name, text in texts:
        why = latex_problem(text)
        if why:
            where = f" ({claim.source})" if getattr(claim, "source", "") else ""
            raise CbdpError(f"claim {claim.id}{where}: its {name} uses {why}; such LaTeX is refused in reports")


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

        from .timelimit import die_with_parent

        die_with_parent()  # latexmk dies with the audit
        soft = max(1, int(cpu_seconds) + 1)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))  # inherited by each pdflatex run

    return setup


def _run(cmd, cwd, env, timeout):
    """Run ``cmd`` in its own process group; at the limit the whole group is killed.
    Returns ``(returncode or None at the timeout, output)``."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_limits(timeout))
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, ""
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # pdflatex and anything else left in the group
        proc.wait()


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
    tex_path = Path(tex_path)
    timeout = DEFAULT_TIMEOUT if timeout is None else timeout
    env = _tex_env(epoch)
    with tempfile.TemporaryDirectory(prefix="cbdp-sym-latex-") as tmp:
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
        fd, part = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
        os.close(fd)
        try:
            shutil.copyfile(pdf, part)
            with open(part, "rb+") as fh:
                os.fsync(fh.fileno())
            os.replace(part, dest)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(part)
            raise
        return True, over, tail
