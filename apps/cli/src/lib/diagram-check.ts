import type { ValidateDiagramResult } from '@sc/diagram/node';
import type { DiagramIssue, DiagramKind, OverlaidGraph, ApplyReport } from '@sc/diagram';
import type { CliProblem } from './exit-codes';

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
 * Loaded on first use: a sync that the gateway reports unchanged, and every command that parses nothing, should
 * not pay for jsdom. A require() rather than import(): the CommonJS build resolves it like any relative import.
 */
function diagramNode(): typeof import('./diagram-node') {
  return require('./diagram-node') as typeof import('./diagram-node');
}

/** Parses one Mermaid file (and its context) with the shared diagram library, the same code the server runs. */
export async function checkDiagram(input: DiagramInput): Promise<DiagramCheck> {
  let result: ValidateDiagramResult;
  try {
    result = await diagramNode().validateDiagramWithContext(input.mermaid, input.context, {
      fileNames: { diagram: input.diagramFile, ...(input.contextFile ? { context: input.contextFile } : {}) },
      ...(input.databaseNames ? { databaseNames: input.databaseNames } : {}),
    });
  } catch (error) {
    // A library failure must fail this artifact loudly (exit 1), not crash the run or pass it unchecked.
    return {
      ok: false,
      summary: { nodes: 0, edges: 0, groups: 0 },
      problems: [{ severity: 'error', code: 'diagram_check_failed', message: `Could not check this diagram: ${(error as Error).message}`, file: input.diagramFile }],
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
  const hint = issue.hint ?? (issue.expected?.length ? `Expected: ${issue.expected.join(', ')}` : undefined);
  return {
    severity: issue.severity,
    code: issue.code,
    message: issue.message,
    file: issue.file ?? defaultFile,
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    ...(issue.column !== undefined ? { column: issue.column } : {}),
    ...(issue.path !== undefined ? { path: issue.path } : {}),
    ...(hint ? { hint } : {}),
  };
}
