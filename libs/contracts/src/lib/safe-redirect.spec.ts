import { isSafeRedirectPath, safeRedirectPath } from './safe-redirect';

describe('safeRedirectPath', () => {
  it.each(['/', '/orgs/acme', '/orgs/acme/diagrams?tab=2#node-1'])('keeps the relative path %s', (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it('resolves the dot segments of a relative path', () => {
    expect(safeRedirectPath('/a/../b')).toBe('/b');
  });

  it.each([
    'https://evil.example/',
    'http:evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/ /evil.example',
    'javascript:alert(1)',
    'data:text/html,<script>',
    'orgs/acme',
    '',
    `/${'a'.repeat(3000)}`,
  ])('refuses %j and falls back', (input) => {
    expect(safeRedirectPath(input, '/home')).toBe('/home');
  });

  it('keeps percent-encoded line breaks encoded, so they cannot split the Location header', () => {
    expect(safeRedirectPath('/%0d%0aSet-Cookie:x')).toBe('/%0d%0aSet-Cookie:x');
  });

  it('refuses non-strings', () => {
    expect(safeRedirectPath(undefined)).toBe('/');
    expect(safeRedirectPath(['/a', '/b'])).toBe('/');
    expect(isSafeRedirectPath(42)).toBe(false);
    expect(isSafeRedirectPath('/ok')).toBe(true);
  });
});
