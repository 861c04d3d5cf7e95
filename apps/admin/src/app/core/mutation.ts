import { computed, inject, signal, type Signal, type WritableSignal } from '@angular/core';
import { firstValueFrom, isObservable, type Observable } from 'rxjs';
import { ApiError, toApiError } from './api-error';
import { NotifyService } from './notify.service';

/** What a page does after a change succeeded or failed. */
export interface MutationSteps<T> {
  /** The confirmation shown once the change succeeded (before `done`). */
  success?: string | ((result: T) => string);
  /** Updates the page with the answer, e.g. patches a pageResource or navigates. A failure here counts as the change failing. */
  done?: (result: T) => void | Promise<void>;
  /** Runs on failure before the error is shown, e.g. to put an optimistic change back. */
  failed?: (error: ApiError) => void;
}

/** One kind of change a page makes (add a member, revoke a token, save a form): its busy state and failure. */
export interface Mutation<K> {
  /** What is being changed (an item's id, or `true`), null when idle: rows compare it to disable their buttons. */
  readonly busy: Signal<K | null>;
  /** Whether a change is under way (a form's submit button). */
  readonly pending: Signal<boolean>;
  /** The last failure when failures show `inline` (a form's banner); writable so a page can clear or set it. */
  readonly error: WritableSignal<ApiError | null>;
  /**
   * Runs `work` (an HTTP call or any promise) marked busy with `key`, then `steps`. Resolves with the result,
   * or `undefined` when it failed: the failure has then been shown (snack bar or `error`) and never rejects.
   */
  run<T>(key: K, work: () => Observable<T> | Promise<T>, steps?: MutationSteps<T>): Promise<T | undefined>;
}

/**
 * The busy/try/catch/notify block of a page's actions, written once (beside pageResource, which loads).
 * `report: 'notify'` shows failures in the snack bar (row actions without a form); `'inline'` keeps them in
 * `error` for the form's <sc-error-banner>. Must be called in an injection context.
 */
export function mutation<K = true>(options: { report: 'notify' | 'inline' } = { report: 'notify' }): Mutation<K> {
  const notify = inject(NotifyService);
  const busy = signal<K | null>(null);
  const error = signal<ApiError | null>(null);
  return {
    busy: busy.asReadonly(),
    pending: computed(() => busy() !== null),
    error,
    async run<T>(key: K, work: () => Observable<T> | Promise<T>, steps: MutationSteps<T> = {}): Promise<T | undefined> {
      busy.set(key);
      if (options.report === 'inline') error.set(null);
      try {
        const started = work();
        const result = isObservable(started) ? await firstValueFrom(started) : await started;
        const message = typeof steps.success === 'function' ? steps.success(result) : steps.success;
        if (message !== undefined) notify.success(message);
        await steps.done?.(result);
        return result;
      } catch (failure: unknown) {
        const apiError = toApiError(failure);
        steps.failed?.(apiError);
        if (options.report === 'inline') error.set(apiError);
        else notify.error(failure);
        return undefined;
      } finally {
        busy.set(null);
      }
    },
  };
}
