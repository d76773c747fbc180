#!/usr/bin/python3
"""`ge train` on the MLP of make_mlp_training.py: N steps of its ONNX training algorithm must give the numpy
reference's variables (relative L2 error <= 1e-5 each, T exactly, no NaN or Inf).

usage: check_ge_train.py --ge GE_BINARY [--steps N] [--work DIR] [--dynamic-batch]
       check_ge_train.py --self-test [--steps N] [--work DIR]
--self-test runs the model's training graphs with a small numpy evaluator instead of ge, in float64 (must match
the reference to 1e-6: the ONNX model and the reference compute the same thing) and in float32 (must pass the check
ge faces), and checks that the comparison rejects missing, non-finite and wrong variables."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_mlp_training  # noqa: E402

TOLERANCE = 1e-5
SELF_TEST_TOLERANCE = 1e-6
GE_TIMEOUT_S = 600


# ---------------------------------------------------------------------------------------------------------------
# Comparison


def relative_l2(actual, expected):
    a, b = actual.astype(np.float64), expected.astype(np.float64)
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), np.finfo(np.float64).tiny)


def compare_variable(name, actual_path, expected, tolerance):
    """Returns (ok, message)."""
    if not os.path.exists(actual_path):
        return False, f"missing {actual_path}"
    actual = np.load(actual_path)
    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        return False, f"{actual.dtype}{list(actual.shape)}, expected {expected.dtype}{list(expected.shape)}"
    if np.issubdtype(expected.dtype, np.integer):
        ok = np.array_equal(actual, expected)
        return ok, f"{actual.tolist()} (expected {expected.tolist()} exactly)"
    if not np.all(np.isfinite(actual)):
        return False, f"{np.count_nonzero(~np.isfinite(actual))} NaN/Inf values"
    err = relative_l2(actual, expected)
    return err <= tolerance, f"rel_l2 {err:.3e} (tolerance {tolerance:.0e})"


def compare_variables(expected_dir, actual_dir, tolerance):
    """Prints a line per variable; returns True when all pass."""
    all_ok = True
    for name in make_mlp_training.VARIABLES:
        expected = np.load(os.path.join(expected_dir, name + ".npy"))
        ok, message = compare_variable(name, os.path.join(actual_dir, name + ".npy"), expected, tolerance)
        print(f"  {name:5} {'ok  ' if ok else 'FAIL'} {message}")
        all_ok = all_ok and ok
    return all_ok


# ---------------------------------------------------------------------------------------------------------------
# ge


def run_ge(ge, work, steps, vars_dir):
    cmd = [ge, "train", f"--model={os.path.join(work, 'mlp_train.onnx')}", f"--steps={steps}",
           f"--input=X={os.path.join(work, 'X.npy')}", f"--input=Y={os.path.join(work, 'Y.npy')}",
           f"--save_variables={vars_dir}"]
    print("$ " + " ".join(cmd))
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=GE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        print(f"ge train did not finish within {GE_TIMEOUT_S} s")
        return False
    except OSError as e:
        print(f"cannot run {ge}: {e}")
        return False
    if r.returncode != 0:
        print(f"ge train failed with exit status {r.returncode}; stdout:\n{r.stdout}\nstderr:\n{r.stderr}")
        return False
    return True


# ---------------------------------------------------------------------------------------------------------------
# Self-test: a numpy evaluator of exactly the ops the model uses, with TrainingInfoProto's step semantics.


def op_momentum(inputs, attrs, dtype):
    r, t, rest = inputs[0], inputs[1], inputs[2:]
    n = len(rest) // 3
    xs, gs, vs = rest[:n], rest[n:2 * n], rest[2 * n:]
    assert attrs["mode"] == b"standard"
    alpha, beta, norm = (dtype(attrs[k]) for k in ("alpha", "beta", "norm_coefficient"))
    beta_adjusted = beta if t > 0 else dtype(1)
    new_v = [alpha * v + beta_adjusted * (norm * x + g) for x, g, v in zip(xs, gs, vs)]
    return [x - r * v for x, v in zip(xs, new_v)] + new_v


def op_reduce(fn):
    def run(inputs, attrs, dtype):
        axes = tuple(inputs[1]) if len(inputs) > 1 else tuple(attrs.get("axes", [])) or None
        return [fn(inputs[0], axis=axes, keepdims=bool(attrs.get("keepdims", 1)))]
    return run


def as_compute_type(array, dtype):
    return array.astype(dtype) if array.dtype == np.float32 else array


def op_cast(inputs, attrs, dtype):
    assert attrs["to"] == onnx.TensorProto.FLOAT
    return [inputs[0].astype(dtype)]


OPS = {
    "Add": lambda i, a, d: [i[0] + i[1]],
    "Sub": lambda i, a, d: [i[0] - i[1]],
    "Mul": lambda i, a, d: [i[0] * i[1]],
    "MatMul": lambda i, a, d: [i[0] @ i[1]],
    "Relu": lambda i, a, d: [np.maximum(i[0], d(0))],
    "Transpose": lambda i, a, d: [np.transpose(i[0], a.get("perm"))],
    "Greater": lambda i, a, d: [i[0] > i[1]],
    "Cast": op_cast,
    "ReduceMean": op_reduce(np.mean),
    "ReduceSum": op_reduce(np.sum),
    "Momentum": op_momentum,
    "Constant": lambda i, a, d: [as_compute_type(numpy_helper.to_array(a["value"]), d)],
    "ConstantOfShape": lambda i, a, d: [np.full(i[0], as_compute_type(numpy_helper.to_array(a["value"]), d)[0])],
}


def evaluate(nodes, env, dtype):
    """Runs nodes (topologically ordered) on env, a dict name -> array, in place."""
    for node in nodes:
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        outputs = OPS[node.op_type]([env[name] for name in node.input], attrs, dtype)
        env.update(zip(node.output, outputs))


def initializer_values(graph, dtype):
    return {t.name: as_compute_type(numpy_helper.to_array(t), dtype) for t in graph.initializer}


def train_with_evaluator(work, steps, vars_dir, dtype):
    """What `ge train` does, with numpy: initialization once, then `steps` steps of inference graph + algorithm,
    each step's update_binding applied after the whole step. Writes <variable>.npy into vars_dir (float32 /
    int64, like ge) and returns the losses."""
    model = onnx.load(os.path.join(work, "mlp_train.onnx"))
    info = model.training_info[0]
    state = initializer_values(model.graph, dtype)
    state.update(initializer_values(info.algorithm, dtype))

    init_env = {}
    evaluate(info.initialization.node, init_env, dtype)
    state.update({b.key: init_env[b.value] for b in info.initialization_binding})

    inputs = {name: as_compute_type(np.load(os.path.join(work, name + ".npy")), dtype) for name in ("X", "Y")}
    losses = []
    for _ in range(steps):
        env = dict(state, **inputs)
        evaluate(list(model.graph.node) + list(info.algorithm.node), env, dtype)
        losses.append(env["loss"])
        state.update({b.key: env[b.value] for b in info.update_binding})

    os.makedirs(vars_dir, exist_ok=True)
    for name in {b.key for b in info.update_binding} | {b.key for b in info.initialization_binding}:
        value = state[name]
        np.save(os.path.join(vars_dir, name + ".npy"), value.astype(np.float32) if value.dtype.kind == "f" else value)
    return np.array(losses)


def check_rejections(work, good_dir):
    """The comparison must fail on a missing variable, a NaN, a wrong value and a wrong T."""
    expected_dir = os.path.join(work, "expected")
    cases = {"missing W1": ("W1", None), "NaN in V_B2": ("V_B2", lambda a: np.where(a == a.flat[0], np.nan, a)),
             "W2 off by 1e-4": ("W2", lambda a: a * np.float32(1 + 1e-4)), "T off by one": ("T", lambda a: a + 1),
             "B1 as float64": ("B1", lambda a: a.astype(np.float64))}
    all_ok = True
    for what, (name, corrupt) in cases.items():
        bad_dir = os.path.join(work, "bad_vars")
        shutil.rmtree(bad_dir, ignore_errors=True)
        shutil.copytree(good_dir, bad_dir)
        path = os.path.join(bad_dir, name + ".npy")
        if corrupt is None:
            os.remove(path)
        else:
            np.save(path, corrupt(np.load(path)))
        expected = np.load(os.path.join(expected_dir, name + ".npy"))
        ok, message = compare_variable(name, path, expected, TOLERANCE)
        print(f"  {what}: {'not detected' if ok else 'rejected'} ({message})")
        all_ok = all_ok and not ok
    return all_ok


def self_test(work, steps):
    expected_dir = os.path.join(work, "expected")
    expected_losses = np.load(os.path.join(expected_dir, "loss.npy"))
    ok = True
    for dtype, tolerance in ((np.float64, SELF_TEST_TOLERANCE), (np.float32, TOLERANCE)):
        vars_dir = os.path.join(work, f"evaluator_{dtype.__name__}_vars")
        losses = train_with_evaluator(work, steps, vars_dir, dtype)
        loss_err = relative_l2(losses, expected_losses)
        print(f"ONNX graphs evaluated in {dtype.__name__} vs numpy reference (tolerance {tolerance:.0e}); "
              f"losses rel_l2 {loss_err:.3e}")
        ok = compare_variables(expected_dir, vars_dir, tolerance) and loss_err <= tolerance and ok
    print("the comparison rejects bad variables:")
    return check_rejections(work, os.path.join(work, "evaluator_float32_vars")) and ok


# ---------------------------------------------------------------------------------------------------------------


def finish(work, given_work, ok):
    """Deletes a temporary work directory after a pass (keeps it after a failure, and always keeps a --work one),
    prints PASS or FAIL and returns the exit status."""
    if not given_work:
        if ok:
            shutil.rmtree(work)
        else:
            print(f"files kept in {work}")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--ge", help="the ge binary")
    what.add_argument("--self-test", action="store_true", help="check the model and reference without ge")
    parser.add_argument("--steps", type=int, default=make_mlp_training.DEFAULT_STEPS)
    parser.add_argument("--work", help="working directory (default: a temporary one, kept on failure)")
    parser.add_argument("--dynamic-batch", action="store_true",
                        help='the model declares its batch dim "N": the step has dynamic shapes (runtime v2)')
    args = parser.parse_args()

    work = args.work or tempfile.mkdtemp(prefix="ge_train_")
    os.makedirs(work, exist_ok=True)
    initial, final, min_abs_z = make_mlp_training.generate(work, args.steps, args.dynamic_batch)
    print(f"reference: {args.steps} steps, loss {initial:.6f} -> {final:.6f}, min |Z| {min_abs_z:.2e}")
    if min_abs_z < make_mlp_training.MIN_SAFE_ABS_Z:
        print("warning: a ReLU input came so close to 0 that float32 rounding may flip its mask and fail the check")

    if args.self_test:
        ok = self_test(work, args.steps)
    else:
        vars_dir = os.path.join(work, "ge_vars")
        shutil.rmtree(vars_dir, ignore_errors=True)
        ok = run_ge(args.ge, work, args.steps, vars_dir)
        if ok:
            print(f"ge train vs numpy reference (relative L2, tolerance {TOLERANCE:.0e}; T exact):")
            ok = compare_variables(os.path.join(work, "expected"), vars_dir, TOLERANCE)

    return finish(work, args.work, ok)


if __name__ == "__main__":
    sys.exit(main())
