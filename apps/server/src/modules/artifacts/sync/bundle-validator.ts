import { Inject, Injectable } from '@nestjs/common';
import type { SyncArtifact, SyncArtifactRef, SyncBundle, SyncProblemDetail } from '@sc/contracts';
import type { MermaidParser } from '../../parsing/mermaid-parser';
import { SqlSchemaParseService } from '../../parsing/sql-schema-parse.service';
import { ArtifactsConfig } from '../artifacts.config';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { ServicesRepository } from '../store/services.repository';
import { ArtifactAnalyzer, issuesToProblems, type ArtifactAnalysis } from './artifact-analysis';
import { checkBundleRules, enforceLimits, parseBundleShape } from './bundle-checks';
import { artifactFingerprint, artifactKey } from './revision-plan';

/** Injection token of the function that parses Mermaid for the analyzer (MermaidParseService's worker pool). */
export const MERMAID_PARSER = Symbol('MERMAID_PARSER');

/** An artifact of an accepted bundle with its analysis (what the store keeps with its version). */
export interface AnalyzedArtifact extends SyncArtifactRef {
  artifact: SyncArtifact;
  fingerprint: string;
  analysis: ArtifactAnalysis;
}

/** A bundle that passed every check, and its analyzed artifacts. */
export interface ValidatedBundle {
  bundle: SyncBundle;
  analyzed: AnalyzedArtifact[];
}

/**
 * The checks of a sync before anything is stored: the bundle's shape and limits, its rules, and every artifact
 * validated with the same engine as the CLI (Mermaid and SQL in the parsing module's worker threads). Refuses with
 * every problem at once.
 */
@Injectable()
export class BundleValidator {
  private readonly analyzer: ArtifactAnalyzer;

  constructor(
    private readonly repository: ServicesRepository,
    private readonly config: ArtifactsConfig,
    @Inject(MERMAID_PARSER) parseMermaid: MermaidParser,
    sqlSchemas: SqlSchemaParseService,
  ) {
    this.analyzer = new ArtifactAnalyzer(parseMermaid, (sql, engine) => sqlSchemas.parse(sql, engine));
  }

  /** The bundle and its analyzed artifacts, or 400 invalid_bundle / 413 / 422 sync_validation_failed. */
  async validate(organizationId: string, body: unknown): Promise<ValidatedBundle> {
    const bundle = this.checkBundle(body);
    return { bundle, analyzed: await this.analyze(organizationId, bundle) };
  }

  private checkBundle(body: unknown): SyncBundle {
    const shape = parseBundleShape(body);
    if (!shape.ok) {
      throw artifactsError(ArtifactsErrorCode.InvalidBundle, `The sync bundle is malformed (${shape.details.length} problem(s)).`, shape.details);
    }
    enforceLimits(shape.bundle, this.config.limits);
    return shape.bundle;
  }

  /** Every problem of every artifact, or the analyzed artifacts when there is none. */
  private async analyze(organizationId: string, bundle: SyncBundle): Promise<AnalyzedArtifact[]> {
    const problems: SyncProblemDetail[] = checkBundleRules(bundle);
    const cached = await this.cachedAnalyses(organizationId, bundle.service.name);
    const databaseNames = bundle.artifacts.filter((artifact) => artifact.kind === 'database-schema').map((artifact) => artifact.name);
    const analyzed: AnalyzedArtifact[] = [];
    // The Mermaid and SQL parses queue on their worker pools; the other checks are synchronous and cheap.
    const results = await Promise.all(
      bundle.artifacts.map(async (artifact) => {
        const fingerprint = artifactFingerprint(artifact);
        return { artifact, fingerprint, result: await this.analyzer.analyze({ artifact, cached: cached.get(fingerprint), databaseNames }) };
      }),
    );
    for (const { artifact, fingerprint, result } of results) {
      if (result.ok) analyzed.push({ kind: artifact.kind, name: artifact.name, artifact, fingerprint, analysis: result.analysis });
      else problems.push(...result.problems);
    }
    // A strict sync (.service.yaml `strict: true`, `sync --strict`) refuses warnings as it refuses errors.
    if (bundle.strict) problems.push(...analyzed.flatMap(strictWarnings));
    if (problems.length > 0) {
      const artifacts = new Set(problems.filter((problem) => problem.artifact).map((problem) => artifactKey(problem.artifact as SyncArtifactRef)));
      throw artifactsError(
        ArtifactsErrorCode.SyncValidationFailed,
        `The sync was refused and nothing was stored: ${problems.length} problem(s)${artifacts.size > 0 ? ` in ${artifacts.size} artifact(s)` : ''}${bundle.strict ? ' (strict: warnings count)' : ''}.`,
        problems.map((problem) => ({ ...problem })),
      );
    }
    return analyzed;
  }

  /** Analyses stored with the current revision, by fingerprint: identical artifacts skip the Mermaid and SQL parses. */
  private async cachedAnalyses(organizationId: string, serviceName: string): Promise<Map<string, ArtifactAnalysis>> {
    const service = await this.repository.findService(organizationId, serviceName);
    if (!service || service.currentRevision === 0) return new Map();
    const versions = await this.repository.versionsInRevision(service.id, service.currentRevision);
    return new Map(versions.map((version) => [version.fingerprint, version.analysis]));
  }
}

/** The warnings a diagram's analysis holds (its context's), as problems of a strict sync. */
function strictWarnings({ artifact, analysis }: AnalyzedArtifact): SyncProblemDetail[] {
  if (analysis.type !== 'diagram' || !analysis.report) return [];
  return issuesToProblems(analysis.report.warnings, { kind: artifact.kind, name: artifact.name }, artifact.file.path);
}
