"""CPU seconds of single claims, cold, as the audit runs them: the parent preloads as ``audit`` does
(:func:`cbdp_sym.app.executor.preload_modules`), each claim is audited in a fresh fork with an empty cache folder (its
figures computed first in that fork, not counted), and the fork's user + system time is reported (CPU time, not wall
clock: the machine is shared).

    python benchmarks/bench_claim_cpu.py 3 CBDP-F2B-DECR CBDP-T9     # repetitions, then claim IDs; prints medians
"""
import json
import os
import shutil
import statistics
import sys
import tempfile


def main(argv):
    reps, ids = int(argv[0]), argv[1:]
    from cbdp_sym.app.executor import precompute, preload_modules
    from cbdp_sym.app.registry import Registry
    from cbdp_sym.verify.engine import audit_claim

    preload_modules()
    reg = Registry()
    for cid in ids:
        claim = reg.get(cid)
        times, status = [], None
        for _ in range(reps):
            folder = tempfile.mkdtemp(prefix="claim-cpu-")
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child
                os.environ["CBDP_SYM_CACHE"] = folder
                if claim.figures:
                    precompute(list(claim.figures), jobs=1)
                t0 = os.times()
                res = audit_claim(claim, 50)
                t1 = os.times()
                with open(os.path.join(folder, "_cpu.json"), "w") as fh:
                    json.dump([t1.user - t0.user + t1.system - t0.system, res.status], fh)
                os._exit(0)
            os.waitpid(pid, 0)
            with open(os.path.join(folder, "_cpu.json")) as fh:
                t, status = json.load(fh)
            times.append(t)
            shutil.rmtree(folder, ignore_errors=True)
        print(f"{cid:28s} {statistics.median(times):7.2f} s  {status:10s} ({' '.join(f'{x:.2f}' for x in times)})",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
