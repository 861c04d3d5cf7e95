import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlColumn } from '@sc/contracts';
import { applyContext } from '../lib/apply-context';
import type { ModelInput } from '../lib/canvas/canvas-types';
import { createView } from '../lib/collapse';
import { parseContextJson } from '../lib/context/parse-context';
import type { GraphModel } from '../lib/model';
import type { OverlaidGraph } from '../lib/overlay';

/**
 * The CLI fixture repository's topology (apps/cli/test/fixtures/sample-repo), the diagram the server's and the
 * admin's end-to-end tests sync: its context file uses every node type. The graph below is what the server's Mermaid
 * parse gives for topology.mmd (kept beside it); the context is read from the fixture file itself.
 */
const SAMPLE = join(__dirname, '../../../../apps/cli/test/fixtures/sample-repo');

const TOPOLOGY: GraphModel = {
  kind: 'flowchart',
  direction: 'LR',
  nodes: [
    { id: 'merchant', label: 'Merchant checkout', shape: 'stadium' },
    { id: 'gateway', label: 'API gateway', shape: 'square', parent: 'edge' },
    { id: 'api', label: 'Payments API', shape: 'square', parent: 'core' },
    { id: 'rules', label: 'Fraud rules', shape: 'diamond', parent: 'core' },
    { id: 'worker', label: 'Settlement worker', shape: 'subroutine', parent: 'core' },
    { id: 'ledgerDb', label: 'Ledger DB', shape: 'cylinder' },
    { id: 'ledgerEntries', label: 'ledger.entries', shape: 'square' },
    { id: 'idempotencyKeys', label: 'Idempotency keys', shape: 'cylinder' },
    { id: 'psp', label: 'Card processor', shape: 'square' },
    { id: 'events', label: 'Payment events queue', shape: 'square' },
    { id: 'retryPolicy', label: 'Retry policy', shape: 'square' },
    { id: 'limits', label: 'Limits per merchant', shape: 'square' },
    { id: 'heading', label: 'Payments platform', shape: 'square' },
    { id: 'oncall', label: 'Paged on 5xx above 1 percent', shape: 'square' },
    { id: 'pspLogo', label: 'PSP logo', shape: 'square' },
    { id: 'liveStatus', label: 'Live status', shape: 'square' },
    { id: 'dashboard', label: 'Settlement dashboard', shape: 'square' },
  ],
  groups: [
    { id: 'edge', label: 'Edge', nodes: ['gateway'] },
    { id: 'core', label: 'Payments core', nodes: ['api', 'rules', 'worker'] },
  ],
  edges: [
    { source: 'merchant', target: 'gateway', label: 'HTTPS', type: 'arrow_point', stroke: 'normal' },
    { source: 'gateway', target: 'api', type: 'arrow_point', stroke: 'normal' },
    { source: 'api', target: 'rules', type: 'arrow_point', stroke: 'normal' },
    { source: 'api', target: 'ledgerDb', label: 'SQL', type: 'arrow_point', stroke: 'normal' },
    { source: 'api', target: 'ledgerEntries', type: 'arrow_point', stroke: 'normal' },
    { source: 'api', target: 'idempotencyKeys', type: 'arrow_point', stroke: 'dotted' },
    { source: 'api', target: 'psp', type: 'arrow_point', stroke: 'normal' },
    { source: 'api', target: 'events', type: 'arrow_point', stroke: 'normal' },
    { source: 'events', target: 'worker', type: 'arrow_point', stroke: 'normal' },
    { source: 'worker', target: 'ledgerDb', type: 'arrow_point', stroke: 'normal' },
    { source: 'retryPolicy', target: 'api', type: 'arrow_open', stroke: 'dotted' },
    { source: 'limits', target: 'rules', type: 'arrow_open', stroke: 'dotted' },
    { source: 'oncall', target: 'api', type: 'arrow_open', stroke: 'dotted' },
    { source: 'pspLogo', target: 'psp', type: 'arrow_open', stroke: 'dotted' },
    { source: 'liveStatus', target: 'worker', type: 'arrow_open', stroke: 'dotted' },
    { source: 'dashboard', target: 'worker', type: 'arrow_open', stroke: 'dotted' },
  ],
};

export function fixtureTopology(): OverlaidGraph {
  const parsed = parseContextJson(readFileSync(join(SAMPLE, '.service/diagrams/topology.context.json'), 'utf8'));
  if (!parsed.context) throw new Error(`The fixture context does not parse: ${JSON.stringify(parsed.errors)}`);
  const { graph } = applyContext(TOPOLOGY, parsed.context, { databaseNames: ['ledger', 'idempotency', 'reporting'] });
  return graph;
}

const column = (name: string, type: string, extra: Partial<SqlColumn> = {}): SqlColumn => ({
  name,
  type,
  nullable: false,
  primaryKey: false,
  unique: false,
  default: null,
  references: null,
  ...extra,
});

/** The ledger schema as the databases API answers it for the fixture's ledger.sql (the columns the canvas shows). */
export const FIXTURE_DATABASES: ModelInput['databases'] = new Map([
  [
    'ledger',
    {
      tables: [
        { name: 'accounts', columns: [column('id', 'BIGSERIAL', { primaryKey: true })] },
        {
          name: 'entries',
          columns: [
            column('id', 'BIGSERIAL', { primaryKey: true }),
            column('payment_id', 'UUID', { references: 'payments.id' }),
            column('amount_minor', 'BIGINT'),
            column('booked_at', 'TIMESTAMPTZ', { default: 'now()' }),
          ],
        },
      ],
      collections: [],
    },
  ],
  ['idempotency', { tables: [], collections: ['payments-idempotency'] }],
]);

export function fixtureModelInput(): ModelInput {
  return { view: createView(fixtureTopology()), databases: FIXTURE_DATABASES };
}
export * from './generated-topology';
