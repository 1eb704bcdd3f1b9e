#!/usr/bin/env python3
"""tc39/test262 conformance of codemode cells, against the bare engine.

Runs test262 tests (default scope: test/built-ins, test/language/expressions,
test/language/statements) in up to four runners and compares them:

  thread    `codemode session` with `[limits] isolation = "thread"`
  process   `codemode session` with `[limits] isolation = "process"`
  bare      quickjs-ng's own `qjs --script`, compiled with gcc from the very
            sources codemode's engine is built from (the rquickjs-sys crate's
            quickjs/ directory), cached in target/test262/qjs
  bare-cell (optional, for classifying) the same `qjs` running the exact cell
            text codemode runs, wrapped as `(async function () { CELL })()`

Each codemode runner is ONE long-lived `codemode session` process (JSON
lines on stdin/stdout) with its own temporary config and store; a session
that dies or hangs is restarted (counted) and the test tried once more; a
test that kills it twice fails, saying so.

How a test is run
-----------------
The front matter (`/*--- ... ---*/`) is parsed minimally (includes, flags,
features, negative). The harness -- assert.js, sta.js, then the test's
`includes` -- and the test are ONE script, prefixed by `"use strict";` for
`onlyStrict` tests (test262's INTERPRETING.md model: harness files'
top-level let/const/class, e.g. resizableArrayBufferUtils.js's `ctors`, must
be visible to the test). For `async` tests doneprintHandle.js runs first as
its own sloppy script, so `$DONE` is a property of the global object also
when the test is strict. Tests flagged neither way run sloppy only (`--both`
runs them strict as well, as extra entries "PATH (strict)"). `raw` tests
run their source alone, with no harness. Before all that, a small prelude
script defines `$262`. Every runner gets exactly these scripts; the bare
engine runs a test that imports `*_FIXTURE.js` files from a directory of
links to the test's own directory, so its `import()` finds them. Skipped,
and counted by reason: `module` tests (a cell is no module), `CanBlockIsTrue`, paths and features
quickjs-ng's test262.conf excludes or does not claim (the same list for the
bare engine and for codemode, so both sides skip the same tests), and what
the `$262` shim cannot provide.

`$262` shim (the same text in every runner): `global`, `evalScript` (by
indirect eval: eval code, not script code; same in every runner), and
`detachArrayBuffer` (by `ArrayBuffer.prototype.transfer`). No `gc`,
`createRealm`, `agent`, `IsHTMLDDA`, `AbstractModuleSource`: tests whose
source (or includes) use them, or whose features need them (cross-realm,
host-gc-required, IsHTMLDDA), are skipped by name.

Why the cell runs the test by indirect eval
-------------------------------------------
A cell is the body of an async function, so pasting a test in as the cell
would make every top-level `var`/function a local (not a global property,
and `$DONE` must be one), `this` undefined, `await`/`yield`/`return` mean
something else at top level, and run codemode's TypeScript detection over
the test's text. Instead the cell holds those scripts (prelude,
doneprintHandle.js, harness + test) as string constants and runs each with
`(0, eval)(source)`: global eval code, which behaves as a script for nearly
every test (a parse-negative test throws its SyntaxError at that call,
caught and classified). What remains by design: eval code's global
`var`/function bindings are configurable (deletable), its top-level
let/const are not global lexical bindings (a later script does not see
them), and strict eval code keeps its top-level `var`/function
declarations in its own environment (so they are not global properties).
The cost: the test's own text never is cell source, so codemode's
source-level handling (TypeScript detection, NUL and line terminators in
cell source, `invalid_input` for syntax errors) is not what this measures. The `bare-cell` runner
runs the identical cell text on the bare engine, so a test that differs
between `bare` and `bare-cell` differs by that design, and a test that
differs between `bare-cell` and `thread` differs because of codemode's
machinery (its replaced globals: Date.now/new Date() on a host clock, the
seeded Math.random, no Intl, refused import(), its own output channel and
job loop, its memory limit). The cell reports its outcome as its return
value, a plain string (so no toJSON/Array hooks a test installs can touch
it), and only captured intrinsics run after the test starts. An async
test's cell awaits a plain thenable that `print("Test262:Async...")`
settles, not a promise, so the wait looks up nothing on Promise.prototype
(tests count `then` calls and `constructor` lookups). The bare-cell wrapper
reads the cell's promise only after a ladder of 10,000 microtasks, when the
test's own jobs have run, for the same reason.

Verdicts: a negative test passes when the thrown error's constructor name
(else its `name`) equals `negative.type`; a positive test passes when
nothing escapes, and for `async` tests when `Test262:AsyncTestComplete` was printed and no
`Test262:AsyncTestFailure`. The bare engine's outcome is read from `qjs`'s
exit status, stderr (`Name: message` of an uncaught error; an unhandled
rejection reported only after the script completed is not a failure, as in
run-test262) and stdout (the async messages).

Usage
-----
  # the full scope from a mirror (a checkout, or a bare git dir: archived
  # at its HEAD into target/test262/suite-COMMIT)
  nice -n 19 python3 scripts/test262.py --suite /path/to/test262 --both \\
      --codemode target/debug/codemode --runners thread,process,bare,bare-cell \\
      --check tests/test262/expected-differences.txt
  # the checked-in CI subset, checked against the reasoned list (the last
  # step of scripts/test.sh)
  python3 scripts/test262.py --suite tests/test262 --codemode target/debug/codemode --both \\
      --check tests/test262/expected-differences.txt
  # regenerate the vendored subset from a full suite
  python3 scripts/test262.py --suite /path/to/test262 --vendor-ci tests/test262 \\
      --check tests/test262/expected-differences.txt

Output: target/test262/report.json (per test, per runner: pass/fail/skip and
a short reason), a summary on stdout, and a closing line
`test262: N passed, M failed` counting the comparison checks (one per test
run: thread == process, and thread == bare unless listed). `--check FILE`
exits 1 when thread != process anywhere or thread != bare outside FILE (one
path relative to test/ per line, `#` comments); listed entries that no
longer differ are stale and only warned about.
"""

from __future__ import annotations

import argparse
import collections
import glob
import hashlib
import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "target" / "test262"
DEFAULT_SCOPE = ["built-ins", "language/expressions", "language/statements"]
ALWAYS_EXCLUDED = ["intl402/", "staging/", "annexB/"]

# $262 members the shim lacks, and the features that need them.
SHIM_MISSING = ["$262.agent", "$262.createRealm", "$262.gc", "$262.IsHTMLDDA", "$262.AbstractModuleSource"]
SHIM_MISSING_FEATURES = {
    "cross-realm": "$262.createRealm",
    "host-gc-required": "$262.gc",
    "IsHTMLDDA": "$262.IsHTMLDDA",
}

# The CI subset: whole directories that matter most for codemode's own
# machinery, plus every CI_EVERY-th test of the scope, plus every test named
# in the expected-differences list but the dynamic-import ones (import() is
# refused by design; the sample keeps a few of them).
CI_DIRS = [
    "built-ins/Promise/",
    "built-ins/Date/",
    "built-ins/Math/random/",
    "built-ins/Function/",
    "built-ins/AsyncFunction/",
    "built-ins/AsyncGeneratorFunction/",
    "built-ins/AsyncGeneratorPrototype/",
    "built-ins/AsyncFromSyncIteratorPrototype/",
    "built-ins/AsyncIteratorPrototype/",
    "built-ins/global/",
    "built-ins/eval/",
    "built-ins/JSON/stringify/",
    "language/expressions/async-arrow-function/",
    "language/expressions/async-function/",
    "language/expressions/await/",
    "language/statements/async-function/",
    "language/statements/for-await-of/async-func-decl-dstr-",
    "language/statements/for-await-of/async-gen-decl-dstr-array-elem-",
    "language/statements/for-await-of/ticks-",
    "language/statements/for-await-of/iterator-",
    "language/statements/for-await-of/head-",
    "language/statements/for-await-of/async-from-sync-",
    "language/statements/for-await-of/let-",
]
CI_EVERY = 80

PRELUDE = r"""var $262 = (function () {
  var call = Function.prototype.call;
  var transfer = ArrayBuffer.prototype.transfer;
  var indirectEval = eval;
  return {
    global: globalThis,
    evalScript: function evalScript(source) { return (0, indirectEval)(source); },
    detachArrayBuffer: function detachArrayBuffer(buffer) {
      if (typeof transfer !== "function") throw new TypeError("cannot detach: no ArrayBuffer.prototype.transfer");
      call.call(transfer, buffer);
      return null;
    },
  };
})();
"""

# The cell: the same text for codemode and for the bare-cell runner. Only
# captured intrinsics and string concatenation run after the test starts.
CELL = r"""const __t262String = String;
const __t262Apply = Reflect.apply;
const __t262Slice = String.prototype.slice;
const __t262Eval = eval;
let __t262Out = "";
let __t262Finished = false;
let __t262Settle = null;
Object.defineProperty(globalThis, "print", {
  value: function print(message) {
    const s = typeof message === "string" ? message : __t262String(message);
    __t262Out = __t262Out + s + "\n";
    if (__t262Apply(__t262Slice, s, [0, 13]) === "Test262:Async") {
      __t262Finished = true;
      if (__t262Settle !== null) __t262Settle();
    }
  },
  writable: true, enumerable: true, configurable: true,
});
function __t262Describe(e) {
  let name = "", message = "";
  try {
    if ((typeof e === "object" && e !== null) || typeof e === "function") {
      const c = e.constructor;
      name = typeof c === "function" && typeof c.name === "string" && c.name !== "" ? c.name : __t262String(e.name);
      message = __t262String(e.message);
    } else {
      name = typeof e;
      message = __t262String(e);
    }
  } catch (x) { name = "?"; }
  return name + "\u0001" + message;
}
const __t262Prelude = @PRELUDE@;
const __t262Pre = @PRE@;
const __t262Main = @MAIN@;
try {
  if (__t262Prelude !== "") (0, __t262Eval)(__t262Prelude);
  if (__t262Pre !== "") (0, __t262Eval)(__t262Pre);
} catch (e) {
  return "harness\u0001" + __t262Describe(e) + "\u0001" + __t262Out;
}
try {
  (0, __t262Eval)(__t262Main);
} catch (e) {
  return "threw\u0001" + __t262Describe(e) + "\u0001" + __t262Out;
}
// A thenable, not a promise: awaiting it looks up no `constructor` or
// `then` on Promise.prototype, which some tests count.
if (@ASYNC@ && !__t262Finished) {
  await { then: function (resolve) { if (__t262Finished) resolve(); else __t262Settle = resolve; } };
}
return "ok\u0001\u0001\u0001" + __t262Out;
"""

# The bare-cell wrapper: the cell's promise is read only after a ladder of
# 10,000 microtasks (captured queueMicrotask), when the test's own jobs have
# run, so reading it (a `then`, which looks up `constructor`) does not show
# in what the test observes. (A timer would do, but qjs exits on an
# unhandled rejection before it sleeps, and test262 leaves some unhandled.)
BARE_CELL_WRAP_HEAD = r"""(function () {
var then = Promise.prototype.then, nativePrint = print, call = Function.prototype.call;
var later = queueMicrotask, steps = 0;
var p = (async function () {
"""
BARE_CELL_WRAP_TAIL = r"""
})();
function read() {
  if (++steps < 10000) { later(read); return; }
  call.call(then, p, function (v) { nativePrint("T262CELL:ok\u0002" + (typeof v === "string" ? v : "?")); },
    function (e) { var s; try { s = String(e); } catch (x) { s = "?"; } nativePrint("T262CELL:err\u0002" + s); });
}
later(read);
})();
"""

PENDING_FOREVER = "promise is pending without host work"


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- suite


def git_dir_of(path: Path):
    """The git dir when `path` is a bare repository, else None."""
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        return path
    return None


def prepare_suite(path: Path, scope):
    """A directory with test/ and harness/; archives a bare git dir."""
    gd = git_dir_of(path)
    if gd is None:
        if not (path / "test").is_dir() or not (path / "harness").is_dir():
            sys.exit(f"test262.py: {path} has no test/ and harness/")
        commit = None
        if (path / "COMMIT").exists():
            commit = (path / "COMMIT").read_text().split()[0]
        elif (path / ".git").exists():
            commit = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True,
                                    text=True).stdout.strip() or None
        return path, commit
    commit = subprocess.run(["git", "--git-dir", str(gd), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    dest = OUT_DIR / f"suite-{commit}"
    stamp = dest / ".complete"
    if not stamp.exists():
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        log(f"test262: archiving {gd} at {commit} into {dest}")
        paths = ["harness", "LICENSE"] + ["test/" + s.rstrip("/") for s in scope]
        ar = subprocess.Popen(["git", "--git-dir", str(gd), "archive", "--format=tar", commit, *paths],
                              stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", str(dest)], stdin=ar.stdout, check=True)
        if ar.wait() != 0:
            sys.exit("test262.py: git archive failed")
        stamp.write_text(commit + "\n")
    return dest, commit


def quickjs_dir(explicit):
    if explicit:
        return Path(explicit)
    version = "0.14.0"
    lock = ROOT / "Cargo.lock"
    if lock.exists():
        m = re.search(r'name = "rquickjs-sys"\nversion = "([^"]+)"', lock.read_text())
        if m:
            version = m.group(1)
    home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    hits = sorted(glob.glob(str(home / "registry" / "src" / "*" / f"rquickjs-sys-{version}" / "quickjs")))
    if not hits:
        sys.exit(f"test262.py: rquickjs-sys-{version}/quickjs not found under {home}/registry/src "
                 "(fetch the crates first, or pass --quickjs-src)")
    return Path(hits[-1])


def build_qjs(qdir: Path):
    """Compiles quickjs-ng's qjs from the crate's sources, cached by hash."""
    sources = ["qjs.c", "quickjs.c", "quickjs-libc.c", "libregexp.c", "libunicode.c", "dtoa.c",
               "gen/repl.c", "gen/standalone.c"]
    # The defines rquickjs-sys builds with (_GNU_SOURCE) at the opt-level
    # codemode's Cargo profiles give it (3).
    flags = ["-O3", "-D_GNU_SOURCE", "-w"]
    h = hashlib.sha256(" ".join(flags).encode())
    for f in sorted(list(qdir.glob("*.c")) + list(qdir.glob("*.h")) + list(qdir.glob("gen/*.c"))):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    digest = h.hexdigest()[:16]
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    exe = OUT_DIR / "qjs"
    stamp = OUT_DIR / "qjs.hash"
    if exe.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return exe
    log(f"test262: compiling qjs from {qdir}")
    tmp = OUT_DIR / "qjs.tmp"
    cmd = ["gcc", *flags, f"-I{qdir}", "-o", str(tmp), *[str(qdir / s) for s in sources], "-lm", "-lpthread",
           "-ldl"]
    subprocess.run(cmd, check=True)
    tmp.replace(exe)
    stamp.write_text(digest + "\n")
    return exe


def load_conf(qdir: Path):
    """quickjs-ng's test262.conf: claimed features, and excluded paths."""
    on, off, excludes = set(), set(), []
    section = None
    for raw in (qdir / "test262.conf").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        if section == "features":
            name, _, val = line.partition("=")
            name, val = name.strip(), val.strip()
            # `skip`/`no` are off; `!tcc` means on unless built with tcc.
            (off if val in ("skip", "no") else on).add(name)
        elif section == "exclude":
            neg = line.startswith("!")
            p = line.lstrip("!")
            p = p[len("test262/test/"):] if p.startswith("test262/test/") else p
            excludes.append((neg, p))
    return on, off, excludes


def conf_excluded(rel, excludes):
    result = False
    for neg, p in excludes:
        if rel == p or (p.endswith("/") and rel.startswith(p)):
            result = not neg
    return result


def parse_meta(text: str):
    meta = {"includes": [], "flags": [], "features": [], "negative": None}
    m = re.search(r"/\*---(.*?)---\*/", text, re.S)
    if not m:
        return meta
    lines = m.group(1).splitlines()
    base = None
    key = None
    for line in lines:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if base is None:
            base = indent
        km = re.match(r"\s*([A-Za-z_][\w-]*):\s*(.*)$", line)
        if indent <= base and km:
            key, rest = km.group(1), km.group(2).split(" #", 1)[0].strip()
            if key in ("includes", "flags", "features") and rest.startswith("["):
                meta[key] = [x.strip().strip("'\"") for x in rest.strip("[]").split(",") if x.strip()]
            elif key == "negative":
                meta["negative"] = {}
            continue
        s = line.strip()
        if key in ("includes", "flags", "features") and s.startswith("- "):
            meta[key].append(s[2:].split(" #", 1)[0].strip().strip("'\""))
        elif key == "negative":
            nm = re.match(r"(phase|type):\s*(\S+)", s)
            if nm:
                meta["negative"][nm.group(1)] = nm.group(2)
    return meta


class Test:
    __slots__ = ("key", "rel", "path", "meta", "strict", "skip", "source")

    def __init__(self, key, rel, path, meta, strict, skip, source):
        self.key, self.rel, self.path, self.meta = key, rel, path, meta
        self.strict, self.skip, self.source = strict, skip, source

    @property
    def is_async(self):
        return "async" in self.meta["flags"]

    @property
    def raw(self):
        return "raw" in self.meta["flags"]


class Suite:
    def __init__(self, root: Path, conf, both: bool):
        self.root = root
        self.on, self.off, self.excludes = conf
        self.both = both
        self._harness = {}
        self._bundles = {}

    def harness_file(self, name):
        if name not in self._harness:
            self._harness[name] = (self.root / "harness" / name).read_bytes().decode("utf-8")
        return self._harness[name]

    def includes(self, meta):
        names = ["assert.js", "sta.js"]
        for n in meta["includes"]:
            if n not in names:
                names.append(n)
        return names

    def bundle(self, meta):
        """The harness as one script, and its hash."""
        names = tuple(self.includes(meta))
        if names not in self._bundles:
            text = "".join(self.harness_file(n) + "\n" for n in names)
            self._bundles[names] = (text, hashlib.sha256(text.encode()).hexdigest()[:16])
        return self._bundles[names]

    def skip_reason(self, rel, meta, text):
        if conf_excluded(rel, self.excludes):
            return "excluded by test262.conf"
        flags = meta["flags"]
        if "module" in flags:
            return "module"
        if "CanBlockIsTrue" in flags:
            return "CanBlockIsTrue"
        for f in meta["features"]:
            if f in self.off:
                return f"feature {f} (test262.conf: skip)"
            if f not in self.on:
                return f"feature {f} (not in test262.conf)"
            if f in SHIM_MISSING_FEATURES:
                return f"needs {SHIM_MISSING_FEATURES[f]}"
        if meta["negative"] and meta["negative"].get("phase") == "resolution":
            return "module"
        sources = [text] + [self.harness_file(n) for n in meta["includes"]
                            if (self.root / "harness" / n).exists()]
        for need in SHIM_MISSING:
            for s in sources:
                if need in s:
                    return f"needs {need}"
        for n in meta["includes"]:
            if not (self.root / "harness" / n).exists():
                return f"missing harness {n}"
        return None

    def tests(self, scope, only=None):
        out = []
        test_dir = self.root / "test"
        files = []
        for s in scope:
            base = test_dir / s
            if base.is_file():
                files.append(base)
            elif base.is_dir():
                files.extend(p for p in base.rglob("*.js"))
        files = sorted(set(files))
        for path in files:
            rel = path.relative_to(test_dir).as_posix()
            if "_FIXTURE" in rel or any(rel.startswith(x) for x in ALWAYS_EXCLUDED):
                continue
            if only and not any(rel.startswith(o) for o in only):
                continue
            data = path.read_bytes()
            text = data.decode("utf-8")
            meta = parse_meta(text)
            skip = self.skip_reason(rel, meta, text)
            flags = meta["flags"]
            if "onlyStrict" in flags:
                variants = [True]
            elif "noStrict" in flags or "raw" in flags:
                variants = [False]
            else:
                variants = [False, True] if self.both else [False]
            for strict in variants:
                key = rel + (" (strict)" if strict and len(variants) == 2 else "")
                out.append(Test(key, rel, path, meta, strict, skip, text))
        return out


def main_source(suite, t: Test) -> str:
    """The harness (but doneprintHandle.js) and the test as one script,
    strict when the test is: top-level let/const/class of harness files
    (resizableArrayBufferUtils.js, regExpUtils.js, ...) must be visible to
    the test, which separate indirect evals would not give."""
    if t.raw:
        return t.source
    text = suite.bundle(t.meta)[0] + t.source
    return ('"use strict";\n' + text) if t.strict else text


# ---------------------------------------------------------------- verdicts


def verdict(t: Test, obs):
    """(status, reason) from an observation dict: threw, name, msg, out, err."""
    if obs.get("err"):
        return "fail", obs["err"]
    neg = t.meta["negative"]
    if obs.get("harness"):
        return "fail", f"harness threw {obs['name']}: {obs['msg']}"[:300]
    if neg:
        want = neg.get("type")
        if obs["threw"]:
            if obs["name"] == want:
                return "pass", ""
            return "fail", f"expected {want}, got {obs['name']}: {obs['msg']}"[:300]
        return "fail", f"expected {want} ({neg.get('phase')}), nothing thrown"
    if obs["threw"]:
        return "fail", f"{obs['name']}: {obs['msg']}"[:300]
    if t.is_async:
        out = obs.get("out", "")
        for line in out.splitlines():
            if line.startswith("Test262:AsyncTestFailure"):
                return "fail", line[len("Test262:AsyncTestFailure:"):][:300]
        if "Test262:AsyncTestComplete" in out:
            return "pass", ""
        return "fail", "$DONE not called"
    return "pass", ""


def parse_error_line(line: str):
    m = re.match(r"^([A-Za-z_$][\w$]*)(?:: ?(.*))?$", line)
    if m:
        return m.group(1), (m.group(2) or "")
    return "?", line


# ---------------------------------------------------------------- runners


class BareRunner:
    """`qjs -I prelude -I harness --script test` per test (name "bare"),
    or the cell text wrapped as an async function (name "bare-cell")."""

    def __init__(self, name, qjs, timeout, jobs):
        self.name, self.qjs, self.timeout, self.jobs = name, str(qjs), timeout, jobs
        self.dir = Path(tempfile.mkdtemp(prefix=f"t262-{name}-"))
        (self.dir / "prelude.js").write_text(PRELUDE)
        self.env = dict(os.environ, TZ="UTC")
        self.restarts = 0
        self._lock = threading.Lock()

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def _file(self, name, data: bytes):
        p = self.dir / name
        if not p.exists():
            tmp = self.dir / (name + f".{threading.get_ident()}")
            tmp.write_bytes(data)
            tmp.replace(p)
        return p

    def mirror(self, suite: Suite, t: Test):
        rel_dir = Path(t.rel).parent
        # one flat, real directory per test directory (a nested mirror
        # would meet its parent's link to the original subdirectory)
        m = self.dir / "m" / rel_dir.as_posix().replace("/", "__")
        with self._lock:
            if not m.exists():
                m.mkdir(parents=True)
                for entry in (suite.root / "test" / rel_dir).iterdir():
                    (m / entry.name).symlink_to(entry.resolve())
        return m

    def run(self, suite: Suite, t: Test):
        work = self.dir / f"w{threading.get_ident()}"
        work.mkdir(exist_ok=True)
        if self.name == "bare-cell":
            f = work / "cell.js"
            f.write_bytes((BARE_CELL_WRAP_HEAD + cell_text(suite, t) + BARE_CELL_WRAP_TAIL).encode())
            cmd = [self.qjs, "--script", str(f)]
        else:
            f = work / "test.js"
            if "_FIXTURE" in t.source:
                # import() resolves next to the importing file: run the
                # test from a directory of links to its own directory.
                f = self.mirror(suite, t) / f"__t262_{threading.get_ident()}.js"
            f.write_bytes(main_source(suite, t).encode("utf-8"))
            cmd = [self.qjs]
            if not t.raw:
                cmd += ["-I", str(self.dir / "prelude.js")]
                if t.is_async:
                    cmd += ["-I", str(self._file("doneprintHandle.js",
                                                 suite.harness_file("doneprintHandle.js").encode()))]
            cmd += ["--script", str(f)]
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=self.timeout,
                               env=self.env, cwd=work)
        except subprocess.TimeoutExpired:
            return {"err": f"timeout ({self.timeout} s)"}
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        if self.name == "bare-cell":
            for line in out.splitlines():
                if line.startswith("T262CELL:"):
                    kind, _, rest = line[len("T262CELL:"):].partition("\u0002")
                    if kind == "err":
                        return {"err": "cell threw " + rest[:200]}
                    return cell_value_obs(rest, out.split("T262CELL:", 1)[0])
            if p.returncode < 0:
                return {"err": f"qjs killed by signal {-p.returncode}"}
            # the async function never settled: what codemode calls a
            # promise pending without host work
            return {"threw": False, "name": "", "msg": "", "out": "", "pending": True}
        if p.returncode < 0:
            return {"err": f"qjs killed by signal {-p.returncode}"}
        if p.returncode != 0 and err and not err.startswith("Possibly unhandled promise rejection"):
            name, msg = parse_error_line(err.splitlines()[0])
            return {"threw": True, "name": name, "msg": msg, "out": out}
        if p.returncode != 0 and not err:
            return {"threw": True, "name": "?", "msg": f"exit status {p.returncode}", "out": out}
        return {"threw": False, "name": "", "msg": "", "out": out}


def cell_text(suite: Suite, t: Test) -> str:
    prelude = "" if t.raw else PRELUDE
    pre = suite.harness_file("doneprintHandle.js") if t.is_async and not t.raw else ""
    return (CELL.replace("@PRELUDE@", json.dumps(prelude))
            .replace("@PRE@", json.dumps(pre))
            .replace("@MAIN@", json.dumps(main_source(suite, t)))
            .replace("@ASYNC@", "true" if t.is_async else "false"))


def cell_value_obs(value: str, extra_out=""):
    parts = value.split("\u0001", 3)
    if len(parts) != 4:
        return {"err": f"unexpected cell value {value[:100]!r}"}
    kind, name, msg, out = parts
    if kind == "harness":
        return {"threw": True, "harness": True, "name": name, "msg": msg, "out": out}
    return {"threw": kind == "threw", "name": name, "msg": msg, "out": out}


class SessionDied(Exception):
    pass


class Session:
    def __init__(self, binary, mode, logdir: Path):
        self.binary, self.mode = binary, mode
        self.logdir = logdir
        self.proc = None
        self.buf = b""
        self.starts = 0

    def start(self):
        self.dir = Path(tempfile.mkdtemp(prefix=f"t262-{self.mode}-"))
        cfg = self.dir / "codemode.toml"
        cfg.write_text(f'[limits]\nisolation = "{self.mode}"\ntimeout_ms = 10000\n')
        self.starts += 1
        self.stderr = open(self.logdir / f"session-{self.mode}.log", "ab")
        try:
            self.proc = subprocess.Popen(
                [self.binary, "session", "--config", str(cfg), "--store", str(self.dir / "store")],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, cwd=self.dir,
                env=dict(os.environ, TZ="UTC"), start_new_session=True)
        except OSError as e:
            self.stderr.close()
            shutil.rmtree(self.dir, ignore_errors=True)
            raise SessionDied(f"session died (cannot start: {e})")
        self.buf = b""
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)

    def stop(self):
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.sel.close()
            self.stderr.close()
            shutil.rmtree(self.dir, ignore_errors=True)
            self.proc = None

    def request(self, obj, timeout):
        if self.proc is None:
            self.start()
        try:
            self.proc.stdin.write(json.dumps(obj).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise SessionDied("session died (stdin closed)")
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SessionDied(f"session hung (no reply in {timeout:.0f} s)")
            if not self.sel.select(left):
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise SessionDied(f"session died (exit {self.proc.poll()})")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return json.loads(line)


class CodemodeRunner:
    def __init__(self, mode, binary, timeout):
        self.name = mode
        self.session = Session(binary, mode, OUT_DIR)
        self.timeout = timeout
        self.jobs = 1
        self.restarts = 0

    def close(self):
        self.session.stop()

    def run(self, suite: Suite, t: Test):
        """Runs a test; when the session dies or hangs, restarts it and
        tries the test once more (a test that kills it twice fails)."""
        code = cell_text(suite, t)
        first = self._run(code)
        if "died" not in first:
            return first
        second = self._run(code)
        if "died" in second:
            return {"err": f"{first['died']}; restarted, and again: {second['died']}"}
        return second

    def _run(self, code):
        deadline = time.monotonic() + self.timeout
        try:
            res = self.session.request({"op": "exec", "code": code}, self.timeout + 15)
            while res.get("status") == "waiting":
                if time.monotonic() > deadline:
                    self.session.request({"op": "abort", "runId": res["runId"]}, 30)
                    return {"err": f"still waiting after {self.timeout} s (aborted)"}
                res = self.session.request({"op": "wait", "runId": res["runId"]}, self.timeout + 15)
        except SessionDied as e:
            self.session.stop()
            self.restarts += 1
            return {"died": str(e)}
        status = res.get("status")
        if status == "completed":
            v = res.get("value")
            if not isinstance(v, str):
                return {"err": f"unexpected cell value {json.dumps(v)[:100]}"}
            return cell_value_obs(v)
        err = str(res.get("error", ""))
        if PENDING_FOREVER in err:
            return {"threw": False, "name": "", "msg": "", "out": "", "pending": True}
        return {"err": f"cell {status} [{res.get('code')}]: {err.splitlines()[0] if err else ''}"[:300]}


# ---------------------------------------------------------------- driver


def run_all(suite, tests, runners, progress_every=2000):
    results = {r.name: {} for r in runners}
    timings = {}

    def drive(runner):
        start = time.monotonic()
        todo = [t for t in tests if not t.skip]
        done = [0]
        lock = threading.Lock()

        def one(t):
            try:
                obs = runner.run(suite, t)
            except Exception as e:  # a harness bug must not stop the run
                obs = {"err": f"harness exception {type(e).__name__}: {e}"}
            st, reason = verdict(t, obs)
            if obs.get("pending") and st == "fail" and not t.is_async:
                reason = "cell never settled (" + reason + ")"
            results[runner.name][t.key] = (st, reason)
            with lock:
                done[0] += 1
                if done[0] % progress_every == 0:
                    log(f"test262: {runner.name}: {done[0]}/{len(todo)} in {time.monotonic() - start:.0f} s")

        if runner.jobs > 1:
            with ThreadPoolExecutor(runner.jobs) as ex:
                list(ex.map(one, todo))
        else:
            for t in todo:
                one(t)
        timings[runner.name] = time.monotonic() - start
        for t in tests:
            if t.skip:
                results[runner.name][t.key] = ("skip", t.skip)

    threads = [threading.Thread(target=drive, args=(r,)) for r in runners]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return results, timings


def read_expected(path):
    entries = {}
    cause = ""
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            cause = line.lstrip("# ").strip()
            continue
        entries[line.split("#", 1)[0].strip()] = cause
    return entries


def counts(res):
    c = collections.Counter(st for st, _ in res.values())
    return c["pass"], c["fail"], c["skip"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", required=True, help="test262 checkout, bare git dir, or tests/test262")
    ap.add_argument("--codemode", default=str(ROOT / "target" / "debug" / "codemode"))
    ap.add_argument("--runners", default="thread,process,bare",
                    help="comma list of thread, process, bare, bare-cell")
    ap.add_argument("--scope", default=",".join(DEFAULT_SCOPE), help="directories (or files) under test/")
    ap.add_argument("--only", default="", help="comma list of path prefixes under test/ to keep")
    ap.add_argument("--both", action="store_true", help="also run tests without strictness flags strict")
    ap.add_argument("--timeout", type=float, default=30.0, help="per-test seconds (codemode cells: 10 s each window)")
    ap.add_argument("--bare-jobs", type=int, default=1)
    ap.add_argument("--quickjs-src", help="quickjs-ng sources (default: the rquickjs-sys crate's)")
    ap.add_argument("--report", default=str(OUT_DIR / "report.json"))
    ap.add_argument("--check", help="expected-differences list (codemode thread vs bare)")
    ap.add_argument("--vendor-ci", metavar="DEST", help="write the CI subset (tests, harness, LICENSE) to DEST")
    ap.add_argument("--list-ci", action="store_true", help="print the CI subset and exit")
    args = ap.parse_args()

    scope = [s.strip().strip("/") for s in args.scope.split(",") if s.strip()]
    root, commit = prepare_suite(Path(args.suite).resolve(), scope)
    qdir = quickjs_dir(args.quickjs_src)
    suite = Suite(root, load_conf(qdir), args.both)
    only = [o.strip() for o in args.only.split(",") if o.strip()]
    tests = suite.tests(scope, only)

    if args.vendor_ci or args.list_ci:
        listed = set(read_expected(args.check)) if args.check else set()
        chosen = select_ci(tests, listed)
        if args.list_ci:
            for t in chosen:
                print(t.rel)
            return 0
        vendor(suite, chosen, Path(args.vendor_ci), commit)
        return 0

    names = [n.strip() for n in args.runners.split(",") if n.strip()]
    runners = []
    qjs = None
    for n in names:
        if n in ("bare", "bare-cell"):
            qjs = qjs or build_qjs(qdir)
            runners.append(BareRunner(n, qjs, args.timeout, args.bare_jobs))
        elif n in ("thread", "process"):
            args.codemode = os.path.abspath(args.codemode)
            if not os.access(args.codemode, os.X_OK):
                sys.exit(f"test262.py: {args.codemode} is not an executable")
            runners.append(CodemodeRunner(n, args.codemode, args.timeout))
        else:
            sys.exit(f"test262.py: unknown runner {n}")

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    skipped = collections.Counter(t.skip.split(" (")[0] if t.skip.startswith("feature") else t.skip
                                  for t in tests if t.skip)
    log(f"test262: {len(tests)} tests ({sum(1 for t in tests if not t.skip)} to run) from {root}"
        f"{' at ' + commit if commit else ''}; runners: {', '.join(names)}")
    ident = binary_identity(args.codemode) if any(isinstance(r, CodemodeRunner) for r in runners) else None
    t0 = time.monotonic()
    try:
        results, timings = run_all(suite, tests, runners)
    finally:
        for r in runners:
            r.close()
    wall = time.monotonic() - t0
    if ident and binary_identity(args.codemode) != ident:
        log(f"test262: warning: {args.codemode} changed during the run (sessions kept the one they started with)")

    # ---- report
    report = {
        "codemode": ident,
        "commit": commit, "suite": str(root), "scope": scope, "runners": names, "wall_seconds": round(wall, 1),
        "seconds": {k: round(v, 1) for k, v in timings.items()},
        "session_restarts": {r.name: r.restarts for r in runners if isinstance(r, CodemodeRunner)},
        "skipped_by_reason": dict(skipped.most_common()),
        "tests": {t.key: {n: list(results[n][t.key]) for n in names} for t in tests},
    }
    Path(args.report).parent.mkdir(parents=True, exist_ok=True)
    Path(args.report).write_text(json.dumps(report, indent=0, ensure_ascii=False) + "\n")

    print(f"test262 at {commit or '?'}: {len(tests)} tests, wall {wall:.0f} s; report {args.report}")
    if report["codemode"]:
        print(f"  codemode {report['codemode']['path']} built {report['codemode']['mtime']} "
              f"sha256 {report['codemode']['sha256']}")
    for n in names:
        p, f, s = counts(results[n])
        extra = f", session restarts {report['session_restarts'][n]}" if n in report["session_restarts"] else ""
        print(f"  {n:9} pass {p:6}  fail {f:5}  skip {s:5}  ({timings[n]:.0f} s{extra})")
    print("  skipped by reason: " + ", ".join(f"{k} {v}" for k, v in skipped.most_common(12)))

    checks = 0
    bad = 0
    keys = [t.key for t in tests if not t.skip]
    if "thread" in names and "process" in names:
        diff = [k for k in keys if results["thread"][k][0] != results["process"][k][0]]
        checks += len(keys)
        bad += len(diff)
        print(f"thread != process: {len(diff)}")
        for k in diff:
            print(f"  {k}\n    thread:  {fmt(results['thread'][k])}\n    process: {fmt(results['process'][k])}")
    if "thread" in names and "bare" in names:
        diff = [k for k in keys if results["thread"][k][0] != results["bare"][k][0]]
        expected = read_expected(args.check) if args.check else None
        checks += len(keys)
        if expected is None:
            bad += len(diff)
            print(f"codemode (thread) != bare: {len(diff)}")
            for k in diff:
                print(f"  {k}\n    thread: {fmt(results['thread'][k])}\n    bare:   {fmt(results['bare'][k])}")
        else:
            rels = {k: k.replace(" (strict)", "") for k in keys}
            new = [k for k in diff if rels[k] not in expected and k not in expected]
            ran = set(keys) | set(rels.values())
            differing = set(diff) | {rels[k] for k in diff}
            stale = sorted(e for e in expected if e in ran and e not in differing)
            bad += len(new)
            print(f"codemode (thread) != bare: {len(diff)}, {len(diff) - len(new)} of them listed in {args.check}")
            for k in new:
                print(f"  NEW {k}\n    thread: {fmt(results['thread'][k])}\n    bare:   {fmt(results['bare'][k])}")
            for e in stale:
                print(f"  warning: stale entry (no longer differs): {e}")
    if "bare-cell" in names and "bare" in names and "thread" in names:
        design = [k for k in keys if results["bare"][k][0] != results["bare-cell"][k][0]]
        machinery = [k for k in keys if results["bare-cell"][k][0] != results["thread"][k][0]]
        print(f"bare != bare-cell (script vs cell/eval, by design): {len(design)}; "
              f"bare-cell != thread (codemode's machinery): {len(machinery)}")
    print(f"test262: {checks - bad} passed, {bad} failed")
    return 1 if (args.check and bad) else 0


def binary_identity(path):
    st = os.stat(path)
    with open(path, "rb") as f:
        digest = hashlib.file_digest(f, "sha256").hexdigest()[:16]
    return {"path": str(path), "mtime": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(st.st_mtime)),
            "sha256": digest}


def fmt(r):
    return r[0] + (f" -- {r[1]}" if r[1] else "")


def select_ci(tests, listed):
    runnable = [t for t in tests if not t.skip]
    rels = sorted({t.rel for t in runnable})
    chosen = set()
    for i, rel in enumerate(rels):
        if i % CI_EVERY == 0 or any(rel.startswith(d) for d in CI_DIRS) or (
                rel in listed and not rel.startswith("language/expressions/dynamic-import/")):
            chosen.add(rel)
    seen = set()
    out = []
    for t in runnable:
        if t.rel in chosen and t.rel not in seen:
            seen.add(t.rel)
            out.append(t)
    return out


def vendor(suite: Suite, chosen, dest: Path, commit):
    for sub in ("test", "harness"):
        if (dest / sub).exists():
            shutil.rmtree(dest / sub)
    harness = {"assert.js", "sta.js", "doneprintHandle.js"}
    total = 0
    for t in chosen:
        target = dest / "test" / t.rel
        target.parent.mkdir(parents=True, exist_ok=True)
        data = t.path.read_bytes()
        target.write_bytes(data)
        total += len(data)
        harness.update(t.meta["includes"])
        if "_FIXTURE" in t.source:
            for fx in t.path.parent.iterdir():
                if "_FIXTURE" in fx.name and fx.is_file() and not (target.parent / fx.name).exists():
                    (target.parent / fx.name).write_bytes(fx.read_bytes())
                    total += fx.stat().st_size
    for n in sorted(harness):
        target = dest / "harness" / n
        target.parent.mkdir(parents=True, exist_ok=True)
        data = (suite.root / "harness" / n).read_bytes()
        target.write_bytes(data)
        total += len(data)
    shutil.copyfile(suite.root / "LICENSE", dest / "LICENSE")
    (dest / "COMMIT").write_text(f"{commit}\n")
    log(f"test262: vendored {len(chosen)} tests and {len(harness)} harness files ({total / 1e6:.1f} MB) "
        f"into {dest}")


if __name__ == "__main__":
    sys.exit(main())
