/// <reference path="./accountingServer.d.ts" />
/// <reference path="./broken.d.ts" />
/// <reference path="./time.d.ts" />
interface McpRootApiHeader { header: string; servers?: unknown[] }
declare namespace MCP { function $api(): Promise<McpRootApiHeader>; }
