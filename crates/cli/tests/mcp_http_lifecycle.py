"""One exec against `codemode serve --http` that is about to shut down.

Usage: mcp_http_lifecycle.py URL CODE [--on-stdin]
Prints the exec result (the model-facing JSON) on one line. The tools are
listed before the call, so that checking the result against its output
schema needs no request after it: the server may be gone by then. With
`--on-stdin` it connects, prints `connected`, and calls exec only once a
line arrives on stdin, so a test can time the call without waiting for
Python to start.
"""
import asyncio
import sys

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


async def main(url, code, on_stdin):
    async with create_mcp_http_client(headers={}) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                await session.list_tools()
                if on_stdin:
                    print("connected", flush=True)
                    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
                result = await session.call_tool("exec", {"code": code})
                print(result.content[0].text, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], "--on-stdin" in sys.argv[3:]))
