"""One exec against `codemode serve --http` as a given client identity.

Usage: mcp_http_identity.py URL CODE [TOKEN|-] [SESSION_KEY|-]
Prints the exec result (the model-facing JSON) on one line. A CODE of
`wait:RUN_ID` calls wait on that run instead, `approve:RUN_ID:ID` and
`deny:RUN_ID:ID` wait on it approving or denying a pending approval;
`relay:CODE` runs CODE on one
connection, closes it (DELETE), and waits on the run from a second
connection at once. The MCP session is closed (DELETE) when the script ends.
"""
import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


async def call(url, headers, name, arguments):
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                result = await session.call_tool(name, arguments)
                return result.content[0].text


async def main(url, code, token, key):
    headers = {}
    if token != "-":
        headers["Authorization"] = f"Bearer {token}"
    if key != "-":
        headers["codemode-session"] = key
    if code.startswith("relay:"):
        parked = json.loads(await call(url, headers, "exec", {"code": code[6:]}))
        print(await call(url, headers, "wait", {"runId": parked["runId"]}))
    elif code.startswith("approve:") or code.startswith("deny:"):
        verb, run_id, approval = code.split(":", 2)
        decision = [approval] if verb == "approve" else [{"id": approval, "reason": "not now"}]
        print(await call(url, headers, "wait", {"runId": run_id, verb: decision}))
    elif code.startswith("wait:"):
        print(await call(url, headers, "wait", {"runId": code[5:]}))
    else:
        print(await call(url, headers, "exec", {"code": code}))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
