"""What covers a folder in a CMake + Ninja build: its production sources, their object files, the gtest binaries
and the labelled ctests that test it, and the build targets those need.

- gtest binaries: every executable target that compiles a `*_test.cc` of the folder (read from the build's
  compile_commands.json), plus those named for the folder in tools/mutate/covers.txt.
- ctests: the tests carrying the folder as a LABEL (`set_tests_properties(T PROPERTIES LABELS "tools/ge")`).
- targets to rebuild: those binaries, and every executable under the build's bin/ that a labelled ctest's command
  line names.
"""
import json
import os
import re
import shlex
import subprocess

TEST_SUFFIXES = ("_test.cc", "_fuzz.cc", "_benchmark.cc")
SOURCE_EXTENSIONS = (".cc", ".cpp")


def git_files(root, folder):
    out = subprocess.run(["git", "-C", root, "ls-files", "--", folder], capture_output=True, text=True, check=True)
    return sorted(p for p in out.stdout.splitlines() if p)


def production_sources(root, folder, headers=False):
    """The folder's (and its subfolders') production sources: no tests, fuzzers, benchmarks or test helpers."""
    exts = SOURCE_EXTENSIONS + ((".h",) if headers else ())
    picked = []
    for p in git_files(root, folder):
        name = os.path.basename(p)
        if not name.endswith(exts) or name.endswith(TEST_SUFFIXES):
            continue
        if "_test_util" in name or "/testing/" in "/" + p or name.startswith("test_"):
            continue
        picked.append(p)
    return picked


def test_sources(root, folder):
    return [p for p in git_files(root, folder) if p.endswith("_test.cc")]


class Build:
    def __init__(self, root, build_dir):
        self.root = os.path.abspath(root)
        self.dir = os.path.abspath(build_dir)
        db = os.path.join(self.dir, "compile_commands.json")
        if not os.path.exists(db):
            raise SystemExit(f"mutate: {db} is missing: configure the build first (make build)")
        self.objects = {}  # source path relative to root -> [(target, object path)]
        with open(db) as f:
            for entry in json.load(f):
                src = os.path.relpath(os.path.abspath(os.path.join(entry["directory"], entry["file"])), self.root)
                obj = _output_of(entry["command"])
                if obj is None:
                    continue
                m = re.search(r"CMakeFiles/([^/]+)\.dir/", obj)
                if m:
                    self.objects.setdefault(src, []).append(
                        (m.group(1), os.path.join(entry["directory"], obj)))

    def gtest_targets(self, root, folder, extra):
        names = {t for src in test_sources(root, folder) for t, _ in self.objects.get(src, [])}
        return sorted(names | set(extra))

    def object_files(self, source):
        return [obj for _, obj in self.objects.get(source, [])]

    def labelled_ctests(self, label):
        """[(name, command list)] of the ctests labelled exactly `label`."""
        out = subprocess.run(["ctest", "--show-only=json-v1", "-L", "^" + re.escape(label) + "$"], cwd=self.dir,
                             capture_output=True, text=True)
        if out.returncode != 0:
            return []
        tests = json.loads(out.stdout).get("tests", [])
        return [(t["name"], t.get("command", [])) for t in tests]

    def targets_of_commands(self, commands):
        """Executables under bin/ that the commands name (as the program or as an argument)."""
        bin_dir = os.path.join(self.dir, "bin") + os.sep
        names = set()
        for cmd in commands:
            for word in cmd:
                for token in re.findall(r"\S+", word):
                    if token.startswith(bin_dir):
                        names.add(os.path.basename(token))
        return sorted(names)


def _output_of(command):
    words = shlex.split(command)
    for k, w in enumerate(words[:-1]):
        if w == "-o":
            return words[k + 1]
    return None


def read_covers(path):
    """tools/mutate/covers.txt: `FOLDER  BINARY...` lines; other gtest binaries that exercise a folder."""
    covers = {}
    if not os.path.exists(path):
        return covers
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) >= 2:
                covers.setdefault(line[0].rstrip("/"), []).extend(line[1:])
    return covers


def read_equivalents(path):
    """tools/mutate/equivalent.txt: `ID  reason` lines, mutants a person judged equivalent to the original."""
    marked = {}
    if not os.path.exists(path):
        return marked
    with open(path) as f:
        for line in f:
            if line.strip() and not line.lstrip().startswith("#"):
                parts = line.split(None, 1)
                marked[parts[0]] = parts[1].strip() if len(parts) > 1 else ""
    return marked
