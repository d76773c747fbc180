#!/usr/bin/python3
"""Runs `ge test-onnx` on the generated ONNX node-test suite and compares the failures with the
expected-failure list. Fails when a case fails that is not listed, and when a listed case passes (so the list
only shrinks). usage: check_conformance.py GE_BINARY SUITE_DIR EXPECTED_FAILURES_FILE [--om]
--om compiles every case to an .om (in memory) and runs that instead of the interpreter."""
import re
import subprocess
import sys

ge, suite, expected_file = sys.argv[1:4]
extra = sys.argv[4:]
expected = {}
for line in open(expected_file):
    line = line.split("#", 1)[0].strip()
    if line:
        expected[line] = True

r = subprocess.run([ge, "test-onnx", "--timeout=120"] + extra + [suite], capture_output=True, text=True)
failed = {}
summary = ""
for line in r.stdout.splitlines():
    m = re.match(r"FAIL (\S+): (.*)", line)
    if m:
        failed[m.group(1)] = m.group(2)
    elif re.match(r"\d+ passed, \d+ failed", line):
        summary = line
if not summary:
    print("ge test-onnx printed no summary line; stderr:\n" + r.stderr[-2000:])
    sys.exit(1)
print("ge test-onnx: " + summary)
unexpected = sorted(set(failed) - set(expected))
fixed = sorted(set(expected) - set(failed))
for name in unexpected:
    print(f"UNEXPECTED FAILURE {name}: {failed[name]}")
for name in fixed:
    print(f"NOW PASSING (remove from {expected_file}): {name}")
sys.exit(1 if unexpected or fixed else 0)
