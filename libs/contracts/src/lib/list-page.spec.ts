import { nextCursorFromLink } from './list-page';

describe('nextCursorFromLink', () => {
  it('reads the cursor of the rel="next" link', () => {
    expect(nextCursorFromLink('</api/v1/orgs/acme/members?cursor=abc_-1&limit=10>; rel="next"')).toBe('abc_-1');
    expect(nextCursorFromLink('</x?before=7&limit=100>; rel="next"', 'before')).toBe('7');
    expect(nextCursorFromLink('</x?cursor=a>; rel="prev", </x?cursor=b>; rel="next"')).toBe('b');
  });

  it('is null without a next link', () => {
    expect(nextCursorFromLink(null)).toBeNull();
    expect(nextCursorFromLink('')).toBeNull();
    expect(nextCursorFromLink('</x?cursor=a>; rel="prev"')).toBeNull();
  });
});
