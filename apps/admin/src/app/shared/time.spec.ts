import { relativeTime } from './time';

describe('relativeTime', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('says "just now" within a minute either way', () => {
    expect(relativeTime('2026-03-10T11:59:30Z', now)).toBe('just now');
    expect(relativeTime('2026-03-10T12:00:40Z', now)).toBe('just now');
  });

  it('uses the largest whole unit in the past', () => {
    expect(relativeTime('2026-03-10T11:57:00Z', now)).toBe('3 minutes ago');
    expect(relativeTime('2026-03-08T12:00:00Z', now)).toBe('2 days ago');
    expect(relativeTime('2026-03-09T12:00:00Z', now)).toBe('yesterday');
  });

  it('describes future times', () => {
    expect(relativeTime('2026-03-10T14:00:00Z', now)).toBe('in 2 hours');
    expect(relativeTime('2026-06-10T12:00:00Z', now)).toBe('in 3 months');
  });

  it('returns an empty string for an unreadable time', () => {
    expect(relativeTime('not a date', now)).toBe('');
  });
});
