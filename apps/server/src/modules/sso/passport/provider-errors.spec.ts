import { InternalOAuthError } from 'passport-oauth2';
import { OutboundFetchError } from '../../../common/http/bounded-fetch';
import { mapProviderError, providerError } from './org-sso.strategy';

describe('provider error messages', () => {
  it.each<[{ error: string; error_description?: string }, string]>([
    [{ error: 'access_denied', error_description: 'The user cancelled the sign-in.' }, 'The identity provider refused the sign-in: access_denied — The user cancelled the sign-in.'],
    [{ error: 'access_denied', error_description: 'The user cancelled the sign-in' }, 'The identity provider refused the sign-in: access_denied — The user cancelled the sign-in.'],
    [{ error: 'access_denied', error_description: 'Are you sure?' }, 'The identity provider refused the sign-in: access_denied — Are you sure?'],
    [{ error: 'server_error' }, 'The identity provider refused the sign-in: server_error.'],
  ])('joins the provider’s error and description into one sentence (%j)', (query, expected) => {
    const error = providerError(query);
    expect(error.message).toBe(expected);
    expect(error.details[0]).toEqual({ code: query.error, message: query.error_description ?? query.error });
  });

  it('ends a token endpoint transport failure with one full stop', () => {
    const failure = new InternalOAuthError('failed', { outbound: new OutboundFetchError('timeout', 'Could not reach the provider at http://127.0.0.1:9: timed out after 10 ms.') });
    expect(mapProviderError(failure).message).toBe("The code exchange with the provider's token endpoint failed. Could not reach the provider at http://127.0.0.1:9: timed out after 10 ms.");
    expect(mapProviderError(new InternalOAuthError('failed', { statusCode: 500 })).message).toBe("The code exchange with the provider's token endpoint failed: HTTP 500.");
  });
});
