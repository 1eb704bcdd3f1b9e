interface McpApiHeader { kind: "mcp_api"; scope: "root" | "server" | "tool"; header: string; tools?: unknown[]; schemas?: Record<string, unknown>; note: string }
interface McpToolResult { content: Array<{ type: string; [key: string]: unknown }>; structuredContent?: unknown; isError?: boolean }
/** MCP server Accounting Server */
declare namespace MCP.accountingServer {
  const $serverName: string;
  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;
  /**
   * A tool with a reserved name.
   */
  function constructor2(input?: Record<string, unknown>): Promise<McpToolResult>;
  function echo(input?: Record<string, unknown>): Promise<McpToolResult>;
  /**
   * A user's profile.
   * @param id The user id.
   */
  function getUserProfile(input: { id: number /* integer */ }): Promise<McpToolResult>;
  /**
   * List a customer's invoices.
   * Overdue ones first.
   * Amounts are in cents; a comment end * / stays inside the doc.
   * @param customer Customer id.
   * @param currency? Default: "EUR".
   * @param filter?
   */
  function listInvoices(input: { customer: string; currency?: "EUR" | "USD"; filter?: { minAmount?: number | null; overdue?: boolean } }): Promise<McpToolResult & { structuredContent?: { invoices: Array<{ amount: number /* integer */; id: string }> } }>;
  /**
   * The camel-cased twin of list_invoices.
   */
  function listInvoices2(input?: Record<string, unknown>): Promise<McpToolResult>;
}
