import type { ParseMermaidResult } from '@sc/diagram/node';

/** Main thread → worker. */
export interface ParseRequest {
  id: number;
  source: string;
  maxBytes: number;
}

/** Worker → main thread: the parse result, or the message of an unexpected failure. */
export type ParseResponse = { id: number; result: ParseMermaidResult } | { id: number; failure: string };
