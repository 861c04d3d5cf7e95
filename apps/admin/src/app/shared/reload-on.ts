import { effect, untracked } from '@angular/core';

/**
 * Runs `load` now and again whenever `key` changes. Pages use it for :orgId, because the router reuses a page
 * component when only the route parameters change (switching organization), so ngOnInit would not run again.
 * Must be called in an injection context (a constructor or field initializer).
 */
export function reloadOn(key: () => unknown, load: () => Promise<void>): void {
  effect(() => {
    key();
    untracked(() => void load());
  });
}
