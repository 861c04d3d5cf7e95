import { QueryFailedError } from 'typeorm';
import { describeDatabaseError } from './db-errors';

const failure = (message: string, fields: Record<string, string>) => new QueryFailedError('INSERT INTO users (id, email) VALUES ($1, $2)', ['id', 'x@y.example'], Object.assign(new Error(message), fields));

describe('describeDatabaseError', () => {
  it('keeps the SQLSTATE and the names PostgreSQL reports, never the detail', () => {
    const described = describeDatabaseError(
      failure('duplicate key value violates unique constraint "users_email_key"', { code: '23505', constraint: 'users_email_key', table: 'users', detail: 'Key (email)=(x@y.example) already exists.' }),
    );
    expect(described).toEqual({ code: '23505', message: 'duplicate key value violates unique constraint "users_email_key"', constraint: 'users_email_key', table: 'users', column: undefined });
    expect(JSON.stringify(described)).not.toContain('x@y.example');
  });

  it('replaces quoted values in data exceptions but keeps quoted column and table names', () => {
    expect(describeDatabaseError(failure('value "99999999999" is out of range for type integer', { code: '22003' })).message).toBe('value "[REDACTED]" is out of range for type integer');
    expect(describeDatabaseError(failure('null value in column "email" of relation "users" violates not-null constraint', { code: '23502', column: 'email', table: 'users' })).message).toBe(
      'null value in column "email" of relation "users" violates not-null constraint',
    );
  });

  it('keeps syntax errors whole: they quote the query text, which holds no values', () => {
    expect(describeDatabaseError(failure('relation "missing" does not exist', { code: '42P01' })).message).toBe('relation "missing" does not exist');
  });

  it('describes non-database errors without failing', () => {
    expect(describeDatabaseError('text').message).toBe('[database error without details]');
    expect(describeDatabaseError(new Error('plain')).message).toBe('plain');
  });
});
