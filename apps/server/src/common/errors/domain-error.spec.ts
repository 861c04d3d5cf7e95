import { DomainError, domainErrorFactory } from './domain-error';

enum SampleErrorCode {
  Missing = 'sample_missing',
  Taken = 'sample_taken',
}

describe('domainErrorFactory', () => {
  const sampleError = domainErrorFactory<SampleErrorCode>({
    [SampleErrorCode.Missing]: 404,
    [SampleErrorCode.Taken]: 409,
  });

  it('maps each code to its declared status', () => {
    const error = sampleError(SampleErrorCode.Taken, 'That name is taken.', [{ message: 'x', path: 'name' }]);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.status).toBe(409);
    expect(error.code).toBe('sample_taken');
    expect(error.details).toEqual([{ message: 'x', path: 'name' }]);
  });
});
