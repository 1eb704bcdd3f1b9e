"""Drives `codemode serve --http` with the official Python MCP client.

Usage:
  mcp_http_client.py URL
      Runs exec -> waiting -> wait -> completed, and store across calls;
      prints "ok".
  mcp_http_client.py URL calls CALLS_JSON
      Makes each call of CALLS_JSON (a list of [tool, arguments]) in one MCP
      session (an argument "$lastRunId" is the runId of the last waiting
      result) and prints one JSON line per call: the text block, the
      structured content, isError and the schema errors of the structured
      content against the tool's outputSchema. After the session closed, a
      last line: the status of every DELETE the client sent, the client's
      warnings, and the status of a DELETE naming an unknown session.
"""
import asyncio
import json
import logging
import sys

from mcp import ClientSession

try:
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client as connect
except ImportError:  # older releases of the mcp package
    from mcp.client.streamable_http import streamablehttp_client as connect
    create_mcp_http_client = None


def parse(result):
    return json.loads(result.content[0].text)


async def basic(url):
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


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


async def calls(url, calls_json):
    import jsonschema

    warnings = Warnings()
    logging.getLogger("mcp").addHandler(warnings)
    deletes = []

    async def on_response(response):
        if response.request.method == "DELETE":
            deletes.append(response.status_code)

    async with create_mcp_http_client() as http:
        http.event_hooks = {"request": [], "response": [on_response]}
        async with connect(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                schemas = {t.name: t.output_schema for t in (await session.list_tools()).tools}
                last_run_id = None
                for tool, arguments in json.loads(calls_json):
                    # "$lastRunId" stands for the runId of the last waiting result.
                    arguments = {k: last_run_id if v == "$lastRunId" else v for k, v in arguments.items()}
                    result = await session.call_tool(tool, arguments)
                    structured = result.structured_content
                    if isinstance(structured, dict) and structured.get("runId"):
                        last_run_id = structured["runId"]
                    errors = []
                    if schemas.get(tool) is None:
                        errors.append("the tool declares no outputSchema")
                    elif structured is not None:
                        validator = jsonschema.Draft202012Validator(schemas[tool])
                        errors = [e.message for e in validator.iter_errors(structured)]
                    print(json.dumps({
                        "text": result.content[0].text,
                        "structured": structured,
                        "isError": bool(result.is_error),
                        "schemaErrors": errors,
                    }), flush=True)
        http.event_hooks = {"request": [], "response": []}
        unknown = await http.delete(url, headers={"mcp-session-id": "no-such-session", "mcp-protocol-version": "2025-06-18"})
    print(json.dumps({"deletes": deletes, "warnings": warnings.messages, "unknownDelete": unknown.status_code}))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "calls":
        asyncio.run(calls(sys.argv[1], sys.argv[3]))
    else:
        asyncio.run(basic(sys.argv[1]))
