#!/usr/bin/env bash
# Instructions per engine, counted exactly (callgrind), for codemode's
# engine (prepared, a trivial cell run, freed) and the bare QuickJS floor
# (runtime, full context, eval("1"), freed). A benchmark, not a test: it
# reads a release build's `codemode bench --only floor` under valgrind.
#
#   cargo build --release -p codemode-cli
#   scripts/engine_instructions.sh [path/to/codemode]
set -euo pipefail

bin="${1:-target/release/codemode}"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
[ -x "$bin" ] || { echo "no binary at $bin: cargo build --release -p codemode-cli" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# $1 the function whose calls are counted, $2 what one engine calls once.
count() {
  local toggle="$1" per="$2" out="$work/cg.$RANDOM"
  (cd "$work" && valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$toggle" \
    "$bin" bench --only floor --runs 1 --warmup 0 >/dev/null 2>&1)
  local total engines
  total="$(callgrind_annotate "$out" | awk '/PROGRAM TOTALS/ && !n++ {gsub(",", "", $1); print $1}')"
  # The calls into `per`: the `<` lines just above its `*` line.
  engines="$(callgrind_annotate --tree=caller "$out" | python3 -c '
import re, sys
per, callers, total = sys.argv[1], [], None
for line in sys.stdin:
    if re.search(r"\s<\s", line):
        callers.append(line)
    elif re.search(r"\s\*\s", line):
        if per in line and total is None:
            total = sum(int(m.replace(",", "")) for c in callers for m in re.findall(r"\(([0-9,]+)x\)", c))
        callers = []
    else:
        callers = []
print(total or 0)
' "$per")"
  echo "$total $engines"
}

read -r engine_total engine_count < <(count '*EnginePool*cycle*' 'Vm<H>::prepare')
read -r floor_total floor_count < <(count '*bench_engine_floor*' 'JS_NewContext')
awk -v et="$engine_total" -v ec="$engine_count" -v ft="$floor_total" -v fc="$floor_count" 'BEGIN {
  e = et / ec; f = ft / fc;
  printf "codemode engine: %.0f instructions per engine (%d engines)\n", e, ec;
  printf "bare engine floor: %.0f instructions per engine (%d engines)\n", f, fc;
  printf "ratio: %.2fx the floor\n", e / f;
}'
