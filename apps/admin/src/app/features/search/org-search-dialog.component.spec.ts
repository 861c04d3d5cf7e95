import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { SearchAnswer, SearchHit } from '@sc/contracts';
import { SessionService } from '../../core/session.service';
import { ShellComponent } from '../../shell/shell.component';
import { dialogOpened, settle } from '../../../testing/dom';
import { ME } from '../../../testing/fixtures';
import { provideTestApp, verifyAndClearOverlays } from '../../../testing/providers';
import { hitTarget, snippetParts } from './search.api';

const NODE_HIT: SearchHit = {
  service: 'payments',
  artifact: { kind: 'architecture-diagram', name: 'topology' },
  element: { kind: 'node', id: 'ledgerDb', title: 'Ledger DB' },
  snippet: '«Ledger» DB — <b>not markup</b>',
  rank: 1.6,
};
const COLUMN_HIT: SearchHit = {
  ...NODE_HIT,
  artifact: { kind: 'database-schema', name: 'ledger' },
  element: { kind: 'column', id: 'public.entries.amount_minor', title: 'amount_minor' },
  snippet: '«amount_minor» — entries · bigint',
  rank: 0.6,
};

describe('hitTarget and snippetParts', () => {
  it('opens a node on its diagram with ?node=, a column at its table, a service on its page', () => {
    expect(hitTarget('acme', NODE_HIT)).toEqual({ commands: ['/orgs', 'acme', 'services', 'payments', 'diagrams', 'topology'], queryParams: { node: 'ledgerDb' } });
    expect(hitTarget('acme', { ...NODE_HIT, artifact: { kind: 'flow', name: 'refunds' } }).commands).toEqual(['/orgs', 'acme', 'services', 'payments', 'flows', 'refunds']);
    expect(hitTarget('acme', COLUMN_HIT)).toEqual({ commands: ['/orgs', 'acme', 'services', 'payments', 'databases', 'ledger'], fragment: 'table-public.entries' });
    expect(hitTarget('acme', { ...NODE_HIT, artifact: null, element: { kind: 'service', id: 'payments', title: 'payments' } })).toEqual({ commands: ['/orgs', 'acme', 'services', 'payments'] });
    expect(hitTarget('acme', { ...NODE_HIT, artifact: { kind: 'doc', name: 'runbook' }, element: { kind: 'heading', id: 'Rollback', title: 'Rollback' } })).toEqual({
      commands: ['/orgs', 'acme', 'services', 'payments', 'docs', 'runbook'],
    });
  });

  it('cuts a snippet at its marks, and leaves an unclosed mark as text', () => {
    expect(snippetParts('a «b» c «d»')).toEqual([
      { text: 'a ', marked: false },
      { text: 'b', marked: true },
      { text: ' c ', marked: false },
      { text: 'd', marked: true },
    ]);
    expect(snippetParts('x «y')).toEqual([{ text: 'x «y', marked: false }]);
  });
});

describe('organization search dialog', () => {
  let fixture: ComponentFixture<ShellComponent>;
  let http: HttpTestingController;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
    TestBed.inject(SessionService).adopt({ ...ME, role: 'viewer' });
    fixture = TestBed.createComponent(ShellComponent);
    fixture.detectChanges();
  });
  afterEach(() => {
    document.querySelectorAll('.sc-diagram-canvas').forEach((element) => element.remove());
    verifyAndClearOverlays(http);
  });

  const press = (init: KeyboardEventInit) => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', bubbles: true, cancelable: true, ...init }));
  const box = () => document.querySelector<HTMLInputElement>('[data-testid=org-search]');

  it('opens with Ctrl+K, searches as one types, shows marked snippets as text and opens a hit centred on its node', async () => {
    press({ ctrlKey: true });
    await dialogOpened(fixture);
    const input = box();
    if (!input) throw new Error('No search box');
    input.value = 'ledger';
    input.dispatchEvent(new Event('input'));
    const request = http.expectOne((req) => req.url === `/api/v1/orgs/${ME.organization.id}/search`);
    expect(request.request.params.get('q')).toBe('ledger');
    request.flush({ query: 'ledger', kind: null, hits: [NODE_HIT, COLUMN_HIT], truncated: false } satisfies SearchAnswer);
    await settle(fixture);
    const hits = Array.from(document.querySelectorAll<HTMLElement>('[data-testid=search-hit]'));
    expect(hits).toHaveLength(2);
    expect(hits[0]?.querySelector('mark')?.textContent).toBe('Ledger');
    // The server's snippet is text: markup in a synced label is shown, never parsed.
    expect(hits[0]?.querySelector('b')).toBeNull();
    expect(hits[0]?.textContent).toContain('<b>not markup</b>');

    const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown' }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp' }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(navigate).toHaveBeenCalledWith(['/orgs', ME.organization.id, 'services', 'payments', 'diagrams', 'topology'], { queryParams: { node: 'ledgerDb' }, fragment: undefined });
    await settle(fixture);
    expect(box()).toBeNull();
  });

  it("leaves Ctrl+K to a diagram's own node search, and opens with Ctrl+Shift+K there", async () => {
    const canvas = document.createElement('div');
    canvas.className = 'sc-diagram-canvas';
    document.body.appendChild(canvas);
    press({ ctrlKey: true });
    await settle(fixture);
    expect(box()).toBeNull();
    press({ ctrlKey: true, shiftKey: true, key: 'K' });
    await dialogOpened(fixture);
    expect(box()).not.toBeNull();
  });
});
