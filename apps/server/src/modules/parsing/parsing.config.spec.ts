import { ParsingConfig } from './parsing.config';

describe('ParsingConfig.fromEnv', () => {
  it('reads the SQL parser pool settings', () => {
    expect(ParsingConfig.fromEnv({ SERVICE_SQL_PARSE_WORKERS: '3', SERVICE_SQL_PARSE_TIMEOUT: '5s' }).sqlParse).toEqual({ workers: 3, timeoutMs: 5000 });
    expect(ParsingConfig.fromEnv({}).sqlParse.timeoutMs).toBe(30_000);
    expect(() => ParsingConfig.fromEnv({ SERVICE_SQL_PARSE_WORKERS: '0' })).toThrow(/SERVICE_SQL_PARSE_WORKERS/);
  });

  it('reads the layout pool settings', () => {
    expect(ParsingConfig.fromEnv({}).layout).toEqual({ workers: 1, timeoutMs: 60_000 });
    expect(ParsingConfig.fromEnv({ SERVICE_LAYOUT_WORKERS: '2', SERVICE_LAYOUT_TIMEOUT: '5s' }).layout).toEqual({ workers: 2, timeoutMs: 5000 });
    expect(() => ParsingConfig.fromEnv({ SERVICE_LAYOUT_WORKERS: '17' })).toThrow(/SERVICE_LAYOUT_WORKERS/);
  });
});
