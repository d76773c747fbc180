#!/usr/bin/python3
"""Every `--flag` the READMEs show for a ge command is one `ge CMD --help` lists (and `ge --help` too), so help
and documentation cannot drift apart. A flag is the command's when a `ge CMD` mention precedes it in the same
block: a code line (with its indented continuation lines), a paragraph or a list item; a flag in a block that
names no ge command must be listed by some ge command, unless another program's name (cmake, npm, ...) is the
nearest before it.
usage: check_help_flags.py GE_BINARY README.md [MORE.md ...]"""
import re
import subprocess
import sys

COMMANDS = ["compile", "run-op", "run", "inspect", "train", "test-onnx", "options"]
COMMAND_RE = re.compile(r"(?<![\w/.-])(?:build/bin/)?ge (" + "|".join(re.escape(c) for c in COMMANDS) + r")(?![\w-])")
FLAG_RE = re.compile(r"(?<![\w-])--([a-z][a-z0-9_-]*[a-z0-9_])")
PLACEHOLDERS = {"name"}  # `--name=value`: how a flag is written, not a flag
OTHER_PROGRAM_RE = re.compile(r"(?<![\w/.-])(cmake|ctest|npm|pip3?|make|git|pytest|apt-get|python3)(?![\w-])")


def blocks(path):
    """(line number, text) blocks: paragraphs and list items outside code, lines with continuations inside."""
    out, cur, in_code = [], None, False
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.lstrip().startswith("```"):
            in_code, cur = not in_code, None
            continue
        if in_code:
            if cur is not None and line[:1].isspace() and not COMMAND_RE.search(line):
                cur[1] += "\n" + line
            else:
                cur = [number, line]
                out.append(cur)
        elif not line.strip() or line.startswith("#"):
            cur = None
        elif cur is None or re.match(r"\s{0,3}([-*]|\d+\.) ", line) or line.startswith("|"):
            cur = [number, line]
            out.append(cur)
        else:
            cur[1] += "\n" + line
    return out


def documented_flags(path):
    """{(command or None, flag): first line number}."""
    found = {}
    for number, text in blocks(path):
        events = [(m.start(), "cmd", m.group(1)) for m in COMMAND_RE.finditer(text)]
        events += [(m.start(), "other", m.group(1)) for m in OTHER_PROGRAM_RE.finditer(text)]
        events += [(m.start(), "flag", m.group(1)) for m in FLAG_RE.finditer(text)]
        command, other = None, False
        for pos, kind, name in sorted(events):
            if kind == "cmd":
                command, other = name, False
            elif kind == "other":
                other = True
            elif not other and name != "help" and name not in PLACEHOLDERS:
                found.setdefault((command, name), number + text.count("\n", 0, pos))
    return found


def help_flags(text):
    return set(re.findall(r"^  --([a-z][a-z0-9_]*)", text, re.M))


def main():
    ge, readmes = sys.argv[1], sys.argv[2:]
    per_command = {}
    for c in COMMANDS:
        r = subprocess.run([ge, c, "--help"], capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            sys.exit(f"ge {c} --help: exit {r.returncode}: {r.stderr.strip()}")
        per_command[c] = help_flags(r.stdout)
    r = subprocess.run([ge, "--help"], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        sys.exit(f"ge --help: exit {r.returncode}")
    # ge --help prints each command's help in turn: split it at the usage lines.
    overall = {}
    for section in re.split(r"\n(?=usage: ge [a-z])", r.stdout):
        m = re.match(r"usage: ge ([a-z-]+)", section)
        if m and m.group(1) in per_command:
            overall[m.group(1)] = help_flags(section)
    every = set().union(*per_command.values())

    missing, checked = [], 0
    for path in readmes:
        for (command, flag), line in sorted(documented_flags(path).items(), key=lambda kv: kv[1]):
            checked += 1
            where = f"{path}:{line}"
            if command is None:
                if flag not in every:
                    missing.append(f"{where}: --{flag} is listed by no `ge CMD --help`")
                continue
            if flag not in per_command[command]:
                missing.append(f"{where}: `ge {command} --{flag}` is missing from `ge {command} --help`")
            if flag not in overall.get(command, set()):
                missing.append(f"{where}: `ge {command} --{flag}` is missing from `ge --help`")
    if checked < 30:
        missing.append(f"only {checked} documented flags found: is the extraction broken?")
    for m in missing:
        print("FAIL", m)
    if missing:
        sys.exit(f"{len(missing)} documented flag(s) missing from the help")
    print(f"PASS: the {checked} (command, flag) pairs the READMEs document are all in `ge CMD --help` and `ge --help`")


if __name__ == "__main__":
    main()
