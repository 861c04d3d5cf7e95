import { ComponentFixture, TestBed } from '@angular/core/testing';
import { DiagramIssueCode, type ApplyReport } from '@sc/diagram';
import { provideTestApp } from '../../../testing/providers';
import { ContextSummaryComponent } from './context-summary.component';

/** A report as applyContext writes it: each unmatched key is also an issue whose message starts with its path. */
const REPORT: ApplyReport = {
  applied: ['$.nodes.api'],
  unmatched: [
    { key: 'nodes.Api', path: '$.nodes.Api', reason: 'no node has the id "Api" (ids are case-sensitive).', hint: 'did you mean api?' },
    { key: 'groups.core.nodes[1]', path: '$.groups.core.nodes[1]', reason: '"ghost" is not a node id of the diagram.' },
  ],
  errors: [
    {
      code: DiagramIssueCode.ContextUnmatchedKey,
      severity: 'error',
      message: '$.groups.core.nodes[1]: "ghost" is not a node id of the diagram.',
      path: '$.groups.core.nodes[1]',
    },
    {
      code: DiagramIssueCode.ContextUnknownDatabase,
      severity: 'error',
      message: '$.nodes.db.dbConfig.databaseName: no synced database is named "orders".',
      path: '$.nodes.db.dbConfig.databaseName',
    },
  ],
  warnings: [
    {
      code: DiagramIssueCode.ContextUnmatchedKey,
      severity: 'warning',
      message: '$.nodes.Api: no node has the id "Api" (ids are case-sensitive). Hint: did you mean api?',
      path: '$.nodes.Api',
      hint: 'did you mean api?',
    },
    { code: DiagramIssueCode.ContextUnknownProperty, severity: 'warning', message: '$.nodes.api.colour: unknown property.', path: '$.nodes.api.colour' },
    { code: DiagramIssueCode.ContextInvalidValue, severity: 'warning', message: 'The context has no name.' },
  ],
};

describe('ContextSummaryComponent', () => {
  let fixture: ComponentFixture<ContextSummaryComponent>;

  function show(report: ApplyReport): HTMLElement {
    fixture.componentRef.setInput('report', report);
    fixture.detectChanges();
    return fixture.nativeElement as HTMLElement;
  }

  function items(root: HTMLElement, testId: string): string[] {
    return Array.from(root.querySelectorAll(`[data-testid=${testId}] li`)).map((li) => (li.textContent ?? '').replace(/\s+/g, ' ').trim());
  }

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    fixture = TestBed.createComponent(ContextSummaryComponent);
  });

  it('lists each unmatched key once, under Not matched only', () => {
    const root = show(REPORT);
    expect(items(root, 'context-unmatched')).toEqual([
      'nodes.Api: no node has the id "Api" (ids are case-sensitive). (did you mean api?)',
      'groups.core.nodes[1]: "ghost" is not a node id of the diagram.',
    ]);
    expect(root.textContent?.match(/did you mean api\?/g)).toHaveLength(1);
    expect(root.textContent?.match(/"ghost"/g)).toHaveLength(1);
  });

  it('lists the other problems with their path printed once', () => {
    const root = show(REPORT);
    expect(items(root, 'context-errors')).toEqual(['$.nodes.db.dbConfig.databaseName: no synced database is named "orders".']);
    expect(items(root, 'context-warnings')).toEqual(['$.nodes.api.colour: unknown property.', 'The context has no name.']);
  });

  it('counts applied overlays in the right number', () => {
    expect(show(REPORT).querySelector('p')?.textContent).toBe('1 overlay applied.');
    expect(show({ ...REPORT, applied: [] }).querySelector('p')?.textContent).toBe('0 overlays applied.');
    expect(show({ ...REPORT, applied: ['$.nodes.a', '$.nodes.b'] }).querySelector('p')?.textContent).toBe('2 overlays applied.');
  });

  it('shows only the count when everything matched', () => {
    const root = show({ applied: ['$.nodes.api'], unmatched: [], errors: [], warnings: [] });
    expect(root.querySelectorAll('h3')).toHaveLength(0);
  });
});
