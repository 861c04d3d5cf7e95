import { orgApiUrl } from './org-api';

describe('orgApiUrl', () => {
  it('names the organization, or one of its resources, with the id encoded', () => {
    expect(orgApiUrl('acme')).toBe('/api/v1/orgs/acme');
    expect(orgApiUrl('acme', 'members')).toBe('/api/v1/orgs/acme/members');
    expect(orgApiUrl('a/b c', 'sso')).toBe('/api/v1/orgs/a%2Fb%20c/sso');
  });
});
