import { DomainError } from '../../common/errors/domain-error';
import { MermaidParseErrorCode } from './mermaid-parse.errors';
import type { MermaidParseService } from './mermaid-parse.service';
import type { MermaidParser } from '../artifacts/sync/artifact-analysis';

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
