import { ComponentFixture, TestBed } from '@angular/core/testing';
import type { ServiceListItem } from '@sc/contracts';
import { rowsText, settle, textOf } from '../../../testing/dom';
import { errorBody } from '../../../testing/fixtures';
import { useTestHttp } from '../../../testing/http';
import { ServicesListPage } from './services-list.page';

const BASE = '/api/v1/orgs/acme/services';

function service(name: string): ServiceListItem {
  return { name, description: null, repositoryUrl: null, currentRevision: 1, lastSyncedAt: null, createdAt: '2026-01-01T09:00:00.000Z', artifactCount: 2 };
}

/** The API pages the services (Link rel="next"); the page shows the first page and appends the next on "Load more". */
describe('ServicesListPage paging', () => {
  let fixture: ComponentFixture<ServicesListPage>;
  const testHttp = useTestHttp();
  const more = () => (fixture.nativeElement as HTMLElement).querySelector<HTMLButtonElement>('[data-testid=services-more]');

  beforeEach(async () => {
    fixture = TestBed.createComponent(ServicesListPage);
    fixture.componentRef.setInput('orgId', 'acme');
    fixture.detectChanges();
    testHttp().expectOne(BASE).flush([service('alpha'), service('beta')], { headers: { Link: `<${BASE}?cursor=WyJiZXRhIl0&limit=100>; rel="next"` } });
    await settle(fixture);
  });

  it('shows the first page and a "Load more" button while there is a next page', () => {
    expect(rowsText(fixture).map((row) => /^[a-z]+/.exec(row)?.[0])).toEqual(['alpha', 'beta']);
    expect(more()?.textContent).toContain('Load more services');
  });

  it('reads the next page with the cursor of the Link header and appends it; the last page removes the button', async () => {
    more()?.click();
    testHttp().expectOne(`${BASE}?cursor=WyJiZXRhIl0`).flush([service('gamma')]);
    await settle(fixture);
    expect(rowsText(fixture).map((row) => /^[a-z]+/.exec(row)?.[0])).toEqual(['alpha', 'beta', 'gamma']);
    expect(more()).toBeNull();
  });

  it('keeps the services shown when the next page fails, with the error and the button to retry', async () => {
    more()?.click();
    testHttp().expectOne(`${BASE}?cursor=WyJiZXRhIl0`).flush(errorBody('invalid_cursor', 'The "cursor" is not one this list handed out.'), { status: 400, statusText: 'Bad Request' });
    await settle(fixture);
    expect(rowsText(fixture)).toHaveLength(2);
    expect(textOf(fixture)).toContain('The "cursor" is not one this list handed out.');
    expect(more()).not.toBeNull();
  });
});
