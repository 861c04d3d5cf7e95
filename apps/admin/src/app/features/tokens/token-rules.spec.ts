import { apiToken as token } from '../../../testing/fixtures';
import { expiresAtFor, tokenStatus } from './token-rules';

describe('tokenStatus', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('is active without expiry or revocation', () => {
    expect(tokenStatus(token({}), now)).toBe('active');
  });

  it('is active before its expiry and expired from it on', () => {
    expect(tokenStatus(token({ expiresAt: '2026-03-10T12:00:01Z' }), now)).toBe('active');
    expect(tokenStatus(token({ expiresAt: '2026-03-10T12:00:00Z' }), now)).toBe('expired');
  });

  it('reports revoked before expired', () => {
    expect(tokenStatus(token({ expiresAt: '2026-01-02T00:00:00Z', revokedAt: '2026-01-01T10:00:00Z' }), now)).toBe('revoked');
  });
});

describe('expiresAtFor', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('sends no expiry for "never"', () => {
    expect(expiresAtFor('never', '', now)).toBeUndefined();
  });

  it('adds whole days for the presets', () => {
    expect(expiresAtFor('30', '', now)).toBe('2026-04-09T12:00:00.000Z');
    expect(expiresAtFor('365', '', now)).toBe('2027-03-10T12:00:00.000Z');
  });

  it('uses the end of the chosen local day for a custom date', () => {
    const result = expiresAtFor('custom', '2026-12-31', now);
    expect(result).toBe(new Date(2026, 11, 31, 23, 59, 59).toISOString());
  });

  it('refuses a missing or past custom date', () => {
    expect(expiresAtFor('custom', '', now)).toBeNull();
    expect(expiresAtFor('custom', '2026-01-01', now)).toBeNull();
  });
});
