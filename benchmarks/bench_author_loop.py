"""The author's loop (issue 31): a user's folder audited cold, after an edit of one claim's function, and warm.

    python benchmarks/bench_author_loop.py [--runs 3] [--folder examples/dgauss] [--edit FILE:FUNCTION]

The folder (default the discrete-Gaussian example, 14 claims: sums over Z at the working precision, a profile, a
composition, a subsampled mechanism) is copied into a temporary derivations folder and audited with
``cbdp-sym --path TMP audit --no-pdf ID...`` (its claims only) three ways, each run with an empty cache folder of its
own for the cold audit:

* cold: nothing cached;
* edit: one claim's function changed (a statement appended to its body that changes nothing it computes, so the key
  of that claim changes and no other), then audited again: only that claim is re-audited;
* warm: audited again with nothing changed.

Printed per run and as medians: wall seconds and CPU seconds (user + sys of the command and its workers), and the
audit's own line on how many claims it reused.  Printed, never asserted (timing targets live here, not in tests).
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = [sys.executable, "-m", "cbdp_sym"]


def _ids(path):
    out = subprocess.run(CLI + ["--path", path, "list"], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    folder = os.listdir(path)[0]
    ids, mine = [], False
    for line in out.splitlines():
        if line.startswith("coverage "):
            break
        m = re.match(r"^(\S+)\s", line)
        if m:
            ids.append(m.group(1))
    # the folder's claims are those whose IDs are not the built-in papers'
    return [i for i in ids if i.split("-")[0] not in ("CBDP", "RDP", "ZCDP")], folder, mine


def _audit(path, ids, cache, out):
    env = dict(os.environ, CBDP_SYM_CACHE=cache, PYTHONHASHSEED="0")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    proc = subprocess.run(CLI + ["--path", path, "audit", "--no-pdf", "--out", out] + ids, env=env, cwd=ROOT,
                          capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    reuse = next((ln for ln in proc.stderr.splitlines() + proc.stdout.splitlines() if ln.startswith("claim results:")),
                 "")
    if proc.returncode not in (0, 1):
        print(f"  (exit {proc.returncode}) {proc.stderr.strip().splitlines()[-1:]}")
    return wall, cpu, reuse.split(":")[1].split(",")[0:2] if reuse else []


def _edit(path, spec):
    """Append ``_unused = 0`` to the body of ``FUNCTION`` in ``FILE`` (an edit of one claim's function)."""
    fname, func = spec.split(":")
    target = os.path.join(path, fname)
    with open(target, encoding="utf-8") as fh:
        lines = fh.read().splitlines(keepends=True)
    for i, ln in enumerate(lines):
        if re.match(rf"^def {re.escape(func)}\(", ln) and ln.rstrip().endswith(":"):
            lines.insert(i + 1, "    _unused = 0  # (benchmark edit)\n")
            break
    else:
        raise SystemExit(f"no function {func} in {fname}")
    with open(target, "w", encoding="utf-8") as fh:
        fh.write("".join(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--folder", default=os.path.join(ROOT, "examples", "dgauss"))
    ap.add_argument("--edit", default="privacy.py:_tail", help="FILE:FUNCTION of the folder to edit (default "
                    "privacy.py:_tail, a helper of one claim)")
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    rows = {"cold": [], "edit": [], "warm": []}
    for r in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "papers")
            os.makedirs(path)
            shutil.copytree(args.folder, os.path.join(path, os.path.basename(args.folder.rstrip("/"))))
            ids, _folder, _ = _ids(path)
            cache, out = os.path.join(tmp, "cache"), os.path.join(tmp, "out")
            cold = _audit(path, ids, cache, out)
            _edit(os.path.join(path, os.path.basename(args.folder.rstrip("/"))), args.edit)
            edit = _audit(path, ids, cache, out)
            warm = _audit(path, ids, cache, out)
            for name, got in (("cold", cold), ("edit", edit), ("warm", warm)):
                rows[name].append(got)
                print(f"run {r + 1} {name}: {len(ids)} claims, wall {got[0]:.1f} s, CPU {got[1]:.1f} s;"
                      f" {','.join(got[2]).strip()}")
    for name, got in rows.items():
        print(f"median {name}: wall {statistics.median(g[0] for g in got):.1f} s, "
              f"CPU {statistics.median(g[1] for g in got):.1f} s")


if __name__ == "__main__":
    main()
