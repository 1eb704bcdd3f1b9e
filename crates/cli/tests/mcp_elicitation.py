"""Drives `codemode serve` (stdio) with a Python MCP client that declares
elicitation: approvals are asked of this client, which answers from a
script.

Usage: mcp_elicitation.py BINARY CONFIG STORE_DIR CODE ANSWERS_JSON
ANSWERS_JSON is a list, one per elicitation in order: {"approve": bool,
"reason": str} to accept with that content, "decline", or "cancel".
Prints {"result": <exec result>, "asked": [messages]} on one line.
"""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


async def main(binary, config, store, code, answers_json):
    answers = json.loads(answers_json)
    asked = []

    async def elicit(context, params):
        asked.append(params.message)
        answer = answers[len(asked) - 1] if len(asked) <= len(answers) else "cancel"
        if answer == "decline":
            return types.ElicitResult(action="decline")
        if answer == "cancel":
            return types.ElicitResult(action="cancel")
        return types.ElicitResult(action="accept", content=answer)

    params = StdioServerParameters(command=binary, args=["--config", config, "--store", store, "serve"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=elicit) as session:
            await session.initialize()
            result = await session.call_tool("exec", {"code": code})
            print(json.dumps({"result": json.loads(result.content[0].text), "asked": asked}))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:6]))
