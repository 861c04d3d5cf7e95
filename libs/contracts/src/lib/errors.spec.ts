import { isErrorBody } from './errors';

describe('isErrorBody', () => {
  it('recognises the service error shape', () => {
    expect(isErrorBody({ error: { code: 'not_found', message: 'Not found.', details: [] } })).toBe(true);
  });
  it('rejects other values', () => {
    expect(isErrorBody({ message: 'x' })).toBe(false);
    expect(isErrorBody(null)).toBe(false);
  });
});
