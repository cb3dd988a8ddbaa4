"""Tests of :mod:`cbdp_sym.app.audit`."""

import sympy as sp

import cbdp_sym.app.audit as audit
from cbdp_sym import Claim
from cbdp_sym.app.audit import dispatch_order
from cbdp_sym.app.executor import claim_waits


def test_progress_on_a_terminal_is_a_bar_with_the_time_left():
    import io
    from types import SimpleNamespace

    from cbdp_sym.app.audit import tty_progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    show = tty_progress(stream)
    for i, status in enumerate(["verified", "refuted", "holds"], 1):
        res = SimpleNamespace(claim=SimpleNamespace(id=f"X-{i}"), status=status, message=f"message {i}")
        show(i, 3, res)
    text = stream.getvalue()
    assert "3/3" in text and "<00:00]" in text  # tqdm's [elapsed<remaining]
    assert "X-2" in text and "message 2" in text  # a refutation is printed above the bar
    assert "message 1" not in text


def test_a_claim_that_reuses_others_values_is_dispatched_after_them():
    from cbdp_sym import Claim
    from cbdp_sym.app.audit import dispatch_order

    cs = [Claim("T13-CHAIN", "", after=("T13", "T12")), Claim("T12", ""), Claim("X", "", after=("NOT-IN-BATCH",)),
          Claim("T13", "", after=("T12",))]
    order = [cs[i].id for i in dispatch_order(cs, [0, 1, 2, 3])]
    assert order.index("T12") < order.index("T13") < order.index("T13-CHAIN")
    assert sorted(order) == sorted(c.id for c in cs)  # each once; a name outside the batch is ignored
    assert [cs[i].id for i in dispatch_order(cs, [2, 1])] == ["T12", "X"]


def test_summary_table_aligns_columns_and_hides_digits_of_bounds():
    from types import SimpleNamespace

    from cbdp_sym.app.audit import summary_table

    def res(cid, kind, status, digits):
        return SimpleNamespace(claim=SimpleNamespace(id=cid, label="a label " + cid, kind=kind), status=status,
                               min_digits=lambda: digits)

    lines = summary_table([res("A-1", "identity", "verified", 48.5), res("BB-22", "upper", "holds", 30)]).splitlines()
    assert lines[0].split() == ["claim", "label", "verdict", "digits"] and set(lines[1]) == {"-", " "}
    assert lines[2].split() == ["A-1", "a", "label", "A-1", "verified", "48.5"]
    assert lines[3].split()[-1] == "--"  # a bound's digits mean nothing: its slack is what the report shows
    assert lines[2].index("verified") == lines[3].index("holds")  # aligned


def test_dispatch_order_costliest_first_and_chains_after_their_prerequisites():
    cs = [Claim("T-CHAIN", "", after=("T",)), Claim("x", ""), Claim("T", "", cost=50), Claim("y", "", cost=5),
          Claim("U-CHAIN", "", after=("U", "x")), Claim("U", "", cost=2)]
    order = [cs[i].id for i in dispatch_order(cs, range(len(cs)))]
    assert order == ["T", "T-CHAIN", "y", "U", "x", "U-CHAIN"]
    waits = claim_waits([cs[i] for i in dispatch_order(cs, range(len(cs)))])
    assert waits == {1: {0}, 5: {3, 4}}


def test_pdfs_compile_jobs_at_a_time_once_their_sources_are_written_and_report_in_document_order(registry, tmp_path,
                                                                                                    monkeypatch):
    import threading
    import time

    import cbdp_sym.app.audit as audit

    results = audit.run([registry.get("CBDP-D2"), registry.get("CBDP-EQ1-TV")], dps=20, jobs=1)
    lock, seen, second = threading.Lock(), {}, threading.Event()

    def fake_build(tex, epoch):
        # a build starts once its document and body are written (the next document may still be rendering)
        body = tex.with_name(tex.stem + "-body.tex")
        assert tex.exists() and body.exists() and (tex.parent / "cbdpsym.sty").exists()
        with lock:
            seen["started"].append(tex.name)
            seen["now"] += 1
            seen["most"] = max(seen["most"], seen["now"])
        if tex.name.startswith("appendix"):  # the first document finishes last: with two at a time, after the
            if seen["jobs"] == 2:            # second has started (however long the second takes to render)
                assert second.wait(60)
            time.sleep(0.2)
        else:
            second.set()
        with lock:
            seen["now"] -= 1
            seen["order"].append(tex.name)
        return False, [], f"failed {tex.name}", True

    monkeypatch.setattr(audit, "build_pdf_if_changed", fake_build)
    monkeypatch.setattr(audit, "latexmk_available", lambda: True)
    for jobs, most in ((1, 1), (2, 2)):
        seen.update(now=0, most=0, order=[], started=[], jobs=jobs)
        second.clear()
        _written, problems = audit.write_reports(registry, results, 20, tmp_path / str(jobs), None, pdf=True, jobs=jobs)
        assert seen["most"] == most
        if jobs == 1:  # one at a time: started in document order
            assert seen["started"] == ["appendix-cbdp.tex", "supplement-cbdp.tex"]
        assert [p.splitlines()[0] for p in problems] == ["LaTeX failed for appendix-cbdp.tex:",
                                                         "LaTeX failed for supplement-cbdp.tex:"]
    assert seen["order"] == ["supplement-cbdp.tex", "appendix-cbdp.tex"]  # (with two at a time)


_TINY = '''
import os

import mpmath as mp
import sympy as sp

from cbdp_sym import Claim, Param
from cbdp_sym.calculus import to_mpf

x = sp.Symbol("x", positive=True)


def _num(pt):
    with open(os.environ["CBDP_SPLIT_LOG"], "a") as fh:
        fh.write(f"{os.getpid()} {pt['x']}\\n")
    return mp.sqrt(to_mpf(pt["x"])) ** 2 + 1


SPLIT = Claim(id="TINY-SPLIT", paper="tiny", label="x + 1", kind="identity", statement="x+1", cost=50,
              params=[Param.positive("x", x, ("1/2", "2", "7/3"))], derive=lambda: x + 1, claimed=lambda: x + 1,
              numeric=_num)
'''


def test_a_costly_claims_instances_run_as_items_of_their_own_with_the_same_result(tmp_path, monkeypatch):
    """Issue 31: the numeric instances of a claim of cost >= SPLIT_COST run each in a worker of its own before the
    claim, whose worker reads their values: the result is the one computed in the claim's own worker."""
    from cbdp_sym.app.registry import Registry

    paper = tmp_path / "papers" / "tiny"
    paper.mkdir(parents=True)
    (paper / "_paper.py").write_text('PAPER = {"key": "tiny", "title": "a tiny paper", "prefix": "TINY-"}\n')
    (paper / "claims.py").write_text(_TINY)
    monkeypatch.setenv("CBDP_SYM_NO_CACHE", "1")
    monkeypatch.setattr(audit.store, "_ENABLED", [False])
    log = tmp_path / "calls.txt"
    monkeypatch.setenv("CBDP_SPLIT_LOG", str(log))
    claim = Registry([tmp_path / "papers"], builtin=False).get("TINY-SPLIT")
    assert [pt["x"] for _ci, pt in audit.split_points([claim], jobs=2)] == [sp.Rational(1, 2), 2, sp.Rational(7, 3)]
    cheap = Claim("TINY-CHEAP", "", cost=200)  # a batch where the claim is not longer than a worker's share
    assert audit.split_points([claim, cheap], jobs=2) == []

    split = audit.run([claim], 30, jobs=2)[0]
    pids = [ln.split()[0] for ln in log.read_text().splitlines()]
    assert len(pids) == 3 and len(set(pids)) == 3  # one worker per instance, none in the claim's worker
    log.unlink()
    monkeypatch.setattr(audit, "SPLIT_COST", 1000.0)
    whole = audit.run([claim], 30, jobs=2)[0]
    assert len(set(ln.split()[0] for ln in log.read_text().splitlines())) == 1  # all three in the claim's worker
    assert split.status == whole.status == "verified" and split.message == whole.message
    assert [(c.params, c.numeric, c.derived, c.digits) for c in split.checks] == \
        [(c.params, c.numeric, c.derived, c.digits) for c in whole.checks]
