import { DomainError } from '../../common/errors/domain-error';
import { IfMatchVersionPipe } from '../../common/http/if-match';
import { DRAFT_IF_MATCH, DraftIdPipe } from './draft-params';

describe('draft route parameters', () => {
  it('passes a UUID draft id and answers anything else as a draft that does not exist', () => {
    const id = '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60';
    expect(new DraftIdPipe().transform(id)).toBe(id);
    for (const malformed of ['not-a-uuid', '', `${id}x`]) {
      expect(() => new DraftIdPipe().transform(malformed)).toThrow(expect.objectContaining({ code: 'draft_not_found', status: 404 }) as DomainError);
    }
  });

  it('reads the saved version from If-Match and refuses a save without one with 428 draft_version_required', () => {
    const pipe = new IfMatchVersionPipe(DRAFT_IF_MATCH);
    expect(pipe.transform('"3"')).toBe(3);
    expect(() => pipe.transform(undefined)).toThrow(expect.objectContaining({ code: 'draft_version_required', status: 428, details: [{ path: 'If-Match', message: 'the version of the draft being edited' }] }) as DomainError);
    // A header that names no version is refused the same way, before anything is read as a conflict.
    expect(() => pipe.transform('W/"two"')).toThrow(expect.objectContaining({ code: 'draft_version_required', status: 428 }) as DomainError);
  });
});
