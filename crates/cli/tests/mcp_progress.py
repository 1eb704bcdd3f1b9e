"""Watches a long cell through `codemode serve` with the official Python MCP
client's progress callback: each output entry arrives as a progress
notification while the window runs, before the result.

Usage: mcp_progress.py BINARY STORE_DIR
Prints one JSON object: the notifications' messages, whether the first
arrived before the result, and the result.
"""
import asyncio
import json
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(binary, store):
    params = StdioServerParameters(command=binary, args=["--store", store, "serve"])
    seen = []

    async def progress(progress, total, message):
        seen.append({"progress": progress, "message": message, "at": time.monotonic()})

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            code = (
                "text('step 1'); await new Promise(r => setTimeout(r, 400)); "
                "json({step: 2}); await new Promise(r => setTimeout(r, 400)); "
                "console.log('step', 3); return 'done'"
            )
            result = await session.call_tool("exec", {"code": code}, progress_callback=progress)
            ended = time.monotonic()
            done = json.loads(result.content[0].text)
            # Without a progress callback, no notifications.
            before = len(seen)
            await session.call_tool("exec", {"code": "text('quiet'); return 1"})
            print(json.dumps({
                "messages": [s["message"] for s in seen],
                "progress": [s["progress"] for s in seen],
                "firstBeforeEnd": bool(seen) and seen[0]["at"] < ended - 0.3,
                "quiet": len(seen) == before,
                "result": done,
            }))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
