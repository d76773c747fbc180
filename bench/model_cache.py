#!/usr/bin/env python3
"""The persistent model cache (ge.graph_compiler_cache_dir) timed as a user meets it: two processes, one after the
other, each building a ge.InferenceSession over the same ONNX model with the same cache directory (empty at first).
The first compiles and stores the .om; the second finds it and loads it. Prints each process's construction time,
its whole wall time and the ratio first / second, and checks that both give the same output. --session does the
same with a ge.Session (C++ ge::Session): add_graph(1, MODEL) (the ONNX import, timed apart) and build_graph(1)
(compile + load, or load from the cache), whose times are compared.

  PYTHONPATH=build/python /usr/bin/python3 bench/model_cache.py [MODEL.onnx] [--session] [--threads=N] [--min-ratio=R]

MODEL defaults to build/bench/zoo/resnet50.onnx (`make bench-zoo` exports it). With --min-ratio the exit status is 1
when the ratio of construction times is below R.
"""
import json
import os
import subprocess
import sys
import tempfile
import time


def child_session(model, cache_dir, out_path):
    import onnx  # the input's shape, before the timed part

    dims = onnx.load(model, load_external_data=False).graph.input[0].type.tensor_type.shape.dim
    shape = [d.dim_value if d.dim_value > 0 else 1 for d in dims]
    start = time.perf_counter()
    import numpy as np
    import ge

    sess = ge.Session({"ge.graph_compiler_cache_dir": cache_dir})
    built = time.perf_counter()
    sess.add_graph(1, model)
    added = time.perf_counter()
    sess.build_graph(1)
    compiled = time.perf_counter()
    outputs = sess.run_graph(1, [np.random.default_rng(0).standard_normal(shape).astype(np.float32)])
    np.save(out_path, outputs[0])
    print(json.dumps({"session_s": compiled - added, "add_graph_s": added - built, "import_s": built - start,
                      "run_s": time.perf_counter() - compiled}))


def child(model, cache_dir, threads, out_path):
    start = time.perf_counter()
    import numpy as np
    import ge

    options = ge.SessionOptions()
    options.intra_op_num_threads = threads
    options.add_session_config_entry("ge.graph_compiler_cache_dir", cache_dir)
    built = time.perf_counter()
    sess = ge.InferenceSession(model, options)
    constructed = time.perf_counter()
    feed = {}
    for i in sess.get_inputs():
        shape = [d if isinstance(d, int) and d > 0 else 1 for d in i.shape]
        feed[i.name] = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    outputs = sess.run(None, feed)
    np.save(out_path, outputs[0])
    print(json.dumps({"session_s": constructed - built, "import_s": built - start,
                      "run_s": time.perf_counter() - constructed}))


def run_child(model, cache_dir, threads, out_path, session):
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--child-session" if session else "--child", model, cache_dir,
                           str(threads), out_path],
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit("child failed:\n" + proc.stdout + proc.stderr)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["process_s"] = wall
    return result


def main(argv):
    if len(argv) >= 2 and argv[1] == "--child":
        child(argv[2], argv[3], int(argv[4]), argv[5])
        return 0
    if len(argv) >= 2 and argv[1] == "--child-session":
        child_session(argv[2], argv[3], argv[5])
        return 0
    model = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "bench", "zoo", "resnet50.onnx")
    threads, min_ratio, session = 2, None, False
    for a in argv[1:]:
        if a == "--session":
            session = True
        elif a.startswith("--threads="):
            threads = int(a.split("=", 1)[1])
        elif a.startswith("--min-ratio="):
            min_ratio = float(a.split("=", 1)[1])
        else:
            model = a
    model = os.path.abspath(model)
    if not os.path.exists(model):
        sys.exit(f"no model at {model}: give an ONNX file, or export the zoo (make bench-zoo)")
    with tempfile.TemporaryDirectory(prefix="ge_model_cache_bench.") as tmp:
        cache_dir = os.path.join(tmp, "cache")
        first = run_child(model, cache_dir, threads, os.path.join(tmp, "first.npy"), session)
        files = sorted(os.listdir(cache_dir))
        second = run_child(model, cache_dir, threads, os.path.join(tmp, "second.npy"), session)
        import numpy as np
        same = np.array_equal(np.load(os.path.join(tmp, "first.npy")), np.load(os.path.join(tmp, "second.npy")))
        size = sum(os.path.getsize(os.path.join(cache_dir, f)) for f in files)
        print(f"model        {model}")
        print(f"cache        {len(files)} file(s), {size / 1e6:.1f} MB: {', '.join(files)}")
        what = "Session.build_graph" if session else "InferenceSession"
        for name, r in (("first", first), ("second", second)):
            extra = f", add_graph {r['add_graph_s'] * 1e3:.0f} ms" if session else ""
            print(f"{name:6s} process: {what} {r['session_s'] * 1e3:9.1f} ms   whole process "
                  f"{r['process_s'] * 1e3:9.1f} ms   (import ge {r['import_s'] * 1e3:.0f} ms{extra}, one run "
                  f"{r['run_s'] * 1e3:.0f} ms)")
        ratio = first["session_s"] / second["session_s"]
        print(f"ratio        {what} first/second {ratio:.1f}x, whole process "
              f"{first['process_s'] / second['process_s']:.1f}x; outputs equal: {same}")
        if not same:
            return 1
        if min_ratio is not None and ratio < min_ratio:
            print(f"FAIL: ratio {ratio:.1f} below {min_ratio}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
