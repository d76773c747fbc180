#!/usr/bin/python3
"""`ge inspect M.om --graph=FILE.svg` and `ge compile --dump_graph=FILE.svg` draw torchvision's resnet18 (random
weights) through Graphviz's dot: valid SVG with a box per node of the compiled graph, shapes on the edges, memory-plan
placements in the tooltips, a legend; .png and .dot by extension; without dot on PATH the .dot is written beside
and the message says so; an unknown extension is an error. Exits 77 (skipped) when dot is not installed.
usage: check_graph_picture.py GE_BINARY WORKDIR"""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

ge, work = sys.argv[1], sys.argv[2]
if shutil.which("dot") is None:
    print("SKIP: Graphviz's dot is not installed (Debian package graphviz)")
    sys.exit(77)
os.makedirs(work, exist_ok=True)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def ge_cmd(args, env=None):
    return subprocess.run([ge] + args, capture_output=True, text=True, errors="replace", timeout=600, env=env)


onnx_path, om = os.path.join(work, "resnet18.onnx"), os.path.join(work, "resnet18.om")
if not os.path.exists(onnx_path):
    import torch
    import torchvision
    torch.manual_seed(0)
    net = torchvision.models.resnet18(weights=None).eval()
    torch.onnx.export(net, torch.randn(1, 3, 224, 224), onnx_path, opset_version=17, input_names=["input"],
                      output_names=["logits"])

svg_compile = os.path.join(work, "compile.svg")
p = ge_cmd(["compile", "--model=" + onnx_path, "--output=" + om, "--dump_graph=" + svg_compile])
if not check(p.returncode == 0, f"ge compile --dump_graph=.svg failed: {p.stderr[-1000:]}"):
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
info = json.loads(ge_cmd(["inspect", om, "--json"]).stdout)
nodes = info["nodes"]

svg = os.path.join(work, "inspect.svg")
p = ge_cmd(["inspect", om, "--graph=" + svg])
check(p.returncode == 0 and "model:" in p.stdout, f"ge inspect --graph failed: {p.returncode} {p.stderr}")
for path in (svg, svg_compile):
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        failures.append(f"{path}: not SVG: {e}")
        continue
    ns = "{http://www.w3.org/2000/svg}"
    check(root.tag == ns + "svg", f"{path}: root element {root.tag}")
    titles = {t.text for t in root.iter(ns + "title")}
    missing = [i for i in range(nodes) if f"n{i}" not in titles]
    check(not missing, f"{path}: {len(missing)} of {nodes} nodes not drawn (first: n{missing[:1]})")
    text = open(path).read()
    for what in ("FusedConv", "@NHWC", "feature map @ ", "legend", "dnnl: oneDNN", "layout change (TransData)",
                 "fused op", "float32[1,3,224,224]"):
        check(what in text, f"{path}: no '{what}'")

png, dot = os.path.join(work, "inspect.png"), os.path.join(work, "inspect.dot")
p = ge_cmd(["inspect", om, "--graph=" + png])
check(p.returncode == 0 and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"--graph=.png: {p.stderr}")
p = ge_cmd(["inspect", om, "--json", "--graph=" + dot])
check(p.returncode == 0 and json.loads(p.stdout)["nodes"] == nodes, f"--graph with --json: {p.stderr}")
check(open(dot).read().startswith("digraph "), "--graph=.dot is not DOT text")

# No dot on PATH: the .dot beside the asked-for file, and a message saying so.
fallback = os.path.join(work, "nodot.svg")
env = dict(os.environ, PATH="/nonexistent")
p = ge_cmd(["inspect", om, "--graph=" + fallback], env=env)
check(p.returncode == 0 and "not installed" in p.stderr and os.path.exists(fallback[:-3] + "dot") and
      not os.path.exists(fallback), f"without dot: {p.returncode} {p.stderr}")

p = ge_cmd(["inspect", om, "--graph=" + os.path.join(work, "x.jpg")])
check(p.returncode == 1 and ".svg" in p.stderr, f"--graph=x.jpg: {p.returncode} {p.stderr}")

for f in failures:
    print("FAIL:", f)
print(f"{'FAILED' if failures else 'OK'}: graph picture checks on resnet18 ({nodes} nodes, {len(failures)} failures)")
sys.exit(1 if failures else 0)
