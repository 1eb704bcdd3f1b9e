"""Drives `codemode serve --http` with the official Python MCP client.

Usage: mcp_http_client.py URL
Runs exec -> waiting -> wait -> completed, and store across calls.
"""
import asyncio
import json
import sys

from mcp import ClientSession

try:
    from mcp.client.streamable_http import streamable_http_client as connect
except ImportError:  # older releases of the mcp package
    from mcp.client.streamable_http import streamablehttp_client as connect


def parse(result):
    return json.loads(result.content[0].text)


async def main(url):
    async with connect(url) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            await session.initialize()
            names = sorted(t.name for t in (await session.list_tools()).tools)
            assert names == ["exec", "wait"], names
            first = parse(await session.call_tool("exec", {"code": "await store('h', 7); await yield_control(); return 'resumed'"}))
            assert first["status"] == "waiting", first
            done = parse(await session.call_tool("wait", {"runId": first["runId"]}))
            assert done["status"] == "completed" and done["value"] == "resumed", done
            loaded = parse(await session.call_tool("exec", {"code": "return await load('h')"}))
            assert loaded["value"] == 7, loaded
    print("ok")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
