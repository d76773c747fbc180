#!/usr/bin/python3
"""ge's one option table from the command line: `--option` keys are checked against it (a misspelled key names the
closest one, a key the command's components do not read names who reads it, a bad value names the allowed ones),
`ge options` prints it (text and JSON), an unknown flag or command names the closest one, and `ge CMD --help`
succeeds for every command. The table and the sources agree: every key the sources under SOURCE_DIR read
(`Option("ge.x")`, `find("ge.x")`, `key == "ge.x"`, ...) is in the table, and every key the table says has an effect
on the CPU is read somewhere.
usage: check_options.py GE_BINARY WORKDIR SAMPLE.onnx SOURCE_DIR"""
import json
import os
import re
import subprocess
import sys

ge, work, sample, source_dir = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
failures = []


def ge_cmd(args):
    return subprocess.run([ge] + args, capture_output=True, text=True, errors="replace", timeout=300)


def expect(args, rc, text, stream="stderr"):
    r = ge_cmd(args)
    out = getattr(r, stream)
    if r.returncode != rc or text not in out:
        failures.append(f"ge {' '.join(args)}: exit {r.returncode} (want {rc}), {stream} {out.strip()[-400:]!r} "
                        f"(want {text!r})")
    else:
        print(f"ok   ge {' '.join(args)}")
    return r


om = os.path.join(work, "m.om")
compile_args = ["compile", f"--model={sample}", f"--output={om}"]

# The acceptance line: a misspelled key fails naming the key meant, and writes nothing.
if os.path.exists(om):
    os.remove(om)
expect(compile_args + ["--option=ge.exec.disableReuseMemry=1"], 1,
       "option 'ge.exec.disableReuseMemry' is not an option ge knows; did you mean 'ge.exec.disableReuseMemory'?")
if os.path.exists(om):
    failures.append("ge compile with a misspelled option wrote the .om")
expect(compile_args + ["--option=ge.exec.disableReuseMemory=1"], 0, "")
expect(compile_args + ["--option=ge.exec.v2Executor=priority"], 1, "is read by runtime v2, not here")
expect(compile_args + ["--option=ge.fusion=maybe"], 1, "option ge.fusion must be 0 or 1, got 'maybe'")
expect(compile_args + ["--option=ge.streamMaxParallelNum=0"], 1, "must be an integer in 1..999999999, got '0'")
expect(compile_args + ["--option=ge.fusion"], 1, "--option wants KEY=VALUE")
expect(compile_args + ["--option=ge.qqqqqqqqqqqqqqqq=1"], 1, "`ge options` lists them")
expect(["run", f"--model={om}", "--option=ge.exec.v2Exectuor=priority"], 1, "did you mean 'ge.exec.v2Executor'?")
expect(["run", f"--model={om}", "--option=ge.fusion=0"], 1, "is read by the compiler, not here")
# A compiled static model runs on the sink runtime: a valid runtime v2 key is accepted and said to be ignored.
expect(["run", f"--model={om}", "--option=ge.exec.v2Executor=priority"], 0, "which ignores them")
expect(["test-onnx", "--option=ge.format.activaton=NHWC", work], 2, "did you mean 'ge.format.activation'?")

# Unknown flags and commands name the closest.
expect(compile_args + ["--dump-graph=x"], 1, "unknown flag --dump-graph for ge compile; did you mean --dump_graph?")
expect(["run", "--modle=x.om"], 1, "did you mean --model?")
expect(["compil"], 2, "unknown command 'compil'; did you mean 'compile'?")

# ge options: the table as text and JSON, the same keys in both.
text = expect(["options"], 0, "ge.exec.disableReuseMemory = 0|1", "stdout").stdout
r = expect(["options", "--json"], 0, "[", "stdout")
try:
    rows = json.loads(r.stdout)
    names = [row["name"] for row in rows]
    keys = {"name", "type", "values", "default", "read_by", "effect_on_cpu", "description"}
    bad = [row["name"] for row in rows if set(row) != keys or not row["read_by"] or not row["description"]]
    if bad or len(rows) < 20 or len(set(names)) != len(names):
        failures.append(f"ge options --json: {len(rows)} rows, malformed: {bad}")
    missing = [n for n in names if f"\n{n} = " not in "\n" + text]
    if missing:
        failures.append(f"ge options lists fewer keys than its --json: {missing}")
    reuse = next(row for row in rows if row["name"] == "ge.exec.disableReuseMemory")
    if reuse["read_by"] != ["compiler"] or reuse["type"] != "bool" or reuse["default"] != "0":
        failures.append(f"ge options --json: ge.exec.disableReuseMemory is {reuse}")
except (ValueError, StopIteration, KeyError, TypeError) as e:
    failures.append(f"ge options --json: {e}: {r.stdout[:200]!r}")

# The table and the sources agree.
READ_RE = re.compile(r'(?:Option|find|count|ParseCount\(options,)\s*\(?\s*"(ge\.[A-Za-z0-9_.]+)"|[=!]=\s*"(ge\.[A-Za-z0-9_.]+)"')
read = {}
for folder in ("src", "tools"):
    for root, _, files in os.walk(os.path.join(source_dir, folder)):
        for name in files:
            if not name.endswith((".cc", ".h")) or re.search(r"_(test|fuzz|benchmark)\.", name):
                continue
            path = os.path.join(root, name)
            for m in READ_RE.finditer(open(path, encoding="utf-8", errors="replace").read()):
                read.setdefault(m.group(1) or m.group(2), os.path.relpath(path, source_dir))
try:
    table = {row["name"]: row for row in json.loads(ge_cmd(["options", "--json"]).stdout)}
    families = [n[: -len("<name>")] for n in table if n.endswith(".<name>")]
    if len(read) < 15:
        failures.append(f"only {len(read)} option reads found under {source_dir}: is the scan broken?")
    for key, where in sorted(read.items()):
        if key not in table and not any(key.startswith(f) for f in families):
            failures.append(f"{where} reads option {key}, which ge's option table (src/base/option_table.def) lacks")
    for name, row in sorted(table.items()):
        family = name[: -len("<name>")] if name.endswith(".<name>") else None
        if row["effect_on_cpu"] and not any(k == name or (family and k.startswith(family)) for k in read):
            failures.append(f"the option table says {name} has an effect, but nothing under src/ or tools/ reads it")
    print(f"ok   {len(read)} option keys read in the sources, all in the table; every effective key is read")
except ValueError as e:
    failures.append(f"ge options --json: {e}")

# Every command answers --help with its flags (and so no longer "unknown flag --help").
for command in ["compile", "run", "inspect", "run-op", "train", "test-onnx", "options"]:
    expect([command, "--help"], 0, f"usage: ge {command}", "stdout")
expect(["run", f"--model={om}", "-h"], 0, "--profile", "stdout")

if failures:
    for f in failures:
        print("FAIL", f)
    sys.exit(f"{len(failures)} check(s) failed")
print("PASS: --option is checked against ge's option table with the closest key named; ge options; --help")
