import type { SignInDestination } from '@sc/contracts';
import { choicesOf } from './sign-in-by-email.page';

describe('choicesOf', () => {
  const destination = (organizationId: string, loginUrls: string[]): SignInDestination => ({
    organizationId,
    organizationName: `Org ${organizationId}`,
    signInPath: `/orgs/${organizationId}/sign-in`,
    providers: loginUrls.map((loginUrl, index) => ({ slug: `p${index}`, displayName: `P${index}`, loginUrl })),
  });

  it('builds provider links that come back to the organization, and drops links that are not relative API URLs', () => {
    expect(choicesOf([destination('acme', ['/api/v1/auth/orgs/acme/login/p0', 'https://evil.example/login'])])).toEqual([
      { organizationId: 'acme', organizationName: 'Org acme', providers: [{ slug: 'p0', displayName: 'P0', href: '/api/v1/auth/orgs/acme/login/p0?redirect=%2Forgs%2Facme' }] },
    ]);
  });

  it('leaves out organizations without a usable provider', () => {
    expect(choicesOf([destination('acme', ['//evil.example/x']), destination('globex', [])])).toEqual([]);
  });
});
