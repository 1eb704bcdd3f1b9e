"""Drives `codemode serve` with the official Python MCP client.

Usage: mcp_client.py BINARY STORE_DIR EXPECTED_DESCRIPTIONS_JSON [METRICS_PORT]
Exits non-zero (with a message) on any mismatch. With METRICS_PORT, the
server also serves /metrics there, and the script prints it after "ok".
"""
import asyncio
import json
import sys
import urllib.request

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def is_error(result):
    return bool(getattr(result, "is_error", None) or getattr(result, "isError", None))


def parse(result):
    return json.loads(result.content[0].text)


async def main(binary, store, expected_path, metrics_port=None):
    with open(expected_path) as f:
        expected = json.load(f)
    args = ["--store", store, "serve"]
    if metrics_port:
        args += ["--metrics", f"127.0.0.1:{metrics_port}"]
    params = StdioServerParameters(command=binary, args=args)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert sorted(tools) == ["exec", "wait"], sorted(tools)
            for name in ("exec", "wait"):
                assert tools[name].description == expected[name]["description"], name
                schema = getattr(tools[name], "input_schema", None) or getattr(tools[name], "inputSchema", None)
                assert schema == expected[name]["inputSchema"], (schema, expected[name]["inputSchema"])

            first = parse(await session.call_tool("exec", {
                "title": "store then pause",
                "code": "await store('k', {n: 1}); const r = await yield_control('pause'); return r.reason",
            }))
            assert first["status"] == "waiting", first
            waited = await session.call_tool("wait", {"runId": first["runId"]})
            done = parse(waited)
            assert done["status"] == "completed" and done["value"] == "pause", done
            # The same result as structured content, described by outputSchema.
            assert waited.structured_content == done, waited
            assert tools["wait"].output_schema is not None

            loaded = parse(await session.call_tool("exec", {"code": "return await load('k')"}))
            assert loaded["value"] == {"n": 1}, loaded

            saved = parse(await session.call_tool("exec", {"code": "return await results.save([1, 2, 3])"}))
            again = parse(await session.call_tool("exec", {"code": f"return await results.load('{saved['value']['id']}')"}))
            assert again["value"] == [1, 2, 3], again

            shell = await session.call_tool("exec", {"code": "ls -la"})
            assert is_error(shell) and parse(shell)["code"] == "invalid_input", shell
            missing = await session.call_tool("wait", {"runId": "nope"})
            assert is_error(missing), missing
            print("ok")
            if metrics_port:
                with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/health") as r:
                    print(r.read().decode())
                with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics") as r:
                    print(r.read().decode())


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
