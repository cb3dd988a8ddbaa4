"""Running audits: many claims, in parallel, with progress, and writing the reports."""
from __future__ import annotations

import multiprocessing as mproc
import os
import sys
from pathlib import Path

from .verify import audit_claim

_WORK: dict = {}


def _worker(i):
    claim = _WORK["claims"][i]
    res = audit_claim(claim, _WORK["dps"])
    res.claim = None  # not picklable (closures); the parent re-attaches it
    if res.corrected is not None:
        res.corrected.claim = None
    return i, res


def run(claims, dps=50, jobs=None, progress=None):
    """Audit ``claims`` (on ``jobs`` processes) and return their results in the given order."""
    jobs = jobs or os.cpu_count() or 1
    figures = []
    for c in claims:
        for f in c.figures:
            if f not in figures:
                figures.append(f)
    if figures:
        from .figures import precompute

        precompute(figures, jobs, (getattr(progress, "figures", None) or figure_progress()) if progress else None)
    results = [None] * len(claims)
    done = 0

    def report(i, res):
        nonlocal done
        done += 1
        res.claim = claims[i]
        if res.corrected is not None and res.corrected.claim is None:
            import dataclasses

            c = claims[i]
            res.corrected.claim = dataclasses.replace(c, claimed=c.corrected, corrected=None,
                                                      statement=c.corrected_statement or c.statement)
        results[i] = res
        if progress:
            progress(done, len(claims), res)

    if jobs > 1 and len(claims) > 1 and "fork" in mproc.get_all_start_methods():
        _WORK.update(claims=claims, dps=dps)
        ctx = mproc.get_context("fork")
        # heavy claims first keeps both cores busy; results are re-ordered afterwards
        with ctx.Pool(min(jobs, len(claims))) as pool:
            for i, res in pool.imap_unordered(_worker, range(len(claims))):
                report(i, res)
        _WORK.clear()
    else:
        for i, c in enumerate(claims):
            report(i, audit_claim(c, dps))
    return results


def figure_progress(stream=None):
    stream = stream or sys.stderr
    state = {"last": None}

    def show(done, total, fig, key, x):
        # one line per figure and curve, and the last point
        tag = (fig.id, key)
        if tag != state["last"] or done == total:
            print(f"[figures {done:>4}/{total}] {fig.id} {key} at x={x}", file=stream, flush=True)
            state["last"] = tag

    return show


def terminal_progress(stream=None):
    stream = stream or sys.stderr

    def show(done, total, res):
        d = res.min_digits()
        extra = f"{d:g} digits" if d is not None and res.claim.kind not in ("upper", "lower", "strict-upper") else ""
        print(f"[{done:>3}/{total}] {res.claim.id:<24} {res.status:<12} {extra:<12} ({res.seconds:.1f} s)",
              file=stream, flush=True)

    return show


def tty_progress(stream=None):
    """Progress bars with the time left (tqdm) for a terminal: one for the figures' points, one for the
    claims; a claim that is not verified / holds is printed above the bar.  ``terminal_progress`` gives
    plain lines instead (for logs and pipes)."""
    from tqdm import tqdm

    stream = stream or sys.stderr
    bars = {}

    def bar(name, total, unit):
        b = bars.get(name)
        if b is None:
            b = bars[name] = tqdm(total=total, file=stream, unit=unit, desc=name, dynamic_ncols=True, leave=True,
                                  bar_format="{desc} {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                                             "[{elapsed}<{remaining}]{postfix}")
        return b

    def show(done, total, res):
        b = bar("claims", total, "claim")
        b.set_postfix_str(f"{res.claim.id} {res.status}", refresh=False)
        b.update(done - b.n)
        if res.status not in ("verified", "holds", "definition", "cited"):
            b.write(f"{res.claim.id:<24} {res.status:<12} {res.message[:100]}", file=stream)
        if done >= total:
            b.close()

    def figures(done, total, fig, key, x):
        b = bar("figures", total, "point")
        b.set_postfix_str(f"{fig.id} {key}", refresh=False)
        b.update(done - b.n)
        if done >= total:
            b.close()

    show.figures = lambda: figures
    return show


def summary_table(results) -> str:
    rows = [("claim", "label", "verdict", "digits")]
    for r in results:
        d = r.min_digits()
        bound = r.claim.kind in ("upper", "lower", "strict-upper")
        rows.append((r.claim.id, r.claim.label[:52], r.status, "--" if d is None or bound else f"{d:g}"))
    widths = [max(len(row[k]) for row in rows) for k in range(4)]
    lines = []
    for j, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def write_reports(registry, results, dps, out: Path, json_path: Path | None, pdf=True, log=print, suffix=""):
    """Write ``audit.json`` and, per paper, the appendix (standalone, fragment, PDF).

    ``suffix`` goes into the appendices' names (``appendix-cbdp-subset.tex`` for ``"-subset"``).
    """
    from .findings import paper_findings
    from .report import audit_json, commit_epoch, compile_pdf, latexmk_available, render

    out.mkdir(parents=True, exist_ok=True)
    json_path = json_path or out / "audit.json"
    json_path.parent.mkdir(parents=True, exist_ok=True)
    findings = {key: paper_findings(key, paper.meta, [r for r in results if r.claim.paper == key])
                for key, paper in registry.papers.items()}
    json_path.write_text(audit_json(results, dps, [f for fs in findings.values() for f in fs]), encoding="utf-8")
    written = [json_path]
    problems = []
    cov = registry.coverage()
    for key, paper in registry.papers.items():
        mine = [r for r in results if r.claim.paper == key]
        if not mine:
            continue
        body_name = f"appendix-{key}{suffix}-body"
        standalone, body = render(paper, mine, dps, cov[key][:2], body_name, findings[key])
        from .report import figures_of

        for fig in figures_of(mine):
            csv = out / "figures" / f"{fig.id}.csv"
            csv.parent.mkdir(parents=True, exist_ok=True)
            csv.write_text(fig.csv(), encoding="utf-8")
            written.append(csv)
        (out / f"{body_name}.tex").write_text(body, encoding="utf-8")
        tex = out / f"appendix-{key}{suffix}.tex"
        tex.write_text(standalone, encoding="utf-8")
        written += [tex, out / f"{body_name}.tex"]
        if pdf:
            if not latexmk_available():
                problems.append("latexmk/pdflatex not found: PDF not compiled (install texlive and latexmk, or use --no-pdf)")
                continue
            ok, over, tail = compile_pdf(tex, commit_epoch())
            if not ok:
                problems.append(f"LaTeX failed for {tex.name}:\n{tail}")
            else:
                written.append(tex.with_suffix(".pdf"))
            if over:
                problems.append(f"{tex.name}: {len(over)} overfull boxes wider than 1pt (max {max(over):.1f}pt)")
    return written, problems
