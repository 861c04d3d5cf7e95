import { ScimError } from './scim-error';
import type { ScimFilter } from './scim-filter';

/**
 * How a filterable attribute reads in SQL. `expression` is a text expression of the row (or, with `exists`, of the
 * element `e` of a JSON array); `caseExact: false` compares lower-cased (RFC 7643 §2.2: userName, emails, displayName).
 */
export interface FilterColumn {
  expression: string;
  caseExact: boolean;
  type?: 'string' | 'boolean';
  /** For multi-valued attributes: `EXISTS (SELECT 1 FROM <from> e WHERE <condition on expression>)`. */
  existsFrom?: string;
}

/** Builds a parameterized WHERE condition; parameters are added to `params` as :scimF0, :scimF1… */
export function filterToSql(filter: ScimFilter, columns: Record<string, FilterColumn>, params: Record<string, unknown>): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `(${filterToSql(filter.left, columns, params)} ${filter.kind.toUpperCase()} ${filterToSql(filter.right, columns, params)})`;
    case 'not':
      return `(NOT COALESCE(${filterToSql(filter.filter, columns, params)}, false))`;
    case 'present': {
      const column = columnFor(columns, filter.attribute);
      return wrap(column, column.type === 'boolean' ? `${column.expression} IS NOT NULL` : `COALESCE(${column.expression}, '') <> ''`);
    }
    case 'compare': {
      const column = columnFor(columns, filter.attribute);
      const name = `scimF${Object.keys(params).length}`;
      if (column.type === 'boolean') {
        if (typeof filter.value !== 'boolean' || (filter.operator !== 'eq' && filter.operator !== 'ne')) {
          throw new ScimError(400, `${filter.attribute} is a boolean: compare it with eq or ne and true or false.`, 'invalidFilter');
        }
        params[name] = filter.value;
        return wrap(column, `${column.expression} ${filter.operator === 'eq' ? '=' : '<>'} :${name}`);
      }
      if (typeof filter.value !== 'string') throw new ScimError(400, `${filter.attribute} is a string: compare it with a quoted value.`, 'invalidFilter');
      const value = column.caseExact ? filter.value : filter.value.toLowerCase();
      const expression = column.caseExact ? column.expression : `lower(${column.expression})`;
      const escaped = value.replace(/[\\%_]/g, (char) => `\\${char}`);
      const [operator, parameter] = {
        eq: ['=', value],
        ne: ['IS DISTINCT FROM', value],
        co: ['LIKE', `%${escaped}%`],
        sw: ['LIKE', `${escaped}%`],
        ew: ['LIKE', `%${escaped}`],
      }[filter.operator];
      params[name] = parameter;
      return wrap(column, `${expression} ${operator} :${name}`);
    }
  }
}

function wrap(column: FilterColumn, condition: string): string {
  return column.existsFrom ? `EXISTS (SELECT 1 FROM ${column.existsFrom} e WHERE ${condition})` : `(${condition})`;
}

function columnFor(columns: Record<string, FilterColumn>, attribute: string): FilterColumn {
  const key = stripCoreUrn(attribute).toLowerCase();
  const column = columns[key];
  if (!column) throw new ScimError(400, `Filtering on "${attribute}" is not supported; filter on ${Object.keys(columns).join(', ')}.`, 'invalidFilter');
  return column;
}

/** `urn:ietf:params:scim:schemas:core:2.0:User:userName` → `userName`. */
export function stripCoreUrn(attribute: string): string {
  return attribute.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(?:User|Group):/i, '');
}
