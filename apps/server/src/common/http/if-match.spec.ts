import type { ErrorDetail } from '@sc/contracts';
import { DomainError } from '../errors/domain-error';
import { IfMatchVersionPipe, ifMatchVersion } from './if-match';

describe('ifMatchVersion', () => {
  it('reads one version, quoted, weak or bare, at least the minimum', () => {
    expect(ifMatchVersion('"3"')).toBe(3);
    expect(ifMatchVersion('W/"12"')).toBe(12);
    expect(ifMatchVersion(' 7 ')).toBe(7);
    expect(ifMatchVersion('"0"')).toBeNull();
    expect(ifMatchVersion('"0"', 0)).toBe(0);
  });

  it('refuses a missing header, lists, wildcards, text and leading zeros', () => {
    for (const header of [undefined, '', '*', '"1", "2"', 'abc', '"007"', '"1234567890"']) expect(ifMatchVersion(header, 0)).toBeNull();
  });
});

describe('IfMatchVersionPipe', () => {
  const refuse = { thing: 'a draft', noun: 'draft', verb: 'edited', source: 'the ETag', error: (message: string, details: ErrorDetail[]) => new DomainError('version_required', 428, message, details) };

  it('refuses a missing or unreadable header when the route requires a version', () => {
    const pipe = new IfMatchVersionPipe({ refuse });
    expect(pipe.transform('W/"4"')).toBe(4);
    expect(() => pipe.transform(undefined)).toThrow('Saving a draft needs the version you edited in If-Match (the ETag), so a newer save is never overwritten.');
    for (const header of ['*', '', '"0"']) expect(() => pipe.transform(header)).toThrow(`If-Match must name the one version you edited, e.g. If-Match: "3" (got ${JSON.stringify(header)}).`);
  });

  it('lets an optional header be absent but still refuses an unreadable one', () => {
    const pipe = new IfMatchVersionPipe({ min: 0, optional: true, refuse });
    expect(pipe.transform(undefined)).toBeUndefined();
    expect(pipe.transform('"0"')).toBe(0);
    expect(() => pipe.transform('abc')).toThrow(DomainError);
  });

  it('without a refusal: `*` is no condition and an unreadable header a version nothing has', () => {
    const pipe = new IfMatchVersionPipe({ optional: true, wildcard: true });
    expect(pipe.transform(undefined)).toBeUndefined();
    expect(pipe.transform(' * ')).toBeUndefined();
    expect(pipe.transform('abc')).toBeNull();
    expect(pipe.transform('"2"')).toBe(2);
  });
});
