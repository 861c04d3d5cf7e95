import { DiagramIssueCode } from '../model';
import type { ParseContextResult } from '../overlay';
import type { DiagramContext } from './context-types';
import { parseStrictJson } from './strict-json';
import { validateContext } from './validate-context';

/**
 * Parses a context file strictly (valid JSON only, with line and column on a syntax error),
 * then validates every field, returning all errors at once. `context` is set only when
 * there are no errors, so callers cannot apply a half-valid overlay.
 */
export function parseContextJson(text: string): ParseContextResult {
  const parsed = parseStrictJson(text);
  if (parsed.error?.path) {
    const { message, line, column, path } = parsed.error;
    return { errors: [{ code: DiagramIssueCode.ContextTooDeep, severity: 'error', message: `Line ${line}, column ${column}: ${message}`, line, column, path }], warnings: [] };
  }
  if (parsed.error || parsed.value === undefined) {
    const { message, line, column } = parsed.error ?? { message: 'Empty file.', line: 1, column: 1 };
    return {
      errors: [{ code: DiagramIssueCode.ContextInvalidJson, severity: 'error', message: `Invalid JSON at line ${line}, column ${column}: ${message}`, line, column }],
      warnings: [],
    };
  }
  const { errors, warnings } = validateContext(parsed.value, parsed.positions);
  for (const { path, line, column, description } of parsed.unstorableStrings) {
    errors.push({ code: DiagramIssueCode.UnstorableCharacter, severity: 'error', message: `${path}: the string contains ${description}, which cannot be stored.`, path, line, column });
  }
  for (const duplicate of parsed.duplicateKeys) {
    warnings.push({
      code: DiagramIssueCode.ContextInvalidValue,
      severity: 'warning',
      message: `${duplicate.path}: the key appears more than once; the last value wins.`,
      path: duplicate.path,
      line: duplicate.line,
      column: duplicate.column,
    });
  }
  return errors.length > 0 ? { errors, warnings } : { context: parsed.value as DiagramContext, errors, warnings };
}
