import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { ServiceDetail, ServiceRevisionItem } from '@sc/contracts';
import { SessionService } from '../../core/session.service';
import { dialogOpened, settle } from '../../../testing/dom';
import { ME, errorBody } from '../../../testing/fixtures';
import { useTestHttp } from '../../../testing/http';
import { createWithInputs } from '../../../testing/providers';
import { answerServicePage } from '../../../testing/service-page';
import { ServiceDetailPage } from './service-detail.page';

const BASE = '/api/v1/orgs/acme/services/payments';
const DETAIL: ServiceDetail = {
  name: 'payments',
  description: null,
  repositoryUrl: null,
  currentRevision: 1,
  lastSyncedAt: '2026-01-01T09:00:00.000Z',
  createdAt: '2026-01-01T09:00:00.000Z',
  artifactCount: 0,
  revision: 1,
  revisionSyncedAt: '2026-01-01T09:00:00.000Z',
  artifacts: [],
};
const REVISIONS: ServiceRevisionItem[] = [{ number: 1, createdAt: DETAIL.createdAt, artifactCount: 0, created: [], updated: [], removed: [], syncedBy: null, source: null }];

/** "Delete service" on the service page: a dialog that deletes only once the service's name is typed. */
describe('Delete service dialog', () => {
  let fixture: ComponentFixture<ServiceDetailPage>;
  const testHttp = useTestHttp();

  async function open(role: 'owner' | 'admin' | 'editor' | 'viewer'): Promise<void> {
    TestBed.inject(SessionService).adopt({ ...ME, role });
    fixture = createWithInputs(ServiceDetailPage, { orgId: 'acme', service: 'payments' });
    fixture.detectChanges();
    await answerServicePage(fixture, testHttp(), BASE, DETAIL, REVISIONS);
  }

  const button = (testId: string) => document.querySelector<HTMLButtonElement>(`[data-testid=${testId}]`);
  const type = (value: string) => {
    const input = document.querySelector<HTMLInputElement>('[data-testid=delete-service-name]');
    if (!input) throw new Error('No name field in the dialog');
    input.value = value;
    input.dispatchEvent(new Event('input'));
  };

  async function openDialog(): Promise<void> {
    button('delete-service')?.click();
    await dialogOpened(fixture);
  }

  it('offers the action to admins and owners only', async () => {
    await open('editor');
    expect(button('delete-service')).toBeNull();
    fixture.destroy();
    await open('admin');
    expect(button('delete-service')).not.toBeNull();
  });

  it('keeps "Delete service" disabled until the exact name is typed, and deletes nothing on cancel', async () => {
    await open('owner');
    await openDialog();
    expect(document.querySelector('mat-dialog-container')?.textContent).toContain('Delete service payments?');
    expect(button('delete-service-confirm')?.disabled).toBe(true);
    for (const near of ['payment', 'Payments', 'payments-x']) {
      type(near);
      await settle(fixture);
      expect(button('delete-service-confirm')?.disabled).toBe(true);
    }
    const cancel = Array.from(document.querySelectorAll<HTMLButtonElement>('mat-dialog-container button')).find((candidate) => candidate.textContent?.trim() === 'Cancel');
    cancel?.click();
    await settle(fixture);
    testHttp().expectNone({ method: 'DELETE' });
  });

  it('deletes the service once its name is typed, then goes back to the services list', async () => {
    await open('owner');
    const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    await openDialog();
    type(' payments ');
    await settle(fixture);
    expect(button('delete-service-confirm')?.disabled).toBe(false);
    button('delete-service-confirm')?.click();
    const request = testHttp().expectOne({ method: 'DELETE', url: BASE });
    request.flush(null, { status: 204, statusText: 'No Content' });
    await settle(fixture);
    await settle(fixture);
    expect(document.querySelector('mat-dialog-container')).toBeNull();
    expect(navigate).toHaveBeenCalledWith(['/orgs', 'acme', 'services']);
  });

  it('shows the server error in the dialog and stays open', async () => {
    await open('owner');
    await openDialog();
    type('payments');
    await settle(fixture);
    button('delete-service-confirm')?.click();
    testHttp().expectOne({ method: 'DELETE', url: BASE }).flush(errorBody('insufficient_role', 'Only admins and owners can delete a service.'), { status: 403, statusText: 'Forbidden' });
    await settle(fixture);
    expect(document.querySelector('mat-dialog-container')?.textContent).toContain('Only admins and owners can delete a service.');
    expect(button('delete-service-confirm')?.disabled).toBe(false);
  });
});
