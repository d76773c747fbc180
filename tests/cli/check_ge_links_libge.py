#!/usr/bin/python3
"""`ge` is built on libge.so alone (issue 30): its dynamic section needs libge.so, and it defines no function or
data of ge's internal layers (compiler, runtime, ir, om, rt, kernels, ...), which it would if one of their static
libraries were linked into it. Its own code (ge::cli, and ge::EditDistance / ge::ClosestName compiled from
src/base/edit_distance.cc, npy.cc, shape.cc and float16.cc, the standard library and the public Tensor only) is all it may define in namespace ge; inline functions of the
public headers (weak symbols) are fine.
usage: check_ge_links_libge.py GE_BINARY LIBGE_SO"""
import os
import re
import subprocess
import sys

ge, libge = sys.argv[1], sys.argv[2]
failures = []

dynamic = subprocess.run(["readelf", "-d", ge], capture_output=True, text=True, check=True).stdout
needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
libge_soname = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]",
                         subprocess.run(["readelf", "-d", libge], capture_output=True, text=True,
                                        check=True).stdout).group(1)
if libge_soname not in needed:
    failures.append(f"{os.path.basename(ge)} does not need {libge_soname}; it needs {needed}")
else:
    print(f"ok   needs {libge_soname} (and {', '.join(n for n in needed if n != libge_soname)})")

# ge::cli: the CLI's own code; the rest: src/base/edit_distance.cc, npy.cc, shape.cc and float16.cc, compiled into ge (the
# standard library and the public Tensor only).
ALLOWED = ("ge::cli::", "ge::EditDistance(", "ge::ClosestName(", "ge::ReadNpy(", "ge::WriteNpy(", "ge::ParseNpy(",
           "ge::NumElements(", "ge::CheckedNumElements(", "ge::DimsToString[", "ge::Shape::",
           "ge::float16::")
symbols = subprocess.run(["nm", "-C", "--defined-only", ge], capture_output=True, text=True, check=True).stdout
internal = []
for line in symbols.splitlines():
    parts = line.split(" ", 2)
    if len(parts) < 3:
        continue
    kind, name = parts[1], parts[2]
    # Global strong definitions only: weak ones (W, V, u) are inline functions and templates instantiated from
    # headers; local ones (t, d, ...) come with the global ones of their file.
    if kind not in "TDBR" or not re.match(r"(typeinfo (name )?for |vtable for )?ge::", name):
        continue
    bare = re.sub(r"^(typeinfo (name )?for |vtable for )", "", name)
    if not bare.startswith(ALLOWED):
        internal.append(name)
if internal:
    failures.append(f"{len(internal)} definitions from ge's own libraries in {os.path.basename(ge)} (an internal "
                    f"library is linked into it; link ge_library only): " + "; ".join(sorted(internal)[:8]))
else:
    print("ok   defines nothing of ge's libraries (only ge::cli, the edit distance and .npy files)")

# The public commands run in ge itself: a copy of ge in a folder without ge-dev still compiles, runs (an .om and
# ONNX on the interpreter) and lists options; only the developer tools need ge-dev.
import shutil
import tempfile
sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples", "tiny_cnn.onnx")
with tempfile.TemporaryDirectory() as alone:
    lone_ge = os.path.join(alone, "ge")
    shutil.copy2(ge, lone_ge)
    om = os.path.join(alone, "tiny.om")
    for args in (["compile", f"--model={sample}", f"--output={om}", "--threads=1"], ["run", f"--model={om}"],
                 ["run", f"--model={sample}"], ["options", "--json"]):
        r = subprocess.run([lone_ge] + args, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            failures.append(f"`ge {' '.join(args[:1])}` needs ge-dev or failed without it: {r.stderr.strip()[-300:]}")
        else:
            print(f"ok   ge {args[0]} runs without ge-dev")
    r = subprocess.run([lone_ge, "inspect", f"--model={om}"], capture_output=True, text=True, timeout=60)
    if r.returncode == 0 or "ge-dev" not in r.stderr:
        failures.append(f"ge inspect without ge-dev: expected the developer binary to be named missing, got {r.returncode}")
    else:
        print("ok   ge inspect is a developer tool (ge-dev)")

if failures:
    for f in failures:
        print("FAIL", f)
    sys.exit(1)
print("PASS")
