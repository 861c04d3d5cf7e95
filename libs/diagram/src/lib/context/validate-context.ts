import { DiagramIssue, DiagramIssueCode } from '../model';
import { isColor } from './colors';
import { INPUT_TYPE_LABELS, NODE_TYPES, SHAPES, STROKE_STYLES, TYPE_SPECIFIC_FIELDS } from './context-types';
import type { ContextObjectName } from './context-reference';
import { jsonPath, JsonValue } from './strict-json';

type Position = { line: number; column: number };
type JsonObject = { [key: string]: JsonValue };


const squash = (value: string) => value.toLowerCase().replace(/[\s_-]/g, '');

/** "did you mean …" for a value that differs from an allowed one only in case, spaces, dashes or underscores. */
export function closeMatch(value: string, allowed: readonly string[]): string | undefined {
  return allowed.find((candidate) => squash(candidate) === squash(value));
}

type Check = (value: JsonValue, path: string) => void;

/**
 * Checks a parsed context file against the spec's tables. Every problem is collected (never
 * the first only), each with its JSON path and the line/column of the offending value.
 */
export function validateContext(root: JsonValue, positions: Map<string, Position>): { errors: DiagramIssue[]; warnings: DiagramIssue[] } {
  const rules = contextRules(positions);
  rules.context(root, '$');
  return { errors: rules.errors, warnings: rules.warnings };
}

export type ContextEntryKind = 'node' | 'edge' | 'group';

/**
 * Checks overlay objects held outside a context file (a graph drawn in the UI) by the very rules a
 * context file's `nodes`, `edges` and `groups` entries follow, each reported at its own JSON path.
 */
export function validateContextEntries(entries: Iterable<{ kind: ContextEntryKind; value: JsonValue; path: string }>): { errors: DiagramIssue[]; warnings: DiagramIssue[] } {
  const rules = contextRules(new Map());
  for (const { kind, value, path } of entries) rules[kind](value, path);
  return { errors: rules.errors, warnings: rules.warnings };
}

/** The checks of every part of a context file, reporting into one errors/warnings pair. */
function contextRules(positions: Map<string, Position>) {
  const errors: DiagramIssue[] = [];
  const warnings: DiagramIssue[] = [];
  const at = (path: string) => positions.get(path) ?? {};
  const error = (path: string, message: string, extra: Partial<DiagramIssue> = {}) =>
    errors.push({ code: DiagramIssueCode.ContextInvalidValue, severity: 'error', message: `${path}: ${message}`, path, ...at(path), ...extra });
  const warn = (path: string, message: string, code = DiagramIssueCode.ContextUnknownProperty) =>
    warnings.push({ code, severity: 'warning', message: `${path}: ${message}`, path, ...at(path) });

  const kindOf = (value: JsonValue) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);
  const isObject = (value: JsonValue): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

  const object = (value: JsonValue, path: string, what: string): value is JsonObject => {
    if (isObject(value)) return true;
    error(path, `expected ${what} (an object), found ${kindOf(value)}.`);
    return false;
  };
  const string = (value: JsonValue, path: string) => {
    if (typeof value !== 'string') error(path, `expected a string, found ${kindOf(value)}.`);
  };
  const number = (value: JsonValue, path: string) => {
    if (typeof value !== 'number' || value < 0) error(path, `expected a number of 0 or more, found ${typeof value === 'number' ? value : kindOf(value)}.`);
  };
  const boolean = (value: JsonValue, path: string) => {
    if (typeof value !== 'boolean') error(path, `expected true or false, found ${kindOf(value)}.`);
  };
  const color = (value: JsonValue, path: string) => {
    if (typeof value !== 'string' || !isColor(value)) {
      error(path, `expected a colour (#rgb, #rrggbb, rgb(...), hsl(...) or a CSS colour name), found ${JSON.stringify(value)}.`);
    }
  };
  const oneOf = (allowed: readonly string[], label: string) => (value: JsonValue, path: string) => {
    if (typeof value === 'string' && allowed.includes(value)) return;
    const suggestion = typeof value === 'string' ? closeMatch(value, allowed) : undefined;
    error(path, `${JSON.stringify(value)} is not a valid ${label}.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`, {
      expected: [...allowed],
      ...(suggestion ? { hint: `did you mean "${suggestion}"?` } : {}),
    });
  };
  const stringArray = (value: JsonValue, path: string) => {
    if (!Array.isArray(value)) {
      error(path, `expected an array of strings, found ${kindOf(value)}.`);
      return;
    }
    value.forEach((item, index) => string(item, jsonPath(path, index)));
  };

  const properties = (value: JsonObject, path: string, checks: Record<string, Check>, required: string[] = []) => {
    for (const key of required) if (!(key in value)) error(path, `"${key}" is required.`);
    for (const [key, child] of Object.entries(value)) {
      const childPath = jsonPath(path, key);
      const check = checks[key];
      if (check) check(child, childPath);
      else warn(childPath, `unknown property "${key}" is ignored; allowed: ${Object.keys(checks).join(', ')}.`);
    }
  };
  /** Every object's field checks, by the names context-reference.ts documents them under (compared by its spec). */
  const fields: Partial<Record<ContextObjectName, { checks: Record<string, Check>; required: string[] }>> = {};
  const nested = (name: ContextObjectName, what: string, checks: Record<string, Check>, required: string[] = []): Check => {
    fields[name] = { checks, required };
    return (value, path) => {
      if (object(value, path, what)) properties(value, path, checks, required);
    };
  };

  const nodeStyle = nested('nodeStyle', 'a style', {
    fill: color,
    stroke: color,
    strokeWidth: number,
    borderRadius: number,
    strokeStyle: oneOf(STROKE_STYLES, 'strokeStyle'),
    borderAnimationEnabled: boolean,
  });
  const edgeStyle = nested('edgeStyle', 'an edge style', {
    stroke: color,
    strokeWidth: number,
    strokeStyle: oneOf(STROKE_STYLES, 'strokeStyle'),
    borderAnimationEnabled: boolean,
  });
  const marker = nested('marker', 'a marker', { type: string, color }, ['type']);
  const dataValue: Check = (value, path) => {
    if (typeof value === 'string' || typeof value === 'number') return;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return;
    error(path, `expected a string, a number or an array of strings, found ${kindOf(value)}.`);
  };
  const dataField = nested('dataField', 'a data field', { type: oneOf(INPUT_TYPE_LABELS, 'input type label'), value: dataValue, options: (v, p) => {
    if (!Array.isArray(v)) error(p, `expected an array, found ${kindOf(v)}.`);
  } }, ['type']);
  const data: Check = (value, path) => {
    if (!object(value, path, 'data fields keyed by field label')) return;
    for (const [label, field] of Object.entries(value)) dataField(field, jsonPath(path, label));
  };
  const table = nested('table', 'a table', {
    columns: stringArray,
    rows: (value, path) => {
      if (!Array.isArray(value)) {
        error(path, `expected an array of rows (arrays of strings), found ${kindOf(value)}.`);
        return;
      }
      value.forEach((row, index) => stringArray(row, jsonPath(path, index)));
    },
  });
  const url: Check = (value, path) => {
    if (typeof value !== 'string') {
      error(path, `expected a URL string, found ${kindOf(value)}.`);
      return;
    }
    let parsed: URL | undefined;
    try {
      parsed = new URL(value);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:', 'data:'].includes(parsed.protocol)) {
      error(path, `expected an absolute http(s) or data: URL, found ${JSON.stringify(value)}.`);
    }
  };
  const dbConfig = nested('dbConfig', 'a dbConfig', { serviceName: string, databaseName: string, tableName: string }, ['serviceName', 'databaseName', 'tableName']);

  const nodeChecks: Record<string, Check> = {
    type: oneOf(NODE_TYPES, 'node type'),
    name: string,
    data,
    style: nodeStyle,
    shape: oneOf(SHAPES, 'shape'),
    value: string,
    table,
    cloud: string,
    service: string,
    src: url,
    animatedIcon: string,
    componentId: string,
    dbConfig,
  };
  fields.node = { checks: nodeChecks, required: [] };
  const node: Check = (value, path) => {
    if (!object(value, path, 'a node overlay')) return;
    properties(value, path, nodeChecks);
    const type = typeof value['type'] === 'string' ? value['type'] : undefined;
    for (const [key, types] of Object.entries(TYPE_SPECIFIC_FIELDS)) {
      if (!(key in value) || (type !== undefined && (types as readonly string[]).includes(type))) continue;
      const message = `"${key}" applies only to nodes of type ${types.join(' or ')}${type ? `, not "${type}"` : ' (no type is set)'}.`;
      if (key === 'shape') error(jsonPath(path, key), message);
      else warn(jsonPath(path, key), message, DiagramIssueCode.ContextInvalidValue);
    }
  };
  const edge = nested('edge', 'an edge overlay', { label: string, style: edgeStyle, markerStart: marker, markerEnd: marker });
  const group = nested('group', 'a group', { name: string, nodes: stringArray });
  const keyed = (what: string, check: Check): Check => (value, path) => {
    if (!object(value, path, what)) return;
    for (const [key, child] of Object.entries(value)) check(child, jsonPath(path, key));
  };

  const context = nested('context', 'a context object', {
    // Editors read it (the JSON Schema); the service ignores it.
    $schema: string,
    name: string,
    description: string,
    nodes: keyed('node overlays keyed by node ID', node),
    edges: keyed('edge overlays keyed by "<source>-<target>"', edge),
    groups: keyed('groups keyed by group ID', group),
  });
  return { errors, warnings, context, node, edge, group, fields };
}

/** The fields the validator checks in each object of a context file, and the required ones (for context-reference.spec.ts). */
export function checkedContextFields(): Partial<Record<ContextObjectName, { fields: string[]; required: string[] }>> {
  const { fields } = contextRules(new Map());
  return Object.fromEntries(Object.entries(fields).map(([name, table]) => [name, { fields: Object.keys(table.checks), required: table.required }]));
}
