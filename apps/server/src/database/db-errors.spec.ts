import { QueryFailedError } from 'typeorm';
import { describeDatabaseError } from './db-errors';

const failure = (message: string, fields: Record<string, string>, parameters: unknown[] = ['id', 'x@y.example']) =>
  new QueryFailedError('INSERT INTO users (id, email) VALUES ($1, $2)', parameters, Object.assign(new Error(message), fields));

describe('describeDatabaseError', () => {
  it('keeps the SQLSTATE and the names PostgreSQL reports, never the detail', () => {
    const described = describeDatabaseError(
      failure('duplicate key value violates unique constraint "users_email_key"', { code: '23505', constraint: 'users_email_key', table: 'users', detail: 'Key (email)=(x@y.example) already exists.' }),
    );
    expect(described).toEqual({ code: '23505', message: 'duplicate key value violates unique constraint "users_email_key"', constraint: 'users_email_key', table: 'users', column: undefined });
    expect(JSON.stringify(described)).not.toContain('x@y.example');
  });

  it('replaces quoted parameter values in data exceptions but keeps quoted column and table names', () => {
    expect(describeDatabaseError(failure('value "99999999999" is out of range for type integer', { code: '22003' }, ['99999999999'])).message).toBe('value "[REDACTED]" is out of range for type integer');
    expect(describeDatabaseError(failure('malformed array literal: "{a,secret-value}"', { code: '22P02' }, ['secret-value'])).message).toBe('malformed array literal: "[REDACTED]"');
    expect(describeDatabaseError(failure('invalid input syntax for type uuid: "tok_1"', { code: '22P02' }, [['tok_1', 'tok_2']])).message).toBe('invalid input syntax for type uuid: "[REDACTED]"');
    expect(describeDatabaseError(failure('null value in column "email" of relation "users" violates not-null constraint', { code: '23502', column: 'email', table: 'users' })).message).toBe(
      'null value in column "email" of relation "users" violates not-null constraint',
    );
  });

  it("keeps PostgreSQL's own words: only parameter values are redacted", () => {
    const nul = failure('invalid byte sequence for encoding "UTF8": 0x00', { code: '22021' }, ['acme', 'or\u0000ders', 8]);
    expect(describeDatabaseError(nul).message).toBe('invalid byte sequence for encoding "UTF8": 0x00');
    // The raw driver error with the parameters TypeORM's logger is given.
    expect(describeDatabaseError(nul.driverError, ['x']).message).toBe('invalid byte sequence for encoding "UTF8": 0x00');
  });

  it('replaces every quoted string but the reported names when the parameters are unknown', () => {
    expect(describeDatabaseError(Object.assign(new Error('invalid input syntax for type uuid: "secret"'), { code: '22P02' })).message).toBe('invalid input syntax for type uuid: "[REDACTED]"');
  });

  it('keeps syntax errors whole: they quote the query text, which holds no values', () => {
    expect(describeDatabaseError(failure('relation "missing" does not exist', { code: '42P01' })).message).toBe('relation "missing" does not exist');
  });

  it('describes non-database errors without failing', () => {
    expect(describeDatabaseError('text').message).toBe('[database error without details]');
    expect(describeDatabaseError(new Error('plain')).message).toBe('plain');
  });
});
