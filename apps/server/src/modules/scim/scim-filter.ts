import { ScimError } from './scim-error';

/**
 * SCIM filters (RFC 7644 §3.4.2.2), the part identity providers send: `attrPath op value` comparisons joined by
 * `and`/`or` (and binds tighter), optionally in parentheses, with `not (…)`. Operators eq, ne, co, sw, ew, pr.
 * Ordering operators (gt, ge, lt, le) and value paths inside filters (`emails[type eq "work"]`) are refused as
 * invalidFilter. No maintained JavaScript SCIM filter parser is installed in this project, so this is our own
 * small recursive-descent parser: it is linear in the filter's length.
 */
export type ScimFilter =
  | { kind: 'compare'; attribute: string; operator: CompareOperator; value: string | number | boolean | null }
  | { kind: 'present'; attribute: string }
  | { kind: 'and' | 'or'; left: ScimFilter; right: ScimFilter }
  | { kind: 'not'; filter: ScimFilter };

export type CompareOperator = 'eq' | 'ne' | 'co' | 'sw' | 'ew';

const COMPARE_OPERATORS = new Set(['eq', 'ne', 'co', 'sw', 'ew']);
const ORDERING_OPERATORS = new Set(['gt', 'ge', 'lt', 'le']);
/** Filters longer than this are refused: identity providers send one or two comparisons. */
const MAX_FILTER_LENGTH = 2000;

type Token = { type: 'word'; text: string } | { type: 'string'; text: string } | { type: '(' | ')' };

export function parseScimFilter(text: string): ScimFilter {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  const tokens = tokenize(text);
  let position = 0;
  const peekWord = (): string | undefined => {
    const token = tokens[position];
    return token?.type === 'word' ? token.text.toLowerCase() : undefined;
  };

  // `or` binds looser than `and`: each chains its operands left-associatively, an operand being the next tighter level.
  const parseChain = (kind: 'or' | 'and', parseOperand: () => ScimFilter): ScimFilter => {
    let left = parseOperand();
    while (peekWord() === kind) {
      position++;
      left = { kind, left, right: parseOperand() };
    }
    return left;
  };
  const parseOr = (): ScimFilter => parseChain('or', parseAnd);
  const parseAnd = (): ScimFilter => parseChain('and', parseTerm);
  const parseTerm = (): ScimFilter => {
    const token = tokens[position];
    if (!token) throw invalidFilter('The filter ends where a comparison was expected.');
    if (token.type === '(') {
      position++;
      const inner = parseOr();
      if (tokens[position]?.type !== ')') throw invalidFilter('A "(" in the filter is not closed.');
      position++;
      return inner;
    }
    if (token.type === 'word' && token.text.toLowerCase() === 'not') {
      position++;
      if (tokens[position]?.type !== '(') throw invalidFilter('"not" must be followed by a filter in parentheses.');
      return { kind: 'not', filter: parseTerm() };
    }
    if (token.type !== 'word') throw invalidFilter('A comparison must start with an attribute name.');
    const attribute = token.text;
    if (!/^(?:urn:[A-Za-z0-9.:_-]+:)?[A-Za-z][\w$-]*(?:\.[A-Za-z][\w$-]*)?$/.test(attribute)) {
      throw invalidFilter(`"${attribute}" is not an attribute path this server filters on.`);
    }
    position++;
    const operator = peekWord();
    if (operator === undefined) throw invalidFilter(`An operator is missing after "${attribute}".`);
    position++;
    if (operator === 'pr') return { kind: 'present', attribute };
    if (ORDERING_OPERATORS.has(operator)) throw invalidFilter(`The operator "${operator}" is not supported; use eq, ne, co, sw, ew or pr.`);
    if (!COMPARE_OPERATORS.has(operator)) throw invalidFilter(`"${operator}" is not a filter operator.`);
    const valueToken = tokens[position];
    if (!valueToken || !('text' in valueToken)) throw invalidFilter(`A value is missing after "${attribute} ${operator}".`);
    position++;
    return { kind: 'compare', attribute, operator: operator as CompareOperator, value: valueOf(valueToken) };
  };

  const filter = parseOr();
  if (position < tokens.length) throw invalidFilter('The filter has text after its end; join comparisons with "and" or "or".');
  return filter;
}

function valueOf(token: Extract<Token, { text: string }>): string | number | boolean | null {
  if (token.type === 'string') return token.text;
  const word = token.text.toLowerCase();
  if (word === 'true') return true;
  if (word === 'false') return false;
  if (word === 'null') return null;
  if (/^-?\d+(?:\.\d+)?$/.test(token.text)) return Number(token.text);
  throw invalidFilter(`The value "${token.text}" must be a quoted string, a number, true, false or null.`);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (/\s/.test(char)) {
      index++;
    } else if (char === '(' || char === ')') {
      tokens.push({ type: char });
      index++;
    } else if (char === '"') {
      // A JSON string (RFC 7644: string values are JSON strings): find its end, escapes included, and let JSON read it.
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) throw invalidFilter('A quoted value in the filter is not closed.');
      try {
        tokens.push({ type: 'string', text: JSON.parse(text.slice(index, end + 1)) as string });
      } catch {
        throw invalidFilter('A quoted value in the filter is not a valid JSON string.');
      }
      index = end + 1;
    } else if (char === '[' || char === ']') {
      throw invalidFilter('Value paths ("attr[...]") are not supported in filters; compare a sub-attribute such as emails.value.');
    } else {
      let end = index;
      while (end < text.length && !/[\s()"[\]]/.test(text[end])) end++;
      tokens.push({ type: 'word', text: text.slice(index, end) });
      index = end;
    }
  }
  return tokens;
}

function invalidFilter(detail: string): ScimError {
  return new ScimError(400, detail, 'invalidFilter');
}

/** Case-insensitive comparison of a filter against one element of a multi-valued attribute (PATCH value paths). */
export function matchesElement(filter: ScimFilter, element: Record<string, unknown>): boolean {
  switch (filter.kind) {
    case 'and':
      return matchesElement(filter.left, element) && matchesElement(filter.right, element);
    case 'or':
      return matchesElement(filter.left, element) || matchesElement(filter.right, element);
    case 'not':
      return !matchesElement(filter.filter, element);
    case 'present': {
      const value = fieldOf(element, filter.attribute);
      return value !== undefined && value !== null && value !== '';
    }
    case 'compare': {
      const actual = fieldOf(element, filter.attribute);
      if (typeof filter.value !== 'string' || typeof actual !== 'string') return filter.operator === 'ne' ? actual !== filter.value : actual === filter.value;
      const [a, b] = [actual.toLowerCase(), filter.value.toLowerCase()];
      switch (filter.operator) {
        case 'eq':
          return a === b;
        case 'ne':
          return a !== b;
        case 'co':
          return a.includes(b);
        case 'sw':
          return a.startsWith(b);
        case 'ew':
          return a.endsWith(b);
      }
    }
  }
}

/** The element's field named case-insensitively (SCIM attribute names are case-insensitive). */
function fieldOf(element: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(element).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : element[key];
}
