"""One MCP session on `codemode serve --http`, driven line by line.

Usage: mcp_calls.py URL [TOKEN]
  Reads one JSON line [tool, arguments] at a time from stdin, calls the
  tool in the same MCP session, and prints the result's JSON (the text
  block) on one line, so a test can act between calls (an operator's
  decision between an exec and its wait).
"""
import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


async def main(url, token):
    loop = asyncio.get_running_loop()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with create_mcp_http_client(headers=headers) as http, streamable_http_client(url, http_client=http) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            await session.initialize()
            print(json.dumps({"ready": True}), flush=True)
            while True:
                line = await loop.run_in_executor(None, sys.stdin.readline)
                if not line.strip():
                    return
                tool, arguments = json.loads(line)
                result = await session.call_tool(tool, arguments)
                print(json.dumps(json.loads(result.content[0].text)), flush=True)


asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
