interface McpApiHeader { kind: "mcp_api"; scope: "root" | "server" | "tool"; header: string; tools?: unknown[]; schemas?: Record<string, unknown>; note: string }
interface McpToolResult { content: Array<{ type: string; [key: string]: unknown }>; structuredContent?: unknown; isError?: boolean }
/** MCP server time */
declare namespace MCP.time {
  const $serverName: string;
  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;
  /**
   * Convert a time between time zones.
   * @param source_timezone
   * @param time HH:MM, 24-hour.
   * @param target_timezone
   */
  function convertTime(input: { source_timezone: string; target_timezone: string; time: string }): Promise<McpToolResult>;
  /**
   * The current time in a time zone.
   * @param timezone
   */
  function getCurrentTime(input: { timezone: string }): Promise<McpToolResult>;
  namespace resources {
    function list(): Promise<{ resources: Array<{ uri: string; name: string; title?: string; description?: string; mimeType?: string }>; nextCursor?: string }>;
    function read(input: { uri: string }): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>;
  }
  namespace prompts {
    function list(): Promise<{ prompts: Array<{ name: string; title?: string; description?: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> }>; nextCursor?: string }>;
    function get(input: { name: string; arguments?: Record<string, string> }): Promise<{ description?: string; messages: Array<{ role: string; content: { type: string; [key: string]: unknown } }> }>;
  }
}
