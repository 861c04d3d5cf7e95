import { load, YAMLException, type LoadOptions } from 'js-yaml';
import type { ConfigKeyPath } from './service-config.types';

/** A parsed YAML document plus the 1-based line of every key and value js-yaml composed. */
export interface LocatedYamlDocument {
  value: unknown;
  /** Line of the deepest known prefix of `path` (a key's line for mapping entries); undefined for an empty doc. */
  lineOf(path: ConfigKeyPath): number | undefined;
}

export type ParseYamlResult =
  | { ok: true; document: LocatedYamlDocument }
  | { ok: false; message: string; line?: number; column?: number };

/** What the js-yaml listener gives us per composed node, before pairing mapping keys with values. */
interface ComposedNode {
  line: number;
  kind: string | null;
  result: unknown;
  children: ComposedNode[];
}

interface LocatedNode {
  line: number;
  entries?: Map<string, { keyLine: number; value: LocatedNode }>;
  items?: LocatedNode[];
}

/**
 * Parses one YAML document with js-yaml, recording lines through its `listener` hook (js-yaml has no
 * position API). The listener fires `open`/`close` around every composed node, keys included, so a mapping's
 * children alternate key, value. Where that pairing does not hold (merge keys, empty sequence items) the
 * locator falls back to the enclosing node's line rather than guessing.
 */
export function parseYamlWithLines(text: string, fileName: string): ParseYamlResult {
  const stack: ComposedNode[] = [{ line: 0, kind: null, result: undefined, children: [] }];
  const options: LoadOptions = {
    filename: fileName,
    json: false,
    listener(event, state) {
      if (event === 'open') {
        stack.push({ line: state.line, kind: null, result: undefined, children: [] });
        return;
      }
      const node = stack.pop();
      const parent = stack[stack.length - 1];
      if (!node || !parent) return;
      node.kind = state.kind;
      node.result = state.result;
      parent.children.push(node);
    },
  };
  let value: unknown;
  try {
    value = load(text, options);
  } catch (error) {
    if (error instanceof YAMLException) {
      return {
        ok: false,
        message: error.reason || error.message,
        ...(error.mark ? lineAndColumn(text, error.mark.position) : {}),
      };
    }
    throw error;
  }
  const root = stack[0].children[0];
  const located = root ? locate(root) : undefined;
  return {
    ok: true,
    document: {
      value,
      lineOf: (path) => (located ? lineOf(located, path) : undefined),
    },
  };
}

/**
 * 1-based line and column of an offset. js-yaml's own mark has a line of 0 for errors found before parsing
 * (a NUL byte anywhere in the file), but its offset is always right.
 */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

function locate(node: ComposedNode): LocatedNode {
  const located: LocatedNode = { line: node.line + 1 };
  if (node.kind === 'mapping' && isPlainObject(node.result)) {
    located.entries = new Map();
    for (let i = 0; i + 1 < node.children.length; i += 2) {
      const key = node.children[i];
      if (key.result === null || typeof key.result === 'object') continue;
      located.entries.set(String(key.result), { keyLine: key.line + 1, value: locate(node.children[i + 1]) });
    }
  } else if (node.kind === 'sequence' && Array.isArray(node.result) && node.children.length === node.result.length) {
    located.items = node.children.map(locate);
  }
  return located;
}

function lineOf(root: LocatedNode, path: ConfigKeyPath): number {
  let node = root;
  let line = root.line;
  for (const segment of path) {
    if (typeof segment === 'number') {
      const item = node.items?.[segment];
      if (!item) return line;
      node = item;
      line = item.line;
    } else {
      const entry = node.entries?.get(segment);
      if (!entry) return line;
      node = entry.value;
      line = entry.keyLine;
    }
  }
  return line;
}

/** A JSON/YAML mapping: an object that is not null and not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
