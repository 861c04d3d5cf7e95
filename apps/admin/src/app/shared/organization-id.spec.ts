import { suggestOrganizationId } from './organization-id';

describe('suggestOrganizationId', () => {
  it('lowercases and joins words with dashes', () => {
    expect(suggestOrganizationId('Acme Corp.')).toBe('acme-corp');
  });

  it('drops accents and symbols and trims dashes at both ends', () => {
    expect(suggestOrganizationId('  Café & Crème — Zürich! ')).toBe('cafe-creme-zurich');
  });

  it('cuts to the maximum length without ending on a dash', () => {
    expect(suggestOrganizationId('abc def', 4)).toBe('abc');
  });

  it('returns an empty suggestion when nothing URL-safe is left', () => {
    expect(suggestOrganizationId('株式会社')).toBe('');
  });
});
