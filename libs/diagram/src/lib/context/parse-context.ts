import type { ParseContextResult } from '../overlay';

/** Strict JSON parse with line/column, then validation of every field; all problems at once. */
export function parseContextJson(text: string): ParseContextResult {
  void text;
  throw new Error('parseContextJson: not implemented yet');
}
