import { INPUT_TYPE_LABELS, NODE_TYPES, SHAPES, STROKE_STYLES, TYPE_SPECIFIC_FIELDS, type InputTypeLabel, type NodeType } from './context-types';

/**
 * The context file described for people and editors: every object, its fields with their type, meaning and an
 * example, the enums (taken from context-types.ts, the lists the validator checks against) and an example of every
 * data-field input type and every node type. docs/context-reference.md and the JSON Schema served at
 * /schemas/context.v1.json are generated from it; context-reference.spec.ts fails when the validator's fields
 * (validate-context.ts) and these differ, or when an example here does not pass the validator.
 */

/** The URL path the server serves the JSON Schema at (public, cacheable). */
export const CONTEXT_SCHEMA_PATH = '/schemas/context.v1.json';

/** The copy `service-cli init` writes beside the context files, which name it in `"$schema"`. */
export const CONTEXT_SCHEMA_FILE = 'context.v1.schema.json';

export type ContextObjectName = 'context' | 'node' | 'nodeStyle' | 'dataField' | 'table' | 'dbConfig' | 'edge' | 'edgeStyle' | 'marker' | 'group';

export type FieldType =
  | { kind: 'string' }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'color' }
  | { kind: 'url' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'object'; of: ContextObjectName }
  | { kind: 'map'; of: ContextObjectName; key: string }
  | { kind: 'stringArray' }
  | { kind: 'rows' }
  | { kind: 'dataValue' }
  | { kind: 'array' };

export interface FieldDoc {
  name: string;
  type: FieldType;
  description: string;
  example: unknown;
  required?: boolean;
}

export interface ObjectDoc {
  title: string;
  /** Where the object sits, as a JSON path pattern. */
  at: string;
  description: string;
  fields: FieldDoc[];
}

const string = { kind: 'string' } as const;
const number = { kind: 'number' } as const;
const boolean = { kind: 'boolean' } as const;
const color = { kind: 'color' } as const;

/** "`type=cloud` only" from TYPE_SPECIFIC_FIELDS, so the note cannot disagree with the validator's rule. */
const onlyFor = (field: string): string => {
  const types = TYPE_SPECIFIC_FIELDS[field];
  return types ? ` Only for ${types.map((type) => `\`type: ${type}\``).join(' and ')}.` : '';
};

export const CONTEXT_OBJECTS: Record<ContextObjectName, ObjectDoc> = {
  context: {
    title: 'The context file',
    at: '$',
    description: 'One JSON object (strict JSON: no comments, no trailing commas, double-quoted keys). Every key is optional.',
    fields: [
      { name: '$schema', type: string, description: 'The JSON Schema editors use to complete and check this file (`service-cli init` writes it). Ignored by the service.', example: `./${CONTEXT_SCHEMA_FILE}` },
      { name: 'name', type: string, description: 'Name of the context.', example: 'Payments topology' },
      { name: 'description', type: string, description: 'What the diagram shows.', example: 'Services and stores of the payments team.' },
      { name: 'nodes', type: { kind: 'map', of: 'node', key: 'node id' }, description: 'Overlays keyed by Mermaid node id, exactly as written in the diagram (case-sensitive): flowchart vertex ids, state names, participant ids, C4 aliases. A key that matches no node is a warning.', example: { api: { type: 'shape', shape: 'hexagon' } } },
      { name: 'edges', type: { kind: 'map', of: 'edge', key: '"<source>-<target>"' }, description: 'Overlays keyed by `"<source>-<target>"` in the direction of the Mermaid link (`api --> db` is `"api-db"`; `"db-api"` does not match it).', example: { 'api-db': { label: 'SQL' } } },
      { name: 'groups', type: { kind: 'map', of: 'group', key: 'group id' }, description: 'Groups keyed by group id: a Mermaid subgraph (or composite state, box, boundary) of that id gets the name; another id makes a new group.', example: { core: { name: 'Core', nodes: ['api', 'db'] } } },
    ],
  },
  node: {
    title: 'Node overlay',
    at: '$.nodes.<node id>',
    description: 'How one node is shown and what is known about it. Fields marked "Only for" belong to those node types: `shape` on another type is an error, the others a warning.',
    fields: [
      { name: 'type', type: { kind: 'enum', values: NODE_TYPES }, description: 'What the node is; decides which of the fields below apply.', example: 'data-source' },
      { name: 'name', type: string, description: 'Display name (the Mermaid label otherwise).', example: 'Payments API' },
      { name: 'data', type: { kind: 'map', of: 'dataField', key: 'field label' }, description: 'Metadata fields keyed by the label shown in the dashboard.', example: { Owner: { type: 'Text Input', value: 'payments-team' } } },
      { name: 'style', type: { kind: 'object', of: 'nodeStyle' }, description: 'Visual style.', example: { fill: '#eef6ff', strokeStyle: 'dashed' } },
      { name: 'shape', type: { kind: 'enum', values: SHAPES }, description: `The drawn shape.${onlyFor('shape')}`, example: 'hexagon' },
      { name: 'value', type: string, description: `The text shown, or the code.${onlyFor('value')}`, example: 'SELECT * FROM ledger' },
      { name: 'table', type: { kind: 'object', of: 'table' }, description: `A small table drawn in the node.${onlyFor('table')}`, example: { columns: ['Limit', 'Value'], rows: [['Requests/s', '200']] } },
      { name: 'cloud', type: string, description: `Cloud provider label.${onlyFor('cloud')}`, example: 'AWS' },
      { name: 'service', type: string, description: `Cloud service label.${onlyFor('service')}`, example: 'SQS' },
      { name: 'src', type: { kind: 'url' }, description: `Image address: an absolute http(s) URL or a data: URL.${onlyFor('src')}`, example: 'https://example.com/logo.png' },
      { name: 'animatedIcon', type: string, description: `Name of an animated icon (an alternative to \`src\` for a gif).${onlyFor('animatedIcon')}`, example: 'spinner' },
      { name: 'componentId', type: string, description: `Id of a component in your component catalogue.${onlyFor('componentId')}`, example: 'payments-api' },
      { name: 'dbConfig', type: { kind: 'object', of: 'dbConfig' }, description: `The database (and table) the node stands for.${onlyFor('dbConfig')}`, example: { serviceName: 'payments', databaseName: 'ledger', tableName: 'entries' } },
    ],
  },
  nodeStyle: {
    title: 'Node style',
    at: '$.nodes.<node id>.style',
    description: 'Colours are `#rgb`, `#rrggbb` (with or without alpha), `rgb(…)`, `rgba(…)`, `hsl(…)`, `hsla(…)` or a CSS colour name.',
    fields: [
      { name: 'fill', type: color, description: 'Background colour.', example: '#eef6ff' },
      { name: 'stroke', type: color, description: 'Border colour.', example: 'steelblue' },
      { name: 'strokeWidth', type: number, description: 'Border width in pixels (0 or more).', example: 2 },
      { name: 'borderRadius', type: number, description: 'Corner radius in pixels (0 or more).', example: 8 },
      { name: 'strokeStyle', type: { kind: 'enum', values: STROKE_STYLES }, description: 'Border line.', example: 'dashed' },
      { name: 'borderAnimationEnabled', type: boolean, description: 'Animate the border.', example: true },
    ],
  },
  dataField: {
    title: 'Data field',
    at: '$.nodes.<node id>.data.<field label>',
    description: 'One metadata field. See "Data-field input types" below for an example of every type.',
    fields: [
      { name: 'type', type: { kind: 'enum', values: INPUT_TYPE_LABELS }, description: 'The input type label, exactly as listed (`Text Input`, not `TextInput`).', example: 'Dropdown', required: true },
      { name: 'value', type: { kind: 'dataValue' }, description: 'The value: a string, a number, or an array of strings.', example: 'gold' },
      { name: 'options', type: { kind: 'array' }, description: 'The choices of a selectable type (Dropdown, Multi Select, Search Select, Checkbox Group).', example: ['bronze', 'silver', 'gold'] },
    ],
  },
  table: {
    title: 'Table',
    at: '$.nodes.<node id>.table',
    description: 'For `type: table`.',
    fields: [
      { name: 'columns', type: { kind: 'stringArray' }, description: 'Column headings.', example: ['Limit', 'Value'] },
      { name: 'rows', type: { kind: 'rows' }, description: 'Rows, each an array of strings.', example: [['Requests/s', '200'], ['Burst', '50']] },
    ],
  },
  dbConfig: {
    title: 'Database link (dbConfig)',
    at: '$.nodes.<node id>.dbConfig',
    description: 'For `type: data-source` and `type: db-table`. All three fields are required; the database is matched by name.',
    fields: [
      { name: 'serviceName', type: string, description: 'The service that owns the database.', example: 'payments', required: true },
      { name: 'databaseName', type: string, description: 'Must be the `name` of a database in `.service.yaml` synced together with this diagram.', example: 'ledger', required: true },
      { name: 'tableName', type: string, description: 'The table in that database; an empty string for the database as a whole.', example: 'entries', required: true },
    ],
  },
  edge: {
    title: 'Edge overlay',
    at: '$.edges["<source>-<target>"]',
    description: 'Applies to every Mermaid link from source to target. When an id contains `-`, every split of the key is tried; a key that reads two ways is an error.',
    fields: [
      { name: 'label', type: string, description: 'Text on the edge (the Mermaid label otherwise).', example: 'SQL' },
      { name: 'style', type: { kind: 'object', of: 'edgeStyle' }, description: 'Line style.', example: { stroke: '#888', strokeStyle: 'dotted' } },
      { name: 'markerStart', type: { kind: 'object', of: 'marker' }, description: 'Marker at the source end.', example: { type: 'circle' } },
      { name: 'markerEnd', type: { kind: 'object', of: 'marker' }, description: 'Marker at the target end.', example: { type: 'arrow', color: '#333' } },
    ],
  },
  edgeStyle: {
    title: 'Edge style',
    at: '$.edges["<source>-<target>"].style',
    description: 'Colours as for node styles.',
    fields: [
      { name: 'stroke', type: color, description: 'Line colour.', example: '#888' },
      { name: 'strokeWidth', type: number, description: 'Line width in pixels (0 or more).', example: 2 },
      { name: 'strokeStyle', type: { kind: 'enum', values: STROKE_STYLES }, description: 'Line pattern.', example: 'dotted' },
      { name: 'borderAnimationEnabled', type: boolean, description: 'Animate the line.', example: true },
    ],
  },
  marker: {
    title: 'Marker',
    at: '$.edges["<source>-<target>"].markerStart / markerEnd',
    description: 'An end of an edge.',
    fields: [
      { name: 'type', type: string, description: 'The marker, for example `arrow`.', example: 'arrow', required: true },
      { name: 'color', type: color, description: 'Marker colour.', example: '#333' },
    ],
  },
  group: {
    title: 'Group',
    at: '$.groups.<group id>',
    description: 'A group id that is a node id is an error; so is a member that is not a node or group id.',
    fields: [
      { name: 'name', type: string, description: 'Display name of the group.', example: 'Core' },
      { name: 'nodes', type: { kind: 'stringArray' }, description: 'Member node (or group) ids, as in the diagram.', example: ['api', 'db'] },
    ],
  },
};

/** An example of every data-field input type: what `value` (and `options`) look like for it. */
export const INPUT_TYPE_EXAMPLES: Record<InputTypeLabel, { value?: string | number | string[]; options?: unknown[] }> = {
  'Text Input': { value: 'payments-team' },
  'URL Input': { value: 'https://runbooks.example.com/payments' },
  'Number Input': { value: 3 },
  'Text Editor': { value: 'Retries three times, then parks the message.' },
  'Date Picker': { value: '2026-03-31' },
  Dropdown: { value: 'gold', options: ['bronze', 'silver', 'gold'] },
  'Multi Select': { value: ['eu-west-1', 'us-east-1'], options: ['eu-west-1', 'us-east-1', 'ap-south-1'] },
  'Boolean Toggle': { value: 'true' },
  'Link or File Upload': { value: 'https://wiki.example.com/payments/architecture.pdf' },
  'Rich Text Editor': { value: '<p>Owned by <b>payments</b>.</p>' },
  'Code Editor': { value: 'retry:\n  attempts: 3' },
  'Key-Value List': { value: ['timeout=30s', 'pool=20'] },
  'Tag Input': { value: ['pci', 'tier-1'] },
  'Date Range Picker': { value: ['2026-01-01', '2026-06-30'] },
  'Color Picker': { value: '#0a7cff' },
  Slider: { value: 75 },
  'File Upload': { value: 'https://files.example.com/payments/runbook.pdf' },
  'Search Select': { value: 'ledger', options: ['ledger', 'billing', 'refunds'] },
  'Checkbox Group': { value: ['encrypted', 'backed-up'], options: ['encrypted', 'backed-up', 'replicated'] },
};

/** A node overlay of every node type, with the fields that belong to it. */
export const NODE_TYPE_EXAMPLES: Record<NodeType, Record<string, unknown>> = {
  shape: { type: 'shape', shape: 'hexagon', name: 'Payments API', style: { fill: '#eef6ff', stroke: 'steelblue', strokeWidth: 2 } },
  text: { type: 'text', value: 'All traffic enters through the gateway.' },
  code: { type: 'code', value: 'POST /payments {"amount": 1200}' },
  table: { type: 'table', table: { columns: ['Limit', 'Value'], rows: [['Requests/s', '200'], ['Burst', '50']] } },
  comment: { type: 'comment', name: 'Decided in ADR-12' },
  cloud: { type: 'cloud', cloud: 'AWS', service: 'SQS' },
  image: { type: 'image', src: 'https://example.com/logo.png' },
  gif: { type: 'gif', animatedIcon: 'spinner' },
  component: { type: 'component', componentId: 'payments-api' },
  'data-source': { type: 'data-source', dbConfig: { serviceName: 'payments', databaseName: 'ledger', tableName: '' } },
  'db-table': { type: 'db-table', dbConfig: { serviceName: 'payments', databaseName: 'ledger', tableName: 'entries' } },
};

/** The node id of each node type in the example diagram. */
const EXAMPLE_IDS: Record<NodeType, string> = {
  shape: 'api',
  text: 'note',
  code: 'request',
  table: 'limits',
  comment: 'adr',
  cloud: 'queue',
  image: 'logo',
  gif: 'status',
  component: 'checkout',
  'data-source': 'ledger',
  'db-table': 'entries',
};

/** The example topology (`service-cli init --example` writes it with EXAMPLE_CONTEXT): one node of every node type. */
export const EXAMPLE_MERMAID = `flowchart LR
  subgraph core [Payments core]
    api[Payments API] --> ledger[(Ledger)]
    ledger --> entries[Entries]
  end
  checkout[Checkout] --> api
  api --> queue>Payment events]
  note[About traffic] -.- checkout
  request[Sample request] -.- api
  limits[Rate limits] -.- api
  adr[Why a ledger] -.- ledger
  logo[Logo] -.- checkout
  status[Status] -.- queue
`;

/** The example context of EXAMPLE_MERMAID: every node type, data fields, edge overlays, a named and a new group. */
export const EXAMPLE_CONTEXT = {
  $schema: `./${CONTEXT_SCHEMA_FILE}`,
  name: 'Payments topology',
  description: 'Every node type of the context file, on a small payments service.',
  nodes: {
    ...Object.fromEntries(NODE_TYPES.map((type) => [EXAMPLE_IDS[type], NODE_TYPE_EXAMPLES[type]])),
    [EXAMPLE_IDS.shape]: {
      ...NODE_TYPE_EXAMPLES.shape,
      data: {
        Owner: { type: 'Text Input', ...INPUT_TYPE_EXAMPLES['Text Input'] },
        Tier: { type: 'Dropdown', ...INPUT_TYPE_EXAMPLES.Dropdown },
        Tags: { type: 'Tag Input', ...INPUT_TYPE_EXAMPLES['Tag Input'] },
        Runbook: { type: 'URL Input', ...INPUT_TYPE_EXAMPLES['URL Input'] },
      },
    },
  },
  edges: {
    'api-ledger': { label: 'SQL', style: { stroke: '#555', strokeWidth: 2 }, markerEnd: { type: 'arrow', color: '#555' } },
    'api-queue': { label: 'publishes', style: { strokeStyle: 'dashed', borderAnimationEnabled: true } },
  },
  groups: {
    core: { name: 'Payments core' },
    notes: { name: 'Notes', nodes: ['note', 'request', 'limits', 'adr'] },
  },
};



type JsonSchema = Record<string, unknown>;

function fieldSchema(field: FieldDoc): JsonSchema {
  const type = field.type;
  const described = (schema: JsonSchema): JsonSchema => ({ ...schema, description: field.description });
  switch (type.kind) {
    case 'string':
      return described({ type: 'string' });
    case 'number':
      return described({ type: 'number', minimum: 0 });
    case 'boolean':
      return described({ type: 'boolean' });
    case 'color':
      return described({ type: 'string', examples: [field.example] });
    case 'url':
      return described({ type: 'string', pattern: '^(https?:|data:)' });
    case 'enum':
      return described({ enum: [...type.values] });
    case 'object':
      return described({ $ref: `#/definitions/${type.of}` });
    case 'map':
      return described({ type: 'object', additionalProperties: { $ref: `#/definitions/${type.of}` } });
    case 'stringArray':
      return described({ type: 'array', items: { type: 'string' } });
    case 'rows':
      return described({ type: 'array', items: { type: 'array', items: { type: 'string' } } });
    case 'dataValue':
      return described({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { type: 'string' } }] });
    case 'array':
      return described({ type: 'array' });
  }
}

function objectSchema(doc: ObjectDoc): JsonSchema {
  const required = doc.fields.filter((field) => field.required).map((field) => field.name);
  return {
    title: doc.title,
    description: doc.description,
    type: 'object',
    // Unknown properties are warnings for the validator; editors show them the same way.
    additionalProperties: false,
    ...(required.length ? { required } : {}),
    properties: Object.fromEntries(doc.fields.map((field) => [field.name, fieldSchema(field)])),
  };
}

/**
 * The JSON Schema (draft-07) of a context file, for editors (`"$schema"`) and the server's /schemas/context.v1.json
 * (`id`: where it is served, as its `$id`).
 * It states the structure and the enums; what needs the diagram (ids that match, the database names of the sync) and
 * colour names are left to the validator.
 */
export function contextJsonSchema(id?: string): JsonSchema {
  const { context, ...definitions } = CONTEXT_OBJECTS;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    ...(id ? { $id: id } : {}),
    ...objectSchema(context),
    title: 'System Context Service: context file (version 1)',
    definitions: Object.fromEntries(Object.entries(definitions).map(([name, doc]) => [name, objectSchema(doc)])),
  };
}

function typeText(type: FieldType): string {
  switch (type.kind) {
    case 'enum':
      return type.values.length > 8 ? 'one of the values below' : type.values.map((value) => `\`${value}\``).join(', ');
    case 'object':
      return `object, see "${CONTEXT_OBJECTS[type.of].title}"`;
    case 'map':
      return `object keyed by ${type.key}`;
    case 'stringArray':
      return 'array of strings';
    case 'rows':
      return 'array of arrays of strings';
    case 'dataValue':
      return 'string, number or array of strings';
    case 'url':
      return 'URL string';
    case 'color':
      return 'colour string';
    case 'number':
      return 'number ≥ 0';
    default:
      return type.kind;
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
const json = (value: unknown) => `\`${JSON.stringify(value)}\``;
const block = (value: unknown) => ['```json', JSON.stringify(value, null, 2), '```'].join('\n');

/** docs/context-reference.md, generated (libs/diagram/scripts/generate-context-reference.ts). */
export function contextReferenceMarkdown(): string {
  const lines: string[] = [
    '# Context file reference',
    '',
    '<!-- Generated from libs/diagram/src/lib/context/context-reference.ts by',
    '     `npx ts-node -T -P libs/diagram/tsconfig.spec.json libs/diagram/scripts/generate-context-reference.ts`.',
    '     Do not edit by hand: libs/diagram/src/lib/context/context-reference.spec.ts fails when this file differs. -->',
    '',
    'A context file (`*.context.json`, named by `contextPath` in `.service.yaml`) adds what a Mermaid diagram cannot say:',
    'what each node is (a database, a queue in a cloud, a table), metadata fields, styles, edge labels and markers, and',
    'groups. `service-cli sync --dry-run` and `service-cli inspect <file.mmd> --context <file.json>` check it with the',
    "service's own validator; every problem comes with its line, column and JSON path.",
    '',
    `Editors complete and check it with the JSON Schema the server serves at \`{SERVICE_PUBLIC_URL}${CONTEXT_SCHEMA_PATH}\``,
    `(public; \`service-cli init\` also writes a copy, \`.service/diagrams/${CONTEXT_SCHEMA_FILE}\`, and points the starter`,
    'context\'s `"$schema"` at it). The schema checks structure and values; the validator also checks what needs the',
    'diagram: keys that match no node id (a warning; `strict: true` in `.service.yaml` makes warnings fail the sync),',
    'edge keys in the wrong direction, group members, and `dbConfig.databaseName` against the databases synced.',
    '',
    '## A complete example',
    '',
    'One node of every node type (`service-cli init --example` writes a repository with these two files, a database',
    'for the `dbConfig` nodes and a `.service.yaml` naming them; it passes `service-cli sync --dry-run`):',
    '',
    '```mermaid',
    EXAMPLE_MERMAID.trimEnd(),
    '```',
    '',
    block(EXAMPLE_CONTEXT),
    '',
  ];
  const order: ContextObjectName[] = ['context', 'node', 'nodeStyle', 'dataField', 'table', 'dbConfig', 'edge', 'edgeStyle', 'marker', 'group'];
  for (const name of order) {
    const doc = CONTEXT_OBJECTS[name];
    lines.push(`## ${doc.title}`, '', `At \`${doc.at}\`. ${doc.description}`, '', '| Field | Type | Required | Meaning | Example |', '|---|---|---|---|---|');
    for (const field of doc.fields) {
      lines.push(`| \`${field.name}\` | ${cell(typeText(field.type))} | ${field.required ? 'yes' : 'no'} | ${cell(field.description)} | ${cell(json(field.example))} |`);
    }
    lines.push('');
    if (name === 'node') {
      lines.push('Node types (`type`) and an example of each:', '', '| Type | Fields that belong to it | Example |', '|---|---|---|');
      for (const type of NODE_TYPES) {
        const own = Object.entries(TYPE_SPECIFIC_FIELDS).filter(([, types]) => types.includes(type)).map(([field]) => `\`${field}\``);
        lines.push(`| \`${type}\` | ${own.join(', ') || '(none besides the common ones)'} | ${cell(json(NODE_TYPE_EXAMPLES[type]))} |`);
      }
      lines.push('', 'Shapes (`shape`, for `type: shape`): ' + SHAPES.map((shape) => `\`${shape}\``).join(', ') + '.', '');
    }
    if (name === 'dataField') {
      lines.push('### Data-field input types', '', 'Every `type` a data field can have, with an example field:', '', '| Type | Example |', '|---|---|');
      for (const label of INPUT_TYPE_LABELS) lines.push(`| \`${label}\` | ${cell(json({ type: label, ...INPUT_TYPE_EXAMPLES[label] }))} |`);
      lines.push('');
    }
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}
