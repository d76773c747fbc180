#!/usr/bin/env python3
"""ONNX external data stays in its file (issue 11, external weights), through the command line.

usage: check_onnx_external_data.py GE TWO_LOADS_RSS MODEL.onnx WORK_DIR

MODEL.onnx is saved again with its initializers as ONNX external data (onnx.save_model(save_as_external_data=True):
one data file, tensors at unaligned offsets). `ge compile` of that model gives a .om that copies none of it: the
weights become ge::FileConstant nodes reading the model's data file in place (`ge compile --json`:
external_data_bytes equal to the data file's size; the .om under 1 MB; `ge inspect` lists the data file). Its
outputs are bit-identical to the build of the original (embedded) model and to `--embed_external_data`. The .om
and the data file move together (the path is recorded relative to the .om's directory). Two loads in one process
share the data: the second adds less than 10% of the weights' size to RSS. A missing data file, or one whose
bytes changed since compiling, makes `ge run` fail naming it.
Exit 0 on success, 1 on a failure, 77 when MODEL.onnx is missing (the model zoo was skipped).
"""
import json
import os
import shutil
import subprocess
import sys

import onnx

from cli_util import outputs, run


def expect_failure(cmd, needle, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode == 0 or needle not in p.stderr:
        raise SystemExit(f"FAIL: {what}: exit {p.returncode}, stderr {p.stderr!r} does not name {needle!r}")
    print(f"{what}: " + p.stderr.strip().splitlines()[-1])


def main():
    ge, rss_tool, model, work = sys.argv[1:5]
    if not os.path.exists(model):
        print(f"{model} does not exist: skipped")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    src_dir = os.path.join(work, "model")
    os.makedirs(src_dir)
    name = os.path.splitext(os.path.basename(model))[0]

    proto = onnx.load(model)
    ext_model = os.path.join(src_dir, name + ".onnx")
    data_name = name + ".data"
    onnx.save_model(proto, ext_model, save_as_external_data=True, location=data_name, size_threshold=1024)
    data_file = os.path.join(src_dir, data_name)
    data_bytes = os.path.getsize(data_file)
    print(f"{ext_model}: {os.path.getsize(ext_model)} bytes, data file {data_bytes} bytes")

    embedded = os.path.join(work, "embedded.om")
    run([ge, "compile", f"--model={model}", f"--output={embedded}"])
    run([ge, "run", f"--model={embedded}", f"--output_dir={work}/out_embedded"])
    want = outputs(f"{work}/out_embedded")

    om = os.path.join(src_dir, name + ".om")  # beside the data file: recorded relative to the .om
    report = json.loads(run([ge, "compile", f"--model={ext_model}", f"--output={om}", "--json"]).splitlines()[-1])
    size = os.path.getsize(om)
    print(f"in place: .om {size} bytes, {report['external_data_tensors']} tensors, "
          f"{report['external_data_bytes']} bytes of external data read in place, "
          f"{report['weights_bytes']} bytes of weights in the .om")
    if size >= 1 << 20:
        raise SystemExit(f"FAIL: {om} has {size} bytes (>= 1 MB)")
    if report["external_data_bytes"] != data_bytes:
        raise SystemExit(f"FAIL: {report['external_data_bytes']} bytes read in place, the data file has {data_bytes}")
    inspect = json.loads(run([ge, "inspect", om, "--json"]))
    listed = [f for f in inspect["external_weight_files"] if os.path.basename(f) == data_name]
    if not listed or inspect["missing_weight_files"]:
        raise SystemExit(f"FAIL: ge inspect: {inspect['external_weight_files']} missing "
                         f"{inspect['missing_weight_files']}")
    run([ge, "run", f"--model={om}", f"--output_dir={work}/out_in_place"])
    if outputs(f"{work}/out_in_place") != want:
        raise SystemExit("FAIL: outputs of the in-place build differ from the embedded build's")
    print("in place: outputs bit-identical to the embedded build")

    copied = os.path.join(work, "copied.om")
    report = json.loads(run([ge, "compile", f"--model={ext_model}", f"--output={copied}", "--embed_external_data",
                             "--json"]).splitlines()[-1])
    if report["external_data_bytes"] != 0 or report["weights_bytes"] < data_bytes // 2:
        raise SystemExit(f"FAIL: --embed_external_data still reads in place: {report}")
    run([ge, "run", f"--model={copied}", f"--output_dir={work}/out_copied"])
    if outputs(f"{work}/out_copied") != want:
        raise SystemExit("FAIL: outputs of --embed_external_data differ from the embedded build's")
    print(f"--embed_external_data: .om {os.path.getsize(copied)} bytes, outputs bit-identical")

    loads = json.loads(run([rss_tool, om, "--loads=2", f"--weights_bytes={data_bytes}",
                            "--max_file_growth_fraction=0.1"]))["loads"]
    print(f"RSS: first load +{loads[0]['growth_kb']} kB, second load +{loads[1]['growth_kb']} kB "
          f"({100.0 * loads[1]['growth_kb'] * 1024 / data_bytes:.1f}% of {data_bytes} weight bytes)")

    moved_dir = os.path.join(work, "moved")
    shutil.move(src_dir, moved_dir)
    moved_om = os.path.join(moved_dir, name + ".om")
    run([ge, "run", f"--model={moved_om}", f"--output_dir={work}/out_moved"])
    if outputs(f"{work}/out_moved") != want:
        raise SystemExit("FAIL: outputs after moving the .om with its data file differ")
    print("moved with its data file: outputs bit-identical")

    moved_data = os.path.join(moved_dir, data_name)
    shutil.move(moved_data, moved_data + ".away")
    expect_failure([ge, "run", f"--model={moved_om}"], data_name, "missing data file")
    shutil.move(moved_data + ".away", moved_data)
    with open(moved_data, "r+b") as f:
        f.seek(data_bytes // 2)
        b = f.read(1)
        f.seek(data_bytes // 2)
        f.write(bytes([b[0] ^ 0xFF]))
    expect_failure([ge, "run", f"--model={moved_om}"], "checksum", "changed data file")
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
