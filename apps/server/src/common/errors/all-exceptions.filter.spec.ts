import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { validate } from 'class-validator';
import { AddMemberRequest } from '@sc/contracts';
import { QueryFailedError } from 'typeorm';
import { describeForLog, mapError } from './all-exceptions.filter';
import { validationDetails } from './common.errors';
import { domainErrorFactory } from './domain-error';

describe('mapError', () => {
  it('keeps a domain error code, status, message and details', () => {
    const error = domainErrorFactory({ thing_missing: 404 })('thing_missing', 'No such thing.', [{ path: 'id', message: 'unknown' }]);
    expect(mapError(error)).toEqual({ status: 404, body: { error: { code: 'thing_missing', message: 'No such thing.', details: [{ path: 'id', message: 'unknown' }] } } });
  });

  it('maps Nest HTTP exceptions by status with a sentence', () => {
    expect(mapError(new NotFoundException('Cannot GET /api/v1/x'))).toEqual({ status: 404, body: { error: { code: 'not_found', message: 'There is no GET /api/v1/x endpoint.', details: [] } } });
    expect(mapError(new BadRequestException('bad')).body.error).toMatchObject({ code: 'bad_request', message: 'bad.' });
  });

  it('maps throttling and body-parser errors', () => {
    expect(mapError(new ThrottlerException()).status).toBe(429);
    expect(mapError(Object.assign(new Error('too large'), { type: 'entity.too.large', status: 413, limit: 100 })).body.error).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('100 bytes') });
    expect(mapError(Object.assign(new SyntaxError('x'), { type: 'entity.parse.failed', status: 400 })).status).toBe(400);
    // A body that fails to decompress: http-errors marks it 400 and exposable, but gives it no type.
    const brotli = Object.assign(new Error('Decompression failed'), { status: 400, statusCode: 400, expose: true, code: 'ERR__ERROR_FORMAT_PADDING_1' });
    expect(mapError(brotli)).toMatchObject({ status: 400, body: { error: { code: 'bad_request', message: expect.stringContaining('Content-Encoding') } } });
  });

  it('hides anything else behind 500 internal_error', () => {
    const mapped = mapError(new Error('connection string postgres://user:secret@db'));
    expect(mapped.status).toBe(500);
    expect(mapped.body.error.code).toBe('internal_error');
    expect(JSON.stringify(mapped.body)).not.toContain('secret');
  });
});

describe('validationDetails', () => {
  it('gives one detail per failed field with its path', async () => {
    const request = Object.assign(new AddMemberRequest(), { email: 'nope', role: 'root' });
    const details = validationDetails(await validate(request));
    expect(details.map((detail) => detail.path).sort()).toEqual(['email', 'role']);
    expect(details.find((detail) => detail.path === 'role')?.message).toContain('role must be one of owner, admin, editor, viewer');
  });

  it('builds nested and array paths', () => {
    const details = validationDetails([
      { property: 'organization', children: [{ property: 'id', constraints: { matches: 'id must match' }, children: [] }] },
      { property: 'scopes', children: [{ property: '1', constraints: { isIn: 'each value must be valid' }, children: [] }] },
    ]);
    expect(details).toEqual([
      { path: 'organization.id', message: 'organization.id must match' },
      { path: 'scopes[1]', message: 'each value must be valid' },
    ]);
  });
});

describe('describeForLog', () => {
  it('logs a failed query without its parameters, detail or the value quoted in the message', () => {
    const driverError = Object.assign(new Error('invalid input syntax for type uuid: "sct_secret_value"'), {
      code: '22P02',
      detail: 'Key (email)=(person@example.com) already exists.',
      params: ['sct_secret_value', 'person@example.com'],
    });
    const logged = describeForLog(new QueryFailedError('SELECT * FROM api_tokens WHERE id = $1', ['sct_secret_value', 'person@example.com'], driverError));
    expect(logged).toContain('QueryFailedError 22P02: invalid input syntax for type uuid: "[REDACTED]" (query: SELECT * FROM api_tokens WHERE id = $1)');
    expect(logged).not.toContain('sct_secret_value');
    expect(logged).not.toContain('person@example.com');
  });

  it('logs other errors with their stack', () => {
    const error = new Error('boom');
    expect(describeForLog(error)).toBe(error.stack);
  });
});
