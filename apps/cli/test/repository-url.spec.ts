import { stripRepositoryUrlCredentials } from '../src/lib/repository-url';

describe('stripRepositoryUrlCredentials', () => {
  it.each([
    ['https://x-access-token:ghp_abc123@github.com/acme/payments.git', 'https://github.com/acme/payments.git'],
    ['https://oauth2:glpat-xyz@gitlab.example.com/acme/payments', 'https://gitlab.example.com/acme/payments'],
    ['https://user@bitbucket.org/acme/payments.git', 'https://bitbucket.org/acme/payments.git'],
    ['https://github.com/acme/payments?private_token=abc#readme', 'https://github.com/acme/payments'],
    ['ssh://git:pw@host.example.com:2222/acme/payments.git', 'ssh://host.example.com:2222/acme/payments.git'],
    ['git@github.com:acme/payments.git', 'git@github.com:acme/payments.git'],
    ['  https://github.com/acme/payments  ', 'https://github.com/acme/payments'],
  ])('%s → %s', (input, expected) => {
    expect(stripRepositoryUrlCredentials(input)).toBe(expected);
  });
});
