"""Sequential MCP sessions against `codemode serve --http`.

Usage: mcp_http_sessions.py URL N CODE [SESSION_KEY|-] [--hold]
Runs N MCP sessions one after another, each a fresh client connection:
initialize, one call, then close (the client's DELETE). The call is `exec`
of CODE, or `wait` on RUN_ID when CODE is `wait:RUN_ID`. Prints each
result's text block on one line, flushed as it arrives. With `--hold` the
last session stays open after its result until a line arrives on stdin, so
a test can look at the server while a session is connected.
"""
import asyncio
import sys

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


async def session(url, headers, code, hold):
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as mcp:
                await mcp.initialize()
                if code.startswith("wait:"):
                    result = await mcp.call_tool("wait", {"runId": code[5:]})
                else:
                    result = await mcp.call_tool("exec", {"code": code})
                print(result.content[0].text, flush=True)
                if hold:
                    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


async def main(url, n, code, key, hold):
    headers = {} if key == "-" else {"codemode-session": key}
    for i in range(n):
        await session(url, headers, code, hold and i == n - 1)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--hold"]
    key = args[3] if len(args) > 3 else "-"
    asyncio.run(main(args[0], int(args[1]), args[2], key, "--hold" in sys.argv[1:]))
