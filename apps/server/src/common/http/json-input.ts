import type { NextFunction, Request, Response } from 'express';
import { findUnstorableCharacter, MAX_JSON_DEPTH, unstorableCharacterMessage, type ErrorDetail } from '@sc/contracts';
import { CommonErrorCode, commonError } from '../errors/common.errors';

/** Builds the path of a child value: `organization.id`, `scopes[1]` (the validation details' form) by default. */
export type PathSegment = (parent: string, key: string | number) => string;

export const fieldPath: PathSegment = (parent, key) =>
  typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

/** At most this many unstorable strings are listed in one answer: a body full of them needs one fix, not a megabyte of details. */
const MAX_DETAILS = 20;

/**
 * Walks a parsed JSON value once, calling `onString` for every string, property names included. Stops at the first
 * object or array nested deeper than MAX_JSON_DEPTH and returns its path, so the walk itself never goes deeper
 * than that: linear in the size of the value, with a bounded stack. JSON.parse itself copes with any depth; what
 * overflows is recursive code after it (class-transformer in the validation pipe, JSON.stringify).
 */
export function walkJson(value: unknown, onString: (text: string, path: string) => void, segment: PathSegment = fieldPath, root = ''): { tooDeepAt?: string } {
  const visit = (node: unknown, path: string, depth: number): string | undefined => {
    if (typeof node === 'string') {
      onString(node, path);
      return undefined;
    }
    if (typeof node !== 'object' || node === null) return undefined;
    if (depth >= MAX_JSON_DEPTH) return path;
    const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((item, index) => [index, item]) : Object.entries(node);
    for (const [key, child] of entries) {
      const childPath = segment(path, key);
      if (typeof key === 'string') onString(key, childPath);
      const tooDeep = visit(child, childPath, depth + 1);
      if (tooDeep !== undefined) return tooDeep;
    }
    return undefined;
  };
  const tooDeepAt = visit(value, root, 0);
  return tooDeepAt === undefined ? {} : { tooDeepAt };
}

/** 400 json_too_deep for a request body (or the sync bundle) nested deeper than MAX_JSON_DEPTH. */
export function jsonTooDeep(what: string, path: string) {
  return commonError(CommonErrorCode.JsonTooDeep, `The ${what} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; no request of this service needs that many.`, [
    { path: path || '$', message: `Nested more than ${MAX_JSON_DEPTH} levels deep here.` },
  ]);
}

/** Throws json_too_deep when `value` nests deeper than MAX_JSON_DEPTH (strings are not looked at). */
export function assertJsonDepth(value: unknown, what: string): void {
  const { tooDeepAt } = walkJson(value, () => undefined);
  if (tooDeepAt !== undefined) throw jsonTooDeep(what, tooDeepAt);
}

/**
 * A `walkJson` callback that adds one detail per string holding a character no database can store (at most
 * MAX_DETAILS), named by its path. `skip` leaves out strings checked elsewhere with more precise positions.
 */
export function unstorableCollector(details: ErrorDetail[], skip: (path: string) => boolean = () => false): (text: string, path: string) => void {
  return (text, path) => {
    const found = details.length < MAX_DETAILS && !skip(path) ? findUnstorableCharacter(text) : undefined;
    if (found) details.push({ path: path || '(body)', message: `${path || 'The body'} ${unstorableCharacterMessage(found)}.` });
  };
}

/**
 * Express middleware, after the body parsers and before routing: every request's URL path, query and JSON body
 * must be storable input. A body nested deeper than MAX_JSON_DEPTH answers 400 json_too_deep; a NUL or an unpaired
 * surrogate anywhere (PostgreSQL cannot store the first, the second is not Unicode and breaks validators) answers
 * 400 validation_failed naming each field. Checked once here, so no controller, validator or repository meets
 * such input. The sync gateway reads its own body and checks it the same way (sync-body.ts, bundle-checks.ts).
 */
export function refuseUnusableInput(req: Request, _res: Response, next: NextFunction): void {
  // Path parameters are decoded from the path; an encoded NUL is the only unstorable character a URL can carry
  // (invalid UTF-8 decodes to U+FFFD, and Express answers 400 to a malformed escape).
  if (/%00/.test(req.path)) {
    return next(commonError(CommonErrorCode.ValidationFailed, 'The URL path contains an encoded NUL character (%00), which no name or id can hold.', [{ path: 'url', message: 'The URL path contains %00.' }]));
  }
  const details: ErrorDetail[] = [];
  const collect = unstorableCollector(details);
  const { tooDeepAt } = walkJson(req.body, collect);
  if (tooDeepAt !== undefined) return next(jsonTooDeep('request body', tooDeepAt));
  walkJson(req.query, collect);
  if (details.length > 0) {
    const summary = details.length === 1 ? details[0].message : `${details.length} fields contain characters that cannot be stored`;
    return next(commonError(CommonErrorCode.ValidationFailed, `The request is invalid: ${summary}`, details));
  }
  next();
}
