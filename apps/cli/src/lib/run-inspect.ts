import * as path from 'node:path';
import { ServiceConfigProblemCode } from '@sc/contracts/core';
import type { ApplyReport, OverlaidGraph } from '@sc/diagram';
import { openPooledDiagramChecker, type DiagramCheck, type DiagramChecker, type DiagramInput } from './diagram-check';
import { ExitCode } from './exit-codes';
import { CliError, type CliProblem } from './cli-error';
import { formatProblems, renderTable } from './format';
import { runReportingErrors, type CliIo } from './io';
import { displayPathOf } from './load-config';
import type { InspectJson } from './output-types';
import { nulProblem, readRegularFile, type RegularFileRead } from './read-regular-file';

export interface InspectOptions {
  file: string;
  context?: string;
  databases: string[];
  json: boolean;
  /** Print the parser's own report under each Mermaid problem. */
  verbose?: boolean;
}

export interface InspectContext {
  cwd: string;
  io: CliIo;
  /** Test hook: the Mermaid + context validator (the CLI parses on a worker thread, see openPooledDiagramChecker). */
  checkDiagram?: DiagramChecker;
}

/** `service-cli inspect`: parse one Mermaid file (and a context) and show what the service would store. */
export async function runInspect(options: InspectOptions, context: InspectContext): Promise<ExitCode> {
  const { io, cwd } = context;
  return runReportingErrors(io, options.json, async () => {
    const file = displayPathOf(path.resolve(cwd, options.file), cwd);
    const mermaid = await readInput(path.resolve(cwd, options.file), options.file);
    const contextFile = options.context !== undefined ? displayPathOf(path.resolve(cwd, options.context), cwd) : undefined;
    const contextText = options.context !== undefined ? await readInput(path.resolve(cwd, options.context), options.context) : undefined;
    const check = await checkOneDiagram(context.checkDiagram, {
      diagramFile: file,
      mermaid,
      ...(contextFile !== undefined && contextText !== undefined ? { contextFile, context: contextText } : {}),
      ...(options.databases.length ? { databaseNames: options.databases } : {}),
    });
    // The same refusal as sync's: a NUL would be refused by the service, so the file is not valid.
    const nulProblems: CliProblem[] = [
      { shown: file, text: mermaid },
      ...(contextFile !== undefined && contextText !== undefined ? [{ shown: contextFile, text: contextText }] : []),
    ].flatMap(({ shown, text }) => {
      const nul = nulProblem(text, shown);
      return nul ? [{ severity: 'error' as const, code: ServiceConfigProblemCode.FileContainsNul, file: shown, ...nul }] : [];
    });
    const problems = [...nulProblems, ...check.problems];
    const ok = check.ok && nulProblems.length === 0;
    const exitCode = ok ? ExitCode.Ok : ExitCode.Validation;
    if (options.json) {
      const output: InspectJson = {
        ok,
        exitCode,
        file,
        ...(contextFile ? { contextFile } : {}),
        ...(check.graph ?? {}),
        ...(check.report ? { report: check.report } : {}),
        problems,
      };
      io.out(JSON.stringify(output, null, 2));
      return exitCode;
    }
    if (check.graph) io.out(describeGraph(file, check.graph));
    if (check.report) io.out(describeReport(check.report));
    if (problems.length) io.err(formatProblems(problems, options));
    // Like sync's verdict: an invalid file's verdict sums up the problems on stderr, so it goes there too.
    if (ok) io.out(`${file} is valid.`);
    else io.err(`${file} is invalid.`);
    return exitCode;
  }, { verbose: options.verbose });
}

/** Like `sync`, parses on one worker thread: the parse has a time limit, and Mermaid stays out of the main thread. */
export async function checkOneDiagram(checker: DiagramChecker | undefined, input: DiagramInput): Promise<DiagramCheck> {
  if (checker) return checker(input);
  const pooled = openPooledDiagramChecker(1);
  try {
    return await pooled.check(input);
  } finally {
    await pooled.close();
  }
}

/** Larger than any file the gateway accepts (1 MiB by default); only guards memory. */
const MAX_INPUT_BYTES = 16 * 1024 * 1024;

export async function readInput(absolute: string, shown: string): Promise<string> {
  let read: RegularFileRead;
  try {
    read = await readRegularFile(absolute, shown, MAX_INPUT_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(ExitCode.Configuration, code === 'ENOENT' ? 'file_not_found' : 'file_unreadable', code === 'ENOENT' ? `${shown} does not exist.` : `Cannot read ${shown}: ${code ?? (error as Error).message}.`);
  }
  if (!read.ok) throw new CliError(read.reason === 'not_a_file' ? ExitCode.Validation : ExitCode.Configuration, read.reason === 'not_a_file' ? 'not_a_file' : 'file_unreadable', read.message);
  return read.bytes.toString('utf8');
}

function describeGraph(file: string, graph: OverlaidGraph): string {
  const sections = [
    `${file}: ${graph.kind}${graph.direction ? ` (${graph.direction})` : ''}, ${graph.nodes.length} nodes, ${graph.edges.length} edges, ${graph.groups.length} groups`,
    '',
    'Nodes',
    renderTable(
      ['ID', 'LABEL', 'SHAPE', 'GROUP', 'OVERLAY'],
      graph.nodes.map((node) => [node.id, node.label, node.shape ?? '-', node.parent ?? '-', node.overlay ? node.overlay.type ?? 'yes' : '-']),
    ),
    '',
    'Edges',
    renderTable(
      ['SOURCE', 'TARGET', 'LABEL', 'TYPE', 'ID', 'OVERLAY'],
      graph.edges.map((edge) => [edge.source, edge.target, edge.label ?? '-', edge.type ?? '-', edge.id ?? '-', edge.overlay ? 'yes' : '-']),
    ),
  ];
  if (graph.groups.length) {
    sections.push(
      '',
      'Groups',
      renderTable(
        ['ID', 'LABEL', 'PARENT', 'MEMBERS'],
        graph.groups.map((group) => [group.id, group.label, group.parent ?? '-', group.nodes.join(', ')]),
      ),
    );
  }
  return sections.join('\n');
}

function describeReport(report: ApplyReport): string {
  const lines = [
    '',
    `Context: ${report.applied.length} applied, ${report.unmatched.length} unmatched, ${report.errors.length} errors, ${report.warnings.length} warnings`,
  ];
  if (report.unmatched.length) {
    lines.push(
      renderTable(
        ['KEY', 'REASON', 'HINT'],
        report.unmatched.map((entry) => [entry.key, entry.reason, entry.hint ?? '-']),
      ),
    );
  }
  return lines.join('\n');
}
