#!/usr/bin/python3
"""Mutation testing of ge's own: how many small, plausible bugs in a folder's production code its tests catch.

usage: mutate.py --dir DIR [--dir DIR ...] [--n N] [--seed K] [--build BUILD] [--headers] [--list] [--json FILE]
       mutate.py --known tools/mutate/known_bugs.txt [--build BUILD]   # bugs that must stay KILLED; exit 1 if not
       mutate.py --restore [--build BUILD]

For each folder: pick N mutants (operators.py; an operator at random, then a site of it at random, seeded), and
for each one: write it (guard.py journals the original first), rebuild only the targets that cover the folder
(project.py), run the tests that cover it, fastest first, until one fails, and put the source back. Verdicts:
  KILLED        a test failed, crashed or timed out (named)
  SURVIVED      every covering test passed: a missing test, or an equivalent mutant for a person to mark in
                tools/mutate/equivalent.txt by its id
  equivalent    same object code as the original (the compiler proved it equivalent), or marked by a person;
                not counted
  not compiled  not counted; another mutant is drawn in its place
The kill rate is KILLED / (KILLED + SURVIVED). See tools/mutate/README.md.
"""
import argparse
import hashlib
import fnmatch
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guard  # noqa: E402
import operators  # noqa: E402
import project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", action="append", default=[], help="folder(s) to mutate, relative to the repository")
    ap.add_argument("--n", type=int, default=20, help="mutants tested per folder")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--build", default="build", help="the configured CMake + Ninja build folder")
    ap.add_argument("--headers", action="store_true", help="mutate the folder's headers too (slower rebuilds)")
    ap.add_argument("--only", action="append", default=[],
                    help="mutate only the folder's sources whose path matches this glob (repeatable), e.g. the files "
                         "a change touched; the folder's covering tests stay the same")
    ap.add_argument("--list", action="store_true", help="print the candidate mutants and what covers DIR; run nothing")
    ap.add_argument("--timeout-factor", type=float, default=3.0,
                    help="a test taking this many times its time on the original tree (plus 30 s) is a kill")
    ap.add_argument("--json", help="write the results here (default BUILD/mutate/report.json)")
    ap.add_argument("--equivalents", default=os.path.join(HERE, "equivalent.txt"),
                    help="mutants marked equivalent by a person (default tools/mutate/equivalent.txt)")
    ap.add_argument("--known", help="run the mutants of this file (known_bugs.txt) instead of drawing; exit 1 "
                    "unless every one is KILLED")
    ap.add_argument("--restore", action="store_true", help="only put back a source an interrupted run left mutated")
    args = ap.parse_args()

    root = guard.run(["git", "rev-parse", "--show-toplevel"])[1].strip()
    build_dir = os.path.abspath(args.build)
    journal = guard.Journal(root, build_dir)
    guard.install_signal_handlers()
    restored = journal.recover()
    if restored:
        print(f"mutate: restored {restored}, left mutated by an interrupted run", flush=True)
    if args.restore:
        return 0
    known = read_known(root, args.known) if args.known else {}
    folders = list(known) or [d.rstrip("/") for arg in args.dir for d in arg.split()]
    if not folders:
        ap.error("--dir or --known is required")
    build = project.Build(root, build_dir)
    covers = project.read_covers(os.path.join(HERE, "covers.txt"))
    marked = {} if known else project.read_equivalents(args.equivalents)
    results = []
    try:
        for folder in folders:
            campaign = Campaign(root, build, folder, args, covers.get(folder, []), marked, journal)
            if known:
                campaign.mutants = known[folder]
                args.n = len(known[folder])
            results.append(campaign.run(fixed=bool(known)))
    except (KeyboardInterrupt, guard.Interrupted) as e:
        print(f"\nmutate: interrupted ({str(e) or 'SIGINT'}); the source is restored", flush=True)
        return 130
    finally:
        journal.restore()
    if args.list:
        return 0
    report(results, args.json or os.path.join(build_dir, "mutate", "report.json"))
    if known and any(e["verdict"] != "KILLED" for r in results for e in r["mutants"]):
        print("mutate: a known bug is no longer caught (or no longer applies): see above")
        return 1
    return 0


def read_known(root, path):
    """known_bugs.txt: {folder: [Mutant]}; each block's original text must occur exactly once in its file."""
    known, block = {}, None
    blocks = []
    with open(path) as f:
        for line in f.read().split("\n"):
            if line.startswith("== "):
                folder, _, what = line[3:].partition(": ")
                block = {"folder": folder.strip(), "what": what.strip(), "old": [], "new": []}
                blocks.append(block)
            elif block is not None and line.startswith("file: "):
                block["file"] = line[len("file: "):].strip()
            elif block is not None and line[:2] in ("- ", "+ "):
                block["old" if line[0] == "-" else "new"].append(line[2:])
    for b in blocks:
        with open(os.path.join(root, b["file"])) as f:
            src = f.read()
        old = "\n".join(b["old"]) + "\n"
        new = "\n".join(b["new"]) + "\n" if b["new"] else ""
        if src.count(old) != 1:
            raise SystemExit(f"mutate: {path}: '{b['what']}': its original lines occur {src.count(old)} times in "
                             f"{b['file']} (want once): update the entry to the code as it is now")
        offset = src.index(old)
        m = operators.Mutant(b["file"], offset, len(old), new, "known", src.count("\n", 0, offset) + 1,
                             original=old, line_text=b["what"], column=0)
        m.id = hashlib.sha1((b["file"] + old + new).encode()).hexdigest()[:10]
        known.setdefault(b["folder"], []).append(m)
    return known


class Campaign:
    def __init__(self, root, build, folder, args, extra_binaries, marked, journal):
        self.root, self.build, self.folder, self.args = root, build, folder, args
        self.marked, self.journal = marked, journal
        if not os.path.isdir(os.path.join(root, folder)):
            raise SystemExit(f"mutate: no folder {folder} in {root}")
        self.sources = project.production_sources(root, folder, headers=args.headers)
        if args.only:
            self.sources = [p for p in self.sources if any(fnmatch.fnmatch(p, g) for g in args.only)]
            if not self.sources:
                raise SystemExit(f"mutate: no source of {folder} matches --only {' '.join(args.only)}")
        self.gtests = build.gtest_targets(root, folder, extra_binaries)
        self.ctests = build.labelled_ctests(folder)
        self.targets = sorted(set(self.gtests) | set(build.targets_of_commands([c for _, c in self.ctests])))
        self.mutants = []
        for path in self.sources:
            with open(os.path.join(root, path)) as f:
                self.mutants.extend(operators.find_mutants(path, f.read()))

    def run(self, fixed=False):
        print(f"== {self.folder}: {len(self.sources)} sources, {len(self.mutants)} candidate mutants; "
              f"gtest binaries: {', '.join(self.gtests) or '-'}; ctests labelled {self.folder}: "
              f"{', '.join(n for n, _ in self.ctests) or '-'}", flush=True)
        result = {"folder": self.folder, "mutants": [], "tests": self.gtests + [n for n, _ in self.ctests]}
        if self.args.list:
            for m in self.mutants:
                print(f"  {m.id}  {m.path}:{m.line}  {m.operator:14} {m.describe()}")
            return result
        if not self.gtests and not self.ctests:
            raise SystemExit(f"mutate: no tests cover {self.folder} (no *_test.cc there, no covers.txt line, "
                             f"no ctest labelled {self.folder})")
        ok, log = self.rebuild()
        if not ok:
            raise SystemExit(f"mutate: the unmutated tree does not build:\n{log[-3000:]}")
        self.baseline = self.time_tests()
        tested = 0
        for m in (self.mutants if fixed else self.draw()):
            if tested >= self.args.n:
                break
            entry = self.try_mutant(m)
            result["mutants"].append(entry)
            tested += entry["verdict"] in ("KILLED", "SURVIVED")
            print(format_entry(entry, tested, self.args.n), flush=True)
        self.journal.restore()
        ok, log = self.rebuild()  # the build folder back in step with the tree
        if not ok:
            print(f"mutate: warning: rebuilding the restored tree failed:\n{log[-2000:]}", flush=True)
        return result

    def draw(self):
        """Mutants in a seeded order: an operator at random among those with sites left, then one of its sites."""
        rng = random.Random(f"{self.args.seed}:{self.folder}")
        by_op = {}
        for m in self.mutants:
            by_op.setdefault(m.operator, []).append(m)
        for sites in by_op.values():
            rng.shuffle(sites)
        while by_op:
            op = rng.choice(sorted(by_op))
            yield by_op[op].pop()
            if not by_op[op]:
                del by_op[op]

    def rebuild(self):
        code, out = guard.run(["cmake", "--build", self.build.dir, "--target"] + self.targets)
        return code == 0, out

    def test_commands(self):
        cmds = []
        for name in self.gtests:
            cmds.append((name, [os.path.join(self.build.dir, "bin", name), "--gtest_fail_fast", "--gtest_brief=1"]))
        for name, _ in self.ctests:
            cmds.append((name, ["ctest", "--output-on-failure", "-R", "^" + name + "$"]))
        return cmds

    def time_tests(self):
        times = {}
        for name, cmd in self.test_commands():
            start = time.time()
            code, out = guard.run(cmd, cwd=self.build.dir)
            times[name] = time.time() - start
            if code != 0 or (cmd[0] == "ctest" and "No tests were found" in out):
                raise SystemExit(f"mutate: {name} fails on the unmutated tree; fix that first:\n{out[-3000:]}")
        print("   tests on the original tree: " + ", ".join(f"{n} {t:.0f}s" for n, t in times.items()), flush=True)
        return times

    def try_mutant(self, m):
        entry = {"id": m.id, "path": m.path, "line": m.line, "operator": m.operator, "original": m.line_text.strip(),
                 "mutated": mutated_line(m).strip()}
        if m.operator == "known":  # line_text holds what the bug is; show the lines it changes
            entry.update(what=m.line_text, original=" | ".join(l.strip() for l in m.original.splitlines()),
                         mutated=" | ".join(l.strip() for l in m.replacement.splitlines()) or "(deleted)")
        if m.id in self.marked:
            entry.update(verdict="equivalent", by="marked: " + self.marked[m.id])
            return entry
        start = time.time()
        objects = self.build.object_files(m.path)
        before = hash_files(objects)
        with open(os.path.join(self.root, m.path)) as f:
            self.journal.apply(m.path, operators.apply(f.read(), m))
        try:
            ok, log = self.rebuild()
            if not ok:
                entry.update(verdict="not compiled", by=first_error(log))
            elif objects and hash_files(objects) == before:
                entry.update(verdict="equivalent", by="same object code")
            else:
                entry.update(self.run_tests())
        finally:
            self.journal.restore()
        entry["seconds"] = round(time.time() - start, 1)
        return entry

    def run_tests(self):
        for name, cmd in sorted(self.test_commands(), key=lambda c: self.baseline[c[0]]):
            limit = self.baseline[name] * self.args.timeout_factor + 30
            code, out = guard.run(cmd, cwd=self.build.dir, timeout=limit)
            if code is None:
                return {"verdict": "KILLED", "by": f"{name} (timed out after {limit:.0f}s)"}
            if code != 0:
                return {"verdict": "KILLED", "by": name + failed_test(out, code)}
        return {"verdict": "SURVIVED", "by": ""}


def mutated_line(m):
    return m.line_text[:m.column] + m.replacement + m.line_text[m.column + m.length:]


def hash_files(paths):
    h = hashlib.sha256()
    for p in paths:
        try:
            with open(p, "rb") as f:
                h.update(f.read())
        except OSError:
            h.update(b"missing")
    return h.hexdigest()


def first_error(log):
    for line in log.splitlines():
        if "error:" in line:
            return line.strip()[:200]
    return log.strip().splitlines()[-1][:200] if log.strip() else ""


def failed_test(out, code):
    """Which test case failed, from gtest's output; a crash by its signal."""
    for line in out.splitlines():
        if line.startswith("[  FAILED  ]") and "." in line:
            return " (" + line[len("[  FAILED  ]"):].strip().split()[0].rstrip(",") + ")"
    if code < 0:
        return f" (crashed: signal {-code})"
    for line in out.splitlines():
        if "***Exception" in line:  # ctest's word for a test that crashed
            return " (crashed)"
    return ""


def format_entry(e, tested, n):
    where = f"{e['path']}:{e['line']}"
    head = f"[{tested:>2}/{n}] {e['verdict']:<12} {where:<48} {e['operator']:<14} id={e['id']}"
    detail = f"\n        {e['what']}" if e.get("what") else ""
    detail += f"\n        `{e['original']}`\n     -> `{e['mutated']}`"
    by = f"\n        by {e['by']}" if e.get("by") else ""
    secs = f"  ({e['seconds']}s)" if "seconds" in e else ""
    return head + secs + detail + by


def report(results, json_path):
    total_k = total_s = 0
    print("\n== mutation summary")
    for r in results:
        counts = {}
        for e in r["mutants"]:
            counts[e["verdict"]] = counts.get(e["verdict"], 0) + 1
        k, s = counts.get("KILLED", 0), counts.get("SURVIVED", 0)
        total_k, total_s = total_k + k, total_s + s
        r["killed"], r["survived"] = k, s
        r["kill_rate"] = k / (k + s) if k + s else None
        rate = f"{100 * k / (k + s):.0f}%" if k + s else "n/a"
        print(f"{r['folder']:<24} {k}/{k + s} killed ({rate}); {counts.get('equivalent', 0)} equivalent, "
              f"{counts.get('not compiled', 0)} not compiled")
    for r in results:
        for e in r["mutants"]:
            if e["verdict"] == "SURVIVED":
                print(f"SURVIVED  id={e['id']}  {e['path']}:{e['line']}  {e['operator']}: `{e['original']}` -> "
                      f"`{e['mutated']}`")
    for r in results:
        for e in r["mutants"]:
            if e["verdict"] == "equivalent":
                print(f"equivalent id={e['id']}  {e['path']}:{e['line']}  {e['operator']} ({e['by']})")
    overall = f"{100 * total_k / (total_k + total_s):.1f}%" if total_k + total_s else "n/a"
    print(f"overall: {total_k}/{total_k + total_s} killed ({overall})")
    os.makedirs(os.path.dirname(os.path.abspath(json_path)), exist_ok=True)
    with open(json_path, "w") as f:
        json.dump({"folders": results, "killed": total_k, "survived": total_s}, f, indent=1)
    print(f"(details in {json_path})")


if __name__ == "__main__":
    sys.exit(main())
