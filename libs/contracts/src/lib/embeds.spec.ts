import { validateSync } from 'class-validator';
import { asInstance } from './as-instance';
import { CreateEmbedLinkRequest, EMBED_LIMITS, frameAncestorProblems } from './embeds';

/** The admin's sentences and the server's request check must agree on every origin. */
describe('frameAncestorProblems: the rule CreateEmbedLinkRequest checks, as sentences per entry', () => {
  const serverAccepts = (frameAncestors: string[]) => validateSync(asInstance(CreateEmbedLinkRequest, { service: 'payments', frameAncestors }) as object).length === 0;

  it.each([
    ['https://portal.example.com', true],
    ['https://*.example.com', true],
    ['http://localhost:8080', true],
    ['http://127.0.0.1:46635', true],
    ['portal.example.com', false],
    ['https://portal.example.com/docs', false],
    ['https://portal.example.com:99999x', false],
    ["'self'", false],
    ['*', false],
    ['ftp://example.com', false],
  ])('%s: accepted %s, by both', (origin, accepted) => {
    expect([frameAncestorProblems([origin]).length === 0, serverAccepts([origin])]).toEqual([accepted, accepted]);
  });

  it('names each bad entry by its index, duplicates and too many, and takes an empty list', () => {
    expect(frameAncestorProblems([])).toEqual([]);
    expect(frameAncestorProblems(['https://a.example.com', 'nope', 'https://a.example.com']).map((problem) => [problem.index, problem.message])).toEqual([
      [1, expect.stringContaining('“nope” is not an origin')],
      [2, '“https://a.example.com” is listed twice.'],
    ]);
    const many = Array.from({ length: EMBED_LIMITS.maxFrameAncestors + 1 }, (_, i) => `https://s${i}.example.com`);
    expect(frameAncestorProblems(many)).toEqual([{ message: `At most ${EMBED_LIMITS.maxFrameAncestors} sites may frame a link; ${many.length} are listed.` }]);
    expect(serverAccepts(many)).toBe(false);
  });
});
