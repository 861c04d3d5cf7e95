/**
 * The MCP server (apps/server/src/modules/mcp): where it listens and how large one answer may be. `service-cli mcp`
 * bridges a local stdio client to `${SERVICE_GATEWAY_URL}${MCP_PATH}`.
 */
export const MCP_PATH = '/mcp';

/** The most UTF-8 bytes of text one tool answer or resource read carries; longer answers page by `offset`. */
export const MCP_MAX_ANSWER_BYTES = 100 * 1024;

/** The most search hits, services or where-used matches one tool answer lists. */
export const MCP_MAX_LIST_ITEMS = 50;
