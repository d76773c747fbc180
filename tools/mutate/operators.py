"""Mutation operators: where a C++ source can be mutated, and into what.

A mutant is one textual replacement (offset, length, new text) in one file. Sites are found on a masked copy of
the source in which comments, string and character literals and preprocessor lines are blanked (same offsets), so
no operator fires inside them. The code is clang-formatted (.clang-format), which the patterns rely on: binary
operators have spaces around them, template brackets do not.
"""
import hashlib
import re
from dataclasses import dataclass

OPERATORS = (
    "relational",  # == <-> !=, < -> >=, > -> <=, <= -> >, >= -> <
    "boundary",  # < <-> <=, > <-> >=
    "logical",  # && <-> ||
    "cond_true",  # if (c) -> if (true || (c))
    "cond_false",  # if (c) -> if (false && (c))
    "return_ok",  # a Status function returns Status::Ok() before its body runs
    "drop_statement",  # an assignment, increment or mutating member call removed
    "plus_one",  # [i] -> [i + 1], x.size() -> (x.size() + 1)
    "minus_one",  # [i] -> [i - 1], x.size() -> (x.size() - 1)
    "swap_args",  # f(a, b) -> f(b, a) for two plain names (kept only where it compiles)
)


@dataclass
class Mutant:
    path: str  # relative to the repository root
    offset: int
    length: int
    replacement: str
    operator: str
    line: int  # 1-based, for people; the id does not depend on it
    original: str = ""
    line_text: str = ""
    column: int = 0
    id: str = ""

    def describe(self):
        return f"`{self.original.strip()}` -> `{self.replacement.strip()}`"


def mask_code(src):
    """The source with comments, string/char literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = list(src)
    i, n = 0, len(src)
    line_start = True

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":  # a directive, with its continuation lines
            j = i
            while j < n and not (src[j] == "\n" and src[j - 1] != "\\"):
                j += 1
            blank(i, j)
            i = j
            continue
        line_start = c == "\n"
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c == 'R' and src.startswith('R"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.match(r'R"([^(\s]{0,16})\(', src[i:])
            if not m:
                i += 1
                continue
            end = src.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            blank(i + 1, j)
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and (src[i - 1].isalnum()):  # digit separator 1'000
                i += 1
                continue
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
        else:
            i += 1
    return "".join(out)


def _matching(text, open_pos):
    """Index of the bracket closing the one at open_pos, or -1."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    opener = text[open_pos]
    closer = pairs[opener]
    depth = 0
    for k in range(open_pos, len(text)):
        if text[k] == opener:
            depth += 1
        elif text[k] == closer:
            depth -= 1
            if depth == 0:
                return k
    return -1


def _balanced(s):
    depth = 0
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


_NAME = r"[A-Za-z_]\w*"
_OPERAND = r"[\w)\]]"  # what ends a left operand / begins a right one (clang-format spaces binary operators)

_RELATIONAL = {"==": "!=", "!=": "==", "<": ">=", ">": "<=", "<=": ">", ">=": "<"}
_BOUNDARY = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
_LOGICAL = {"&&": "||", "||": "&&"}

# Member calls that change the object they are called on; dropping one is a "removed state update".
_MUTATING_CALLS = (
    "push_back|emplace_back|emplace|insert|erase|clear|resize|reserve|push|pop|pop_back|pop_front|push_front|"
    "assign|append|reset|swap|store|fetch_add|fetch_sub|notify_one|notify_all|Add|Set|Release|Rebase|Bind|Record"
)
_ASSIGN_STMT = re.compile(
    r"^(?P<indent>[ \t]*)(?P<stmt>(?:\+\+|--)?\*?" + _NAME +
    r"(?:(?:\.|->|::)" + _NAME + r"|\[[^\]\n]*\])*\s*(?:=|\+=|-=|\*=|/=|\|=|&=|\^=|<<=|>>=|\+\+|--)(?!=)[^;\n]*;)[ \t]*$",
    re.M)
_CALL_STMT = re.compile(
    r"^(?P<indent>[ \t]*)(?P<stmt>" + _NAME + r"(?:(?:\.|->)" + _NAME + r"|\[[^\]\n]*\])*(?:\.|->)(?:" +
    _MUTATING_CALLS + r")\([^;\n]*\);)[ \t]*$", re.M)
_STATUS_FN = re.compile(r"^(?:static |inline )*Status\s+(?:" + _NAME + r"::)*~?" + _NAME + r"\(", re.M)
_SIZE_CALL = re.compile(r"(?<![\w.>])(" + _NAME + r"(?:(?:\.|->)" + _NAME + r")*(?:\.|->)size\(\))")
_SUBSCRIPT = re.compile(r"(?<=\w)\[(" + _NAME + r")\]")
_TWO_ARG_CALL = re.compile(r"(?<![\w.>:])(" + _NAME + r")\((" + _NAME + r"(?:(?:\.|->)" + _NAME + r")*), (" +
                           _NAME + r"(?:(?:\.|->)" + _NAME + r")*)\)")
_DECLARATION = re.compile(r"(const\s+)?[\w:<>,]+\s*[&*]?\s+\[?" + _NAME + r"[\w, ]*\]?\s*[={(]")
_SYMMETRIC_CALLS = {"min", "max", "swap", "if", "while", "for", "switch", "return", "sizeof", "static_assert",
                    "make_pair", "emplace", "CHECK", "assert", "memcmp", "Min", "Max"}


def _statement_starts_here(masked, pos):
    """Whether the statement at pos starts a statement (the previous code ends one or opens a block)."""
    k = pos - 1
    while k >= 0 and masked[k] in " \t\n":
        k -= 1
    if k < 0:
        return True
    if masked[k] in ";{}:":
        return True
    if masked[k] == ")":  # a braceless if/for/while body
        line_start = masked.rfind("\n", 0, k) + 1
        head = masked[line_start:k + 1].strip()
        return re.match(r"(\}\s*else\s+)?(if|for|while)\s*\(", head) is not None and _balanced(head)
    return masked[max(0, k - 3):k + 1] == "else"


def find_mutants(path, src):
    """Every mutant of one source file, in file order."""
    masked = mask_code(src)
    found = []

    def add(offset, length, replacement, operator):
        found.append(Mutant(path, offset, length, replacement, operator, src.count("\n", 0, offset) + 1,
                            original=src[offset:offset + length]))

    # Binary operators: a space on each side, an operand character beyond it.
    for m in re.finditer(r"(?<=" + _OPERAND + r") (==|!=|<=|>=|<|>|&&|\|\|) (?=[\w(!*&\-+~:\"'])", masked):
        op = m.group(1)
        start = m.start(1)
        if op in ("<", ">") and _looks_like_template(masked, m.start(), op):
            continue
        if op in _RELATIONAL:
            add(start, len(op), _RELATIONAL[op], "relational")
        if op in _BOUNDARY:
            add(start, len(op), _BOUNDARY[op], "boundary")
        if op in _LOGICAL:
            add(start, len(op), _LOGICAL[op], "logical")

    for m in re.finditer(r"\bif (?:constexpr )?\(", masked):
        open_pos = m.end() - 1
        close = _matching(masked, open_pos)
        if close < 0:
            continue
        inner = masked[open_pos + 1:close]
        cond_start = open_pos + 1
        semi = _top_level_semicolon(inner)
        if semi >= 0:
            cond_start += semi + 1
            while masked[cond_start] == " ":
                cond_start += 1
        cond = src[cond_start:close]
        if not cond.strip() or "constexpr" in masked[m.start():open_pos]:
            continue
        if _DECLARATION.match(masked[cond_start:close].strip()):
            continue  # `if (auto x = f())`: a declaration cannot be forced
        add(cond_start, close - cond_start, "true || (" + cond + ")", "cond_true")
        add(cond_start, close - cond_start, "false && (" + cond + ")", "cond_false")

    for m in _STATUS_FN.finditer(masked):
        open_pos = m.end() - 1
        close = _matching(masked, open_pos)
        if close < 0:
            continue
        tail = re.match(r"\s*(const\s*)?(override\s*)?(noexcept\s*)?\{", masked[close + 1:])
        if not tail:
            continue  # a declaration, not a definition
        brace = close + 1 + tail.end() - 1
        add(brace + 1, 0, " return Status::Ok();", "return_ok")

    for pattern in (_ASSIGN_STMT, _CALL_STMT):
        for m in pattern.finditer(masked):
            stmt_start = m.start("stmt")
            stmt = masked[stmt_start:m.end("stmt")]
            if not _balanced(stmt) or not _statement_starts_here(masked, stmt_start):
                continue
            add(stmt_start, len(stmt), ";", "drop_statement")

    for m in _SUBSCRIPT.finditer(masked):
        add(m.start(1), len(m.group(1)), m.group(1) + " + 1", "plus_one")
        add(m.start(1), len(m.group(1)), m.group(1) + " - 1", "minus_one")
    for m in _SIZE_CALL.finditer(masked):
        add(m.start(1), len(m.group(1)), "(" + src[m.start(1):m.end(1)] + " + 1)", "plus_one")
        add(m.start(1), len(m.group(1)), "(" + src[m.start(1):m.end(1)] + " - 1)", "minus_one")

    for m in _TWO_ARG_CALL.finditer(masked):
        if m.group(1) in _SYMMETRIC_CALLS or m.group(2) == m.group(3):
            continue
        add(m.start(2), m.end(3) - m.start(2), m.group(3) + ", " + m.group(2), "swap_args")

    _assign_ids(found, src)
    return found


def _looks_like_template(masked, space_pos, op):
    """`a < b` as a comparison vs `template <typename T>` or `std::vector<T> >`: the latter has no space before."""
    before = masked[max(0, space_pos - 9):space_pos]
    return before.endswith("template") or before.endswith("operator")


def _top_level_semicolon(s):
    depth = 0
    for k, ch in enumerate(s):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ";" and depth == 0:
            return k
    return -1


def _assign_ids(mutants, src):
    """An id that survives edits elsewhere in the file: path, operator, the line's text, and which occurrence on it."""
    seen = {}
    for mu in mutants:
        line_start = src.rfind("\n", 0, mu.offset) + 1
        line_end = src.find("\n", mu.offset)
        mu.line_text = src[line_start:line_end if line_end >= 0 else len(src)]
        mu.column = mu.offset - line_start
        key = (mu.path, mu.operator, mu.line_text.strip(), mu.original, mu.replacement)
        seen[key] = seen.get(key, 0) + 1
        text = "\0".join(map(str, key + (seen[key],)))
        mu.id = hashlib.sha1(text.encode()).hexdigest()[:10]


def apply(src, mutant):
    return src[:mutant.offset] + mutant.replacement + src[mutant.offset + mutant.length:]
