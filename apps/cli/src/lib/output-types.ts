import type { SyncResult } from '@sc/contracts/core';
import type { ApplyReport, OverlaidGraph } from '@sc/diagram';
import type { CliProblem, JsonErrorOutput } from './cli-error';
import type { ArtifactDiffEntry, DiagramDiffEntry, DiffSummary } from './artifact-diff';
import type { ArtifactRow } from './prepare-sync';
import type { GatewayTarget } from './gateway';

/** `--json` output of the commands. Every shape carries `ok` and the process exit code. */
export interface GatewayJson {
  url: string;
  source: GatewayTarget['source'];
}

export interface SyncDryRunJson {
  ok: boolean;
  exitCode: number;
  dryRun: true;
  config: string;
  service?: string;
  /** Sent with the bundle, credentials stripped (from the config, else the git `origin` remote). */
  repositoryUrl?: string;
  /** Where a real sync would go; null when no gateway is configured (a dry run does not need one). */
  gateway: GatewayJson | null;
  artifacts: ArtifactRow[];
  problems: CliProblem[];
}

export interface SyncDoneJson {
  ok: true;
  exitCode: 0;
  dryRun: false;
  config: string;
  gateway: GatewayJson;
  artifacts: ArtifactRow[];
  /** Warnings only (any error stops the sync before sending). */
  problems: CliProblem[];
  result: SyncResult;
}

export type SyncJson = SyncDryRunJson | SyncDoneJson | JsonErrorOutput;

/** What `inspect --json` prints besides ok/exitCode: the graph model, the context report and every problem. */
export interface InspectReport extends Partial<OverlaidGraph> {
  file: string;
  contextFile?: string;
  report?: ApplyReport;
  problems: CliProblem[];
}

export interface InspectJson extends InspectReport {
  ok: boolean;
  exitCode: number;
}

/** `service-cli render --json`: the image written (absent when the diagram is invalid) and the problems. */
export interface RenderJson {
  ok: boolean;
  exitCode: number;
  file: string;
  contextFile?: string;
  /** `scale`: a PNG's scale as rendered, less than `--scale` when the pixel limit reduced it (as the server's image.png). */
  output?: { path: string; format: 'svg' | 'png'; width: number; height: number; bytes: number; scale?: number };
  problems: CliProblem[];
}

export interface InitJson {
  ok: true;
  exitCode: 0;
  dir: string;
  created: string[];
  kept: string[];
}

/** One side of `service-cli diff`: a checkout (its directory and config) or a revision on the server. */
export type DiffSideJson =
  | { source: 'directory'; dir: string; config: string }
  /** `revision` null: the service is not on the server yet (everything is added). */
  | { source: 'server'; gateway: string; organization: string; revision: number | null };

/** `service-cli diff --json` (docs/schema/cli-diff-output.schema.json). */
export interface DiffJson {
  ok: true;
  /** 0, or 4 (ExitCode.DiffChanged) with --exit-code when something changed. */
  exitCode: number;
  changed: boolean;
  service: string;
  before: DiffSideJson;
  after: DiffSideJson;
  previewUrl?: string;
  /** The markdown's summary line, e.g. "1 diagram changed: 1 node added, 1 edge removed." */
  summaryLine: string;
  summary: DiffSummary;
  diagrams: DiagramDiffEntry[];
  artifacts: ArtifactDiffEntry[];
}
