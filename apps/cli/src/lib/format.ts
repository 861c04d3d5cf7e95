import { plural } from '@sc/contracts/core';
import { hintToAdd } from '@sc/diagram';
import type { CliProblem } from './cli-error';

/** Renders rows as an aligned plain-text table (no colours: CI logs keep it readable). */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: ReadonlyArray<string>): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** Text output stays within 100 columns: a CI log viewer or a terminal of that width shows it without wrapping. */
export const TEXT_WIDTH = 100;

/**
 * `label  value` indented under a table row, the value wrapped at its spaces so no line passes TEXT_WIDTH, each
 * continuation aligned under the value. A value given as a list wraps only between its items (`a.mmd`, `+ b.json`).
 * A single word longer than the room (a very long path) stays whole: a path cut in two could not be copied.
 */
export function detailLines(label: string, value: string | readonly string[], indent: number, labelWidth: number): string[] {
  const prefix = ' '.repeat(indent);
  const hanging = ' '.repeat(indent + labelWidth + 2);
  const lines: string[] = [];
  let line = `${prefix}${label.padEnd(labelWidth)}  `;
  let empty = true;
  for (const word of typeof value === 'string' ? value.split(' ') : value) {
    if (!empty && line.length + 1 + word.length > TEXT_WIDTH) {
      lines.push(line);
      line = hanging + word;
    } else {
      line += empty ? word : ` ${word}`;
    }
    empty = false;
  }
  return [...lines, line];
}

/** How problems are printed: `verbose` adds the parser's own report under a Mermaid problem. */
export interface ProblemFormat {
  verbose?: boolean;
}

/**
 * `error  file:line:column  code  message [at path] (hint)` — one problem per line, clickable in editors — then,
 * indented, the source line with a caret under the column when the problem has one, and with `verbose` the parser's
 * own report.
 */
export function formatProblem(problem: CliProblem, format: ProblemFormat = {}): string {
  const location = problem.file ? `${problem.file}${problem.line !== undefined ? `:${problem.line}${problem.column !== undefined ? `:${problem.column}` : ''}` : ''}` : '';
  const parts = [problem.severity === 'error' ? 'error  ' : 'warning', location || (problem.artifact ? `[${problem.artifact}]` : ''), problem.code, problem.message].filter(Boolean);
  let text = parts.join('  ');
  if (problem.path && !problem.message.includes(problem.path)) text += ` [at ${problem.path}]`;
  const hint = hintToAdd(problem.message, problem.hint);
  if (hint) text += ` (${hint})`;
  const below = [...(problem.excerpt?.split('\n') ?? []), ...(format.verbose && problem.detail ? [problem.detail] : [])];
  return [text, ...below.map((line) => `    ${line}`)].join('\n');
}

export function formatProblems(problems: readonly CliProblem[], format: ProblemFormat = {}): string {
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const warnings = problems.length - errors;
  const summary = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
  return [...problems.map((problem) => formatProblem(problem, format)), summary].join('\n');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Progress on stderr: redrawn in place on a terminal, one plain line per step otherwise (CI logs).
 * Plain mode only prints the first and last step so a 500-artifact sync does not flood the log.
 */
export function progressPrinter(write: (text: string) => void, isTTY: boolean): { update(done: number, total: number, label: string): void; done(): void } {
  let drawn = false;
  return {
    update(done, total, label) {
      if (isTTY) {
        write(`\r\x1b[K[${done}/${total}] ${label}\r`);
        drawn = true;
      } else if (done === 0 || done === total) {
        write(`[${done}/${total}] ${label}`);
      }
    },
    done() {
      if (drawn) write('\r\x1b[K\r');
      drawn = false;
    },
  };
}
