"""Drives `codemode serve` with the official Python MCP client, sending a
caller's trace context in each call's `params._meta` or, over HTTP, in the
request headers.

Usage:
  mcp_traces.py stdio BINARY CONFIG STORE_DIR CALLS_JSON
      Starts the server over stdio; it exits when the calls are done (its
      stdin closes), flushing its spans.
  mcp_traces.py http URL TRACEPARENT CALLS_JSON
      Calls a running `serve --http` server, sending `traceparent:
      TRACEPARENT` on every HTTP request.
CALLS_JSON is a list of [tool, arguments, meta]; an argument "$lastRunId"
is the runId of the last waiting result. Prints one JSON line per call:
its result (the structured content).
"""
import asyncio
import json
import sys
from contextlib import asynccontextmanager

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


@asynccontextmanager
async def stdio(binary, config, store):
    params = StdioServerParameters(command=binary, args=["--config", config, "--store", store, "serve"])
    async with stdio_client(params) as (read, write):
        yield read, write


@asynccontextmanager
async def http(url, traceparent):
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    async with create_mcp_http_client(headers={"traceparent": traceparent}) as client:
        async with streamable_http_client(url, http_client=client) as streams:
            yield streams[0], streams[1]


async def run(transport, calls_json):
    calls = json.loads(calls_json)
    last_run_id = None
    async with transport as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for tool, arguments, meta in calls:
                arguments = {k: (last_run_id if v == "$lastRunId" else v) for k, v in arguments.items()}
                result = await session.call_tool(tool, arguments, meta=meta or None)
                # Structured content is the result itself; the text block
                # of an untrusted (network-derived) result is wrapped.
                parsed = result.structured_content or json.loads(result.content[0].text)
                if parsed.get("status") == "waiting":
                    last_run_id = parsed["runId"]
                print(json.dumps(parsed), flush=True)


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    if mode == "stdio":
        asyncio.run(run(stdio(*args[:3]), args[3]))
    else:
        asyncio.run(run(http(*args[:2]), args[2]))
