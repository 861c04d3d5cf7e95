import { formatDate } from '@angular/common';
import { HttpTestingController } from '@angular/common/http/testing';
import { Component, signal } from '@angular/core';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { ServiceRevisionItem } from '@sc/contracts';
import { settle, textOf } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { RevisionBarComponent } from './revision-bar.component';

const REVISIONS: ServiceRevisionItem[] = [
  {
    number: 3,
    createdAt: '2026-03-03T10:00:00.000Z',
    artifactCount: 2,
    created: [],
    updated: [],
    removed: [{ kind: 'architecture-diagram', name: 'overview' }],
    syncedBy: null,
    source: null,
  },
  { number: 2, createdAt: '2026-02-02T10:00:00.000Z', artifactCount: 3, created: [], updated: [{ kind: 'flow', name: 'pay' }], removed: [], syncedBy: null, source: null },
  {
    number: 1,
    createdAt: '2026-01-01T10:00:00.000Z',
    artifactCount: 3,
    created: [
      { kind: 'architecture-diagram', name: 'overview' },
      { kind: 'flow', name: 'pay' },
    ],
    updated: [],
    removed: [],
    syncedBy: null,
    source: null,
  },
];

/** As the page's DatePipe shows a time: in the machine's time zone. */
const medium = (iso: string) => formatDate(iso, 'medium', 'en-US').replace(/\s+/g, ' ');

@Component({
  imports: [RevisionBarComponent],
  template: `<sc-revision-bar orgId="acme" service="payments" [revision]="revision()" [artifact]="artifact()" />`,
})
class HostComponent {
  readonly revision = signal<number | undefined>(undefined);
  readonly artifact = signal<{ kind: 'architecture-diagram'; name: string } | null>(null);
}

describe('RevisionBarComponent', () => {
  let fixture: ComponentFixture<HostComponent>;
  let http: HttpTestingController;

  beforeEach(async () => {
    TestBed.configureTestingModule({ providers: provideTestApp([{ path: '**', children: [] }]) });
    http = TestBed.inject(HttpTestingController);
    await TestBed.inject(Router).navigateByUrl('/orgs/acme/services/payments?revision=1&view=x');
    fixture = TestBed.createComponent(HostComponent);
    fixture.detectChanges();
    http.expectOne('/api/v1/orgs/acme/services/payments/revisions').flush(REVISIONS);
  });

  afterEach(() => http.verify());

  async function showing(revision: number): Promise<void> {
    fixture.componentInstance.revision.set(revision);
    await settle(fixture);
  }

  function element(selector: string): HTMLElement | null {
    return (fixture.nativeElement as HTMLElement).querySelector<HTMLElement>(selector);
  }

  it('shows no banner on the latest revision', async () => {
    await showing(3);
    expect(element('[data-testid=revision-picker]')).not.toBeNull();
    expect(element('[data-testid=old-revision]')).toBeNull();
  });

  it('says which earlier revision is shown, when it was synced, and links to the latest', async () => {
    await showing(1);
    const banner = element('[data-testid=old-revision]');
    expect(banner?.textContent?.replace(/\s+/g, ' ').trim()).toBe(`You are viewing revision 1 of 3, synced ${medium(REVISIONS[2].createdAt)} — view latest`);
    const latest = banner?.querySelector('a');
    // The link drops ?revision and keeps the page's other query parameters.
    expect(latest?.getAttribute('href')).toBe('/orgs/acme/services/payments?view=x');
  });

  it('picks a revision through ?revision=, and the latest without it', async () => {
    await showing(1);
    const bar = fixture.debugElement.query((node) => node.componentInstance instanceof RevisionBarComponent).componentInstance as RevisionBarComponent;
    const router = TestBed.inject(Router);
    bar.pick(2);
    await settle(fixture);
    expect(router.url).toBe('/orgs/acme/services/payments?revision=2&view=x');
    bar.pick(3);
    await settle(fixture);
    expect(router.url).toBe('/orgs/acme/services/payments?view=x');
  });

  it('lists every revision newest first and marks the ones without the page’s artifact', async () => {
    fixture.componentInstance.artifact.set({ kind: 'architecture-diagram', name: 'overview' });
    await showing(2);
    const bar = fixture.debugElement.query((node) => node.componentInstance instanceof RevisionBarComponent).componentInstance as RevisionBarComponent;
    expect(bar.choices().map(({ number, available }) => ({ number, available }))).toEqual([
      { number: 3, available: false },
      { number: 2, available: true },
      { number: 1, available: true },
    ]);
    element('.mat-mdc-select-trigger')?.click();
    await settle(fixture);
    const options = Array.from(document.querySelectorAll('mat-option')).map((option) => option.textContent?.replace(/\s+/g, ' ').trim());
    expect(options).toEqual([
      `Revision 3 (latest) · ${medium(REVISIONS[0].createdAt)} · not in this revision`,
      `Revision 2 · ${medium(REVISIONS[1].createdAt)}`,
      `Revision 1 · ${medium(REVISIONS[2].createdAt)}`,
    ]);
    expect(document.querySelector('mat-option[aria-disabled="true"]')?.textContent).toContain('Revision 3');
    expect(textOf(fixture)).toContain('You are viewing revision 2 of 3');
  });
});
