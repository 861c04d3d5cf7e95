import { MAX_JSON_DEPTH } from '@sc/contracts';
import { walkJson } from './json-input';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { a: value };
  return value;
}

describe('walkJson', () => {
  it('accepts MAX_JSON_DEPTH levels of objects and arrays and stops at the next one, with its path', () => {
    expect(walkJson(nested(MAX_JSON_DEPTH), () => undefined)).toEqual({});
    const { tooDeepAt } = walkJson(nested(MAX_JSON_DEPTH + 1), () => undefined);
    // The path of the first container past the limit: one segment per level below the root.
    expect(tooDeepAt?.split(/[.[]/)).toHaveLength(MAX_JSON_DEPTH);
    // 100,000 levels: the walk stops at the limit instead of overflowing the stack.
    expect(walkJson(nested(100_000), () => undefined).tooDeepAt).toBeDefined();
  });

  it('visits every string, property names included, with validation-style paths', () => {
    const seen: string[] = [];
    walkJson({ name: 'n', scopes: ['a', 'b'], organization: { id: 'x' }, count: 1 }, (text, path) => seen.push(`${path}=${text}`));
    expect(seen).toEqual(['name=name', 'name=n', 'scopes=scopes', 'scopes[0]=a', 'scopes[1]=b', 'organization=organization', 'organization.id=id', 'organization.id=x', 'count=count']);
  });
});
