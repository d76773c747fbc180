#!/usr/bin/env python3
"""External weights acceptance (issue 11) on one ONNX model, through the command line.

usage: check_external_weights.py GE TWO_LOADS_RSS MODEL.onnx WORK_DIR

For --external_weight=1 and 2: `ge compile` gives a .om under 1 MB whose weights live in the weight directory
next to it, `ge run --output_dir` writes outputs byte-identical to the embedded build's, `ge inspect` lists the
weight files and none missing. Then TWO_LOADS_RSS loads the mode-2 .om twice in one process: the second load must
map no weight page again (file-backed RSS grows by less than 10% of the weights' size) and keep no private copy of
them either (it adds at least 90% of the weights' size less than a second load of the embedded build, whose
weights are mapped per load). What the second load does add is the model's own working memory (feature map,
kernel scratchpads), printed. Also: a missing weight file makes `ge run` fail naming it.
Exit 0 on success, 1 on a failure, 77 when MODEL.onnx is missing (the model zoo was skipped).
"""
import json
import os
import shutil
import subprocess
import sys

from cli_util import outputs, run


def main():
    ge, rss_tool, model, work = sys.argv[1:5]
    if not os.path.exists(model):
        print(f"{model} does not exist: skipped")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    name = os.path.splitext(os.path.basename(model))[0]

    embedded = os.path.join(work, name + ".om")
    run([ge, "compile", f"--model={model}", f"--output={embedded}"])
    run([ge, "run", f"--model={embedded}", f"--output_dir={work}/out_embedded"])
    want = outputs(f"{work}/out_embedded")
    print(f"embedded: {os.path.getsize(embedded)} bytes")

    for mode in ("1", "2"):
        om = os.path.join(work, f"{name}_ext{mode}.om")
        report = json.loads(run([ge, "compile", f"--model={model}", f"--output={om}", f"--external_weight={mode}",
                                 "--json"]).splitlines()[-1])
        size = os.path.getsize(om)
        weights = report["external_weights_bytes"]
        print(f"--external_weight={mode}: .om {size} bytes, {weights} weight bytes in "
              f"{report['external_weight_files']} file(s)")
        if size >= 1 << 20:
            raise SystemExit(f"FAIL: {om} has {size} bytes (>= 1 MB)")
        if weights == 0 or report["weights_bytes"] != 0:
            raise SystemExit(f"FAIL: weights not external: {report}")
        inspect = json.loads(run([ge, "inspect", om, "--json"]))
        if inspect["missing_weight_files"] or inspect["external_weights_bytes"] != weights:
            raise SystemExit(f"FAIL: ge inspect: {inspect['external_weight_files']} missing "
                             f"{inspect['missing_weight_files']}")
        run([ge, "run", f"--model={om}", f"--output_dir={work}/out_ext{mode}"])
        got = outputs(f"{work}/out_ext{mode}")
        if got != want:
            raise SystemExit(f"FAIL: outputs of --external_weight={mode} differ from the embedded build's")
        print(f"--external_weight={mode}: outputs bit-identical to the embedded build")

    om = os.path.join(work, f"{name}_ext2.om")
    ext = json.loads(run([rss_tool, om, "--loads=2", f"--weights_bytes={weights}",
                          "--max_file_growth_fraction=0.1"]))["loads"]
    emb = json.loads(run([rss_tool, embedded, "--loads=2"]))["loads"]
    for label, loads in (("embedded", emb), ("--external_weight=2", ext)):
        print(f"RSS {label}: first load +{loads[0]['growth_kb']} kB, second load +{loads[1]['growth_kb']} kB "
              f"(file-backed +{loads[1]['file_growth_kb']} kB, anonymous +{loads[1]['anon_growth_kb']} kB; "
              f"{100.0 * loads[1]['growth_kb'] * 1024 / weights:.1f}% of {weights} weight bytes)")
    saved = (emb[1]["growth_kb"] - ext[1]["growth_kb"]) * 1024
    if saved < 0.9 * weights:
        raise SystemExit(f"FAIL: a second load of the external-weight model saves only {saved} bytes over the "
                         f"embedded build's (weights: {weights})")

    weight_dir = os.path.join(work, f"{name}_ext2.weights")
    shutil.move(weight_dir, weight_dir + ".away")
    p = subprocess.run([ge, "run", f"--model={om}"], capture_output=True, text=True)
    if p.returncode == 0 or f"{name}_ext2_weight_combined" not in p.stderr:
        raise SystemExit(f"FAIL: ge run without its weight file: exit {p.returncode}, {p.stderr}")
    print("missing weight file: " + p.stderr.strip().splitlines()[-1])
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
