"""Issue 18: the order an audit dispatches claims in (costliest first; a claim that reuses another's values starts
once that one is done), and the local pool's waits."""
import time

import pytest

from cbdp_sym import Claim
from cbdp_sym.app import workers
from cbdp_sym.app.audit import dispatch_order
from cbdp_sym.app.executor import claim_waits

pytestmark = pytest.mark.skipif(not workers.available(), reason="needs fork")


def _timed(item):
    name, seconds = item
    start = time.monotonic()
    time.sleep(seconds)
    return name, start, time.monotonic()


def _run(items, jobs, waits=None):
    out = {}
    workers.run_items(_timed, items, jobs, lambda item: (30, None), lambda i, v: out.__setitem__(v[0], v[1:]),
                      lambda *a: pytest.fail(f"timeout {a}"), lambda *a: pytest.fail(f"crash {a}"), waits=waits)
    return out


def test_waiting_item_starts_after_its_prerequisite_and_others_go_ahead():
    items = [("long", 0.6), ("chain", 0.05), ("short1", 0.05), ("short2", 0.05)]
    out = _run(items, 2, waits={1: {0}})
    assert out["chain"][0] >= out["long"][1]  # started after "long" finished
    # the free worker did not wait: the short items started before "long" finished
    assert out["short1"][0] < out["long"][1] and out["short2"][0] < out["long"][1]


def test_without_waits_the_same_items_overlap():
    # (what the waits change: the test above could not pass by accident of timing)
    items = [("long", 0.6), ("chain", 0.05), ("short1", 0.05), ("short2", 0.05)]
    out = _run(items, 2)
    assert out["chain"][0] < out["long"][1]


def test_a_wait_on_an_item_outside_the_run_does_not_stall():
    out = _run([("a", 0.01), ("b", 0.01)], 1, waits={0: {7}})
    assert set(out) == {"a", "b"}


def test_dispatch_order_costliest_first_and_chains_after_their_prerequisites():
    cs = [Claim("T-CHAIN", "", after=("T",)), Claim("x", ""), Claim("T", "", cost=50), Claim("y", "", cost=5),
          Claim("U-CHAIN", "", after=("U", "x")), Claim("U", "", cost=2)]
    order = [cs[i].id for i in dispatch_order(cs, range(len(cs)))]
    assert order == ["T", "T-CHAIN", "y", "U", "x", "U-CHAIN"]
    waits = claim_waits([cs[i] for i in dispatch_order(cs, range(len(cs)))])
    assert waits == {1: {0}, 5: {3, 4}}
