#!/usr/bin/python3
"""Writes an ONNX model of a small MLP that carries a TrainingInfoProto (one full-batch gradient-descent step with
ONNX's preview-training Momentum), its training data and the numpy reference of N training steps.

usage: make_mlp_training.py --out DIR [--steps N] [--dynamic-batch]
--dynamic-batch declares the batch dim of X, P and Y symbolic ("N"): the data stays [64, ...].
writes DIR/mlp_train.onnx, DIR/X.npy, DIR/Y.npy, DIR/init/<parameter>.npy (the initial W1, B1, W2, B2, for
programs that build the model themselves), DIR/expected/<variable>.npy and DIR/expected/loss.npy"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

TRAINING_DOMAIN = "ai.onnx.preview.training"
BATCH, N_IN, N_HIDDEN, N_OUT = 64, 8, 16, 4
PARAMS = ["W1", "B1", "W2", "B2"]
VELOCITIES = ["V_" + p for p in PARAMS]
VARIABLES = PARAMS + VELOCITIES + ["T"]
SHAPES = {"W1": [N_IN, N_HIDDEN], "B1": [N_HIDDEN], "W2": [N_HIDDEN, N_OUT], "B2": [N_OUT]}
SHAPES.update({"V_" + p: s for p, s in list(SHAPES.items())})
SHAPES["T"] = []

LEARNING_RATE = 0.05
ALPHA, BETA, NORM_COEFFICIENT = 0.9, 0.1, 0.001
GRAD_SCALE = 2.0 / (BATCH * N_OUT)  # d mean((P-Y)^2) / dP = 2 (P-Y) / numel; 2/256 is exact in float32
DEFAULT_STEPS = 100
# Seeds picked so that over the default 100 steps no ReLU input comes closer to 0 than 3.8e-5, 70x the largest
# difference between float32 and float64 values of Z: float32 rounding cannot flip a ReLU mask and jump a gradient.
INIT_SEED, DATA_SEED = 1, 6
# Below this min |Z| a float32 runtime may take the other side of a ReLU kink than the float64 reference.
MIN_SAFE_ABS_Z = 1e-5


def as_f32(x):
    """The value a float attribute or float32 tensor really holds once written to the proto."""
    return np.float64(np.float32(x))


# ---------------------------------------------------------------------------------------------------------------
# Data and initial values


def make_data():
    rng = np.random.default_rng(DATA_SEED)
    x = rng.standard_normal((BATCH, N_IN)).astype(np.float32)
    a = rng.normal(0.0, 0.6, (N_IN, N_OUT))
    c = rng.normal(0.0, 0.2, N_OUT)
    y = np.tanh(x.astype(np.float64) @ a + c).astype(np.float32)
    return x, y


def initial_initializers():
    """Every initializer of ModelProto.graph, as float32 (T: int64)."""
    rng = np.random.default_rng(INIT_SEED)
    values = {
        "W1": rng.normal(0.0, 1.0 / np.sqrt(N_IN), SHAPES["W1"]),
        "B1": rng.normal(0.0, 0.1, SHAPES["B1"]),
        "W2": rng.normal(0.0, 1.0 / np.sqrt(N_HIDDEN), SHAPES["W2"]),
        "B2": rng.normal(0.0, 0.1, SHAPES["B2"]),
    }
    # The stored velocities are deliberately not zero: only the initialization graph zeroes them, so a runtime that
    # skips it produces different variables and fails the check.
    for v in VELOCITIES:
        values[v] = rng.uniform(-1.0, 1.0, SHAPES[v])
    values = {k: v.astype(np.float32) for k, v in values.items()}
    values["R"] = np.array(LEARNING_RATE, dtype=np.float32)
    values["T"] = np.array(0, dtype=np.int64)
    return values


# ---------------------------------------------------------------------------------------------------------------
# ONNX model


def tensor_info(name, elem_type, shape):
    return helper.make_tensor_value_info(name, elem_type, shape)


def float_info(name, shape):
    return tensor_info(name, TensorProto.FLOAT, shape)


def inference_graph(init_values, batch=BATCH):
    nodes = [
        helper.make_node("MatMul", ["X", "W1"], ["XW1"]),
        helper.make_node("Add", ["XW1", "B1"], ["Z"]),
        helper.make_node("Relu", ["Z"], ["H"]),
        helper.make_node("MatMul", ["H", "W2"], ["HW2"]),
        helper.make_node("Add", ["HW2", "B2"], ["P"]),
    ]
    initializers = [numpy_helper.from_array(v, name) for name, v in init_values.items()]
    return helper.make_graph(nodes, "mlp", [float_info("X", [batch, N_IN])], [float_info("P", [batch, N_OUT])],
                             initializers)


def algorithm_graph(batch=BATCH):
    """One training step. Per onnx.proto (TrainingInfoProto.algorithm) it runs as the concatenation of
    ModelProto.graph and this graph, so it uses the inference graph's input X, its values Z, H, P and its
    initializers by name without redeclaring them; only Y is a new input."""
    nodes = [
        # loss = mean((P - Y)^2)
        helper.make_node("Sub", ["P", "Y"], ["D"]),
        helper.make_node("Mul", ["D", "D"], ["D2"]),
        helper.make_node("ReduceMean", ["D2"], ["loss"], keepdims=0),
        # backward pass
        helper.make_node("Mul", ["D", "grad_scale"], ["dP"]),
        helper.make_node("Transpose", ["H"], ["HT"]),
        helper.make_node("MatMul", ["HT", "dP"], ["dW2"]),
        helper.make_node("Constant", [], ["axes0"], value=numpy_helper.from_array(np.array([0], np.int64))),
        helper.make_node("ReduceSum", ["dP", "axes0"], ["dB2"], keepdims=0),
        helper.make_node("Transpose", ["W2"], ["W2T"]),
        helper.make_node("MatMul", ["dP", "W2T"], ["dH"]),
        helper.make_node("Constant", [], ["zero_f"], value=numpy_helper.from_array(np.array(0.0, np.float32))),
        helper.make_node("Greater", ["Z", "zero_f"], ["Z_pos"]),
        helper.make_node("Cast", ["Z_pos"], ["relu_mask"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["dH", "relu_mask"], ["dZ"]),
        helper.make_node("Transpose", ["X"], ["XT"]),
        helper.make_node("MatMul", ["XT", "dZ"], ["dW1"]),
        helper.make_node("ReduceSum", ["dZ", "axes0"], ["dB1"], keepdims=0),
        # optimizer and step counter
        helper.make_node("Momentum", ["R", "T"] + PARAMS + ["d" + p for p in PARAMS] + VELOCITIES,
                         [v + "_new" for v in PARAMS + VELOCITIES], domain=TRAINING_DOMAIN, mode="standard",
                         alpha=ALPHA, beta=BETA, norm_coefficient=NORM_COEFFICIENT),
        helper.make_node("Add", ["T", "one_i64"], ["T_new"]),
    ]
    initializers = [
        numpy_helper.from_array(np.array(GRAD_SCALE, np.float32), "grad_scale"),
        numpy_helper.from_array(np.array(1, np.int64), "one_i64"),
    ]
    outputs = [float_info("loss", [])]
    outputs += [float_info(v + "_new", SHAPES[v]) for v in PARAMS + VELOCITIES]
    outputs += [tensor_info("T_new", TensorProto.INT64, [])]
    return helper.make_graph(nodes, "mlp_train_step", [float_info("Y", [batch, N_OUT])], outputs, initializers)


def initialization_graph():
    """Zeroes the momentum velocities once before training."""
    nodes, outputs = [], []
    for v in VELOCITIES:
        shape = numpy_helper.from_array(np.array(SHAPES[v], np.int64))
        nodes.append(helper.make_node("Constant", [], [v + "_shape"], value=shape))
        nodes.append(helper.make_node("ConstantOfShape", [v + "_shape"], [v + "_zero"],
                                      value=numpy_helper.from_array(np.zeros([1], np.float32))))
        outputs.append(float_info(v + "_zero", SHAPES[v]))
    return helper.make_graph(nodes, "mlp_train_init", [], outputs)


def combined_training_graph(model):
    """The graph a training step runs: ModelProto.graph and the algorithm concatenated (onnx.proto,
    TrainingInfoProto.algorithm)."""
    main, algorithm = model.graph, model.training_info[0].algorithm
    return helper.make_graph(list(main.node) + list(algorithm.node), "combined",
                             list(main.input) + list(algorithm.input), list(main.output) + list(algorithm.output),
                             list(main.initializer) + list(algorithm.initializer))


def check_training_model(model):
    """onnx 1.12's checker ignores training_info, so its graphs are also checked as models of their own."""
    onnx.checker.check_model(model, full_check=True)
    for graph in (combined_training_graph(model), model.training_info[0].initialization):
        standalone = helper.make_model(graph, ir_version=model.ir_version, opset_imports=model.opset_import)
        onnx.checker.check_model(standalone, full_check=True)


def build_model(init_values, dynamic_batch=False):
    """dynamic_batch: the batch dim of X, P and Y is the symbol "N" (the step then has dynamic shapes; the loss
    scale grad_scale stays that of the 64-row data)."""
    batch = "N" if dynamic_batch else BATCH
    model = helper.make_model(inference_graph(init_values, batch), ir_version=8,
                              opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(TRAINING_DOMAIN, 1)],
                              producer_name="ge tests/training/make_mlp_training.py")
    update_binding = [(v, v + "_new") for v in PARAMS + VELOCITIES + ["T"]]
    init_binding = [(v, v + "_zero") for v in VELOCITIES]
    model.training_info.append(
        helper.make_training_info(algorithm_graph(batch), update_binding, initialization_graph(), init_binding))
    return model


# ---------------------------------------------------------------------------------------------------------------
# numpy reference (float64 arithmetic on the float32 initial values)


def forward_backward(state, x, y):
    """Returns the loss, the gradients and min |Z| (how close a ReLU input came to its kink)."""
    z = x @ state["W1"] + state["B1"]
    h = np.maximum(z, 0.0)
    d = h @ state["W2"] + state["B2"] - y
    loss = np.mean(d * d)
    dp = d * GRAD_SCALE
    dz = (dp @ state["W2"].T) * (z > 0)
    grads = {"W1": x.T @ dz, "B1": dz.sum(axis=0), "W2": h.T @ dp, "B2": dp.sum(axis=0)}
    return loss, grads, np.abs(z).min()


def momentum_step(r, t, x, g, v):
    """ai.onnx.preview.training Momentum, mode "standard"."""
    g_regularized = as_f32(NORM_COEFFICIENT) * x + g
    beta_adjusted = as_f32(BETA) if t > 0 else 1.0  # the first step (T == 0) takes the whole gradient
    v_new = as_f32(ALPHA) * v + beta_adjusted * g_regularized
    return x - r * v_new, v_new


def train_reference(init_values, x, y, steps):
    """Returns the variables after `steps` steps and the loss of each step. Each step reads only the values from
    before it, so Momentum sees T before its increment."""
    state = {k: v.astype(np.float64) if v.dtype == np.float32 else v.copy() for k, v in init_values.items()}
    for v in VELOCITIES:
        state[v] = np.zeros_like(state[v])  # the initialization graph
    x, y = x.astype(np.float64), y.astype(np.float64)
    losses, min_abs_z = [], np.inf
    for _ in range(steps):
        loss, grads, zmin = forward_backward(state, x, y)
        losses.append(loss)
        min_abs_z = min(min_abs_z, zmin)
        new = {}
        for p in PARAMS:
            new[p], new["V_" + p] = momentum_step(state["R"], state["T"], state[p], grads[p], state["V_" + p])
        new["T"] = state["T"] + 1
        state.update(new)
    return state, np.array(losses), min_abs_z


# ---------------------------------------------------------------------------------------------------------------


def generate(out_dir, steps=DEFAULT_STEPS, dynamic_batch=False):
    """Writes everything into out_dir; returns (initial loss, final loss, min |Z|)."""
    for sub in ("expected", "init"):
        os.makedirs(os.path.join(out_dir, sub), exist_ok=True)
    x, y = make_data()
    init_values = initial_initializers()
    model = build_model(init_values, dynamic_batch)
    check_training_model(model)
    onnx.save(model, os.path.join(out_dir, "mlp_train.onnx"))
    np.save(os.path.join(out_dir, "X.npy"), x)
    np.save(os.path.join(out_dir, "Y.npy"), y)
    for p in PARAMS:
        np.save(os.path.join(out_dir, "init", p + ".npy"), init_values[p])

    state, losses, min_abs_z = train_reference(init_values, x, y, steps)
    for v in VARIABLES:
        np.save(os.path.join(out_dir, "expected", v + ".npy"), state[v].astype(init_values[v].dtype))
    np.save(os.path.join(out_dir, "expected", "loss.npy"), losses.astype(np.float32))
    # Losses are per step, before that step's update; the final loss is that of the trained variables.
    final_loss = forward_backward(state, x.astype(np.float64), y.astype(np.float64))[0]
    return losses[0] if steps else final_loss, final_loss, min_abs_z


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--steps", type=int, default=DEFAULT_STEPS, help="training steps of the reference")
    parser.add_argument("--dynamic-batch", action="store_true", help='batch dim of X, P and Y declared as "N"')
    args = parser.parse_args()
    initial, final, min_abs_z = generate(args.out, args.steps, args.dynamic_batch)
    print(f"mlp_train.onnx: {args.steps} steps, loss {initial:.6f} -> {final:.6f}, min |Z| {min_abs_z:.2e}, "
          f"written to {args.out}")
    if min_abs_z < MIN_SAFE_ABS_Z:
        print(f"warning: min |Z| < {MIN_SAFE_ABS_Z:.0e}; float32 rounding may flip a ReLU mask")


if __name__ == "__main__":
    main()
