import { TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { DatabaseView } from '@sc/contracts';
import { settle } from '../../../testing/dom';
import { useTestHttp } from '../../../testing/http';
import { createWithInputs } from '../../../testing/providers';
import { DatabasePage } from './database.page';

const column = { name: 'id', type: 'uuid', nullable: false, primaryKey: true, unique: false, default: null, references: null };
const VIEW: DatabaseView = {
  name: 'ledger',
  engine: 'postgres',
  revision: 1,
  path: '.service/schemas/ledger.sql',
  schema: '',
  tables: ['accounts', 'payments', 'entries'].map((name) => ({ name, columns: [column], primaryKey: ['id'] })),
  document: null,
  collections: [],
  notesPath: null,
  notes: null,
};

/** The database page opened from an organization search hit: at the table the URL's fragment names. */
describe('DatabasePage at a table', () => {
  const testHttp = useTestHttp();

  it('gives each table card its anchor and scrolls to the one in the fragment once the tables are drawn', async () => {
    const scrolled: string[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id);
    };
    try {
      await TestBed.inject(Router).navigateByUrl('/#table-entries');
      const fixture = createWithInputs(DatabasePage, { orgId: 'acme', service: 'payments', name: 'ledger' });
      fixture.detectChanges();
      testHttp().expectOne('/api/v1/orgs/acme/services/payments/databases/ledger').flush(VIEW);
      await new Promise((resolve) => setTimeout(resolve, 0));
      fixture.detectChanges();
      // The revision bar's list (drawn with the schema): not what this spec is about, answered before settling.
      testHttp().expectOne('/api/v1/orgs/acme/services/payments/revisions').flush([]);
      await settle(fixture);
      const anchors = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('mat-card[id]')).map((card) => card.id);
      expect(anchors).toEqual(['table-accounts', 'table-payments', 'table-entries']);
      expect(scrolled).toEqual(['table-entries']);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it('offers "Where is this used" on each table card, asking for that table of this database', async () => {
    const fixture = createWithInputs(DatabasePage, { orgId: 'acme', service: 'payments', name: 'ledger' });
    // Answers land in the page's resources after the current task.
    const drawn = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      fixture.detectChanges();
    };
    fixture.detectChanges();
    testHttp().expectOne('/api/v1/orgs/acme/services/payments/databases/ledger').flush(VIEW);
    await drawn();
    testHttp().expectOne('/api/v1/orgs/acme/services/payments/revisions').flush([]);
    const element = fixture.nativeElement as HTMLElement;
    const buttons = Array.from(element.querySelectorAll<HTMLButtonElement>('mat-card[id] [data-testid=where-used]'));
    expect(buttons).toHaveLength(3);
    buttons[2]?.click();
    fixture.detectChanges();
    const request = testHttp().expectOne((req) => req.url === '/api/v1/orgs/acme/search/where-used');
    expect([request.request.params.get('table'), request.request.params.get('database')]).toEqual(['entries', 'ledger']);
    request.flush({ table: 'entries', database: 'ledger', usedIn: [], definedIn: [{ service: 'payments', database: 'ledger', table: 'entries' }], truncated: false });
    await drawn();
    const card = element.querySelector('#table-entries');
    expect(card?.querySelector('[data-testid=where-used-list] [data-testid=where-used-empty]')?.textContent).toContain('No diagram binds the table entries');
    expect(element.querySelectorAll('[data-testid=where-used-list]')).toHaveLength(1);
  });
});
