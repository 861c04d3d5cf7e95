import { availableParallelism } from 'node:os';
import { validateParsedDiagram, type ApplyReport, type DiagramIssue, type DiagramKind, type OverlaidGraph, type ValidateDiagramResult } from '@sc/diagram';
import { DEFAULT_MAX_DIAGRAM_BYTES, MermaidPoolError, MermaidWorkerPool, type ParseMermaidResult } from '@sc/diagram/node';
import type { CliProblem } from './cli-error';

/** Counts shown in the dry-run and inspect tables. */
export interface DiagramSummary {
  kind?: DiagramKind;
  nodes: number;
  edges: number;
  groups: number;
  /** Present when a context file was checked. */
  context?: ContextReportSummary;
}

export interface ContextReportSummary {
  applied: number;
  unmatched: number;
  errors: number;
  warnings: number;
}

export interface DiagramCheck {
  ok: boolean;
  summary: DiagramSummary;
  graph?: OverlaidGraph;
  report?: ApplyReport;
  problems: CliProblem[];
}

export interface DiagramInput {
  /** File names as the user should see them in problems. */
  diagramFile: string;
  mermaid: string;
  contextFile?: string;
  context?: string;
  /** Databases synced together with the diagram (a context's dbConfig.databaseName must be one). */
  databaseNames?: readonly string[];
}

/**
 * How a diagram's Mermaid source is parsed. The commands parse in a worker pool only: Mermaid (and jsdom) then load
 * in the worker threads, never in the main bundle of the packed CLI (apps/cli/scripts/pack.mjs); tests may pass
 * `parseMermaid` to parse in-process.
 */
export type MermaidParse = (source: string) => Promise<ParseMermaidResult>;

/** Checks one diagram (and its context); `sync` takes one as a test hook. */
export type DiagramChecker = (input: DiagramInput) => Promise<DiagramCheck>;

/**
 * Guards against a parse that never ends. Longer than the gateway's default (30 s): this machine may be slower
 * than the server, which applies its own limit anyway.
 */
const PARSE_TIMEOUT_MS = 60_000;

/**
 * Diagrams one parser thread takes before a second one is worth starting. Each thread loads Mermaid and jsdom first
 * (about a second of CPU, measured: `sync --dry-run` of the 8-diagram sample repository spent 3.2 s of CPU on two
 * threads, 1.9 s on one), while a parse takes tens of milliseconds: a second thread pays for itself only on a larger
 * repository, and on a busy CI runner a wasted one slows every other job.
 */
export const DIAGRAMS_PER_PARSER_THREAD = 16;

/** How many parser threads check `diagrams` diagrams: one per DIAGRAMS_PER_PARSER_THREAD, at most min(2, cpus). */
export function parserThreads(diagrams: number, cpus: number): number {
  return Math.max(1, Math.min(2, cpus, Math.ceil(diagrams / DIAGRAMS_PER_PARSER_THREAD)));
}

/**
 * A checker for `diagrams` diagrams that parses them on worker threads (parserThreads); close() stops the threads.
 * Mermaid itself loads in the threads only, and a parse that never ends is stopped after PARSE_TIMEOUT_MS.
 */
export function openPooledDiagramChecker(diagrams: number): { check: DiagramChecker; close: () => Promise<void> } {
  const size = parserThreads(diagrams, availableParallelism());
  const pool = new MermaidWorkerPool({ size, timeoutMs: PARSE_TIMEOUT_MS });
  const parse: MermaidParse = (source) => pool.parse(source, DEFAULT_MAX_DIAGRAM_BYTES);
  return { check: (input) => checkDiagram(input, parse), close: () => pool.close() };
}

/** Parses one Mermaid file (and its context) with the shared diagram library, the same code the server runs. */
export async function checkDiagram(input: DiagramInput, parse: MermaidParse): Promise<DiagramCheck> {
  let result: ValidateDiagramResult;
  try {
    result = validateParsedDiagram(await parse(input.mermaid), input.context, {
      fileNames: { diagram: input.diagramFile, ...(input.contextFile ? { context: input.contextFile } : {}) },
      ...(input.databaseNames ? { databaseNames: input.databaseNames } : {}),
    });
  } catch (error) {
    // A parse timeout, or a library failure, must fail this artifact loudly (exit 1), not crash the run or pass it unchecked.
    const code = error instanceof MermaidPoolError ? error.code : 'diagram_check_failed';
    return {
      ok: false,
      summary: { nodes: 0, edges: 0, groups: 0 },
      problems: [{ severity: 'error', code, message: `Could not check this diagram: ${(error as Error).message}`, file: input.diagramFile }],
    };
  }
  const problems = [...result.errors, ...result.warnings].map((issue) => toCliProblem(issue, input.diagramFile));
  const report = result.report;
  return {
    ok: result.ok,
    summary: {
      ...(result.kind ? { kind: result.kind } : {}),
      nodes: result.graph?.nodes.length ?? 0,
      edges: result.graph?.edges.length ?? 0,
      groups: result.graph?.groups.length ?? 0,
      ...(input.context !== undefined
        ? {
            context: {
              applied: report?.applied.length ?? 0,
              unmatched: report?.unmatched.length ?? 0,
              errors: result.errors.filter((issue) => issue.file === input.contextFile).length,
              warnings: result.warnings.filter((issue) => issue.file === input.contextFile).length,
            },
          }
        : {}),
    },
    ...(result.graph ? { graph: result.graph } : {}),
    ...(report ? { report } : {}),
    problems,
  };
}

export function toCliProblem(issue: DiagramIssue, defaultFile: string): CliProblem {
  // A Mermaid issue's expected tokens are grammar names, kept in `detail` (--verbose), not repeated as a hint.
  const hint = issue.hint ?? (issue.expected?.length && issue.detail === undefined ? `Expected: ${issue.expected.join(', ')}` : undefined);
  return {
    severity: issue.severity,
    code: issue.code,
    message: issue.message,
    file: issue.file ?? defaultFile,
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    ...(issue.column !== undefined ? { column: issue.column } : {}),
    ...(issue.path !== undefined ? { path: issue.path } : {}),
    ...(hint ? { hint } : {}),
    ...(issue.excerpt !== undefined ? { excerpt: issue.excerpt } : {}),
    ...(issue.detail !== undefined ? { detail: issue.detail } : {}),
  };
}
