"""Drives `codemode serve` over stdio with the official Python MCP client,
sending a caller's trace context in each call's `params._meta`.

Usage: mcp_traces.py BINARY CONFIG STORE_DIR CALLS_JSON
CALLS_JSON is a list of [tool, arguments, meta]; an argument "$lastRunId"
is the runId of the last waiting result. Prints one JSON line per call:
the parsed text block of its result. Exits when the calls are done, which
closes the server's stdin and ends it (flushing its spans).
"""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(binary, config, store, calls_json):
    calls = json.loads(calls_json)
    params = StdioServerParameters(command=binary, args=["--config", config, "--store", store, "serve"])
    last_run_id = None
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for tool, arguments, meta in calls:
                arguments = {k: (last_run_id if v == "$lastRunId" else v) for k, v in arguments.items()}
                result = await session.call_tool(tool, arguments, meta=meta or None)
                parsed = json.loads(result.content[0].text)
                if parsed.get("status") == "waiting":
                    last_run_id = parsed["runId"]
                print(json.dumps(parsed), flush=True)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
