#!/usr/bin/python3
"""An ONNX Runtime script run unchanged on ge (`import ge as onnxruntime`) over the model zoo, its outputs compared
bit for bit with `ge run` executing the .om the session compiled (SessionOptions.optimized_model_filepath).

usage: PYTHONPATH=build/python /usr/bin/python3 bench/ort_compat.py [--ge build/bin/ge] [--zoo build/bench/zoo]
           [--out build/bench/ort_compat] [--models "resnet18 mobilenet_v2 ..."] [--threads 1]

The zoo (M.onnx with M.in0.npy, M.in1.npy ... per input and M.ref0.npy ... from PyTorch) is what `make bench-zoo`
exports. One thread on both sides by default, so that no result depends on how a kernel split its work. Prints a
line per model (outputs compared, equal bits or the first difference, relative L2 error against PyTorch's
reference) and "N passed, M failed"; exits 1 when any model failed."""
import argparse
import os
import subprocess
import sys

import numpy as np

DEFAULT_MODELS = ("resnet18 mobilenet_v2 squeezenet1_1 shufflenet_v2_x0_5 efficientnet_b0 googlenet mnasnet1_0 "
                  "regnet_x_400mf mobilenet_v3_small lstm_classifier gru_tagger_bi pointnet encoder_decoder "
                  "mlp_mixer decoder_rope_gqa style_transfer swin_t raft_small fasterrcnn_rpn")


# ---- the ONNX Runtime script: unchanged but for its import ----------------------------------------------------------
import ge as onnxruntime  # noqa: E402  (was: import onnxruntime)


def ort_script(model_path, feeds_in_order, threads, optimized_path):
    """What an ONNX Runtime user writes: a session with options, its inputs by name, run(None, feed)."""
    so = onnxruntime.SessionOptions()
    so.intra_op_num_threads = threads
    so.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.optimized_model_filepath = optimized_path
    sess = onnxruntime.InferenceSession(model_path, sess_options=so, providers=["CPUExecutionProvider"])
    feed = {i.name: x for i, x in zip(sess.get_inputs(), feeds_in_order)}
    outputs = sess.run(None, feed)
    return list(feed), [o.name for o in sess.get_outputs()], outputs
# ----------------------------------------------------------------------------------------------------------------------


def sanitize(name):
    """The file name `ge run --output_dir` gives an output (tools/ge/io_util.cc SanitizeFileName)."""
    out = "".join(c if c.isalnum() or c in "_-." else "_" for c in name)
    return "output" if out in ("", ".", "..") else out


def rel_l2(a, b):
    a, b = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30))


def inputs_of(zoo, model):
    paths = []
    while os.path.exists(os.path.join(zoo, f"{model}.in{len(paths)}.npy")):
        paths.append(os.path.join(zoo, f"{model}.in{len(paths)}.npy"))
    return paths


def check_model(args, model):
    onnx_path = os.path.join(args.zoo, model + ".onnx")
    in_paths = inputs_of(args.zoo, model)
    if not os.path.exists(onnx_path) or not in_paths:
        return False, "missing from the zoo"
    work = os.path.join(args.out, model)
    os.makedirs(work, exist_ok=True)
    om_path = os.path.join(work, model + ".om")
    input_names, names, outputs = ort_script(onnx_path, [np.load(p) for p in in_paths], args.threads, om_path)
    cmd = [args.ge, "run", "--model=" + om_path, "--threads=%d" % args.threads, "--contention=one",
           "--output_dir=" + os.path.join(work, "ge_run")]
    cmd += ["--input=%s=%s" % (n, p) for n, p in zip(input_names, in_paths)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    if run.returncode != 0:
        return False, "ge run failed: " + (run.stderr.strip().splitlines() or ["?"])[-1]
    notes = []
    for k, (name, got) in enumerate(zip(names, outputs)):
        want = np.load(os.path.join(work, "ge_run", sanitize(name) + ".npy"))
        if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
            diff = np.flatnonzero(got.ravel() != want.ravel()) if got.shape == want.shape else []
            where = f"first difference at flat index {diff[0]}" if len(diff) else f"{got.shape} vs {want.shape}"
            return False, f"output '{name}' differs from ge run ({where})"
        ref = os.path.join(args.zoo, f"{model}.ref{k}.npy")
        if os.path.exists(ref) and np.issubdtype(got.dtype, np.floating):
            notes.append(f"rel L2 vs PyTorch {rel_l2(got, np.load(ref)):.1e}")
    return True, f"{len(outputs)} output(s) bit-identical to ge run" + ("; " + ", ".join(notes) if notes else "")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ge", default="build/bin/ge")
    p.add_argument("--zoo", default="build/bench/zoo")
    p.add_argument("--out", default="build/bench/ort_compat")
    p.add_argument("--models", default=DEFAULT_MODELS)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args()
    passed = failed = 0
    for model in args.models.split():
        try:
            ok, what = check_model(args, model)
        except onnxruntime.Error as e:
            ok, what = False, str(e)
        print(f"{'PASS' if ok else 'FAIL'} {model}: {what}", flush=True)
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
