import { ScimError } from './scim-error';
import { matchesElement, parseScimFilter } from './scim-filter';
import { filterToSql, type FilterColumn } from './scim-filter-sql';

describe('parseScimFilter', () => {
  it('reads comparisons joined by and/or (and binds tighter), parentheses, not and pr', () => {
    expect(parseScimFilter('userName eq "a@b.c"')).toEqual({ kind: 'compare', attribute: 'userName', operator: 'eq', value: 'a@b.c' });
    expect(parseScimFilter('a eq "1" or b eq "2" and c pr')).toEqual({
      kind: 'or',
      left: { kind: 'compare', attribute: 'a', operator: 'eq', value: '1' },
      right: { kind: 'and', left: { kind: 'compare', attribute: 'b', operator: 'eq', value: '2' }, right: { kind: 'present', attribute: 'c' } },
    });
    expect(parseScimFilter('not (active EQ false)')).toEqual({ kind: 'not', filter: { kind: 'compare', attribute: 'active', operator: 'eq', value: false } });
    expect(parseScimFilter('title eq "say \\"hi\\""')).toMatchObject({ value: 'say "hi"' });
  });

  it.each([['userName gt "a"'], ['userName eq'], ['userName eq "open'], ['(userName eq "a"'], ['userName eq "a" userName'], ['emails[type eq "work"]'], ['userName eq bare']])('refuses %s as invalidFilter', (filter) => {
    expect(() => parseScimFilter(filter)).toThrow(expect.objectContaining({ status: 400, scimType: 'invalidFilter' }) as ScimError);
  });

  it('matches elements case-insensitively (PATCH value paths)', () => {
    expect(matchesElement(parseScimFilter('type eq "WORK"'), { type: 'work', value: 'x' })).toBe(true);
    expect(matchesElement(parseScimFilter('Value sw "x" and not (primary eq true)'), { value: 'xy', primary: false })).toBe(true);
    expect(matchesElement(parseScimFilter('type eq "home"'), { type: 'work' })).toBe(false);
  });
});

describe('filterToSql', () => {
  const columns: Record<string, FilterColumn> = { username: { expression: 'u.user_name', caseExact: false }, externalid: { expression: 'u.external_id', caseExact: true } };

  it('parameterizes every value and escapes LIKE wildcards', () => {
    const params: Record<string, unknown> = {};
    const sql = filterToSql(parseScimFilter('userName co "50%_" and externalId sw "A"'), columns, params);
    expect(sql).toBe('((lower(u.user_name) LIKE :scimF0) AND (u.external_id LIKE :scimF1))');
    expect(params).toEqual({ scimF0: '%50\\%\\_%', scimF1: 'A%' });
  });

  it('refuses attributes it cannot filter on', () => {
    expect(() => filterToSql(parseScimFilter('password eq "x"'), columns, {})).toThrow(expect.objectContaining({ scimType: 'invalidFilter' }) as ScimError);
  });
});
