"""Cold per-claim timings of CBDP's Theorem 13 family (issue 18). Printed, never asserted.

    python benchmarks/bench_t13.py [--runs 3] [CLAIM ...]

Each run audits the claims one after another in one process (as ``audit --jobs 1`` does) from its own empty
numeric cache, and prints each claim's wall and CPU seconds (CPU time is the figure to compare on a shared
machine); the median over the runs at the end.  Default claims: CBDP-T13, CBDP-T13-GAU, CBDP-T13-CHAIN,
CBDP-T5, CBDP-T5-CHAIN, CBDP-C2, CBDP-C2-LAP, CBDP-C2-CHAIN.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CLAIMS = ["CBDP-T13", "CBDP-T13-GAU", "CBDP-T13-CHAIN", "CBDP-T5", "CBDP-T5-CHAIN", "CBDP-C2", "CBDP-C2-LAP",
          "CBDP-C2-CHAIN"]

_ONE_RUN = """
import json, sys, time
from cbdp_sym.app.registry import Registry
from cbdp_sym.verify.engine import audit_claim
reg = Registry()
out = {}
for cid in sys.argv[1:]:
    t, p = time.perf_counter(), time.process_time()
    r = audit_claim(reg.get(cid), 50)
    out[cid] = [time.perf_counter() - t, time.process_time() - p, r.status]
print(json.dumps(out))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("claims", nargs="*", default=CLAIMS)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores; runs: {args.runs}; claims audited in one process, cold cache")
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            env = dict(os.environ, CBDP_SYM_CACHE=os.path.join(tmp, f"cache{i}"), PYTHONHASHSEED="0")
            res = subprocess.run([sys.executable, "-c", _ONE_RUN, *args.claims], env=env, check=True,
                                 capture_output=True, text=True)
            runs.append(json.loads(res.stdout.strip().splitlines()[-1]))
            for cid in args.claims:
                wall, cpu, status = runs[-1][cid]
                print(f"run {i + 1}  {cid:16s} {status:10s} wall {wall:6.1f} s  cpu {cpu:6.1f} s")
    print("median:")
    for cid in args.claims:
        print(f"  {cid:16s} wall {statistics.median(r[cid][0] for r in runs):6.1f} s  "
              f"cpu {statistics.median(r[cid][1] for r in runs):6.1f} s")


if __name__ == "__main__":
    main()
