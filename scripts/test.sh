#!/usr/bin/env bash
# The test command: installs what the tests need beyond the Rust toolchain
# (the Python MCP client that drives `codemode serve`), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import mcp" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "mcp>=1.20"
fi
# A third-party MCP server for the MCP namespace tests.
# and TypeScript, to type-check the generated MCP declarations.
everything=tests/.npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js
tsc=tests/.npm/node_modules/typescript/bin/tsc
if [ ! -f "$everything" ] || [ ! -f "$tsc" ]; then
  npm install --prefix tests/.npm --no-audit --no-fund --silent \
    @modelcontextprotocol/server-everything@2026.8.31 typescript@5
fi
cargo test --workspace "$@"
