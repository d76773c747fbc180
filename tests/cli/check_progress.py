#!/usr/bin/python3
"""Progress of long CLI work (issue 30): `ge compile --tune` draws a progress line on a terminal (a pseudo-terminal
here), erases it before its result, and prints none when stderr is not a terminal or with --json.

usage: check_progress.py GE MODEL.onnx WORKDIR"""
import os
import pty
import subprocess
import sys

ERASE = b"\r\x1b[K"


def run_on_terminal(cmd):
    """Runs cmd with stdout and stderr on a pseudo-terminal; returns (exit code, everything it wrote)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(cmd[0], cmd)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out


def main():
    ge, model, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    om = os.path.join(work, "tuned.om")
    base = [ge, "compile", f"--model={model}", f"--output={om}", "--threads=1", "--tune"]
    failures = []

    code, out = run_on_terminal(base)
    if code != 0:
        failures.append(f"compile --tune on a terminal failed ({code}): {out[-500:]!r}")
    elif b"tune " not in out or b" nodes, " not in out or ERASE not in out:
        failures.append(f"no progress line on a terminal: {out[-500:]!r}")
    elif out.rfind(ERASE) < out.rfind(b"tune "):
        failures.append("the progress line was not erased")

    code, out = run_on_terminal(base + ["--json"])
    if code != 0 or ERASE in out:
        failures.append(f"--json on a terminal: exit {code}, progress drawn: {ERASE in out}")

    r = subprocess.run(base, capture_output=True)
    if r.returncode != 0 or ERASE in r.stderr or b"\x1b" in r.stderr:
        failures.append(f"not a terminal: exit {r.returncode}, escape codes in stderr: {r.stderr[-300:]!r}")

    for f in failures:
        print("FAIL", f)
    print("progress: ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
