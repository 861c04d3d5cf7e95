import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { exportToMermaid, INPUT_TYPE_LABELS, NODE_TYPES, validateDrawnGraph, type OverlaidGraph, type OverlaidNode } from '@sc/diagram';
import { PanelDriver } from '../../../../../testing/properties-kit';
import { NodePropertiesComponent } from './node-properties.component';

type NodeChange = { previousId: string; node: OverlaidNode };

const graph: OverlaidGraph = {
  kind: 'flowchart',
  nodes: [
    { id: 'api', label: 'API' },
    { id: 'db', label: 'DB' },
  ],
  edges: [{ source: 'api', target: 'db' }],
  groups: [{ id: 'core', label: 'Core', nodes: [] }],
};

function panel(node: OverlaidNode, inGraph: OverlaidGraph = graph): PanelDriver<NodePropertiesComponent, NodeChange> {
  return new PanelDriver(NodePropertiesComponent, { node, graph: inGraph, orgId: 'acme' }, (c) => c.nodeChange, (change) => ['node', change.node]);
}
const lastNode = (driver: PanelDriver<NodePropertiesComponent, NodeChange>) => driver.emitted.at(-1)?.node;

/** Answers the dbConfig picker's pending loads: services, a service's artifacts, a database's tables. */
function answerDatabases(): void {
  const http = TestBed.inject(HttpTestingController);
  for (const request of http.match('/api/v1/orgs/acme/services')) request.flush([{ name: 'payments' }, { name: 'billing' }]);
  for (const request of http.match('/api/v1/orgs/acme/services/payments')) {
    request.flush({ artifacts: [{ kind: 'database-schema', name: 'ledger' }, { kind: 'architecture-diagram', name: 'overview' }] });
  }
  for (const request of http.match((r) => r.url === '/api/v1/orgs/acme/services/payments/databases/ledger')) request.flush({ tables: [{ name: 'entries' }, { name: 'accounts' }], collections: [] });
}

/** Picks in the dbConfig picker, answering the load the pick starts. */
async function pickDatabase(driver: PanelDriver<NodePropertiesComponent, NodeChange>, testId: string, text: string): Promise<void> {
  driver.pickNow(testId, text);
  answerDatabases();
  await driver.settle();
}

describe('NodePropertiesComponent', () => {
  it('validates the id live: Mermaid must be able to write it, and no other node or group may have it', async () => {
    const driver = panel({ id: 'api', label: 'API' });
    await driver.expectIdProblems('prop-id', [
      ['', 'required'],
      ['two words', 'letters, digits'],
      ['end', 'keyword'],
      ['db', 'already the id of a node'],
      ['core', 'already the id of a group'],
    ]);
    expect(driver.emitted).toEqual([]);
    // While typing, the problem shows at once but nothing is applied (one rename per commit, not per keystroke).
    const field = driver.el('prop-id');
    field.value = 'db';
    field.dispatchEvent(new Event('input'));
    await driver.settle();
    expect(driver.text('prop-id-error')).toContain('already the id of a node');
    field.value = 'orders';
    field.dispatchEvent(new Event('input'));
    await driver.settle();
    expect(driver.has('prop-id-error')).toBe(false);
    expect(driver.emitted).toEqual([]);
    await driver.type('prop-id', 'orders-api');
    expect(driver.has('prop-id-error')).toBe(false);
    expect(driver.emitted).toEqual([{ previousId: 'api', node: { id: 'orders-api', label: 'API' } }]);
  });

  it('refuses a rename that would make an edge key of the context file ambiguous', async () => {
    const overlay = { style: { strokeStyle: 'dashed' as const } };
    const keyed: OverlaidGraph = {
      kind: 'flowchart',
      nodes: ['a', 'bc', 'a-b', 'c'].map((id) => ({ id, label: id })),
      edges: [
        { source: 'a', target: 'bc', overlay },
        { source: 'a-b', target: 'c', overlay },
      ],
      groups: [],
    };
    expect(validateDrawnGraph(keyed).errors).toEqual([]);
    const driver = panel(keyed.nodes[1], keyed);
    await driver.type('prop-id', 'b-c');
    expect(driver.emitted).toEqual([]);
    expect(driver.text('prop-problems')).toContain('ambiguous');
    await driver.type('prop-id', 'b_c');
    expect(driver.emitted).toEqual([{ previousId: 'bc', node: { id: 'b_c', label: 'bc' } }]);
  });

  it('edits label and name; a label Mermaid would refuse is shown and not emitted', async () => {
    const driver = panel({ id: 'api', label: 'API' });
    await driver.type('prop-name', 'Orders API');
    expect(lastNode(driver)).toEqual({ id: 'api', label: 'API', overlay: { name: 'Orders API' } });
    await driver.type('prop-label', 'Orders<br>API');
    expect(lastNode(driver)?.label).toBe('Orders<br>API');
    const count = driver.emitted.length;
    await driver.type('prop-label', 'a %% comment');
    expect(driver.emitted.length).toBe(count);
    expect(driver.text('prop-problems')).toContain('%%');
    await driver.type('prop-name', '');
    expect(lastNode(driver)).toEqual({ id: 'api', label: 'Orders<br>API' });
  });

  it('changing the type drops the fields of the old type (a shape on a table node would be refused)', async () => {
    const driver = panel({ id: 'api', label: 'API', shape: 'rect', overlay: { type: 'shape', shape: 'hexagon', name: 'Orders' } });
    await driver.select('prop-type', 'table');
    expect(lastNode(driver)).toEqual({ id: 'api', label: 'API', shape: 'rect', overlay: { type: 'table', name: 'Orders' } });
    expect(driver.has('prop-shape')).toBe(false);
    expect(driver.has('table-add-column')).toBe(true);
  });

  it('offers the 11 node types and the 23 shapes; picking a shape replaces the synced Mermaid shape', async () => {
    const driver = panel({ id: 'api', label: 'API', shape: 'rect' });
    expect(await driver.selectOptions('prop-type')).toEqual(['(none)', ...NODE_TYPES]);
    expect((await driver.selectOptions('prop-shape')).length).toBe(24);
    await driver.select('prop-shape', 'cylinder');
    expect(lastNode(driver)).toEqual({ id: 'api', label: 'API', overlay: { type: 'shape', shape: 'cylinder' } });
    await driver.select('prop-shape', '(none)');
    expect(lastNode(driver)).toEqual({ id: 'api', label: 'API', overlay: { type: 'shape' } });
    // Clearing the context shape keeps a synced Mermaid shape.
    const synced = panel({ id: 'db', label: 'DB', shape: 'cyl', overlay: { type: 'shape', shape: 'database' } });
    await synced.select('prop-shape', '(none)');
    expect(lastNode(synced)).toEqual({ id: 'db', label: 'DB', shape: 'cyl', overlay: { type: 'shape' } });
  });

  it('edits the style: colours (text or picker), widths, stroke style and border animation; refuses a bad colour', async () => {
    const driver = panel({ id: 'api', label: 'API' });
    await driver.type('style-fill', '#eef');
    await driver.type('style-stroke-picker', '#1f6feb');
    await driver.type('style-stroke-width', '2');
    await driver.type('style-border-radius', '8');
    await driver.select('style-stroke-style', 'dashed');
    await driver.toggle('style-border-animation');
    expect(lastNode(driver)?.overlay).toEqual({ style: { fill: '#eef', stroke: '#1f6feb', strokeWidth: 2, borderRadius: 8, strokeStyle: 'dashed', borderAnimationEnabled: true } });
    const count = driver.emitted.length;
    await driver.type('style-fill', 'blurple');
    expect(driver.emitted.length).toBe(count);
    expect(driver.host.textContent).toContain('"blurple" is not a colour');
    await driver.type('style-stroke-width', '-1');
    expect(driver.emitted.length).toBe(count);
    expect(driver.text('prop-problems')).toContain('strokeWidth');
    await driver.type('style-fill', '');
    expect(lastNode(driver)?.overlay?.style?.fill).toBeUndefined();
  });

  it('shows the CSS a synced copy carries and can clear it', async () => {
    const driver = panel({ id: 'api', label: 'API', styles: ['fill:#f96', 'stroke:#333'] });
    expect(driver.text('prop-mermaid-styles')).toContain('fill:#f96, stroke:#333');
    await driver.type('style-fill', '#eef');
    expect(lastNode(driver)).toEqual({ id: 'api', label: 'API', styles: ['fill:#f96', 'stroke:#333'], overlay: { style: { fill: '#eef' } } });
    await driver.click('prop-mermaid-styles-clear');
    expect(lastNode(driver)).toEqual({ id: 'api', label: 'API', overlay: { style: { fill: '#eef' } } });
    expect(driver.has('prop-mermaid-styles')).toBe(false);
  });

  it('image src accepts https and data: URLs only', async () => {
    const driver = panel({ id: 'logo', label: 'Logo', overlay: { type: 'image' } });
    await driver.type('prop-src', 'http://insecure.example/a.png');
    expect(driver.emitted).toEqual([]);
    expect(driver.text('prop-problems')).toContain('https://');
    await driver.type('prop-src', 'javascript:alert(1)');
    expect(driver.emitted).toEqual([]);
    await driver.type('prop-src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(lastNode(driver)?.overlay?.src).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('edits table columns and rows', async () => {
    const driver = panel({ id: 't', label: 'T', overlay: { type: 'table' } });
    await driver.click('table-add-column');
    await driver.click('table-add-column');
    await driver.type('table-column-0', 'Name');
    await driver.type('table-column-1', 'Type');
    await driver.click('table-add-row');
    await driver.type('table-cell-0-0', 'id');
    await driver.type('table-cell-0-1', 'uuid');
    await driver.click('table-add-row');
    expect(lastNode(driver)?.overlay?.table).toEqual({ columns: ['Name', 'Type'], rows: [['id', 'uuid'], ['', '']] });
    await driver.click('table-remove-column-0');
    await driver.click('table-remove-row-1');
    expect(lastNode(driver)?.overlay?.table).toEqual({ columns: ['Type'], rows: [['uuid']] });
  });

  it('code nodes: the code and its language (kept as the data field "Language")', async () => {
    const driver = panel({ id: 'c', label: 'C', overlay: { type: 'code' } });
    await driver.type('prop-value', 'SELECT 1;');
    await driver.select('prop-code-language', 'sql');
    expect(lastNode(driver)?.overlay).toEqual({ type: 'code', value: 'SELECT 1;', data: { Language: { type: 'Dropdown', value: 'sql' } } });
    await driver.select('prop-code-language', '(guess)');
    expect(lastNode(driver)?.overlay).toEqual({ type: 'code', value: 'SELECT 1;' });
  });

  it('dbConfig: picks a synced service, one of its databases and a table', async () => {
    const driver = panel({ id: 'entries', label: 'Entries', overlay: { type: 'db-table' } });
    answerDatabases();
    await driver.settle();
    expect(driver.optionsNow('db-service')).toEqual(['payments', 'billing']);
    await pickDatabase(driver, 'db-service', 'payments');
    expect(driver.optionsNow('db-database')).toEqual(['ledger']);
    await pickDatabase(driver, 'db-database', 'ledger');
    // A db-table node needs a table: nothing is emitted before one is picked.
    expect(driver.emitted).toEqual([]);
    expect(driver.optionsNow('db-table')).toEqual(['entries', 'accounts']);
    await pickDatabase(driver, 'db-table', 'entries');
    expect(lastNode(driver)?.overlay).toEqual({ type: 'db-table', dbConfig: { serviceName: 'payments', databaseName: 'ledger', tableName: 'entries' } });
  });

  it('data fields: add, rename (unique, non-empty), change type, reorder and remove', async () => {
    const driver = panel({ id: 'api', label: 'API' });
    await driver.click('data-field-add');
    await driver.click('data-field-add');
    expect(Object.keys(lastNode(driver)?.overlay?.data ?? {})).toEqual(['Field 1', 'Field 2']);
    await driver.type('data-field-0-label', 'Owner');
    await driver.type('data-field-0-value', 'payments-team');
    await driver.type('data-field-1-label', 'Owner');
    expect(driver.text('data-field-1-label-error')).toContain('Another field');
    await driver.type('data-field-1-label', 'constructor');
    expect(driver.text('data-field-1-label-error')).toContain('cannot be a label');
    await driver.type('data-field-1-label', 'Replicas');
    await driver.select('data-field-1-type', 'Number Input');
    await driver.type('data-field-1-value', '6');
    expect(lastNode(driver)?.overlay?.data).toEqual({ Owner: { type: 'Text Input', value: 'payments-team' }, Replicas: { type: 'Number Input', value: 6 } });
    await driver.click('data-field-1-up');
    expect(Object.keys(lastNode(driver)?.overlay?.data ?? {})).toEqual(['Replicas', 'Owner']);
    await driver.click('data-field-0-remove');
    expect(lastNode(driver)?.overlay).toEqual({ data: { Owner: { type: 'Text Input', value: 'payments-team' } } });
    await driver.click('data-field-0-remove');
    expect(lastNode(driver)).toEqual({ id: 'api', label: 'API' });
  });

  it('builds quick successive edits on each other, before the page renders the emitted node', async () => {
    const driver = panel({ id: 'api', label: 'API' });
    const name = driver.el('prop-name');
    name.value = 'Orders';
    name.dispatchEvent(new Event('change'));
    driver.el<HTMLButtonElement>('data-field-add').click();
    driver.el<HTMLButtonElement>('data-field-add').click();
    await driver.settle();
    expect(lastNode(driver)?.overlay).toEqual({ name: 'Orders', data: { 'Field 1': { type: 'Text Input' }, 'Field 2': { type: 'Text Input' } } });
  });

  it('changing a field’s input type carries the value over when it fits', async () => {
    const driver = panel({ id: 'api', label: 'API', overlay: { data: { Count: { type: 'Text Input', value: '3' }, Tags: { type: 'Text Input', value: 'a, b' } } } });
    await driver.select('data-field-0-type', 'Number Input');
    await driver.select('data-field-1-type', 'Tag Input');
    expect(lastNode(driver)?.overlay?.data).toEqual({ Count: { type: 'Number Input', value: 3 }, Tags: { type: 'Tag Input', value: ['a', 'b'] } });
    await driver.select('data-field-0-type', 'Slider');
    expect(lastNode(driver)?.overlay?.data?.['Count']).toEqual({ type: 'Slider', value: 3, options: [0, 100, 1] });
  });
});

describe('Every node type and every input type, built through the panel, passes validateDrawnGraph', () => {
  /** Fills in the fields of one node type the way a user would. */
  const typeFields: Record<(typeof NODE_TYPES)[number], (driver: PanelDriver<NodePropertiesComponent, NodeChange>) => Promise<void>> = {
    shape: (d) => d.select('prop-shape', 'hexagon'),
    text: (d) => d.type('prop-value', 'Some text'),
    code: async (d) => {
      await d.type('prop-value', 'const a = 1;');
      await d.select('prop-code-language', 'typescript');
    },
    table: async (d) => {
      await d.click('table-add-column');
      await d.type('table-column-0', 'Column');
      await d.click('table-add-row');
      await d.type('table-cell-0-0', 'cell');
    },
    comment: (d) => d.type('prop-name', 'A comment'),
    cloud: async (d) => {
      await d.type('prop-cloud', 'AWS');
      await d.type('prop-service', 'S3');
    },
    image: (d) => d.type('prop-src', 'https://img.example/logo.png'),
    gif: async (d) => {
      await d.type('prop-animated-icon', 'spinner');
      await d.type('prop-src', 'https://img.example/spin.gif');
    },
    component: (d) => d.type('prop-component-id', 'checkout-widget'),
    'data-source': async (d) => {
      await pickDatabase(d, 'db-service', 'payments');
      await pickDatabase(d, 'db-database', 'ledger');
    },
    'db-table': async (d) => {
      await pickDatabase(d, 'db-service', 'payments');
      await pickDatabase(d, 'db-database', 'ledger');
      await pickDatabase(d, 'db-table', 'entries');
    },
  };

  /** One value per input type, entered through its editor. */
  async function fillField(d: PanelDriver<NodePropertiesComponent, NodeChange>, i: number, type: string): Promise<void> {
    const p = `data-field-${i}-value`;
    switch (type) {
      case 'Text Input':
      case 'Text Editor':
      case 'Rich Text Editor':
      case 'Code Editor':
        return d.type(p, `${type} value`);
      case 'URL Input':
      case 'Link or File Upload':
        return d.type(p, 'https://wiki.example/page');
      case 'Number Input':
        return d.type(p, '42');
      case 'Date Picker':
        return d.type(p, '2026-11-24');
      case 'Date Range Picker':
        await d.type(`${p}-from`, '2026-11-01');
        return d.type(`${p}-to`, '2026-11-30');
      case 'Dropdown':
        await d.chips(`${p}-options`, 'one', 'two');
        return d.select(p, 'two');
      case 'Multi Select':
        await d.chips(`${p}-options`, 'one', 'two');
        return d.select(p, 'one', 'two');
      case 'Search Select':
        await d.chips(`${p}-options`, 'one', 'two');
        return d.type(p, 'one');
      case 'Checkbox Group':
        await d.chips(`${p}-options`, 'one', 'two');
        return d.check(`${p}-option-1`);
      case 'Boolean Toggle':
        return d.toggle(p);
      case 'Key-Value List':
        await d.click(`${p}-add`);
        await d.type(`${p}-key-0`, 'region');
        return d.type(`${p}-val-0`, 'eu-west-1');
      case 'Tag Input':
        return d.chips(p, 'pci', 'critical');
      case 'Color Picker':
        return d.type(p, '#1f6feb');
      case 'Slider':
        return d.slide(p, 30);
      case 'File Upload':
        return d.chooseFile(`${p}-file`, 'diagram.pdf');
    }
  }

  it('builds one node per type and one field per input type, then validates and exports the graph', async () => {
    const nodes: OverlaidNode[] = [];
    for (const type of NODE_TYPES) {
      const driver = panel({ id: `n_${type.replace('-', '_')}`, label: type });
      // Choosing a database type starts loading the organization's services.
      driver.pickNow('prop-type', type);
      answerDatabases();
      await driver.settle();
      await typeFields[type](driver);
      await driver.type('style-fill', '#eeeeff');
      const node = lastNode(driver) as OverlaidNode;
      expect({ type, overlay: node.overlay?.type }).toEqual({ type, overlay: type });
      nodes.push(node);
    }

    const driver = panel({ id: 'fields', label: 'Fields' });
    for (const [i, type] of INPUT_TYPE_LABELS.entries()) {
      await driver.click('data-field-add');
      await driver.type(`data-field-${i}-label`, type);
      await driver.select(`data-field-${i}-type`, type);
      await fillField(driver, i, type);
    }
    const fields = lastNode(driver) as OverlaidNode;
    const data = fields.overlay?.data ?? {};
    expect(Object.keys(data)).toEqual([...INPUT_TYPE_LABELS]);
    // Every field got a value of the kind the spec allows.
    for (const [label, field] of Object.entries(data)) {
      expect({ label, type: field.type, value: field.value }).toEqual({ label, type: label, value: expect.anything() });
      expect(typeof field.value === 'string' || typeof field.value === 'number' || (Array.isArray(field.value) && field.value.every((v) => typeof v === 'string'))).toBe(true);
    }
    expect(data['Number Input'].value).toBe(42);
    expect(data['Slider'].value).toBe(30);
    expect(data['Boolean Toggle'].value).toBe('true');
    expect(data['Date Range Picker'].value).toEqual(['2026-11-01', '2026-11-30']);
    expect(data['Checkbox Group'].value).toEqual(['two']);

    const drawn: OverlaidGraph = { kind: 'flowchart', direction: 'LR', nodes: [...nodes, fields], edges: [{ source: nodes[0].id, target: fields.id }], groups: [] };
    const checked = validateDrawnGraph(JSON.parse(JSON.stringify(drawn)), '$.graph');
    expect(checked.errors).toEqual([]);
    expect(checked.warnings).toEqual([]);
    const exported = exportToMermaid(drawn);
    expect(Object.keys(exported.context.nodes ?? {})).toHaveLength(NODE_TYPES.length + 1);
  }, 120_000);
});
