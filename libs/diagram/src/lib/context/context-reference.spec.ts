import Ajv from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CONTEXT_OBJECTS,
  contextJsonSchema,
  contextReferenceMarkdown,
  EXAMPLE_CONTEXT,
  INPUT_TYPE_EXAMPLES,
  NODE_TYPE_EXAMPLES,
  type ContextObjectName,
} from './context-reference';
import { INPUT_TYPE_LABELS, NODE_TYPES, TYPE_SPECIFIC_FIELDS } from './context-types';
import { parseContextJson } from './parse-context';
import { checkedContextFields } from './validate-context';

const ROOT = join(__dirname, '../../../../..');
const validateWithSchema = new Ajv({ allErrors: true, strict: true }).compile(contextJsonSchema());

/** Both judges of a context: the validator (errors and warnings) and the JSON Schema. */
function judged(context: unknown): { validator: string[]; schema: boolean } {
  const result = parseContextJson(JSON.stringify(context));
  return { validator: [...result.errors, ...result.warnings].map((issue) => issue.message), schema: validateWithSchema(context) };
}

/** A context holding `value` as field `name` of an object of kind `object`, everything around it valid. */
function placed(object: ContextObjectName, name: string, value: unknown): unknown {
  const one = { [name]: value };
  switch (object) {
    case 'context':
      return one;
    case 'node': {
      const type = name === 'type' ? value : TYPE_SPECIFIC_FIELDS[name]?.[0];
      return { nodes: { n: { ...(type ? { type } : {}), ...one } } };
    }
    case 'nodeStyle':
      return { nodes: { n: { style: one } } };
    case 'dataField':
      return { nodes: { n: { data: { Field: { type: 'Dropdown', ...one } } } } };
    case 'table':
      return { nodes: { n: { type: 'table', table: one } } };
    case 'dbConfig':
      return { nodes: { n: { type: 'db-table', dbConfig: { serviceName: 's', databaseName: 'd', tableName: 't', ...one } } } };
    case 'edge':
      return { edges: { 'a-b': one } };
    case 'edgeStyle':
      return { edges: { 'a-b': { style: one } } };
    case 'marker':
      return { edges: { 'a-b': { markerEnd: { type: 'arrow', ...one } } } };
    case 'group':
      return { groups: { g: one } };
  }
}

describe('the context reference (docs/context-reference.md, the JSON Schema) against the validator', () => {
  it('documents exactly the fields the validator checks, with the same required ones', () => {
    const checked = checkedContextFields();
    const documented = Object.fromEntries(
      Object.entries(CONTEXT_OBJECTS).map(([name, doc]) => [name, { fields: doc.fields.map((field) => field.name).sort(), required: doc.fields.filter((field) => field.required).map((field) => field.name).sort() }]),
    );
    const fromValidator = Object.fromEntries(Object.entries(checked).map(([name, table]) => [name, { fields: [...(table?.fields ?? [])].sort(), required: [...(table?.required ?? [])].sort() }]));
    expect(documented).toEqual(fromValidator);
  });

  it.each(Object.entries(CONTEXT_OBJECTS).flatMap(([object, doc]) => doc.fields.map((field) => [object, field.name, field.example] as const)))(
    'the example of %s.%s passes the validator and the schema',
    (object, name, example) => {
      expect(judged(placed(object as ContextObjectName, name, example))).toEqual({ validator: [], schema: true });
    },
  );

  it('has an example of every data-field input type and every node type, each valid', () => {
    expect(Object.keys(INPUT_TYPE_EXAMPLES).sort()).toEqual([...INPUT_TYPE_LABELS].sort());
    expect(Object.keys(NODE_TYPE_EXAMPLES).sort()).toEqual([...NODE_TYPES].sort());
    const data = Object.fromEntries(INPUT_TYPE_LABELS.map((type) => [type, { type, ...INPUT_TYPE_EXAMPLES[type] }]));
    expect(judged({ nodes: { n: { data } } })).toEqual({ validator: [], schema: true });
    expect(judged({ nodes: NODE_TYPE_EXAMPLES })).toEqual({ validator: [], schema: true });
    expect(judged(EXAMPLE_CONTEXT)).toEqual({ validator: [], schema: true });
  });

  it('validates the fixture contexts with the JSON Schema (and the validator agrees)', () => {
    const dir = join(ROOT, 'apps/cli/test/fixtures/sample-repo/.service/diagrams');
    const files = readdirSync(dir).filter((file) => file.endsWith('.context.json'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const context = JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
      expect({ file, ...judged(context) }).toEqual({ file, validator: [], schema: true });
    }
  });

  it.each<[string, unknown]>([
    ['an unknown node type', { nodes: { a: { type: 'servce' } } }],
    ['a data field without type', { nodes: { a: { data: { Owner: { value: 'x' } } } } }],
    ['a data field type that is not a label', { nodes: { a: { data: { Owner: { type: 'TextInput' } } } } }],
    ['a negative stroke width', { edges: { 'a-b': { style: { strokeWidth: -1 } } } }],
    ['a marker without type', { edges: { 'a-b': { markerEnd: { color: '#333' } } } }],
    ['an incomplete dbConfig', { nodes: { a: { type: 'db-table', dbConfig: { serviceName: 's' } } } }],
    ['rows that are not arrays', { nodes: { a: { type: 'table', table: { rows: ['x'] } } } }],
    ['groups as an array', { groups: [{ name: 'x' }] }],
    ['a relative image URL', { nodes: { a: { type: 'image', src: 'logo.png' } } }],
  ])('both refuse %s', (_name, context) => {
    const result = judged(context);
    expect(result.schema).toBe(false);
    expect(parseContextJson(JSON.stringify(context)).errors.length).toBeGreaterThan(0);
  });

  it('docs/context-reference.md is the generated reference (run libs/diagram/scripts/generate-context-reference.ts after a change)', () => {
    expect(readFileSync(join(ROOT, 'docs/context-reference.md'), 'utf8')).toBe(contextReferenceMarkdown());
  });
});
