import type { DiagramIssue } from '@sc/diagram';
import type { ParseMermaidResult } from '@sc/diagram/node';
import { DomainError } from '../../common/errors/domain-error';
import { MermaidParseErrorCode } from './mermaid-parse.errors';
import type { MermaidParseService } from './mermaid-parse.service';

/** Parses Mermaid for the sync's analyzer: the graph, or the issues found (a timeout among them). */
export type MermaidParser = (source: string) => Promise<Extract<ParseMermaidResult, { ok: true }> | { ok: false; issues: Array<Omit<DiagramIssue, 'code'> & { code: string }> }>;

/**
 * Adapts MermaidParseService to the analyzer. A diagram that exceeds the parse timeout is a problem of that
 * artifact (listed with the others in the 422), not a reason to abort the whole validation; an unavailable
 * parser pool is a server problem and still fails the request (503, the CLI retries).
 */
export function mermaidParserFrom(service: Pick<MermaidParseService, 'parse'>): MermaidParser {
  return async (source) => {
    try {
      return await service.parse(source);
    } catch (error) {
      if (error instanceof DomainError && error.code === MermaidParseErrorCode.ParseTimeout) {
        return { ok: false, issues: [{ code: error.code, severity: 'error', message: error.message }] };
      }
      throw error;
    }
  };
}
