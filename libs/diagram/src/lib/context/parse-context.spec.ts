import { applyContext } from '../apply-context';
import { DiagramIssueCode } from '../model';
import { parseContextJson } from './parse-context';
import { MAX_JSON_DEPTH } from '@sc/contracts/core';

const errorsOf = (text: string) => parseContextJson(text).errors;
const messagesOf = (value: unknown) => parseContextJson(JSON.stringify(value, null, 2));

describe('parseContextJson: strict JSON', () => {
  it('names a trailing comma with its line and column', () => {
    const [error] = errorsOf('{\n  "nodes": {\n    "api": {},\n  }\n}');
    expect(error).toMatchObject({ code: DiagramIssueCode.ContextInvalidJson, line: 3, column: 14 });
    expect(error.message).toMatch(/Trailing comma/);
  });
  it('names comments', () => {
    expect(errorsOf('{\n  // the api\n  "name": "x"\n}')[0]).toMatchObject({ line: 2, column: 3, message: expect.stringMatching(/Comments are not allowed/) });
    expect(errorsOf('{ /* block */ "name": "x" }')[0].message).toMatch(/Comments are not allowed/);
  });
  it('names unquoted keys and single quotes', () => {
    expect(errorsOf('{ name: "x" }')[0]).toMatchObject({ line: 1, column: 3, message: expect.stringMatching(/Unquoted property name/) });
    expect(errorsOf("{ 'name': \"x\" }")[0].message).toMatch(/double quotes, not single quotes/);
    expect(errorsOf('{ "name": \'x\' }')[0].message).toMatch(/double quotes, not single quotes/);
  });
  it('reports trailing commas in arrays and garbage after the document', () => {
    expect(errorsOf('{"groups": {"g": {"nodes": ["a",]}}}')[0].message).toMatch(/Trailing comma before "]"/);
    expect(errorsOf('{} x')[0].message).toMatch(/after the end of the JSON document/);
  });
  it('stops at nesting deeper than MAX_JSON_DEPTH with the line, column and JSON path', () => {
    const deep = `{\n  "nodes": ${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}\n}`;
    const [error] = errorsOf(deep);
    expect(error).toMatchObject({ code: DiagramIssueCode.ContextTooDeep, line: 2, path: `$.nodes${'.a'.repeat(MAX_JSON_DEPTH - 1)}` });
    expect(error.message).toMatch(/nested more than 64 levels deep/);
    expect(errorsOf(`{"nodes":{"a":{"type":"text","value":${'['.repeat(MAX_JSON_DEPTH - 3)}${']'.repeat(MAX_JSON_DEPTH - 3)}}}}`).map((e) => e.code)).not.toContain(DiagramIssueCode.ContextTooDeep);
  });
  it('refuses strings that decode to a NUL or an unpaired surrogate, keys included, with their path and line', () => {
    const errors = errorsOf('{\n  "name": "topo\\u0000logy",\n  "nodes": {\n    "a\\ud800": {"type": "text", "value": "\\ud83d\\ude00"}\n  }\n}');
    expect(errors.filter((error) => error.code === DiagramIssueCode.UnstorableCharacter)).toEqual([
      expect.objectContaining({ path: '$.name', line: 2, column: 11, message: expect.stringContaining('NUL') }),
      expect.objectContaining({ path: '$.nodes["a\\ud800"]', line: 4, column: 5, message: expect.stringContaining('U+D800') }),
    ]);
  });
  it('accepts what JSON.parse accepts and returns the context', () => {
    const text = '{"name":"n","nodes":{"a":{"type":"text","value":"\\u00e9\\n"}},"edges":{},"groups":{}}';
    expect(parseContextJson(text)).toEqual({ context: JSON.parse(text), errors: [], warnings: [] });
  });
});

describe('parseContextJson: keys JavaScript treats specially', () => {
  it('keeps a node keyed "__proto__" (a valid node id) as a key, and applies it', () => {
    const { context, errors } = parseContextJson('{"nodes": {"__proto__": {"name": "Proto"}, "constructor": {"name": "Ctor"}}}');
    expect(errors).toEqual([]);
    expect(Object.keys(context?.nodes ?? {})).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(context?.nodes)).toBe(Object.prototype);
    const graph = { kind: 'flowchart' as const, nodes: [{ id: '__proto__', label: 'p' }, { id: 'constructor', label: 'c' }], edges: [], groups: [] };
    expect(applyContext(graph, context ?? {}).graph.nodes.map((n) => n.overlay?.name)).toEqual(['Proto', 'Ctor']);
  });
});

describe('parseContextJson: validation of every field', () => {
  it('reports all errors at once, each with its JSON path and position', () => {
    const result = messagesOf({
      nodes: {
        api: {
          type: 'box',
          style: { fill: 'blu', stroke: '#12', strokeWidth: '2', borderRadius: -1, strokeStyle: 'wavy', borderAnimationEnabled: 'yes' },
        },
      },
    });
    expect(result.context).toBeUndefined();
    expect(result.errors.map((e) => e.path)).toEqual([
      '$.nodes.api.type',
      '$.nodes.api.style.fill',
      '$.nodes.api.style.stroke',
      '$.nodes.api.style.strokeWidth',
      '$.nodes.api.style.borderRadius',
      '$.nodes.api.style.strokeStyle',
      '$.nodes.api.style.borderAnimationEnabled',
    ]);
    expect(result.errors[0]).toMatchObject({ line: 4, column: 15, expected: expect.arrayContaining(['shape', 'db-table']) });
  });

  it('accepts valid colours, numbers and enums', () => {
    const result = messagesOf({
      nodes: { a: { type: 'shape', shape: 'cylinder', style: { fill: '#fff', stroke: 'rgb(1, 2, 3)', strokeWidth: 2, borderRadius: 4, strokeStyle: 'dashed', borderAnimationEnabled: true } } },
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('restricts shape to type=shape and checks the shape enum', () => {
    const result = messagesOf({ nodes: { a: { type: 'text', shape: 'cylinder' }, b: { type: 'shape', shape: 'cylindre' } } });
    expect(result.errors.map((e) => e.path)).toEqual(['$.nodes.a.shape', '$.nodes.b.shape']);
    expect(result.errors[0].message).toMatch(/applies only to nodes of type shape/);
  });

  it('checks data fields and suggests the exact input type label', () => {
    const result = messagesOf({
      nodes: { a: { data: { Owner: { type: 'TextInput', value: 'x' }, Tags: { type: 'Tag Input', value: ['a', 1] }, Size: { value: 3 }, Pick: { type: 'Dropdown', options: 'a' } } } },
    });
    const byPath = Object.fromEntries(result.errors.map((e) => [e.path, e]));
    expect(byPath['$.nodes.a.data.Owner.type'].hint).toBe('did you mean "Text Input"?');
    expect(byPath['$.nodes.a.data.Tags.value'].message).toMatch(/array of strings/);
    expect(byPath['$.nodes.a.data.Size'].message).toMatch(/"type" is required/);
    expect(byPath['$.nodes.a.data.Pick.options'].message).toMatch(/expected an array/);
    expect(result.errors).toHaveLength(4);
  });

  it('checks table, cloud, src, animatedIcon, componentId and dbConfig', () => {
    const result = messagesOf({
      nodes: {
        t: { type: 'table', table: { columns: ['a', 2], rows: [['x'], 'y'] } },
        c: { type: 'cloud', cloud: 1, service: 'S3' },
        i: { type: 'image', src: 'javascript:alert(1)' },
        g: { type: 'gif', animatedIcon: false },
        k: { type: 'component', componentId: 7 },
        d: { type: 'data-source', dbConfig: { serviceName: 'svc', tableName: '' } },
      },
    });
    expect(result.errors.map((e) => e.path)).toEqual([
      '$.nodes.t.table.columns[1]',
      '$.nodes.t.table.rows[1]',
      '$.nodes.c.cloud',
      '$.nodes.i.src',
      '$.nodes.g.animatedIcon',
      '$.nodes.k.componentId',
      '$.nodes.d.dbConfig',
    ]);
    expect(result.errors[6].message).toMatch(/"databaseName" is required/);
  });

  it('checks edges, markers and groups, naming an array where an object belongs', () => {
    const result = messagesOf({
      edges: { 'a-b': { label: 1, style: { stroke: 'nope', strokeStyle: 'solid' }, markerStart: { color: 'red' }, markerEnd: { type: 'arrow', color: 'bad' } } },
      groups: { core: ['a', 'b'], ok: { name: 'Ok', nodes: ['a', 3] } },
    });
    expect(result.errors.map((e) => e.path)).toEqual([
      '$.edges["a-b"].label',
      '$.edges["a-b"].style.stroke',
      '$.edges["a-b"].markerStart',
      '$.edges["a-b"].markerEnd.color',
      '$.groups.core',
      '$.groups.ok.nodes[1]',
    ]);
    expect(result.errors[4].message).toMatch(/expected a group \(an object\), found an array/);
  });

  it('warns about unknown properties and misplaced type-specific ones instead of dropping them silently', () => {
    const result = messagesOf({ title: 'x', nodes: { a: { type: 'shape', colour: 'red', value: 'v' } } });
    expect(result.errors).toEqual([]);
    expect(result.context).toBeDefined();
    expect(result.warnings.map((w) => [w.path, w.code])).toEqual([
      ['$.title', DiagramIssueCode.ContextUnknownProperty],
      ['$.nodes.a.colour', DiagramIssueCode.ContextUnknownProperty],
      ['$.nodes.a.value', DiagramIssueCode.ContextInvalidValue],
    ]);
  });

  it('rejects a document that is not an object', () => {
    expect(errorsOf('[]')[0]).toMatchObject({ path: '$', message: expect.stringMatching(/found an array/) });
  });
});
