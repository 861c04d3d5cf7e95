import { createParamDecorator, type ExecutionContext, Injectable, type PipeTransform } from '@nestjs/common';
import type { ErrorDetail } from '@sc/contracts';
import type { Request } from 'express';
import type { DomainError } from '../errors/domain-error';

/**
 * The version an `If-Match` header names: `"3"`, `W/"3"` or `3` (at least `min`); null when the header is missing or
 * names anything else (a list, `*`, text).
 */
export function ifMatchVersion(ifMatch: string | undefined, min = 1): number | null {
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(ifMatch ?? '');
  if (!match || (match[1].length > 1 && match[1].startsWith('0'))) return null;
  const version = Number(match[1]);
  return version >= min ? version : null;
}

/**
 * How a route reads `If-Match`. Without `refuse`, a header that names no version parses to null (a condition no
 * version meets: SCIM answers it with 412 once it has the resource); with it, that header is refused (428).
 */
export interface IfMatchRule {
  /** The lowest version (0 where "nothing saved yet" is version 0); default 1. */
  min?: number;
  /** A missing header is no condition (undefined) rather than a refusal. */
  optional?: boolean;
  /** `*` (any version) is no condition (undefined). */
  wildcard?: boolean;
  /** The refusal of a missing (unless optional) or unreadable header, in the route's words. */
  refuse?: VersionRequiredRefusal;
}

/** The words of a "version required" refusal: what is saved, how its version is named, and the module's error. */
export interface VersionRequiredRefusal {
  /** `a draft`, `an arrangement` */
  thing: string;
  /** `draft`, `arrangement` */
  noun: string;
  /** `edited`, `arranged` */
  verb: string;
  /** Where the version comes from, e.g. `the ETag of GET /drafts/:id, e.g. If-Match: "3"`. */
  source: string;
  error: (message: string, details: ErrorDetail[]) => DomainError;
}

/** Parses the `If-Match` header by an {@link IfMatchRule}: a version, undefined (no condition) or null (unreadable). */
@Injectable()
export class IfMatchVersionPipe implements PipeTransform<string | undefined, number | null | undefined> {
  constructor(private readonly rule: IfMatchRule) {}

  transform(header: string | undefined): number | null | undefined {
    const { min = 1, optional = false, wildcard = false, refuse } = this.rule;
    if (header === undefined && optional) return undefined;
    if (wildcard && header?.trim() === '*') return undefined;
    const version = ifMatchVersion(header, min);
    if (version === null && refuse) throw versionRequired(refuse, header);
    return version;
  }
}

function versionRequired(refuse: VersionRequiredRefusal, header: string | undefined): DomainError {
  return refuse.error(
    header === undefined
      ? `Saving ${refuse.thing} needs the version you ${refuse.verb} in If-Match (${refuse.source}), so a newer save is never overwritten.`
      : `If-Match must name the one version you ${refuse.verb}, e.g. If-Match: "3" (got ${JSON.stringify(header)}).`,
    [{ path: 'If-Match', message: `the version of the ${refuse.noun} being edited` }],
  );
}

const IfMatchHeader = createParamDecorator((_: unknown, context: ExecutionContext): string | undefined => context.switchToHttp().getRequest<Request>().headers['if-match']);

/**
 * The `If-Match` version of the request, parsed before the handler runs:
 * `@IfMatchVersion({ refuse: … }) version: number` (required), `{ optional: true, refuse }` → `number | undefined`.
 */
export function IfMatchVersion(rule: IfMatchRule): ParameterDecorator {
  return IfMatchHeader(undefined, new IfMatchVersionPipe(rule));
}
