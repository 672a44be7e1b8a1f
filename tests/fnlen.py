#!/usr/bin/env python3
"""Function and file lengths of the C and CUDA sources (issue 28: no function over 150 lines,
no file over 900).

Usage: fnlen.py [--max-fn N] [--max-file N] [--all] [--list-only] [--self-test] DIR_OR_FILE...

A function is a top-level brace block (also inside extern "C" { } or a namespace) whose
header ends with a parameter list: the scanner blanks comments, string and character literals
and preprocessor lines first, so braces there do not count. Its length is the lines from the
one holding its name to its closing brace, both counted. Prints each function over --max-fn
(every function with --all) and each file over --max-file as
    LINES  FILE:LINE  NAME
and exits 1 when there is any (0 with --list-only). --self-test first checks the scanner on
made-up sources. No compiler needed: it runs in CI."""
import os
import re
import sys

EXTS = (".c", ".h", ".cu", ".cuh", ".cpp", ".hpp", ".cc")


def blank(text):
    """Comments, literals and preprocessor lines as spaces; newlines kept (line numbers hold)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":
            # a directive, with its backslash continuations (comments inside blanked too)
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                if text.startswith("/*", i):
                    j = text.find("*/", i + 2)
                    j = n if j < 0 else j + 2
                    out.append(re.sub(r"[^\n]", " ", text[i:j]))
                    i = j
                    continue
                out.append(" ")
                i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c)
            i = j
        else:
            if c == "\n":
                line_start = True
            out.append(c)
            i += 1
    return "".join(out)


def strip_attrs(h):
    """Drops __attribute__((...)), __launch_bounds__(...) and __declspec(...) from a header."""
    while True:
        m = re.search(r"\b(__attribute__|__launch_bounds__|__declspec)\s*\(", h)
        if not m:
            return h
        depth, j = 0, m.end() - 1
        while j < len(h):
            if h[j] == "(":
                depth += 1
            elif h[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        h = h[:m.start()] + " " + h[j + 1:]


def func_name(header):
    """The function's name if header (text since the last top-level ; { or }) ends with a
    parameter list, else None."""
    h = strip_attrs(header).rstrip()
    h = re.sub(r"(\s*\b(const|noexcept|override|final)\b)+$", "", h).rstrip()
    if not h.endswith(")") or re.search(r"=\s*[^=]*$", h.split("(")[0]):
        return None
    depth, j = 0, len(h) - 1
    while j >= 0:
        if h[j] == ")":
            depth += 1
        elif h[j] == "(":
            depth -= 1
            if depth == 0:
                break
        j -= 1
    pre = h[:j].rstrip()
    macro = ""
    if pre.endswith(")"):
        # a name made by a macro, NAME_MACRO(base)(params): reported as written
        k, depth = len(pre) - 1, 0
        while k >= 0:
            if pre[k] == ")":
                depth += 1
            elif pre[k] == "(":
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        macro = "(" + " ".join(pre[k + 1:-1].split()) + ")"
        pre = pre[:k]
    m = re.search(r"([A-Za-z_]\w*(?:::[A-Za-z_~]\w*)*)\s*$", pre)
    if not m or m.group(1) in ("if", "for", "while", "switch", "return", "sizeof"):
        return None
    return m.group(1) + macro


def functions(path):
    """(name, first line, lines) of each top-level function of one file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = blank(f.read())
    res = []
    depth = 0          # braces inside a function or other block
    opaque = 0         # depth at which the current non-transparent block opened (0: none)
    hdr_start = 0      # where the header since the last top-level ; { } begins
    fn = None          # (name, first line) of the function being read
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            if depth == 0:
                header = code[hdr_start:i]
                if re.search(r'\bextern\s*"\s*"\s*$|\bnamespace\b[\w\s]*$', header):
                    hdr_start = i + 1   # transparent: its contents are top level
                    continue
                name = func_name(header)
                if name:
                    base = name.split("(")[0]
                    k = header.rfind(base + "(") if header.rfind(base + "(") >= 0 else header.rfind(base)
                    first = code.count("\n", 0, hdr_start + k) + 1
                    fn = (name, first)
                else:
                    fn = None
            depth += 1
        elif c == "}":
            if depth == 0:      # the end of a transparent block
                hdr_start = i + 1
                continue
            depth -= 1
            if depth == 0:
                if fn:
                    res.append((fn[0], fn[1], line - fn[1] + 1))
                fn = None
                hdr_start = i + 1
        elif c == ";" and depth == 0:
            hdr_start = i + 1
    return res


def self_test():
    """The scanner on made-up sources whose answers are known: braces in comments, strings,
    characters and macros, extern "C", a kernel with __launch_bounds__, templates, structs and
    initializers (not functions), K&R-free C. Returns the number of wrong answers."""
    import tempfile
    body = lambda n: "".join("\tx += %d;\n" % i for i in range(n - 2))   # n lines with the braces
    src = (
        '#define M(x) { if (x) { } }\n'
        '/* static int fake(void) { */\n'
        'static const char *s = "}{";\n'
        'static const char c = \'{\';\n'
        'typedef struct { int a; } t_t;\n'
        'static const int tab[] = { 1, 2 };\n'
        'extern "C" {\n'
        'int inside(int x)\n{\n' + body(151) + '}\n'
        '}\n'
        'template <int M>\n__global__ void __launch_bounds__(128, 2) kern(const t_t p)\n{\n'
        '\tif (p.a) { const char *q = "{"; (void)q; }\n' + body(150) + '}\n'
        'static rk_status_t two_lines(int a,\n                             int b)\n{\n' + body(10) + '}\n'
        'struct s { int f(void) const; };\n'
        'int after(void) { return \'}\'; }\n'
        'static void SX_FN(step_)(int a)\n{\n' + body(3) + '}\n')
    want = [("inside", 8, 152), ("kern", 162, 152), ("two_lines", 314, 12), ("after", 327, 1), ("SX_FN(step_)", 328, 4)]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.cu")
        with open(path, "w") as f:
            f.write(src)
        got = functions(path)
    bad = 0
    for w in want:
        if w not in got:
            print("self-test: expected %s at line %d, %d lines; got %s" % (w[0], w[1], w[2], got))
            bad += 1
    if len(got) != len(want):
        print("self-test: %d functions found, %d expected: %s" % (len(got), len(want), got))
        bad += 1
    return bad


def files(args):
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                for nm in sorted(names):
                    if nm.endswith(EXTS):
                        yield os.path.join(root, nm)
        else:
            yield a


def main(argv):
    max_fn, max_file, show_all, list_only, paths = 150, 900, False, False, []
    it = iter(argv)
    for a in it:
        if a == "--max-fn":
            max_fn = int(next(it))
        elif a == "--max-file":
            max_file = int(next(it))
        elif a == "--all":
            show_all = True
        elif a == "--list-only":
            list_only = True
        elif a == "--self-test":
            bad = self_test()
            print("self-test: %s" % ("ok" if not bad else "%d wrong" % bad))
            if bad:
                return 1
        else:
            paths.append(a)
    if not paths:
        if "--self-test" in argv:
            return 0
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad_fn = bad_file = nfn = nfile = 0
    for p in sorted(set(files(paths))):
        nfile += 1
        with open(p, encoding="utf-8", errors="replace") as f:
            nl = sum(1 for _ in f)
        if nl > max_file:
            print("%5d  %s  (file over %d lines)" % (nl, p, max_file))
            bad_file += 1
        for name, first, n in functions(p):
            nfn += 1
            if n > max_fn or show_all:
                print("%5d  %s:%d  %s" % (n, p, first, name))
            if n > max_fn:
                bad_fn += 1
    print("%d file(s), %d function(s): %d function(s) over %d lines, %d file(s) over %d lines"
          % (nfile, nfn, bad_fn, max_fn, bad_file, max_file))
    return 1 if (bad_fn or bad_file) and not list_only else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
