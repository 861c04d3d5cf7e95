import { ComponentFixture, TestBed } from '@angular/core/testing';
import { ApiError } from '../core/api-error';
import { settle, textOf } from '../../testing/dom';
import { provideTestApp } from '../../testing/providers';
import { ListStateComponent } from './list-state.component';

describe('ListStateComponent', () => {
  let fixture: ComponentFixture<ListStateComponent>;

  async function show(state: { loading: boolean; error: ApiError | null; empty: boolean }): Promise<HTMLElement> {
    for (const [name, value] of Object.entries(state)) fixture.componentRef.setInput(name, value);
    await settle(fixture);
    return fixture.nativeElement as HTMLElement;
  }

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    fixture = TestBed.createComponent(ListStateComponent);
    fixture.componentRef.setInput('loadingLabel', 'Loading things');
    fixture.componentRef.setInput('emptyIcon', 'info');
    fixture.componentRef.setInput('emptyHeading', 'No things yet');
    fixture.componentRef.setInput('emptyTestId', 'things-empty');
  });

  it('shows only the progress bar while loading', async () => {
    const element = await show({ loading: true, error: null, empty: true });
    expect(element.querySelector('mat-progress-bar')?.getAttribute('aria-label')).toBe('Loading things');
    expect(element.querySelector('[data-testid=things-empty]')).toBeNull();
  });

  it('shows the empty state once loaded with nothing', async () => {
    const element = await show({ loading: false, error: null, empty: true });
    expect(element.querySelector('mat-progress-bar')).toBeNull();
    expect(element.querySelector('[data-testid=things-empty]')?.textContent).toContain('No things yet');
  });

  it('shows the load error instead of the empty state, and retries', async () => {
    const retried = jest.fn();
    fixture.componentInstance.retry.subscribe(retried);
    const element = await show({ loading: false, error: new ApiError(500, 'internal_error', 'The server failed.'), empty: true });
    expect(textOf(fixture)).toContain('The server failed.');
    expect(element.querySelector('[data-testid=things-empty]')).toBeNull();
    element.querySelector<HTMLButtonElement>('button')?.click();
    expect(retried).toHaveBeenCalledTimes(1);
  });

  it('shows nothing for a list with entries', async () => {
    const element = await show({ loading: false, error: null, empty: false });
    expect(element.textContent?.trim()).toBe('');
  });
});
