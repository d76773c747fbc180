#!/usr/bin/python3
"""Proves that scripts/install_deps.sh is complete: every file outside the source and build trees that the build
read, or that the built programs load, and every Python module the tests import, belongs to a Debian package that
the script installs, either listed in its `packages` array or in the Depends/Pre-Depends closure of that list.
Recommends do not count: the script installs with --no-install-recommends, so a package that is here only because
something recommended it (or because somebody installed it by hand) would be missing on a fresh machine.

What the build read: the headers of every object (`ninja -t deps`), every CMake file the configure step read (the
inputs of build.ninja's RERUN_CMAKE rule, i.e. package configs and find modules), every file named in
CMakeCache.txt, every absolute library on a link line of build.ninja, and the shared libraries each built ELF file
loads (ldd). Python: the modules imported by the test and benchmark scripts, imported by /usr/bin/python3, with
every module file they pull in.

usage: check_deps_complete.py SOURCE_DIR BUILD_DIR [--install-script PATH]
Exit 0 when complete; 1 naming each file, the package it comes from, and how the build or tests reach it."""
import ast
import os
import re
import shutil
import subprocess
import sys

SKIP_PREFIXES = ("/proc/", "/sys/", "/dev/", "/tmp/", "/etc/ld.so.cache")
# Programs the built binaries or the tests run (with the libraries they load): Graphviz's dot draws graph pictures.
PROGRAMS = ("dot",)


def parse_args(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    src, build = os.path.realpath(argv[1]), os.path.realpath(argv[2])
    script = os.path.join(src, "scripts", "install_deps.sh")
    if "--install-script" in argv:
        script = argv[argv.index("--install-script") + 1]
    return src, build, script


def listed_packages(script):
    """The words of the script's `packages=( ... )` array (comments removed)."""
    text = open(script).read()
    m = re.search(r"^packages=\((.*?)^\)", text, re.S | re.M)
    if not m:
        sys.exit(f"{script}: no packages=( ... ) array")
    words = []
    for line in m.group(1).splitlines():
        words += line.split("#", 1)[0].split()
    return words


def installed_status():
    """name -> {Depends, Pre-Depends, Provides} for every installed package, from dpkg's status file."""
    pkgs = {}
    fields = {}
    for line in open("/var/lib/dpkg/status", encoding="utf-8", errors="replace").read().split("\n") + [""]:
        if not line:
            if fields.get("Status", "").endswith("installed") and "Package" in fields:
                if fields["Status"] == "install ok installed":
                    pkgs[fields["Package"]] = fields
            fields = {}
            key = None
        elif line[0] in " \t":
            if key:
                fields[key] += " " + line.strip()
        else:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return pkgs


def clause_names(field):
    """'a (>= 1) | b:any, c' -> [['a', 'b'], ['c']]"""
    out = []
    for clause in field.split(","):
        alts = []
        for alt in clause.split("|"):
            name = re.sub(r"\(.*?\)|\[.*?\]|<.*?>", "", alt).strip().split(":")[0]
            if name:
                alts.append(name)
        if alts:
            out.append(alts)
    return out


def closure(roots, pkgs):
    """Packages apt installs for `roots` without Recommends: the Depends/Pre-Depends closure. For an alternative
    (a | b) or a virtual package the installed choice is followed."""
    providers = {}
    for name, f in pkgs.items():
        for alts in clause_names(f.get("Provides", "")):
            providers.setdefault(alts[0], []).append(name)

    def resolve(name):
        if name in pkgs:
            return name
        return sorted(providers.get(name, [None]))[0]

    seen, missing, stack = set(), [], list(roots)
    while stack:
        name = stack.pop()
        real = resolve(name)
        if real is None:
            if name in roots:
                missing.append(name)
            continue
        if real in seen:
            continue
        seen.add(real)
        f = pkgs[real]
        for field in ("Depends", "Pre-Depends"):
            for alts in clause_names(f.get(field, "")):
                chosen = next((a for a in alts if resolve(a)), None)
                if chosen:
                    stack.append(chosen)
    return seen, missing


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def build_inputs(src, build):
    """file -> how the build reached it."""
    files = {}

    def add(path, why):
        if path and os.path.isabs(path) and os.path.isfile(path):
            files.setdefault(os.path.normpath(path), why)

    deps = run(["ninja", "-C", build, "-t", "deps"])
    if deps.returncode != 0:
        sys.exit("ninja -t deps failed: " + deps.stderr)
    target = None
    for line in deps.stdout.splitlines():
        if line and not line[0].isspace():
            target = line.split(":")[0]
        elif line.strip():
            p = line.strip()
            add(p if os.path.isabs(p) else os.path.join(build, p), "header of " + str(target))
    ninja = open(os.path.join(build, "build.ninja")).read()
    m = re.search(r"^build build\.ninja: RERUN_CMAKE [^|\n]*\|(.*?)$", ninja, re.M)
    if not m:
        sys.exit("build.ninja has no RERUN_CMAKE rule")
    for p in m.group(1).replace("$\n", " ").split():
        add(p, "read by CMake's configure step")
    for line in open(os.path.join(build, "CMakeCache.txt"), errors="replace"):
        m = re.match(r"([A-Za-z0-9_.+-]+):(FILEPATH|PATH|STRING|UNINITIALIZED)=(/.*)$", line.strip())
        if m:
            for p in m.group(3).split(";"):
                add(p, "CMakeCache.txt " + m.group(1))
    for m in re.finditer(r"^\s*LINK_LIBRARIES = (.*)$", ninja, re.M):
        for p in m.group(1).split():
            if p.startswith("/"):
                add(p, "linked (build.ninja)")
    for root, _, names in os.walk(build):
        for n in names:
            p = os.path.join(root, n)
            if not os.access(p, os.X_OK) or os.path.islink(p):
                continue
            with open(p, "rb") as fh:
                if fh.read(4) != b"\x7fELF":
                    continue
            out = run(["ldd", p]).stdout
            for lib in re.findall(r"=> (/\S+)", out) + re.findall(r"^\s*(/\S+) \(0x", out, re.M):
                add(lib, "loaded by " + os.path.relpath(p, build))
    for prog in PROGRAMS:
        path = shutil.which(prog, path="/usr/bin:/bin")
        if path is None:
            continue  # its package is listed: "listed but not installed here" names it
        add(path, "program run by ge and the tests")  # /usr/bin/dot: graphviz's (a link to libgvc6's wrapper)
        out = run(["ldd", os.path.realpath(path)]).stdout
        for lib in re.findall(r"=> (/\S+)", out):
            add(lib, "loaded by " + prog)
    return {f: why for f, why in files.items()
            if not f.startswith((src + "/", build + "/")) and not f.startswith(SKIP_PREFIXES)}


def test_python_imports(src):
    """Top-level modules that the project's Python scripts import and that are not in the standard library or the
    project itself."""
    names, local = set(), set()
    for d in ("tests", "bench", "samples", "scripts", "python"):
        for root, _, files in os.walk(os.path.join(src, d)):
            for f in files:
                if not f.endswith(".py"):
                    continue
                local.add(f[:-3])
                if f == "__init__.py":
                    local.add(os.path.basename(root))  # a package of the project (python/ge: `import ge`)
                try:
                    tree = ast.parse(open(os.path.join(root, f)).read())
                except SyntaxError:
                    continue
                for node in ast.walk(tree):
                    if isinstance(node, ast.Import):
                        names.update(a.name.split(".")[0] for a in node.names)
                    elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                        names.add(node.module.split(".")[0])
    return sorted(n for n in names if n not in local and n not in sys.stdlib_module_names)


def python_module_files(modules):
    """file -> module, for every module file /usr/bin/python3 loads when importing `modules`."""
    code = ("import sys, importlib\n"
            "for m in sys.argv[1:]:\n"
            "    try: importlib.import_module(m)\n"
            "    except Exception as e: print('IMPORT-ERROR', m, repr(e)[:200])\n"
            "for name, mod in list(sys.modules.items()):\n"
            "    f = getattr(mod, '__file__', None)\n"
            "    if f: print('FILE', name, f)\n")
    extra = ["torch.onnx"] if "torch" in modules else []
    bare = {line.split(" ", 2)[2] for line in run(["/usr/bin/python3", "-c", code]).stdout.splitlines()
            if line.startswith("FILE ")}
    r = run(["/usr/bin/python3", "-c", code] + modules + extra, timeout=600)
    files, errors = {}, []
    for line in r.stdout.splitlines():
        if line.startswith("FILE ") and line.split(" ", 2)[2] in bare:
            continue  # loaded by interpreter start-up (site, .pth hooks of whatever is installed), not by the tests
        parts = line.split(" ", 2)
        if parts[0] == "FILE" and len(parts) == 3:
            files.setdefault(os.path.realpath(parts[2]), "Python module " + parts[1])
        elif parts[0] == "IMPORT-ERROR":
            errors.append(line)
    return files, errors


def owners(paths):
    """path -> set of owning packages (dpkg -S) of the first that has owners of: the path itself (a -dev
    package's unversioned .so symlink belongs to the -dev package, not to the library it points at), its merged-/usr
    twin, its real path and that one's twin."""
    result = {}
    todo = {}
    for p in paths:
        cands = []
        for c in (p, os.path.realpath(p)):
            cands.append(c)
            if c.startswith(("/usr/lib/", "/usr/bin/", "/usr/sbin/")):
                cands.append(c[4:])
            elif c.startswith(("/lib/", "/bin/", "/sbin/", "/lib64/")):
                cands.append("/usr" + c)
        todo[p] = list(dict.fromkeys(cands))
    index = {}
    flat = sorted({c for cs in todo.values() for c in cs})
    for i in range(0, len(flat), 500):
        out = run(["dpkg", "-S"] + flat[i:i + 500]).stdout
        for line in out.splitlines():
            if line.startswith("diversion "):
                continue
            pk, sep, path = line.partition(": ")
            if sep:
                index.setdefault(path.strip(), set()).update(x.strip().split(":")[0] for x in pk.split(","))
    for p, cs in todo.items():
        result[p] = next((index[c] for c in cs if index.get(c)), set())
    return result


def main():
    src, build, script = parse_args(sys.argv)
    pkgs = installed_status()
    listed = listed_packages(script)
    allowed, not_installed = closure(listed, pkgs)
    problems = [f"{p}: listed in {os.path.relpath(script, src)} but not installed here (run it first)"
                for p in not_installed]

    files = build_inputs(src, build)
    modules = test_python_imports(src)
    py_files, import_errors = python_module_files(modules)
    problems += [f"{e} (a module the tests import cannot be imported by /usr/bin/python3)" for e in import_errors]
    files.update({f: why for f, why in py_files.items() if f not in files})

    own = owners(files)
    bad = {}
    for f, why in sorted(files.items()):
        pk = own[f]
        if not pk:
            problems.append(f"{f} ({why}) belongs to no Debian package: installed by hand, so a fresh machine lacks it")
        elif not (pk & allowed):
            bad.setdefault(tuple(sorted(pk)), []).append((f, why))
    for pk, items in sorted(bad.items()):
        f, why = items[0]
        more = f" and {len(items) - 1} more file(s)" if len(items) > 1 else ""
        problems.append(f"{f} ({why}){more} comes from package {' / '.join(pk)}, which "
                        f"{os.path.basename(script)} neither lists nor pulls in through Depends/Pre-Depends: add "
                        f"{pk[0]} to its list")
    print(f"checked {len(files)} files ({len(py_files)} from Python modules {', '.join(modules)}) against "
          f"{len(listed)} listed packages and their {len(allowed)}-package Depends/Pre-Depends closure")
    for p in problems:
        print("MISSING: " + p)
    if problems:
        print(f"{len(problems)} problem(s): {script} is incomplete")
        return 1
    print(f"{script} is complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
