import { Injectable, type PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { IfMatchRule } from '../../common/http/if-match';
import { DraftsErrorCode, draftsError } from './drafts.errors';

/** The `:draftId` of a route: a draft id is a UUID, so anything else names no draft (404 draft_not_found). */
@Injectable()
export class DraftIdPipe implements PipeTransform<string, string> {
  transform(draftId: string): string {
    if (!isUUID(draftId)) throw draftNotFound();
    return draftId;
  }
}

export function draftNotFound() {
  return draftsError(DraftsErrorCode.NotFound, 'There is no draft with this id in this organization.');
}

/** `If-Match` of a draft save: the version edited, `"3"`, `W/"3"` or `3`; missing or anything else → 428. */
export const DRAFT_IF_MATCH: IfMatchRule = {
  refuse: {
    thing: 'a draft',
    noun: 'draft',
    verb: 'edited',
    source: 'the ETag of GET /drafts/:id, e.g. If-Match: "3"',
    error: (message, details) => draftsError(DraftsErrorCode.VersionRequired, message, details),
  },
};
