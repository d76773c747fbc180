#!/usr/bin/python3
"""The mutation harness (tools/mutate) on a tiny fixture project (tests/mutate/fixture, copied into a fresh git
repository and built with CMake + Ninja): its verdicts are right, a mutant marked equivalent is not counted, and
the tree is clean after a full run, after SIGINT (Ctrl-C) and SIGTERM in the middle of one, and after a SIGKILL
followed by `mutate.py --restore`.
usage: check_mutate.py SOURCE_DIR WORKDIR"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

source, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
harness = os.path.join(source, "tools", "mutate", "mutate.py")
repo = os.path.join(work, "fixture")
build = os.path.join(repo, "build")
failures = []


def sh(*cmd, **kw):
    return subprocess.run(cmd, cwd=repo, capture_output=True, text=True, check=True, **kw).stdout


def status():
    return sh("git", "status", "--porcelain", "--untracked-files=all")


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


shutil.rmtree(work, ignore_errors=True)
shutil.copytree(os.path.join(source, "tests", "mutate", "fixture"), repo)
sh("git", "init", "-q")
sh("git", "add", "-A")
sh("git", "-c", "user.name=fixture", "-c", "user.email=fixture@localhost", "commit", "-qm", "fixture")
sh("cmake", "-S", ".", "-B", build, "-G", "Ninja")
sh("cmake", "--build", build)
original = open(os.path.join(repo, "lib", "clamp.cc"), "rb").read()

# What it would mutate: lib/ only (not cli/), nothing inside the comment or the string literal.
listing = sh(sys.executable, harness, "--dir", "lib", "--build", build, "--list")
expect("clamp_test" in listing and "clamp_cli_runs" in listing, "--list names the test binary and the labelled ctest")
expect("cli/clamp_cli.cc" not in listing, "--list mutates the folder's sources only")
expect(all(":3 " not in l and ":5 " not in l for l in listing.splitlines() if "lib/clamp.cc" in l),
       "nothing in comments or string literals is mutated")
ids = {}
for line in listing.splitlines():
    parts = line.split()
    if len(parts) >= 3 and parts[1].startswith("lib/clamp.cc:"):
        ids.setdefault((int(parts[1].split(":")[1]), parts[2]), []).append(parts[0])

# A full run with the `x < lo` -> `x <= lo` mutant marked equivalent (Clamp(lo) is lo either way).
marked = os.path.join(work, "equivalent.txt")
with open(marked, "w") as f:
    f.write(f"{ids[(7, 'boundary')][0]}  Clamp(x=lo) returns lo either way\n")
report = os.path.join(work, "report.json")
run = subprocess.run([sys.executable, harness, "--dir", "lib", "--n", "100", "--seed", "3", "--build", build,
                      "--equivalents", marked, "--json", report], cwd=repo, capture_output=True, text=True)
print(run.stdout[-3000:])
expect(run.returncode == 0, f"a full run exits 0 (got {run.returncode}: {run.stderr[-500:]})")
expect(status() == "", "git status is clean after a full run")
res = json.load(open(report))["folders"][0]["mutants"]
verdict = {(e["line"], e["operator"]): e["verdict"] for e in res}
expect(len(res) == 12, f"every one of the 12 candidates was tried (got {len(res)})")
for line in (7, 8):
    for op in ("relational", "cond_true", "cond_false"):
        expect(verdict.get((line, op)) == "KILLED", f"line {line} {op}: KILLED (got {verdict.get((line, op))})")
for op in ("relational", "boundary", "cond_true", "cond_false"):
    expect(verdict.get((13, op)) == "SURVIVED", f"untested line 13 {op}: SURVIVED (got {verdict.get((13, op))})")
expect(verdict.get((7, "boundary")) == "equivalent", "a mutant marked equivalent is reported so, not counted")
expect(verdict.get((8, "boundary")) in ("SURVIVED", "equivalent"), "`x >= hi` (equivalent) is not KILLED")
killed_by = {e["by"].split()[0] for e in res if e["verdict"] == "KILLED"}
expect(killed_by <= {"clamp_test", "clamp_cli_runs"}, f"kills name the test ({killed_by})")
expect("overall: 6/" in run.stdout, "the summary counts 6 kills")

# Known bugs: each must stay KILLED (exit 0); one that survives fails the run (exit 1); the tree stays clean.
known = os.path.join(work, "known_bugs.txt")
with open(known, "w") as f:
    f.write("== lib: Clamp ignores the lower bound\nfile: lib/clamp.cc\n-   if (x < lo) return lo;\n\n")
run = subprocess.run([sys.executable, harness, "--known", known, "--build", build], cwd=repo, capture_output=True,
                     text=True)
expect(run.returncode == 0 and "1/1 killed" in run.stdout, f"--known: a caught bug passes ({run.returncode}: "
       f"{run.stdout[-400:]})")
with open(known, "a") as f:
    f.write("== lib: Untested returns 1 from 3 up\nfile: lib/clamp.cc\n-   if (a > 3) return 1;\n+   if (a >= 3) return 1;\n")
run = subprocess.run([sys.executable, harness, "--known", known, "--build", build], cwd=repo, capture_output=True,
                     text=True)
expect(run.returncode == 1 and "1/2 killed" in run.stdout, f"--known: a bug no test catches fails the run "
       f"({run.returncode}: {run.stdout[-400:]})")
expect(status() == "", "git status is clean after --known runs")


def interrupted_run(sig):
    """Starts a run, waits until a mutant is written (the journal exists), sends sig; returns the exit code."""
    path = os.path.join(repo, "lib", "clamp.cc")
    proc = subprocess.Popen([sys.executable, harness, "--dir", "lib", "--n", "100", "--seed", "5", "--build", build],
                            cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 120
    mutated = False
    while not mutated and proc.poll() is None and time.time() < deadline:
        time.sleep(0.002)
        with open(path, "rb") as f:
            mutated = f.read() != original
    proc.send_signal(sig)
    out, _ = proc.communicate(timeout=120)
    return proc.returncode, mutated, out


for sig in (signal.SIGINT, signal.SIGTERM):
    code, caught_mutated, out = interrupted_run(sig)
    name = signal.Signals(sig).name
    expect(code == 130, f"{name} mid-run exits 130 (got {code}: {out[-300:]})")
    expect(caught_mutated, f"{name} came while a mutant was applied")
    expect(status() == "", f"git status is clean after {name} mid-run")
    expect(open(os.path.join(repo, "lib", "clamp.cc"), "rb").read() == original, f"the source is byte-identical "
           f"after {name}")

# SIGKILL cannot be caught: the tree stays mutated until the journal is replayed (by --restore or the next run).
code, caught_mutated, _ = interrupted_run(signal.SIGKILL)
dirty = status()
expect(caught_mutated and dirty.strip() == "M lib/clamp.cc", f"after SIGKILL the mutant is still there "
       f"({dirty.strip()!r})")
sh(sys.executable, harness, "--restore", "--build", build)
expect(status() == "", "mutate.py --restore cleans the tree after a SIGKILL")
expect(open(os.path.join(repo, "lib", "clamp.cc"), "rb").read() == original, "the source is byte-identical after "
       "--restore")

if failures:
    print(f"{len(failures)} check(s) failed:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("mutation harness: all checks passed")
