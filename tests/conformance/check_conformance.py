#!/usr/bin/python3
"""Runs `ge test-onnx` on the generated ONNX node-test suite and compares the failures with the
expected-failure list. Fails when a case fails that is not listed, when a listed case passes (so the list only
shrinks), and when the suite does not hold all EXPECTED_CASES cases (a broken generator must not pass by running
fewer). usage: check_conformance.py GE_BINARY SUITE_DIR EXPECTED_FAILURES_FILE [--om|--v2] [--option=KEY=VALUE ...]
--om compiles every case to an .om (in memory) and runs that instead of the interpreter; the engine line says how
many cases ran on the compiled sink runtime and how many on runtime v2; --v2 runs every case on runtime v2."""
import re
import subprocess
import sys

# The node tests generated from Debian's python3-onnx 1.12 (tests/conformance/gen_node_tests.py).
EXPECTED_CASES = 922

ge, suite, expected_file = sys.argv[1:4]
extra = sys.argv[4:]
expected = {}
for line in open(expected_file):
    line = line.split("#", 1)[0].strip()
    if line:
        expected[line] = True

r = subprocess.run([ge, "test-onnx", "--timeout=120"] + extra + [suite], capture_output=True, text=True)
failed = {}
summary = engines = None
for line in r.stdout.splitlines():
    m = re.match(r"FAIL (\S+): (.*)", line)
    if m:
        failed[m.group(1)] = m.group(2)
    elif re.match(r"ran on: ", line):
        engines = line
    elif re.match(r"\d+ passed, \d+ failed$", line):
        summary = line
if not summary or not engines:
    print("ge test-onnx printed no summary or engine line; stderr:\n" + r.stderr[-2000:])
    sys.exit(1)
print("ge test-onnx: " + engines)
print("ge test-onnx: " + summary)
passed, nfailed = map(int, re.findall(r"\d+", summary))
if passed + nfailed != EXPECTED_CASES:
    print(f"the suite ran {passed + nfailed} cases, expected {EXPECTED_CASES}: the generated suite is incomplete")
    sys.exit(1)
unexpected = sorted(set(failed) - set(expected))
fixed = sorted(set(expected) - set(failed))
for name in unexpected:
    print(f"UNEXPECTED FAILURE {name}: {failed[name]}")
for name in fixed:
    print(f"NOW PASSING (remove from {expected_file}): {name}")
sys.exit(1 if unexpected or fixed else 0)
