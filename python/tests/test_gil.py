"""The GIL is released while ge runs: another Python thread keeps running during a long InferenceSession.run."""
import threading
import time

import numpy as np
from onnx import TensorProto, helper

import ge


def chained_matmuls(n=768, depth=16):
    """z_k = z_{k-1} @ y, depth times: a run of a few hundred milliseconds on one thread."""
    nodes, prev = [], "x"
    for k in range(depth):
        nodes.append(helper.make_node("MatMul", [prev, "y"], [f"z{k}"]))
        prev = f"z{k}"
    inputs = [helper.make_tensor_value_info(v, TensorProto.FLOAT, [n, n]) for v in ("x", "y")]
    out = helper.make_tensor_value_info(prev, TensorProto.FLOAT, [n, n])
    graph = helper.make_graph(nodes, "chain", inputs, [out])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def test_other_threads_run_while_ge_runs():
    n = 768
    opts = ge.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ge.InferenceSession(chained_matmuls(n), sess_options=opts)
    feed = {"x": np.full((n, n), 1e-3, np.float32), "y": np.full((n, n), 1e-3, np.float32)}
    sess.run(None, feed)  # warm
    started, finished = threading.Event(), threading.Event()
    run_seconds = []

    def runner():
        started.set()
        t0 = time.perf_counter()
        sess.run(None, feed)
        run_seconds.append(time.perf_counter() - t0)
        finished.set()

    thread = threading.Thread(target=runner)
    thread.start()
    started.wait()
    ticks, last, max_gap = 0, time.perf_counter(), 0.0
    while not finished.is_set():
        now = time.perf_counter()
        max_gap, last, ticks = max(max_gap, now - last), now, ticks + 1
    thread.join()
    # Holding the GIL through the run would stop this loop for the whole run; released, it only pauses for the
    # interpreter's switch interval and the OS scheduler.
    assert run_seconds[0] > 0.02, "the run is too short to tell"
    assert max_gap < 0.5 * run_seconds[0], (max_gap, run_seconds[0], ticks)
