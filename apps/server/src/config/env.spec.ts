import { ConfigError, EnvReader, parseByteSize, parseDurationMs } from './env';

describe('env helpers', () => {
  it.each([
    ['90', 90_000],
    ['90s', 90_000],
    ['15m', 900_000],
    ['8h', 28_800_000],
    ['7d', 604_800_000],
    ['500ms', 500],
  ])('parses duration %s', (input, expected) => {
    expect(parseDurationMs(input)).toBe(expected);
  });

  it.each(['', 'h', '5 weeks', '-1s'])('rejects duration %p', (input) => {
    expect(parseDurationMs(input)).toBeUndefined();
  });

  it.each([
    ['10485760', 10_485_760],
    ['512kb', 524_288],
    ['10mb', 10_485_760],
    ['10MiB', 10_485_760],
  ])('parses size %s', (input, expected) => {
    expect(parseByteSize(input)).toBe(expected);
  });

  it('collects every problem and reports them together', () => {
    const read = new EnvReader({ A: 'x', B: 'nope', C: 'ftp://example.com', D: 'maybe' });
    expect(read.integer('A', 1)).toBe(1);
    expect(read.durationMs('B', 5)).toBe(5);
    expect(read.httpUrl('C', 'http://fallback')).toBe('http://fallback');
    expect(read.boolean('D', false)).toBe(false);
    expect(read.required('E', 'for this test')).toBeUndefined();
    expect(() => read.assertValid()).toThrow(ConfigError);
    try {
      read.assertValid();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(5);
      expect((error as ConfigError).message).toContain('A must be a whole number');
      expect((error as ConfigError).message).toContain('E is required for this test.');
    }
  });

  it('treats blank values as unset and strips a trailing slash from URLs', () => {
    const read = new EnvReader({ A: '   ', U: 'https://example.com/base/' });
    expect(read.string('A', 'fallback')).toBe('fallback');
    expect(read.httpUrl('U')).toBe('https://example.com/base');
    expect(() => read.assertValid()).not.toThrow();
  });
});
