#!/usr/bin/python3
"""What Python adds per call: ge.InferenceSession.run (timeit) against the C++ OfflineModel::Execute (Google
Benchmark, execute_add_benchmark.cc) on the same .om, a 16-float Add with one intra-op thread. Prints both times
and the difference; the target is at most 3 µs. A measurement, not a test (`make bench` runs it).

usage: run_overhead.py BUILD_DIR"""
import json
import os
import subprocess
import sys
import tempfile
import timeit

import numpy as np
from onnx import TensorProto, helper


def add16_onnx():
    vi = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [16]) for n in ("a", "b", "c")]
    graph = helper.make_graph([helper.make_node("Add", ["a", "b"], ["c"])], "add16", vi[:2], vi[2:])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.join(build, "python"))
    import ge

    om_path = os.path.join(tempfile.mkdtemp(), "add16.om")
    ge.compile(add16_onnx(), om_path, threads=1)
    bench = subprocess.run([os.path.join(build, "bin", "ge_python_overhead_benchmark"), om_path,
                            "--benchmark_format=json", "--benchmark_repetitions=5"],
                           capture_output=True, text=True, check=True)
    runs = [b for b in json.loads(bench.stdout)["benchmarks"] if b.get("run_type") == "iteration"]
    cpp_us = min(b["real_time"] for b in runs) / 1e3  # ns -> us

    opts = ge.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ge.InferenceSession(om_path, sess_options=opts)
    feed = {"a": np.ones(16, np.float32), "b": np.ones(16, np.float32)}
    number = 200000
    py_us = min(timeit.repeat(lambda: sess.run(None, feed), number=number, repeat=5)) / number * 1e6
    overhead = py_us - cpp_us
    print(f"16-float Add, 1 thread: OfflineModel::Execute {cpp_us:.2f} us, InferenceSession.run {py_us:.2f} us, "
          f"Python overhead {overhead:.2f} us per call (target <= 3 us: {'OK' if overhead <= 3 else 'OVER'})")


if __name__ == "__main__":
    main()
