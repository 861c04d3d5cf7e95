import { validateParsedDiagram, type ValidateDiagramOptions, type ValidateDiagramResult } from '../lib/validate-parsed';
import { parseMermaid } from './parse-mermaid';

export type { ValidateDiagramOptions, ValidateDiagramResult } from '../lib/validate-parsed';

/**
 * The one validation the CLI runs before sending and the server runs again on receipt:
 * parse the Mermaid source, parse and validate the context, apply it, and return every
 * issue tagged with its file (and line / JSON path).
 */
export async function validateDiagramWithContext(
  mermaidSource: string,
  contextText: string | undefined,
  options: ValidateDiagramOptions,
): Promise<ValidateDiagramResult> {
  const parsed = await parseMermaid(mermaidSource, { maxBytes: options.maxBytes });
  return validateParsedDiagram(parsed, contextText, options);
}
