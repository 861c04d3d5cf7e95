import { Injectable, PipeTransform } from '@nestjs/common';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';

/**
 * Parses a `?revision=`, `?from=` or `?to=` query parameter into a revision number (absent stays undefined);
 * anything else is 400 invalid_revision. Whether the service has that revision is the read service's question.
 */
export function parseRevisionNumber(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw);
  if (!/^[1-9]\d{0,8}$/.test(text)) {
    throw artifactsError(ArtifactsErrorCode.InvalidRevision, `"${text}" is not a revision number; revisions are numbered from 1.`);
  }
  return Number(text);
}

/** parseRevisionNumber as a pipe, for a query parameter read on its own (`?from=`, `?to=` of a diff). */
@Injectable()
export class RevisionNumberPipe implements PipeTransform<unknown, number | undefined> {
  transform(raw: unknown): number | undefined {
    return parseRevisionNumber(raw);
  }
}
