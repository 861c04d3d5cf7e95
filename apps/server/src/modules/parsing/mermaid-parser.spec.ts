// @sc/contracts carries class-transformer decorators, which need the metadata polyfill the server's main.ts loads.
import 'reflect-metadata';
import { DomainError } from '../../common/errors/domain-error';
import { MermaidParseErrorCode, mermaidParseError } from './mermaid-parse.errors';
import { mermaidParserFrom } from './mermaid-parser';

describe('mermaidParserFrom', () => {
  it('passes results through', async () => {
    const result = { ok: true as const, kind: 'flowchart' as const, graph: { kind: 'flowchart' as const, nodes: [], edges: [], groups: [] } };
    await expect(mermaidParserFrom({ parse: async () => result })('flowchart LR')).resolves.toBe(result);
  });

  it('turns a parse timeout into a problem of that diagram', async () => {
    const parse = mermaidParserFrom({ parse: () => Promise.reject(mermaidParseError(MermaidParseErrorCode.ParseTimeout, 'Parsing took longer than 5000 ms.')) });
    await expect(parse('flowchart LR')).resolves.toEqual({
      ok: false,
      issues: [{ code: 'diagram_parse_timeout', severity: 'error', message: 'Parsing took longer than 5000 ms.' }],
    });
  });

  it('lets an unavailable parser pool fail the request', async () => {
    const parse = mermaidParserFrom({ parse: () => Promise.reject(mermaidParseError(MermaidParseErrorCode.ParserUnavailable, 'down')) });
    await expect(parse('flowchart LR')).rejects.toBeInstanceOf(DomainError);
  });
});
