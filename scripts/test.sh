#!/usr/bin/env bash
# The test command: installs what the tests need beyond the Rust toolchain
# (the Python MCP client that drives `codemode serve`, a throwaway PostgreSQL),
# then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import mcp" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "mcp>=1.20"
fi
# Third-party MCP servers for the MCP namespace tests (tests/tests/mcp.rs,
# tests/tests/mcp_third_party.rs), and TypeScript, to type-check the
# generated MCP declarations. Versions are pinned.
mcp_npm=tests/.npm/node_modules/@modelcontextprotocol
tsc=tests/.npm/node_modules/typescript/bin/tsc
if [ ! -f "$mcp_npm/server-everything/dist/index.js" ] || [ ! -f "$mcp_npm/server-filesystem/dist/index.js" ] \
  || [ ! -f "$mcp_npm/server-memory/dist/index.js" ] || [ ! -f "$tsc" ]; then
  npm install --prefix tests/.npm --no-audit --no-fund --silent \
    @modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/server-filesystem@2026.8.31 \
    @modelcontextprotocol/server-memory@2026.8.31 typescript@5
fi
# The time server, from PyPI, run as `python3 -m mcp_server_time`.
if ! python3 -c "import mcp_server_time" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "mcp-server-time==2026.10.19"
fi
# Prometheus and promtool (Debian's package) for crates/cli/tests/prometheus.rs:
# a real Prometheus scrapes `codemode serve` and evaluates the dashboard and
# the rules. The package's service is not started; the test runs its own.
if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus >/dev/null \
    || { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus >/dev/null; }
fi
# Debian's Chromium and ChromeDriver, and Selenium from PyPI, for the
# console's browser test (crates/cli/tests/operator.rs).
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium chromium-driver >/dev/null \
    || { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium chromium-driver >/dev/null; }
fi
if ! python3 -c "import selenium" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "selenium==4.45.0"
fi
# A throwaway PostgreSQL cluster for the PostgreSQL backend's tests
# (scripts/postgres.sh installs Debian's package when missing). Tests create
# their own database in it (`codemode_store::postgres::test_database`), or use
# fresh random ids in the default one, so test binaries running in parallel
# never share data. Stopped on any exit, also when tests fail.
pgdir=$(mktemp -d)
trap 'scripts/postgres.sh stop "$pgdir"' EXIT
CODEMODE_TEST_POSTGRES_URL=$(scripts/postgres.sh start "$pgdir")
export CODEMODE_TEST_POSTGRES_URL
# The chaos test restarts the cluster once (crates/cli/tests/chaos.rs).
CODEMODE_TEST_POSTGRES_DIR=$pgdir
export CODEMODE_TEST_POSTGRES_DIR
cargo test --workspace "$@"
# The guest suites again with every cell's engine in a confined worker
# process (`isolation = "process"`): the guest API is the same in both
# modes (tests/src/lib.rs `builder`; the CLI's `serve` already runs in
# process mode by default). The binaries the run above built are run
# again as they are: `cargo test -p` would build them anew, its features
# being unified over one package instead of the workspace.
if [ "$#" -gt 0 ]; then
  CODEMODE_TEST_ISOLATION=process cargo test -p codemode-tests --tests "$@"
  exit 0
fi
mapfile -t suites < <(cargo test --workspace --no-run --message-format=json | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"] \
            and "#codemode-tests@" in m["package_id"]:
        print(m["executable"])
')
if [ "${#suites[@]}" -lt 2 ]; then
  echo "scripts/test.sh: found no guest suites to run in process mode" >&2
  exit 1
fi
for suite in "${suites[@]}"; do
  echo "process mode: $(basename "$suite")"
  (cd tests && CODEMODE_TEST_ISOLATION=process "$suite" -q)
done
# tc39/test262: the vendored subset (tests/test262/README.md) as cells in
# both engine homes and on the bare engine (quickjs-ng's qjs, built from the
# same sources); thread != process, or a difference from the bare engine not
# in the reasoned list, fails. Ends with `test262: N passed, M failed`.
python3 scripts/test262.py --suite tests/test262 --codemode target/debug/codemode --both \
  --check tests/test262/expected-differences.txt
