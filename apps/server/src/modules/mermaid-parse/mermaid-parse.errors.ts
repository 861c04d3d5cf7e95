import { domainErrorFactory } from '../../common/errors/domain-error';

export enum MermaidParseErrorCode {
  /** Parsing took longer than SERVICE_MERMAID_PARSE_TIMEOUT; the worker was replaced. */
  ParseTimeout = 'diagram_parse_timeout',
  /** A parser worker died or the pool is shutting down; retrying later can succeed. */
  ParserUnavailable = 'diagram_parser_unavailable',
}

export const mermaidParseError = domainErrorFactory<MermaidParseErrorCode>({
  [MermaidParseErrorCode.ParseTimeout]: 422,
  [MermaidParseErrorCode.ParserUnavailable]: 503,
});
