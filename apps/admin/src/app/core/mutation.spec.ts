import { Injector, runInInjectionContext } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { MatSnackBar } from '@angular/material/snack-bar';
import { of, throwError } from 'rxjs';
import { ApiError } from './api-error';
import { mutation } from './mutation';

describe('mutation', () => {
  const open = jest.fn();

  beforeEach(() => {
    open.mockReset();
    TestBed.configureTestingModule({ providers: [{ provide: MatSnackBar, useValue: { open, dismiss: jest.fn() } }] });
  });

  function create<K>(report: 'notify' | 'inline') {
    return runInInjectionContext(TestBed.inject(Injector), () => mutation<K>({ report }));
  }

  it('is busy with the key while the work runs, then confirms and hands the result on', async () => {
    const change = create<string>('notify');
    let release: (value: number) => void = () => undefined;
    let busyInDone: string | null = null;
    const running = change.run('t1', () => new Promise<number>((resolve) => (release = resolve)), {
      success: (value) => `Saved ${value}.`,
      done: () => {
        busyInDone = change.busy();
      },
    });
    expect(change.busy()).toBe('t1');
    expect(change.pending()).toBe(true);
    release(7);
    await expect(running).resolves.toBe(7);
    expect(busyInDone).toBe('t1');
    expect(change.busy()).toBeNull();
    expect(change.pending()).toBe(false);
    expect(open).toHaveBeenCalledWith('Saved 7.', 'Dismiss', expect.objectContaining({ politeness: 'polite' }));
  });

  it('shows a failure in the snack bar and resolves with undefined after the failed step', async () => {
    const change = create<string>('notify');
    const failed = jest.fn();
    const result = await change.run('t1', () => throwError(() => new ApiError(409, 'conflict', 'Someone saved first.')), { failed });
    expect(result).toBeUndefined();
    expect(failed).toHaveBeenCalledWith(expect.objectContaining({ code: 'conflict' }));
    expect(open).toHaveBeenCalledWith(expect.stringContaining('Someone saved first.'), 'Dismiss', expect.objectContaining({ politeness: 'assertive' }));
    expect(change.error()).toBeNull();
    expect(change.busy()).toBeNull();
  });

  it('keeps an inline failure in error and clears it when the next run starts', async () => {
    const form = create<true>('inline');
    await form.run(true, () => throwError(() => new ApiError(400, 'invalid', 'Name is taken.')));
    expect(form.error()?.message).toBe('Name is taken.');
    expect(open).not.toHaveBeenCalled();
    const pending = form.run(true, () => of('ok'));
    expect(form.error()).toBeNull();
    await expect(pending).resolves.toBe('ok');
  });
});
