#!/usr/bin/python3
"""`make bench-ops`: an op-level sweep against ONNX Runtime. Builds one-node (or few-node) ONNX models for the ops real
models use over shapes real models produce (odd and prime channel counts, 1-D / 2-D / 3-D, strides, dilations, groups,
tiny and large spatial sizes, batch 1 and 8), compiles each with `ge compile`, times `ge run --json` and ONNX Runtime
(onnxruntime-node, same threads) alternating — ORT's time is its profiler's model_run (ort_bench.js with
ORT_BENCH_PROFILE_DIR), without the Node binding's copy of the outputs into JavaScript, which costs milliseconds for
large outputs; ge's is `ge run`'s median — and prints the cases worst first (ORT/ge below 1: ge is slower), with the
share of ge's kernels on reference implementations. Writes OUT/op_sweep.md and OUT/op_sweep.json.
usage: op_sweep.py [--ge build/bin/ge] [--out build/bench] [--threads 2] [--iters 20] [--rounds 2] [--filter SUBSTR]
                   [--list]"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OPSET = 17
RNG = np.random.default_rng(0)


def const(name, shape, scale=0.1):
    return numpy_helper.from_array((RNG.standard_normal(shape) * scale).astype(np.float32), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def model(nodes, inputs, outputs, inits=()):
    """inputs/outputs: [(name, shape)] float32; inits: TensorProtos."""
    g = helper.make_graph(nodes, "sweep", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in outputs], list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="ge-op-sweep")
    m.ir_version = 8
    return m


def conv(x, oc, k, stride=1, dil=1, group=1, pad=None):
    """x: input dims [N, C, spatial...]; k: kernel size per spatial dim."""
    nd = len(x) - 2
    pad = k // 2 * dil if pad is None else pad
    w = const("w", [oc, x[1] // group] + [k] * nd, 1.0 / math.sqrt(x[1] // group * k ** nd))
    b = const("b", [oc])
    out = [x[0], oc] + [(s + 2 * pad - dil * (k - 1) - 1) // stride + 1 for s in x[2:]]
    n = helper.make_node("Conv", ["x", "w", "b"], ["y"], kernel_shape=[k] * nd, strides=[stride] * nd,
                         dilations=[dil] * nd, pads=[pad] * (2 * nd), group=group)
    return model([n], [("x", x)], [("y", out)], [w, b])


def conv_transpose(x, oc, k, stride):
    nd = len(x) - 2
    w = const("w", [x[1], oc] + [k] * nd)
    pad = (k - stride) // 2
    out = [x[0], oc] + [(s - 1) * stride - 2 * pad + k for s in x[2:]]
    n = helper.make_node("ConvTranspose", ["x", "w"], ["y"], kernel_shape=[k] * nd, strides=[stride] * nd,
                         pads=[pad] * (2 * nd))
    return model([n], [("x", x)], [("y", out)], [w])


def unary(op, x, **attrs):
    return model([helper.make_node(op, ["x"], ["y"], **attrs)], [("x", x)], [("y", x)])


def binary(op, x, y_shape, const_y=True):
    out = list(np.broadcast_shapes(tuple(x), tuple(y_shape)))
    if const_y:
        return model([helper.make_node(op, ["x", "c"], ["y"])], [("x", x)], [("y", out)], [const("c", y_shape, 1.0)])
    return model([helper.make_node(op, ["x", "x2"], ["y"])], [("x", x), ("x2", y_shape)], [("y", out)])


def matmul(a, b, const_b=True):
    out = list(np.broadcast_shapes(tuple(a[:-2]), tuple(b[:-2]))) + [a[-2], b[-1]] if len(b) > 1 else a[:-1]
    if const_b:
        return model([helper.make_node("MatMul", ["x", "w"], ["y"])], [("x", a)], [("y", out)], [const("w", b)])
    return model([helper.make_node("MatMul", ["x", "x2"], ["y"])], [("x", a), ("x2", b)], [("y", out)])


def pool(op, x, k, stride, pad=0):
    out = x[:2] + [(s + 2 * pad - k) // stride + 1 for s in x[2:]]
    nd = len(x) - 2
    return model([helper.make_node(op, ["x"], ["y"], kernel_shape=[k] * nd, strides=[stride] * nd,
                                   pads=[pad] * (2 * nd))], [("x", x)], [("y", out)])


def global_pool(op, x):
    return model([helper.make_node(op, ["x"], ["y"])], [("x", x)], [("y", x[:2] + [1] * (len(x) - 2))])


def softmax(x, axis=-1):
    return unary("Softmax", x, axis=axis)


def layer_norm(x):
    d = x[-1]
    return model([helper.make_node("LayerNormalization", ["x", "s", "b"], ["y"], axis=-1, epsilon=1e-5)],
                 [("x", x)], [("y", x)], [const("s", [d], 1.0), const("b", [d])])


def batch_norm(x):
    c = x[1]
    var = numpy_helper.from_array(np.abs(RNG.standard_normal(c)).astype(np.float32) + 0.5, "v")
    return model([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])], [("x", x)], [("y", x)],
                 [const("s", [c], 1.0), const("b", [c]), const("m", [c]), var])


def instance_norm(x):
    c = x[1]
    return model([helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"], epsilon=1e-5)], [("x", x)],
                 [("y", x)], [const("s", [c], 1.0), const("b", [c])])


def group_norm_as_exported(x, groups):
    """PyTorch's GroupNorm export: Reshape to [N, G, -1], InstanceNormalization, Reshape back, Mul, Add."""
    c = x[1]
    nodes = [helper.make_node("Reshape", ["x", "s1"], ["r"]),
             helper.make_node("InstanceNormalization", ["r", "ones", "zeros"], ["n"], epsilon=1e-5),
             helper.make_node("Reshape", ["n", "s2"], ["r2"]),
             helper.make_node("Mul", ["r2", "g"], ["m"]),
             helper.make_node("Add", ["m", "b"], ["y"])]
    inits = [ints("s1", [x[0], groups, -1]), ints("s2", x),
             numpy_helper.from_array(np.ones(groups, np.float32), "ones"),
             numpy_helper.from_array(np.zeros(groups, np.float32), "zeros"),
             const("g", [c] + [1] * (len(x) - 2), 1.0), const("b", [c] + [1] * (len(x) - 2))]
    return model(nodes, [("x", x)], [("y", x)], inits)


def resize(x, scale, mode, ctm="half_pixel"):
    out = x[:2] + [int(s * scale) for s in x[2:]]
    n = helper.make_node("Resize", ["x", "", "scales"], ["y"], mode=mode, coordinate_transformation_mode=ctm,
                         nearest_mode="floor")
    scales = numpy_helper.from_array(np.array([1, 1] + [scale] * (len(x) - 2), np.float32), "scales")
    return model([n], [("x", x)], [("y", out)], [scales])


def pad(x, p, mode):
    nd = len(x)
    pads = [0, 0] + [p] * (nd - 2) + [0, 0] + [p] * (nd - 2)
    out = x[:2] + [s + 2 * p for s in x[2:]]
    return model([helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode)], [("x", x)], [("y", out)],
                 [ints("pads", pads)])


def reduce(op, x, axes, keepdims=1):
    out = [1 if i in [a % len(x) for a in axes] else s for i, s in enumerate(x)]
    if not keepdims:
        out = [s for i, s in enumerate(x) if i not in [a % len(x) for a in axes]]
    if op == "ReduceSum":
        return model([helper.make_node(op, ["x", "axes"], ["y"], keepdims=keepdims)], [("x", x)], [("y", out)],
                     [ints("axes", axes)])
    return model([helper.make_node(op, ["x"], ["y"], axes=axes, keepdims=keepdims)], [("x", x)], [("y", out)])


def transpose(x, perm):
    return model([helper.make_node("Transpose", ["x"], ["y"], perm=perm)], [("x", x)],
                 [("y", [x[p] for p in perm])])


def concat(shapes, axis):
    out = list(shapes[0])
    out[axis] = sum(s[axis] for s in shapes)
    names = [f"x{i}" for i in range(len(shapes))]
    return model([helper.make_node("Concat", names, ["y"], axis=axis)], list(zip(names, shapes)), [("y", out)])


def einsum(eq, a, b, out):
    return model([helper.make_node("Einsum", ["x", "x2"], ["y"], equation=eq)], [("x", a), ("x2", b)], [("y", out)])


def gelu_erf(x):
    """GELU as PyTorch exports it, x * 0.5 * (1 + erf(x / sqrt(2))), after a residual Add as in a real model (a GELU
    reads a node's result, never a graph input)."""
    nodes = [helper.make_node("Add", ["x", "x2"], ["g"]),
             helper.make_node("Div", ["g", "sqrt2"], ["d"]), helper.make_node("Erf", ["d"], ["e"]),
             helper.make_node("Add", ["e", "one"], ["a"]), helper.make_node("Mul", ["g", "a"], ["m"]),
             helper.make_node("Mul", ["m", "half"], ["y"])]
    inits = [numpy_helper.from_array(np.array(math.sqrt(2), np.float32), "sqrt2"),
             numpy_helper.from_array(np.array(1, np.float32), "one"),
             numpy_helper.from_array(np.array(0.5, np.float32), "half")]
    return model(nodes, [("x", x), ("x2", x)], [("y", x)], inits)


def rnn(op, seq, batch, inp, hidden, direction="forward"):
    dirs = 2 if direction == "bidirectional" else 1
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[op]
    attrs = {"hidden_size": hidden, "direction": direction}
    if op == "GRU":
        attrs["linear_before_reset"] = 1  # PyTorch's GRU
    n = helper.make_node(op, ["x", "W", "R", "B"], ["y"], **attrs)
    inits = [const("W", [dirs, gates * hidden, inp]), const("R", [dirs, gates * hidden, hidden]),
             const("B", [dirs, 2 * gates * hidden])]
    return model([n], [("x", [seq, batch, inp])], [("y", [seq, dirs, batch, hidden])], inits)


def cases():
    """(family, name, model builder) over shapes real models produce."""
    c = []
    add = lambda fam, name, fn: c.append((fam, name, fn))  # noqa: E731
    for n in (1, 8):
        add("Conv2d", f"3x3 64->64 56x56 n{n}", lambda n=n: conv([n, 64, 56, 56], 64, 3))
    add("Conv2d", "3x3 3->32 s2 224x224 (stem)", lambda: conv([1, 3, 224, 224], 32, 3, stride=2))
    add("Conv2d", "7x7 3->64 s2 224x224 (stem)", lambda: conv([1, 3, 224, 224], 64, 7, stride=2, pad=3))
    add("Conv2d", "1x1 256->64 56x56", lambda: conv([1, 256, 56, 56], 64, 1))
    add("Conv2d", "1x1 1024->2048 s2 14x14", lambda: conv([1, 1024, 14, 14], 2048, 1, stride=2, pad=0))
    add("Conv2d", "3x3 512->512 7x7", lambda: conv([1, 512, 7, 7], 512, 3))
    add("Conv2d", "3x3 37->53 31x29 (odd)", lambda: conv([1, 37, 31, 29], 53, 3))
    add("Conv2d", "3x3 13->7 97x101 (prime)", lambda: conv([1, 13, 97, 101], 7, 3))
    add("Conv2d", "3x3 dil2 256->256 28x28", lambda: conv([1, 256, 28, 28], 256, 3, dil=2))
    add("Conv2d", "3x3 dw 96 s2 112x112", lambda: conv([1, 96, 112, 112], 96, 3, stride=2, group=96))
    add("Conv2d", "5x5 dw 240 14x14", lambda: conv([1, 240, 14, 14], 240, 5, group=240))
    add("Conv2d", "3x3 dw 32 112x112", lambda: conv([1, 32, 112, 112], 32, 3, group=32))
    add("Conv2d", "3x3 g8 128->128 28x28", lambda: conv([1, 128, 28, 28], 128, 3, group=8))
    add("Conv2d", "3x3 64->64 4x4 (tiny)", lambda: conv([1, 64, 4, 4], 64, 3))
    add("Conv1d", "k10 s5 1->512 16000 (audio stem)", lambda: conv([1, 1, 16000], 512, 10, stride=5, pad=0))
    add("Conv1d", "k3 s2 512->512 3199", lambda: conv([1, 512, 3199], 512, 3, stride=2, pad=0))
    add("Conv1d", "1x1 64->128 2048 points", lambda: conv([8, 64, 2048], 128, 1, pad=0))
    add("Conv1d", "1x1 3->64 1024 points (PointNet)", lambda: conv([8, 3, 1024], 64, 1, pad=0))
    add("Conv1d", "k5 80->256 300 (speech)", lambda: conv([1, 80, 300], 256, 5))
    add("Conv1d", "k31 dw 256 500 (conformer)", lambda: conv([1, 256, 500], 256, 31, group=256))
    add("Conv3d", "3x3x3 3->64 16x56x56 (video stem)", lambda: conv([1, 3, 16, 56, 56], 64, 3))
    add("Conv3d", "3x3x3 64->64 8x28x28", lambda: conv([1, 64, 8, 28, 28], 64, 3))
    add("ConvTranspose", "4x4 s2 128->64 32x32", lambda: conv_transpose([1, 128, 32, 32], 64, 4, 2))
    add("ConvTranspose", "2x2 s2 256->128 28x28 (U-Net)", lambda: conv_transpose([1, 256, 28, 28], 128, 2, 2))
    add("ConvTranspose", "k4 s2 1-D 256->128 500", lambda: conv_transpose([1, 256, 500], 128, 4, 2))
    for m_ in (1, 128):
        add("MatMul", f"[{m_},768]x[768,3072] const", lambda m_=m_: matmul([m_, 768], [768, 3072]))
    add("MatMul", "[8,128,768]x[768,768] const", lambda: matmul([8, 128, 768], [768, 768]))
    add("MatMul", "[1,12,128,64]x[1,12,64,128] (attention)", lambda: matmul([1, 12, 128, 64], [1, 12, 64, 128], False))
    add("MatMul", "[1,37,53]x[53,61] const (odd)", lambda: matmul([1, 37, 53], [53, 61]))
    add("MatMul", "[64,1000]x[1000,1] const (gemv)", lambda: matmul([64, 1000], [1000, 1]))
    add("Pool", "MaxPool 3x3 s2 64 112x112", lambda: pool("MaxPool", [1, 64, 112, 112], 3, 2, 1))
    add("Pool", "AveragePool 2x2 s2 256 28x28", lambda: pool("AveragePool", [1, 256, 28, 28], 2, 2))
    add("Pool", "MaxPool 1-D k3 s2 64 1000", lambda: pool("MaxPool", [1, 64, 1000], 3, 2, 1))
    add("Pool", "MaxPool 1-D k2 s2 512 3199", lambda: pool("MaxPool", [1, 512, 3199], 2, 2))
    add("Pool", "MaxPool 2x2 s2 32 224x224 (plain)", lambda: pool("MaxPool", [1, 32, 224, 224], 2, 2))
    add("Pool", "GlobalAveragePool 2048 7x7", lambda: global_pool("GlobalAveragePool", [1, 2048, 7, 7]))
    add("Pool", "GlobalMaxPool 1024 7x7", lambda: global_pool("GlobalMaxPool", [8, 1024, 7, 7]))
    for op in ("Relu", "Sigmoid", "Tanh", "Erf", "Exp"):
        add("Unary", f"{op} [1,64,112,112]", lambda op=op: unary(op, [1, 64, 112, 112]))
    add("Unary", "Relu [1,37,13] (tiny)", lambda: unary("Relu", [1, 37, 13]))
    add("GELU", "Add + Erf-GELU [1,128,3072]", lambda: gelu_erf([1, 128, 3072]))
    add("GELU", "Add + Erf-GELU [1,512,3199] (audio)", lambda: gelu_erf([1, 512, 3199]))
    add("Binary", "Add [1,64,56,56]+[1,64,56,56]", lambda: binary("Add", [1, 64, 56, 56], [1, 64, 56, 56], False))
    add("Binary", "Mul [1,256,28,28]*[1,256,1,1]", lambda: binary("Mul", [1, 256, 28, 28], [1, 256, 1, 1]))
    add("Binary", "Add [8,128,768]+[768]", lambda: binary("Add", [8, 128, 768], [768]))
    add("Binary", "Div [1,12,128,128]/[]", lambda: binary("Div", [1, 12, 128, 128], []))
    add("Softmax", "[1,12,128,128] axis -1", lambda: softmax([1, 12, 128, 128]))
    add("Softmax", "[64,1000]", lambda: softmax([64, 1000]))
    add("Softmax", "[1,21,64,64] axis 1", lambda: softmax([1, 21, 64, 64], 1))
    add("Norm", "LayerNorm [8,128,768]", lambda: layer_norm([8, 128, 768]))
    add("Norm", "BatchNorm [1,64,112,112]", lambda: batch_norm([1, 64, 112, 112]))
    add("Norm", "InstanceNorm [1,64,128,128]", lambda: instance_norm([1, 64, 128, 128]))
    add("Norm", "InstanceNorm [1,128,64,64]", lambda: instance_norm([1, 128, 64, 64]))
    add("Norm", "GroupNorm(32) as exported [1,256,56,56]", lambda: group_norm_as_exported([1, 256, 56, 56], 32))
    add("Norm", "GroupNorm(512) as exported [1,512,3199] (audio)", lambda: group_norm_as_exported([1, 512, 3199], 512))
    add("Resize", "bilinear x8 [1,21,64,64]", lambda: resize([1, 21, 64, 64], 8.0, "linear"))
    add("Resize", "bilinear x2 [1,256,32,32]", lambda: resize([1, 256, 32, 32], 2.0, "linear"))
    add("Resize", "bilinear x2 align_corners [1,64,56,56]",
        lambda: resize([1, 64, 56, 56], 2.0, "linear", "align_corners"))
    add("Resize", "nearest x2 [1,64,64,64]", lambda: resize([1, 64, 64, 64], 2.0, "nearest", "asymmetric"))
    add("Resize", "cubic x2 [1,3,112,112]", lambda: resize([1, 3, 112, 112], 2.0, "cubic"))
    add("Pad", "reflect 4 [1,3,256,256]", lambda: pad([1, 3, 256, 256], 4, "reflect"))
    add("Pad", "reflect 1 [1,64,128,128]", lambda: pad([1, 64, 128, 128], 1, "reflect"))
    add("Pad", "edge 2 [1,32,64,64]", lambda: pad([1, 32, 64, 64], 2, "edge"))
    add("Pad", "constant 3 [1,32,64,64]", lambda: pad([1, 32, 64, 64], 3, "constant"))
    add("Reduce", "ReduceMax [8,1024,1024] axis 2 (points)", lambda: reduce("ReduceMax", [8, 1024, 1024], [2]))
    add("Reduce", "ReduceMean [1,768,49] axis -1", lambda: reduce("ReduceMean", [1, 768, 49], [-1]))
    add("Reduce", "ReduceMean [1,2048,7,7] axes 2,3", lambda: reduce("ReduceMean", [1, 2048, 7, 7], [2, 3]))
    add("Reduce", "ReduceSum [8,128,768] axis 1", lambda: reduce("ReduceSum", [8, 128, 768], [1]))
    add("Reduce", "ReduceMean [1,128,768] axis -1 keepdims 0",
        lambda: reduce("ReduceMean", [1, 128, 768], [-1], 0))
    add("Transpose", "[1,12,128,64] perm 0,2,1,3", lambda: transpose([1, 12, 128, 64], [0, 2, 1, 3]))
    add("Transpose", "[1,64,56,56] perm 0,2,3,1", lambda: transpose([1, 64, 56, 56], [0, 2, 3, 1]))
    add("Concat", "3x [1,64,56,56] axis 1", lambda: concat([[1, 64, 56, 56]] * 3, 1))
    add("Concat", "[8,128,384]+[8,128,384] axis -1", lambda: concat([[8, 128, 384]] * 2, 2))
    add("Einsum", "bhqd,bhkd->bhqk [1,8,64,32]", lambda: einsum("bhqd,bhkd->bhqk", [1, 8, 64, 32], [1, 8, 64, 32],
                                                                [1, 8, 64, 64]))
    add("Einsum", "bij,bjk->bik [16,49,32]x[16,32,49]", lambda: einsum("bij,bjk->bik", [16, 49, 32], [16, 32, 49],
                                                                      [16, 49, 49]))
    add("RNN", "LSTM 128->256 seq 100", lambda: rnn("LSTM", 100, 1, 128, 256))
    add("RNN", "LSTM bidirectional 64->128 seq 50 batch 8", lambda: rnn("LSTM", 50, 8, 64, 128, "bidirectional"))
    add("RNN", "GRU 128->256 seq 100", lambda: rnn("GRU", 100, 1, 128, 256))
    add("RNN", "GRU bidirectional 100->128 seq 40 batch 4", lambda: rnn("GRU", 40, 4, 100, 128, "bidirectional"))
    return c


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError("no JSON line: " + text[-300:])


def run(cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if r.returncode != 0:
        raise RuntimeError(((r.stderr or r.stdout).strip().splitlines() or ["exit %d" % r.returncode])[-1][-300:])
    return r.stdout


def ref_share(impls):
    """Fraction of ge's kernels (by count) on reference implementations."""
    total = sum(impls.values()) or 1
    return sum(n for k, n in impls.items() if k == "ref" or "(ref" in k or ":ref" in k) / total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ge", default="build/bin/ge")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--filter", default="", help="only cases whose family or name contains this")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    todo = [c for c in cases() if a.filter.lower() in (c[0] + " " + c[1]).lower()]
    if a.list:
        for fam, name, _ in todo:
            print(f"{fam:14} {name}")
        return 0
    ort_modules = os.environ.get("ORT_NODE_MODULES", os.path.expanduser("~/.cache/ge-bench/ort/node_modules"))
    if not (shutil.which("node") and os.path.isdir(os.path.join(ort_modules, "onnxruntime-node"))):
        sys.exit("op_sweep.py: onnxruntime-node is needed (make bench-ort)")
    env = dict(os.environ, NODE_PATH=ort_modules)
    os.makedirs(a.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="ge_op_sweep_")
    results = []
    print(f"op sweep: {len(todo)} cases, {a.threads} threads, {a.iters} iterations, best median of {a.rounds}",
          flush=True)
    for fam, name, build in todo:
        r = {"family": fam, "case": name}
        path = os.path.join(tmp, "m.onnx")
        om = os.path.join(tmp, "m.om")
        try:
            onnx.save(build(), path)
            run([a.ge, "compile", f"--model={path}", f"--output={om}", f"--threads={a.threads}"])
            ge_ms, ort_ms, impls = [], [], {}
            for _ in range(a.rounds):
                o = last_json(run(["node", os.path.join(HERE, "ort_bench.js"), path, str(a.iters), str(a.threads)],
                                  env=dict(env, ORT_BENCH_PROFILE_DIR=tmp)))
                ort_ms.append(o.get("run_median_ms", o["median_ms"]))
                g = last_json(run([a.ge, "run", f"--model={om}", f"--loop={a.iters}", "--warmup=3",
                                   f"--threads={a.threads}", "--json"]))
                ge_ms.append(g["median_ms"])
                impls = g.get("impls", {})
            r.update(ge_ms=min(ge_ms), ort_ms=min(ort_ms), impls=impls, ref_share=ref_share(impls))
            r["ratio"] = r["ort_ms"] / r["ge_ms"]
            print(f"{fam:14} {name:48} ge {r['ge_ms']:9.3f} ms  ORT {r['ort_ms']:9.3f} ms  ORT/ge {r['ratio']:5.2f}"
                  + (f"  ref {r['ref_share']:.0%}" if r["ref_share"] else ""), flush=True)
        except Exception as e:  # noqa: BLE001 - a failing case is reported, the sweep goes on
            r["error"] = str(e)
            print(f"{fam:14} {name:48} FAILED: {e}", flush=True)
        results.append(r)
    shutil.rmtree(tmp, ignore_errors=True)
    timed = sorted((r for r in results if "ratio" in r), key=lambda r: r["ratio"])
    lines = ["| family | case | ge ms | ORT ms | ORT/ge | ge kernels |", "|---|---|---|---|---|---|"]
    for r in timed:
        kinds = ", ".join(f"{k}×{n}" for k, n in sorted(r["impls"].items()))
        lines.append(f"| {r['family']} | {r['case']} | {r['ge_ms']:.3f} | {r['ort_ms']:.3f} | {r['ratio']:.2f} | "
                     f"{kinds} |")
    failed = [r for r in results if "error" in r]
    summary = ""
    if timed:
        geo = math.exp(sum(math.log(r["ratio"]) for r in timed) / len(timed))
        slow = [r for r in timed if r["ratio"] < 0.8]
        summary = (f"{len(timed)} cases: ORT/ge geometric mean {geo:.2f}, worst {timed[0]['ratio']:.2f} "
                   f"({timed[0]['family']} {timed[0]['case']}); {len(slow)} more than 1.25x slower than ORT"
                   + (f"; {len(failed)} failed" if failed else ""))
    print("\nworst first:\n" + "\n".join(lines[:12]) + "\n" + summary)
    with open(os.path.join(a.out, "op_sweep.md"), "w") as f:
        f.write("# ge vs ONNX Runtime, op by op\n\n" + summary + "\n\n" + "\n".join(lines) + "\n")
        for r in failed:
            f.write(f"\nFAILED {r['family']} {r['case']}: {r['error']}\n")
    with open(os.path.join(a.out, "op_sweep.json"), "w") as f:
        json.dump({"threads": a.threads, "iters": a.iters, "summary": summary, "cases": results}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
