import pino from 'pino';
import { lineCollector } from '../../../test/support/log-lines';
import { pinoOptions, redactUrl } from './logging.module';

describe('log redaction', () => {
  it('removes secrets from sign-in link paths and every query string', () => {
    expect(redactUrl('/api/v1/auth/sign-in-link/abcdef?x=1')).toBe('/api/v1/auth/sign-in-link/[REDACTED]?[REDACTED]');
    expect(redactUrl('/setup?token=secret')).toBe('/setup?[REDACTED]');
    expect(redactUrl('/api/v1/orgs/acme/members')).toBe('/api/v1/orgs/acme/members');
  });

  it('censors credential headers and secret-named fields', () => {
    const lines: string[] = [];
    const sink = lineCollector(lines);
    const logger = pino(pinoOptions('info'), sink);
    logger.info({ req: { headers: { authorization: 'Bearer sct_abc', cookie: 'sc_session=raw' } }, res: { headers: { 'set-cookie': 'sc_session=raw2' } }, body: { token: 'tok', clientSecret: 'cs' } }, 'request');
    const output = lines.join('');
    for (const secret of ['sct_abc', 'sc_session=raw', 'raw2', '"tok"', '"cs"']) expect(output).not.toContain(secret);
    expect(output).toContain('[REDACTED]');
  });

  it('drops Nest start-up noise unless debugging', () => {
    const lines: string[] = [];
    const sink = lineCollector(lines);
    pino(pinoOptions('info'), sink).info({ context: 'InstanceLoader' }, 'module loaded');
    pino(pinoOptions('debug'), sink).info({ context: 'InstanceLoader' }, 'module loaded');
    expect(lines).toHaveLength(1);
  });
});
