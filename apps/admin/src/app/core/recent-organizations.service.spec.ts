import { TestBed } from '@angular/core/testing';
import { RecentOrganizationsService } from './recent-organizations.service';

describe('RecentOrganizationsService', () => {
  beforeEach(() => localStorage.clear());

  const fresh = () => {
    TestBed.resetTestingModule();
    return TestBed.inject(RecentOrganizationsService);
  };

  it('keeps organizations most recent first, once each, across page loads', () => {
    const recent = fresh();
    recent.remember({ id: 'acme', name: 'Acme' });
    recent.remember({ id: 'globex', name: 'Globex' });
    recent.remember({ id: 'acme', name: 'Acme Corp' });
    expect(recent.list()).toEqual([
      { id: 'acme', name: 'Acme Corp' },
      { id: 'globex', name: 'Globex' },
    ]);
    expect(fresh().list()).toEqual(recent.list());
  });

  it('keeps at most ten, and only ids and names', () => {
    const recent = fresh();
    for (let index = 0; index < 12; index++) recent.remember({ id: `org-${index}`, name: `Org ${index}`, role: 'owner' } as never);
    expect(recent.list()).toHaveLength(10);
    expect(recent.list()[0]).toEqual({ id: 'org-11', name: 'Org 11' });
    expect(localStorage.getItem('sc.recent-organizations')).not.toContain('owner');
  });

  it('ignores unreadable or foreign storage content', () => {
    localStorage.setItem('sc.recent-organizations', '{not json');
    expect(fresh().list()).toEqual([]);
    localStorage.setItem('sc.recent-organizations', JSON.stringify([{ id: 'acme', name: 'Acme' }, { id: 7 }, 'x', null]));
    expect(fresh().list()).toEqual([{ id: 'acme', name: 'Acme' }]);
  });
});
