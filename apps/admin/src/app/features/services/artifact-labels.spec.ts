import { ARTIFACT_KINDS } from '@sc/contracts';
import { artifactLink, formatBytes, safeWebUrl } from './artifact-labels';

describe('formatBytes', () => {
  it('uses B, KB and MB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});

describe('safeWebUrl', () => {
  it('keeps http and https addresses', () => {
    expect(safeWebUrl('https://github.com/acme/payments')).toBe('https://github.com/acme/payments');
  });

  it('refuses other schemes and text that is not a URL', () => {
    expect(safeWebUrl('javascript:alert(1)')).toBeNull();
    expect(safeWebUrl('git@github.com:acme/payments.git')).toBeNull();
    expect(safeWebUrl(null)).toBeNull();
  });
});

describe('artifactLink', () => {
  it('gives every artifact kind a page', () => {
    for (const kind of ARTIFACT_KINDS) expect(artifactLink(kind, 'x').commands.length).toBeGreaterThan(0);
  });

  it('links named artifacts by name and the per-service ones without', () => {
    expect(artifactLink('database-schema', 'orders').commands).toEqual(['databases', 'orders']);
    expect(artifactLink('flow', 'checkout').commands).toEqual(['flows', 'checkout']);
    expect(artifactLink('service-summary', 'summary').commands).toEqual(['summary']);
    expect(artifactLink('job-notes', 'jobs').commands).toEqual(['jobs']);
  });
});
