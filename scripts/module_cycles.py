#!/usr/bin/env python3
"""Lists import cycles between the modules of each crate, at every level.

Two sibling modules (children of one parent, e.g. `cell` and `durable` in
the runtime, or `cell/requests` and `cell/state`) form a cycle when code
under each names a path under the other, in a `use` or inline
(`crate::a::b`, `super::x`). Files are modules too. Prints each cycle and
exits 1 when there is one: CI fails on a new cycle.

Why not `cargo modules`: it builds rust-analyzer (minutes on 2 cores) to
answer what a scan of paths answers here; the scan reads comments and
strings out first and resolves `crate::`, `super::` and `self::`.
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def strip(text):
    """Source without comments, string and char literals."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            i = n if j < 0 else j + len(end)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4] + "    ") and not re.match(r"'[a-z_]+[^'a-z_]", text[i:i + 20]):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            i += len(m.group(0)) if m else 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_path(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] == "mod" or (len(rel) == 1 and rel[0] in ("lib", "main")):
        rel = rel[:-1]
    return rel


def expand_use(tree):
    """`a::{b, c::{d, e}}` → ['a::b', 'a::c::d', 'a::c::e']."""
    # `x as y` names x; drop the alias before the spaces go.
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)
    def go(prefix, s):
        if "{" not in s:
            return [prefix + p for p in s.split(",") if p]
        head, rest = s.split("{", 1)
        depth, parts, cur = 1, [], ""
        for ch in rest:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    break
            if ch == "," and depth == 1:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        parts.append(cur)
        res = []
        for p in parts:
            res += go(prefix + head, p) if "{" in p else [prefix + head + p] if p else []
        return res
    return go("", tree)


def references(code):
    """Every path the code names: from `use` trees and inline paths."""
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        paths += expand_use(m.group(1))
    paths += re.findall(r"\b(?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+", code)
    return paths


def resolve(here, path, submods):
    parts = path.split("::")
    if parts[0] == "crate":
        return parts[1:]
    base = list(here)
    if parts[0] in ("super", "self"):
        while parts and parts[0] in ("super", "self"):
            if parts[0] == "super":
                base = base[:-1]
            parts = parts[1:]
        return base + parts
    # A plain path names a child module when one exists (edition 2018+).
    if parts and parts[0] in submods.get(tuple(here), ()):
        return base + parts
    return None


def main():
    crates = sorted(d for d in os.listdir(os.path.join(ROOT, "crates")))
    cycles = []
    for crate in crates:
        src = os.path.join(ROOT, "crates", crate, "src")
        files = {}
        for dirpath, _, names in os.walk(src):
            for name in names:
                if name.endswith(".rs"):
                    p = os.path.join(dirpath, name)
                    files[p] = module_path(src, p)
        modules = {tuple(m) for m in files.values()}
        submods = defaultdict(set)
        for m in modules:
            for k in range(len(m)):
                submods[tuple(m[:k])].add(m[k])
        edges = defaultdict(set)  # (parent, a) -> {b}
        for path, here in files.items():
            with open(path, encoding="utf-8") as f:
                code = strip(f.read())
            for ref in references(code):
                target = resolve(here, ref, submods)
                if not target:
                    continue
                # The deepest common parent; the two children under it.
                k = 0
                while k < min(len(here), len(target)) and here[k] == target[k]:
                    k += 1
                if k >= len(here) or k >= len(target):
                    continue  # a module naming its own ancestor or descendant
                parent = tuple(here[:k])
                a, b = here[k], target[k]
                if b in submods.get(parent, ()):
                    edges[(parent, a)].add(b)
        by_parent = defaultdict(dict)
        for (parent, a), bs in edges.items():
            by_parent[parent][a] = bs
        for parent, graph in sorted(by_parent.items()):
            for scc in tarjan(graph):
                if len(scc) > 1:
                    where = "/".join(("crates", crate, "src") + parent)
                    cycles.append(f"{where}: {' <-> '.join(sorted(scc))}")
    for c in cycles:
        print(c)
    print(f"{len(cycles)} module cycle(s)", file=sys.stderr)
    return 1 if cycles else 0


def tarjan(graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            out.append(scc)
    nodes = set(graph) | {w for ws in graph.values() for w in ws}
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


if __name__ == "__main__":
    sys.exit(main())
