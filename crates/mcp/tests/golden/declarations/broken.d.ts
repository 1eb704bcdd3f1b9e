interface McpApiHeader { kind: "mcp_api"; scope: "root" | "server" | "tool"; header: string; tools?: unknown[]; schemas?: Record<string, unknown>; note: string }
interface McpToolResult { content: Array<{ type: string; [key: string]: unknown }>; structuredContent?: unknown; isError?: boolean }
/** MCP server broken */
declare namespace MCP.broken {
  const $serverName: string;
  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;
}
