"""CPU seconds of a list of claims audited one after another in one process, each cache folder empty at the start.
Printed, never asserted.

    python benchmarks/bench_claims_cpu.py ID [ID ...] [--runs 3] [--figures]

On a shared machine wall times are noisy; the process's CPU time (``time.process_time``) is the steadier measure of a
speed change in the claims' own work.  The claims run in the given order in one process (as a cold audit's workers
would find the disk cache: what an earlier claim stored, a later one reads; unlike the audit, the in-process memos also
carry over), so list them in the audit's order (``cbdp-sym audit`` prints it) to compare like with like.  ``--figures``
first computes the points of the figures the claims read (not counted).  Medians over ``--runs`` runs, each in a fresh
process with a fresh cache folder.  Run it from a checkout's root to measure that checkout (the current directory
comes first on ``sys.path``).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, os.getcwd())
from cbdp_sym.app.registry import Registry
from cbdp_sym.verify.engine import audit_claim
from cbdp_sym.app.executor import precompute
reg = Registry()
ids, figures = json.loads(sys.argv[1]), sys.argv[2] == "1"
claims = [reg.get(i) for i in ids]
if figures:
    precompute([f for c in claims for f in c.figures], jobs=1)
out = {}
for c in claims:
    t = time.process_time()
    r = audit_claim(c, 50)
    out[c.id] = [time.process_time() - t, r.status]
print(json.dumps(out))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ids", nargs="+")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--figures", action="store_true")
    a = ap.parse_args()
    runs = []
    for _ in range(a.runs):
        with tempfile.TemporaryDirectory(prefix="cbdp-bench-") as cache:
            env = dict(os.environ, CBDP_SYM_CACHE=cache, PYTHONHASHSEED="0")
            out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(a.ids), "1" if a.figures else "0"], env=env,
                                 capture_output=True, text=True, check=True)
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    total = []
    for cid in a.ids:
        secs = [r[cid][0] for r in runs]
        print(f"{cid:28s} {runs[0][cid][1]:12s} {statistics.median(secs):8.2f} CPU-s")
    for r in runs:
        total.append(sum(v[0] for v in r.values()))
    print(f"{'total':28s} {'':12s} {statistics.median(total):8.2f} CPU-s (median of {a.runs})")


if __name__ == "__main__":
    main()
