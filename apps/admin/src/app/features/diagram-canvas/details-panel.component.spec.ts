import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { buildModel, canvasNode, type CanvasNode } from '@sc/diagram';
import { SessionService } from '../../core/session.service';
import { fixtureModelInput } from '../../../testing/diagram-fixture';
import { ME } from '../../../testing/fixtures';
import { createWithInputs, provideTestApp, renderWithInputs } from '../../../testing/providers';
import { DetailsPanelComponent, fieldView, safeLink, type SelectedElement } from './details-panel.component';

describe('DetailsPanelComponent', () => {
  const model = buildModel(fixtureModelInput());
  const node = (id: string): CanvasNode => model.nodes.find((candidate) => candidate.id === id) as CanvasNode;

  const labelOf = (id: string) => model.nodes.find((n) => n.id === id)?.title ?? model.groups.find((g) => g.id === id)?.title ?? id;
  const render = (selection: SelectedElement) => renderWithInputs(DetailsPanelComponent, { selection, serviceLink: '/orgs/acme/services/payments', revision: 1, labelOf });

  /** The value shown for a label in the panel's lists. */
  const row = (element: HTMLElement, label: string): HTMLElement => {
    const term = Array.from(element.querySelectorAll('dt')).find((dt) => dt.textContent?.trim() === label);
    if (!term) throw new Error(`no row ${label}`);
    return term.nextElementSibling as HTMLElement;
  };
  const text = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim();
  /** The texts of an element's children (table cells, term and value), joined by ` | `. */
  const cells = (element: Element) => Array.from(element.children).map(text).join(' | ');

  it('shows a node’s id, name, type and group', () => {
    const element = render({ kind: 'node', node: node('api') });
    expect(text(element.querySelector('h3') as Element)).toBe('Payments API');
    expect(text(row(element, 'Id'))).toBe('api');
    expect(text(row(element, 'Name'))).toBe('Payments API');
    expect(text(row(element, 'Type'))).toBe('shape');
    expect(text(row(element, 'Shape'))).toBe('rounded-rect');
    expect(text(row(element, 'Group'))).toBe('Payments core');
  });

  it('renders every data field of the fixture by its input type', () => {
    const element = render({ kind: 'node', node: node('api') });
    expect(text(row(element, 'Owner'))).toBe('payments-team');
    const runbook = row(element, 'Runbook').querySelector('a') as HTMLAnchorElement;
    expect(runbook.getAttribute('href')).toBe('https://wiki.acme.example/payments/runbook');
    expect(runbook.getAttribute('rel')).toBe('noopener noreferrer');
    expect(text(row(element, 'Replicas'))).toBe('6');
    expect(text(row(element, 'Tier'))).toBe('tier-1 (of tier-1, tier-2, tier-3)');
    expect(Array.from(row(element, 'Tags').querySelectorAll('.chip')).map(text)).toEqual(['pci', 'critical']);
    const deployed = row(element, 'Deployed').querySelector('time') as HTMLTimeElement;
    expect(deployed.getAttribute('datetime')).toBe('2026-11-02');
    expect(text(deployed)).toMatch(/2026/);
  });

  it('renders the other input types: colours, booleans, key-value lists, code, date ranges; unsafe links as text', () => {
    const overlay = {
      type: 'shape' as const,
      data: {
        Colour: { type: 'Color Picker' as const, value: '#1f6feb' },
        'On call': { type: 'Boolean Toggle' as const, value: 'true' },
        Limits: { type: 'Key-Value List' as const, value: ['rps: 500', 'burst=50'] },
        Query: { type: 'Code Editor' as const, value: 'SELECT 1' },
        Window: { type: 'Date Range Picker' as const, value: ['2026-01-01', '2026-02-01'] },
        Docs: { type: 'URL Input' as const, value: 'javascript:alert(1)' },
        Regions: { type: 'Multi Select' as const, value: ['eu-west-1', 'us-east-1'] },
      },
    };
    const element = render({ kind: 'node', node: canvasNode({ id: 'x', label: 'X', overlay }, 'flowchart', fixtureModelInput()) });
    expect((row(element, 'Colour').querySelector('.swatch') as HTMLElement).style.background).toBeTruthy();
    expect(text(row(element, 'Colour'))).toBe('#1f6feb');
    expect(text(row(element, 'On call'))).toBe('Yes');
    expect(Array.from(row(element, 'Limits').querySelectorAll('.pairs > div')).map(cells)).toEqual(['rps | 500', 'burst | 50']);
    expect(text(row(element, 'Query'))).toContain('SELECT 1');
    expect(text(row(element, 'Window'))).toMatch(/2026.*–.*2026/);
    expect(row(element, 'Docs').querySelector('a')).toBeNull();
    expect(text(row(element, 'Docs'))).toBe('javascript:alert(1)');
    expect(row(element, 'Regions').querySelectorAll('.chip')).toHaveLength(2);
  });

  it('lists a db-table node’s columns from the synced schema with a link to the database page', () => {
    const element = render({ kind: 'node', node: node('ledgerEntries') });
    const link = Array.from(element.querySelectorAll('a')).find((a) => a.textContent?.trim() === 'ledger') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/orgs/acme/services/payments/databases/ledger?revision=1');
    const rows = Array.from(element.querySelectorAll('[aria-label="Columns of entries"] tbody tr')).map(cells);
    expect(rows[0]).toBe('id | BIGSERIAL | no | PK | ');
    expect(rows[1]).toBe('payment_id | UUID | no | → payments.id | ');
    expect(rows).toHaveLength(4);
  });

  it('offers "Where is this used" for a db-table node: the organization\'s diagrams binding its table, each opening at its node', async () => {
    TestBed.resetTestingModule();
    TestBed.configureTestingModule({ providers: provideTestApp() });
    TestBed.inject(SessionService).adopt(ME);
    const http = TestBed.inject(HttpTestingController);
    const fixture = createWithInputs(DetailsPanelComponent, { selection: { kind: 'node', node: node('ledgerEntries') }, serviceLink: '/orgs/acme/services/payments', revision: 1, labelOf });
    fixture.detectChanges();
    const element = fixture.nativeElement as HTMLElement;
    element.querySelector<HTMLButtonElement>('[data-testid=where-used]')?.click();
    fixture.detectChanges();
    const request = http.expectOne((req) => req.url === '/api/v1/orgs/acme/search/where-used');
    expect([request.request.params.get('table'), request.request.params.get('database')]).toEqual(['entries', 'ledger']);
    request.flush({
      table: 'entries',
      database: 'ledger',
      usedIn: [{ service: 'reports', diagram: 'reporting', node: { id: 'copy', label: 'Entries copy', name: null, type: 'db-table', dbConfig: null }, matchedBy: 'dbConfig.tableName', incoming: [], outgoing: [] }],
      definedIn: [],
      truncated: false,
    });
    // The answer lands in the resource after the current task.
    await new Promise((resolve) => setTimeout(resolve, 0));
    fixture.detectChanges();
    const hits = element.querySelectorAll('[data-testid=where-used-list] [data-testid=where-used-hit]');
    expect(Array.from(hits).map((hit) => hit.getAttribute('href'))).toEqual(['/orgs/acme/services/reports/diagrams/reporting?node=copy']);
    http.verify();
    // Nodes that bind no table do not offer it.
    expect(renderWithInputs(DetailsPanelComponent, { selection: { kind: 'node', node: node('api') }, serviceLink: '', labelOf }).querySelector('[data-testid=where-used]')).toBeNull();
  });

  it('shows the content of text, code, table, cloud, image, gif and component nodes', () => {
    expect(text(row(render({ kind: 'node', node: node('heading') }), 'Text'))).toBe('Payments platform');
    expect(text(render({ kind: 'node', node: node('retryPolicy') }))).toContain('retry(max = 3');
    expect(render({ kind: 'node', node: node('limits') }).querySelectorAll('table tbody tr')).toHaveLength(2);
    const cloud = render({ kind: 'node', node: node('events') });
    expect([text(row(cloud, 'Provider')), text(row(cloud, 'Service'))]).toEqual(['AWS', 'SQS']);
    expect(row(render({ kind: 'node', node: node('pspLogo') }), 'Source').querySelector('a')?.getAttribute('href')).toBe('https://assets.acme.example/psp-logo.png');
    expect(text(row(render({ kind: 'node', node: node('liveStatus') }), 'Animated icon'))).toBe('pulse');
    expect(text(row(render({ kind: 'node', node: node('dashboard') }), 'Component'))).toBe('settlement-dashboard');
  });

  it('shows an edge’s ends, label, stroke and markers', () => {
    const edge = model.edges.find((e) => e.source === 'api' && e.target === 'psp');
    if (!edge) throw new Error('no api → psp edge');
    const element = render({ kind: 'edge', edge });
    expect(text(element.querySelector('h3') as Element)).toBe('Payments API → Card processor');
    expect(text(row(element, 'Label'))).toBe('authorize / capture');
    expect(text(row(element, 'Stroke'))).toContain('dashed');
    expect(text(row(element, 'Start marker'))).toBe('circle');
    expect(text(row(element, 'End marker'))).toBe('arrow');
  });

  it('reads field values safely', () => {
    expect(safeLink('https://example.com/a')).toBe('https://example.com/a');
    expect(safeLink('data:text/html,<script>')).toBeNull();
    expect(safeLink('JavaScript:alert(1)')).toBeNull();
    expect(fieldView('Enabled', { type: 'Boolean Toggle', value: 'no' })).toEqual({ label: 'Enabled', as: 'boolean', value: false });
    expect(fieldView('Tint', { type: 'Color Picker', value: 'url(x)' })).toEqual({ label: 'Tint', as: 'text', text: 'url(x)' });
  });
});
