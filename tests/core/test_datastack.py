"""cbdp_sym.core.datastack: calls on one large chunk of CPython's data stack (no chunk thrashing below them)."""
import gc
import resource

import pytest

from cbdp_sym.core.datastack import on_large_stack


def _leaf(a, b):
    return a + b


def _loop(n):
    s = 0
    for i in range(n):
        s = _leaf(s, i)  # a hot call: at an unlucky depth each one maps and unmaps a chunk
    return s


def _at_depth(d, f, *args):
    return f(*args) if d == 0 else _at_depth(d - 1, f, *args)


def _faults(depth, n, large):
    """Minor page faults of ``n`` hot calls made ``depth`` frames down (a fresh chunk costs at least one).  The garbage
    collector is held off while they are counted: a collection that happens to fall inside (it walks the process's
    heap, touching pages) is not what is measured."""
    gc.disable()
    try:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        if large:
            on_large_stack(_at_depth, depth, _loop, n)
        else:
            _at_depth(depth, _loop, n)
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    finally:
        gc.enable()


def test_on_large_stack_passes_arguments_and_results_and_raises_what_fn_raises():
    assert on_large_stack(divmod, 17, 5) == (3, 2)
    assert on_large_stack(sorted, [3, 1, 2], reverse=True) == [3, 2, 1]
    assert on_large_stack(_at_depth, 300, _loop, 10) == 45  # deep calls below it
    with pytest.raises(ZeroDivisionError):
        on_large_stack(divmod, 1, 0)


def test_no_depth_below_on_large_stack_maps_a_chunk_per_call():
    n = 2000
    gc.collect()  # (then no collection is due while the faults are counted: _faults holds it off)
    # 400 frames of _at_depth span more than one 16 KiB chunk: some depth puts the hot call across a boundary
    plain = [_faults(d, n, False) for d in range(400)]
    if max(plain) < n:  # this Python keeps a chunk cached (python/cpython#142183 fixed): no thrashing to stop
        pytest.skip("no data-stack chunk thrashing on this Python")
    large = [_faults(d, n, True) for d in range(400)]
    # the large frame itself faults its ~140 pages in once per call of on_large_stack; no depth faults per hot call
    assert max(large) < n // 4, (max(plain), max(large))
