"""Running audits: many claims, in parallel, with progress, and writing the reports."""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import mpmath as mp

import cbdp_sym.app.workers as workers
from cbdp_sym.app.executor import make_executor, precompute
from cbdp_sym.core.numbers import Estimate
from cbdp_sym.core.verdict import BOUND_KINDS
from cbdp_sym.verify.engine import Result, audit_claim
from cbdp_sym.verify.figures import load_cached
from cbdp_sym.verify.coverage import coverage, coverage_text
from cbdp_sym.verify.findings import knock_on, paper_findings
from cbdp_sym.report.outputs import check_json_path, check_out_dir, write_atomic
from cbdp_sym.report.latexbuild import build_pdf_if_changed
from cbdp_sym.report.text import plain
from cbdp_sym.report.latex import (
    _figure_view, audit_json, bib_entry, commit_epoch, figures_of, latexmk_available, provenance, render_appendix,
    render_supplement, renderable, split_figures)
import cbdp_sym.app.resultcache as resultcache
import cbdp_sym.core.store as store
import cbdp_sym.core.deps as deps


def _audit_detached(claim_dps):
    """Audit in a worker; the claim (closures, not picklable) is re-attached by the parent.  An item
    ``("point", claim, point, dps)`` computes one numeric instance of a split claim instead (:func:`split_points`)."""
    if isinstance(claim_dps[0], str):
        _, claim, pt, dps = claim_dps
        return _numeric_point(claim, pt, dps)
    claim, dps = claim_dps
    if claim.id in _PREFETCHED:
        claim = dataclasses.replace(claim, numeric=_Prefetched(claim.numeric, _PREFETCHED[claim.id]))
    res = audit_claim(claim, dps)
    _detach(res)
    return res


def _detach(res):
    """``res`` without its claim objects, and those of its nested audits (the corrected statement, the audit against
    the corrected statements the claim uses): copies of the claim, closures too."""
    res.claim = None
    for k in (res.corrected, getattr(res, "against_corrected", None)):
        if k is not None:
            _detach(k)


# -- claims split into parallel items: their numeric instances first, then the claim ---------------------------------
SPLIT_COST = 10.0  # claims of at least this cost (Claim.cost: about their cold seconds on one core) are split
_PREFETCHED: dict = {}  # claim ID -> {(point, precision): value}, in the parent; the claim's worker inherits it


def split_points(claims, dps=50, jobs=1) -> list:
    """``[(claim index, point)]``: the numeric instances of the identity and bound claims (with a ``numeric``
    definition) that would bound the audit's wall time, each a parallel item of its own that runs before the claim:
    those whose ``Claim.cost`` is at least :data:`SPLIT_COST` and at least the batch's total cost over ``jobs`` (a
    claim longer than a worker's share of the batch is on the critical path; a shorter one is not, and splitting it
    would only add work: each item is a fresh worker that sets up what the claim's worker set up once, about 25 % more
    CPU for the Theorem 13 family).

    The value of ``claim.numeric`` at a point depends on the point and the precision only (a claim's instances are
    independent), so the claim's worker reads the value its item computed (:class:`_Prefetched`) instead of computing
    it: the longest claims no longer bound the audit's wall time by their instances' sum.  Each item runs in a fresh
    worker forked from the audit (as a claim does), at the claim's working precision; an item that fails or is
    stopped leaves its point to the claim (which then fails or stops there, as before).  The local pool only (a Dask
    worker computes its claims' points itself)."""
    out = []
    threshold = max(SPLIT_COST, sum(float(c.cost) for c in claims) / max(1, int(jobs)))
    for ci, c in enumerate(claims):
        if c.numeric is None or float(c.cost) < threshold or not (c.kind in BOUND_KINDS or c.kind == "identity"):
            continue
        try:
            pts = c.sweep_points() if c.kind in BOUND_KINDS else c.default_points()
        except Exception:  # noqa: BLE001 - the claim reports its own points' problem when it is audited
            continue
        out += [(ci, pt) for pt in pts]
    return out


def _point_key(pt) -> tuple:
    return tuple(sorted((str(k), str(v)) for k, v in pt.items()))


def _numeric_point(claim, pt, dps):
    """``(key, transport form of claim.numeric(pt))`` at the claim's working precision (``dps + 10``), as in the
    engine's numerics."""
    with mp.workdps(dps + 10):
        value = claim.numeric(pt)
        key = (_point_key(pt), mp.mp.prec)
    if isinstance(value, Estimate):
        return key, ("est", value._mpf_, value.digits)
    if isinstance(value, mp.mpf):
        return key, ("mpf", value._mpf_)
    return key, ("raw", value)


class _Prefetched:
    """``claim.numeric`` reading the values its items computed (:func:`split_points`); other points (an adversarial
    search's) are computed as before."""

    def __init__(self, fn, values: dict):
        self.fn, self.values = fn, values
        functools.update_wrapper(self, fn)

    def __call__(self, pt):
        got = self.values.get((_point_key(pt), mp.mp.prec))
        if got is None:
            return self.fn(pt)
        if got[0] == "raw":
            return got[1]
        value = mp.mp.make_mpf(got[1])  # (the very value the item computed, bit for bit)
        if got[0] == "est":
            with mp.workprec(max(mp.mp.prec, abs(got[1][3]))):  # (no rounding on the way into an Estimate)
                return Estimate(value, got[2])
        return value


def run(claims, dps=50, jobs=None, progress=None, limit=None, scheduler=None, stats=None):
    """Audit ``claims`` and return their results in the given order: a claim whose result is stored
    (:mod:`cbdp_sym.app.resultcache`: keyed by the code it reaches) is looked up, the others are audited by
    :func:`run_uncached`, and their results stored.  The figures' points stored on disk are read first
    (:func:`cbdp_sym.verify.figures.load_cached`), so only missing points are computed.

    ``stats`` (a dict, optional) receives ``reused`` (the IDs of the results looked up) and ``audited`` (those audited
    now), for the audit's summary line (:func:`reuse_line`)."""
    claims = list(claims)
    results = [None] * len(claims)
    where = resultcache._defining_modules()
    with deps.batch():  # (no engine file changes while the keys are made: its folder is scanned once)
        for i, c in enumerate(claims):
            results[i] = resultcache.lookup(c, dps, where)
    load_cached([f for c in claims for f in c.figures])
    todo = dispatch_order(claims, [i for i, r in enumerate(results) if r is None])
    if stats is not None:
        stats["reused"] = [c.id for c, r in zip(claims, results) if r is not None]
        stats["audited"] = [claims[i].id for i in sorted(todo)]
    done = 0
    for r in results:
        if r is not None:
            done += 1
            if progress:
                progress(done, len(claims), r)
    offset = done

    def stored(k, total, res):
        resultcache.store(res.claim, dps, res, where)
        if progress:
            progress(offset + k, len(claims), res)

    stored.figures = getattr(progress, "figures", None) or (lambda *a: None)
    if progress and not getattr(progress, "figures", None):
        stored.figures = None  # run_uncached then shows the figures' default progress
    if todo:  # (a warm run starts no worker, no executor)
        for i, res in zip(todo, run_uncached([claims[i] for i in todo], dps, jobs, stored, limit, scheduler)):
            results[i] = res
    return results


def dispatch_order(claims, indices):
    """``indices`` (of ``claims``) in the order to dispatch them: the costliest claims first (``Claim.cost``, stable
    otherwise), and a claim that reuses another's values (``Claim.after``) right after the last claim it names
    (a name outside the batch is ignored); the local pool starts it once they are done
    (:func:`cbdp_sym.app.executor.claim_waits`).

    >>> from cbdp_sym import Claim
    >>> cs = [Claim("A-CHAIN", "", after=("A",)), Claim("B", ""), Claim("A", ""), Claim("C", "", cost=9)]
    >>> [cs[i].id for i in dispatch_order(cs, [0, 1, 2, 3])]
    ['C', 'B', 'A', 'A-CHAIN']
    """
    ids = {claims[i].id: i for i in indices}
    placed, out = set(), []

    def place(i, seen=()):
        if i in placed or i in seen:
            return
        for dep in claims[i].after:
            if dep in ids:
                place(ids[dep], (*seen, i))
        placed.add(i)
        out.append(i)

    free = sorted((i for i in indices if not claims[i].after), key=lambda i: -claims[i].cost)
    waiting = [i for i in indices if claims[i].after]
    for i in free:
        place(i)
        for j in waiting:  # an `after` claim follows its last prerequisite
            if j not in placed and all(ids.get(d) is None or ids[d] in placed for d in claims[j].after):
                place(j)
    for i in waiting:
        place(i)
    return out


def run_uncached(claims, dps=50, jobs=None, progress=None, limit=None, scheduler=None):
    """Audit ``claims`` (on ``jobs`` worker processes) and return their results in the given order.

    Each claim runs in a worker that is stopped from outside at its limits: ``claim.timeout`` for the
    derivation and ``limit`` seconds (default :data:`cbdp_sym.app.workers.DEFAULT_CLAIM_LIMIT`) for the
    whole claim; a claim stopped there is ``inconclusive`` with ``timeout in <phase>``.

    ``scheduler``: ``None`` (local processes), ``"local"`` (a Dask ``LocalCluster`` of ``jobs`` workers), a
    Dask scheduler's address, or an executor of :mod:`cbdp_sym.app.executor`; the results are the same."""
    jobs = jobs or os.cpu_count() or 1
    limit = workers.DEFAULT_CLAIM_LIMIT if limit is None else limit
    executor = make_executor(scheduler, jobs)
    try:
        return _run(executor, claims, dps, jobs, progress, limit)
    finally:
        if executor is not scheduler:
            executor.close()


def _run(executor, claims, dps, jobs, progress, limit):
    figures = []
    for c in claims:
        for f in c.figures:
            if f not in figures:
                figures.append(f)
    if figures:
        precompute(figures, jobs, (getattr(progress, "figures", None) or figure_progress()) if progress else None,
                   limit=limit, executor=executor)
    results = [None] * len(claims)
    done = 0

    def report(i, res):
        nonlocal done
        done += 1
        res.claim = claims[i]
        if res.corrected is not None and res.corrected.claim is None:
            c = claims[i]
            res.corrected.claim = dataclasses.replace(c, claimed=c.corrected, corrected=None,
                                                      statement=c.corrected_statement or c.statement)
        if res.against_corrected is not None and res.against_corrected.claim is None:
            res.against_corrected.claim = dataclasses.replace(claims[i], uses=(), readings=(), corrected=None)
        results[i] = res
        if progress:
            progress(done, len(claims), res)

    def timed_out(i, phase, seconds):
        res = Result(claims[i], "inconclusive", f"timeout in {phase} (limit {seconds:g} s)", dps)
        res.seconds = float(seconds)
        report(i, res)

    def crashed(i, message):
        report(i, Result(claims[i], "error", message, dps))

    points = split_points(claims, dps, jobs) if getattr(executor, "splits_points", False) else []

    def point_done(k, out):  # (in this process, before the claim's worker is forked: it inherits the value)
        key, value = out
        _PREFETCHED.setdefault(claims[points[k][0]].id, {})[key] = value

    try:
        if points:
            executor.run_claims(_audit_detached, claims, (dps,), limit, report, timed_out, crashed,
                                points=[(ci, ("point", claims[ci], pt, dps)) for ci, pt in points], on_point=point_done)
        else:
            executor.run_claims(_audit_detached, claims, (dps,), limit, report, timed_out, crashed)
    finally:
        _PREFETCHED.clear()
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
        cov = coverage_text(coverage(res))
        print(f"[{done:>3}/{total}] {res.claim.id:<24} {res.status:<12} {extra:<12} ({res.seconds:.1f} s)"
              + (f"  {cov}" if cov else ""), file=stream, flush=True)

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


def reuse_line(stats: dict, show: int = 12) -> str:
    """One line on what an audit reused: ``claim results: 280 reused (their code and inputs unchanged), 2 audited: A,
    B`` (at most ``show`` IDs named).

    >>> reuse_line({"reused": ["A", "B"], "audited": ["C"]})
    'claim results: 2 reused (their code and inputs unchanged), 1 audited: C'
    """
    reused, audited = stats.get("reused", []), stats.get("audited", [])
    line = f"claim results: {len(reused)} reused (their code and inputs unchanged), {len(audited)} audited"
    if audited:
        line += ": " + ", ".join(audited[:show]) + (f", ... ({len(audited) - show} more)" if len(audited) > show else "")
    return line


def summary_table(results) -> str:
    rows = [("claim", "label", "verdict", "digits")]
    for r in results:
        d = r.min_digits()
        bound = r.claim.kind in ("upper", "lower", "strict-upper")
        label = plain(r.claim.label)
        rows.append((r.claim.id, label if len(label) <= 52 else label[:51] + "…", r.status,
                     "--" if d is None or bound else f"{d:g}"))
    widths = [max(len(row[k]) for row in rows) for k in range(4)]
    lines = []
    for j, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def write_reports(registry, results, dps, out: Path, json_path: Path | None, pdf=True, log=print, suffix="",
                  heading: str = "section", label_prefix: str = "cbdpsym", jobs: int | None = 1,
                  latex_timeout: float | None = None):
    """The reports of ``results`` (:func:`_write_reports`).  If rendering fails, each result that cannot be rendered
    becomes its claim's ``error`` (:func:`cbdp_sym.report.latex.renderable`: the message says why), ``results``
    (a list) is updated in place, and the reports are written with the others as they are."""
    args = (out, json_path, pdf, log, suffix, heading, label_prefix, jobs, latex_timeout)
    try:
        return _write_reports(registry, results, dps, *args)
    except Exception:  # noqa: BLE001 - one claim's result must not sink the audit: find it, then write the rest
        fixed = renderable(results, dps, registry.papers)
        if all(a is b for a, b in zip(fixed, results)):
            raise
        if isinstance(results, list):
            results[:] = fixed
        return _write_reports(registry, fixed, dps, *args)


def _write_reports(registry, results, dps, out: Path, json_path: Path | None, pdf=True, log=print, suffix="",
                   heading: str = "section", label_prefix: str = "cbdpsym", jobs: int | None = 1,
                   latex_timeout: float | None = None):
    """Write ``audit.json`` and, per paper, the short appendix and the supplement (standalone document,
    ``\\input`` body, PDF), the paper's BibTeX entry, the figures' CSV files and ``cbdpsym.sty``.

    ``suffix`` goes into the documents' names (``appendix-cbdp-subset.tex`` for ``"-subset"``).
    Every file is written to a temporary name and renamed (never left truncated).  Each PDF is compiled as soon as
    its sources are written (while the next documents are rendered), ``jobs`` at a time (``None``: one per core);
    each is built in its own temporary folder, so the order does not change a byte of them, and the warnings come
    in document order; ``latex_timeout`` (seconds, the audit's ``--timeout``) limits each build instead of the
    default (:data:`cbdp_sym.report.latexbuild.DEFAULT_TIMEOUT`).
    """

    out = check_out_dir(Path(out))
    json_path = check_json_path(json_path or out / "audit.json")
    findings = {key: paper_findings(key, paper.meta, [r for r in results if r.claim.paper == key], results)
                for key, paper in registry.papers.items()}
    knock_on(results)
    render = _RenderCache(results, dps, (suffix, heading, label_prefix), registry)
    write_atomic(json_path, render.text("audit.json", [r.claim.id for r in results], {},
                                        lambda: audit_json(results, dps, [f for fs in findings.values() for f in fs])))
    written = [json_path]
    problems = []
    sty = out / "cbdpsym.sty"
    write_atomic(sty, (Path(__file__).resolve().parent.parent / "report" / "templates" / "cbdpsym.sty").read_text(encoding="utf-8"))
    written.append(sty)
    cov = registry.coverage()
    epoch = commit_epoch() if pdf else None
    builds = []  # (tex, overfull limit, the build's future), each started once its sources are written
    can_build = pdf and latexmk_available()
    # latexmk runs in its own process: a thread waits for it (``with`` waits for every build at its end)
    with (ThreadPoolExecutor(max_workers=max(1, jobs or os.cpu_count() or 1)) if can_build
          else contextlib.nullcontext()) as pool:
        for key, paper in registry.papers.items():
            mine = [r for r in results if r.claim.paper == key]
            if not mine:
                continue
            for fig in figures_of(mine):
                csv = out / "figures" / f"{fig.id}.csv"
                csv.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(csv, fig.csv(compute=False))
                written.append(csv)
            bib = bib_entry(paper.meta)
            if bib:
                write_atomic(out / f"cbdpsym-{key}.bib", bib)
                written.append(out / f"cbdpsym-{key}.bib")
            key_figs, rest_figs = split_figures(mine)
            docs = []
            ids = [r.claim.id for r in mine]
            body_name = f"appendix-{key}{suffix}-body"
            standalone, body = render.text(body_name, ids, paper, lambda: list(render_appendix(
                paper, mine, dps, body_name, findings[key], heading, label_prefix,
                [_figure_view(f, label_prefix) for f in key_figs])))
            docs.append((f"appendix-{key}{suffix}", standalone, body_name, body, 5.0))
            body_name = f"supplement-{key}{suffix}-body"
            standalone, body = render.text(body_name, ids, paper, lambda: list(render_supplement(
                paper, mine, dps, cov[key][:2], body_name, heading, label_prefix,
                [_figure_view(f, label_prefix) for f in rest_figs])))
            docs.append((f"supplement-{key}{suffix}", standalone, body_name, body, 5.0))
            for name, standalone, body_name, body, limit in docs:
                write_atomic(out / f"{body_name}.tex", body)
                tex = out / f"{name}.tex"
                write_atomic(tex, standalone)
                written += [tex, out / f"{body_name}.tex"]
                if pdf:
                    limits = {} if latex_timeout is None else {"timeout": latex_timeout}
                    builds.append((tex, limit, None if pool is None else pool.submit(build_pdf_if_changed, tex, epoch,
                                                                                     **limits)))
    if pdf and not can_build:
        problems += ["latexmk/pdflatex not found: PDF not compiled (install texlive and latexmk, or use --no-pdf)"
                     for _ in builds]
        builds = []
    for tex, limit, future in builds:
        ok, over, tail, _rebuilt = future.result()  # (rebuilt only when a source changed)
        if not ok:
            problems.append(f"LaTeX failed for {tex.name}:\n{tail}")
        else:
            written.append(tex.with_suffix(".pdf"))
        wide = [w for w in over if limit is None or w > limit]
        if wide and limit is not None:
            problems.append(f"{tex.name}: {len(wide)} overfull boxes wider than {limit:g}pt (max {max(wide):.1f}pt)")
    return written, problems


class _RenderCache:
    """The rendered reports (``audit.json``, the appendices and supplements), stored in the cache folder and
    reused when every result they show came from the result cache (:mod:`cbdp_sym.app.resultcache`: its key names
    the result's content) and nothing else they read changed: the report code (``report/latex.py``, ``verify/findings.py``,
    this module, what they import, the templates), the papers' metadata and catalogues, the coverage, the
    provenance, the options.  A warm audit then renders nothing."""

    def __init__(self, results, dps, options, registry):
        import hashlib




        self.on = store._ENABLED[0]
        self.keys = {r.claim.id: resultcache.key_of(r) for r in results}
        if not self.on or any(k is None for k in self.keys.values()):
            self.on = False
            return
        here = Path(__file__).resolve().parent.parent / "report"  # the templates' folder
        templates = hashlib.sha256()
        for t in sorted((here / "templates").rglob("*")):
            if t.is_file():
                templates.update(t.relative_to(here).as_posix().encode() + b"\0" + t.read_bytes())
        papers = [[k, repr(sorted(p.meta.items(), key=lambda kv: str(kv[0]))), p.catalogue, list(cov)]
                  for (k, p), cov in zip(registry.papers.items(), registry.coverage().values())]
        self.common = [5, dps, list(options), provenance(dps), papers, templates.hexdigest(),
                       deps.digest([here / "latex.py", here.parent / "verify" / "findings.py", Path(__file__).resolve()])]

    def text(self, name, ids, paper, compute):
        """``compute()`` (a string or a list of strings), or what it returned before for the same inputs."""
        if not self.on:
            return compute()
        import hashlib
        import json

        key = json.dumps(["rendered", name, self.common, [[i, self.keys[i]] for i in ids]], default=str)
        h = hashlib.sha256(key.encode()).hexdigest()
        return store.lookup(store.cache_dir() / "reports" / h[:2] / f"{h}.json", key, compute)
