import type { ErrorBody, WhereUsedAnswer, WhereUsedHit } from '@sc/contracts';
import { settle } from '../../../testing/dom';
import { useTestHttp } from '../../../testing/http';
import { createWithInputs } from '../../../testing/providers';
import { WhereUsedComponent } from './where-used.component';

const HIT: WhereUsedHit = {
  service: 'payments',
  diagram: 'topology',
  node: { id: 'ledgerEntries', label: 'ledger.entries', name: 'Ledger entries', type: 'db-table', dbConfig: { serviceName: 'payments', databaseName: 'ledger', tableName: 'entries' } },
  matchedBy: 'dbConfig.tableName',
  incoming: [],
  outgoing: [],
};
const answer = (usedIn: WhereUsedHit[], truncated = false): WhereUsedAnswer => ({ table: 'entries', database: 'ledger', usedIn, definedIn: [], truncated });

describe('WhereUsedComponent', () => {
  const testHttp = useTestHttp();
  const URL = '/api/v1/orgs/acme/search/where-used';

  const open = (inputs: Record<string, unknown> = { orgId: 'acme', table: 'entries', database: 'ledger' }) => {
    const fixture = createWithInputs(WhereUsedComponent, inputs);
    fixture.detectChanges();
    const element = fixture.nativeElement as HTMLElement;
    // Nothing is asked before the button is pressed.
    testHttp().expectNone(URL);
    expect(element.querySelector('[data-testid=where-used-list]')).toBeNull();
    element.querySelector<HTMLButtonElement>('[data-testid=where-used]')?.click();
    // The request is pending until flushed: draw without waiting for stability.
    fixture.detectChanges();
    return { fixture, element };
  };

  it('lists the diagrams binding the table, each a link to the diagram centred on the node', async () => {
    const { fixture, element } = open();
    const request = testHttp().expectOne((req) => req.url === URL);
    expect([request.request.params.get('table'), request.request.params.get('database')]).toEqual(['entries', 'ledger']);
    request.flush(answer([HIT, { ...HIT, service: 'reports', diagram: 'reporting', node: { ...HIT.node, id: 'copy', name: null, label: 'Entries copy' } }], true));
    await settle(fixture);
    const hits = Array.from(element.querySelectorAll<HTMLAnchorElement>('[data-testid=where-used-list] [data-testid=where-used-hit]'));
    expect(hits.map((hit) => hit.getAttribute('href'))).toEqual(['/orgs/acme/services/payments/diagrams/topology?node=ledgerEntries', '/orgs/acme/services/reports/diagrams/reporting?node=copy']);
    expect(hits.map((hit) => hit.textContent?.replace(/\s+/g, ' ').trim())).toEqual(['payments · topology · Ledger entries ledgerEntries', 'reports · reporting · Entries copy copy']);
    expect(element.querySelector('[data-testid=where-used-truncated]')).not.toBeNull();
    expect(element.querySelector('[data-testid=where-used]')?.getAttribute('aria-expanded')).toBe('true');
  });

  it('says so when no diagram binds the table, asks without a database when none is given, and closes for another table', async () => {
    const { fixture, element } = open({ orgId: 'acme', table: 'orders' });
    const request = testHttp().expectOne((req) => req.url === URL);
    expect([request.request.params.get('table'), request.request.params.has('database')]).toEqual(['orders', false]);
    request.flush({ ...answer([]), table: 'orders', database: null });
    await settle(fixture);
    expect(element.querySelector('[data-testid=where-used-empty]')?.textContent).toContain('No diagram binds the table orders');
    fixture.componentRef.setInput('table', 'payments');
    await settle(fixture);
    expect(element.querySelector('[data-testid=where-used-list]')).toBeNull();
    testHttp().expectNone(URL);
  });

  it('shows a refusal in words', async () => {
    const { fixture, element } = open();
    const body: ErrorBody = { error: { code: 'invalid_search_query', message: 'Give the name of the table in ?table=.', details: [], requestId: 'r1' } } as ErrorBody;
    testHttp().expectOne((req) => req.url === URL).flush(body, { status: 400, statusText: 'Bad Request' });
    await settle(fixture);
    expect(element.textContent).toContain('Give the name of the table');
    expect(element.querySelector('[data-testid=where-used-hit]')).toBeNull();
  });
});
