import { computed, signal } from '@angular/core';
import type { DraftConflictDetail } from '@sc/contracts';
import { toApiError, type ApiError } from '../../../core/api-error';
import { draftConflict } from '../drafts.api';

export type SaveState = 'saved' | 'pending' | 'saving' | 'conflict' | 'error';

/** Autosave waits this long after the last change (the issue: "about a second"). */
export const AUTOSAVE_DELAY_MS = 1000;

export interface SaveResult {
  version: number;
}

/**
 * Saves the editor's document about a second after the last change, one save at a time, each over the version
 * the previous one answered (If-Match). A change made while a save runs is saved right after it. A version
 * conflict (someone else saved) stops autosaving until the person chooses Reload or Save as a copy; a refused
 * graph (422) or a network failure keeps the changes and tries again on the next change or on `saveNow`.
 */
export class Autosave<Doc> {
  readonly state = signal<SaveState>('saved');
  /** Who saved the version this editor did not know about (409). */
  readonly conflict = signal<DraftConflictDetail | null>(null);
  /** Why the last save failed (other than a conflict), with the server's problem list. */
  readonly failure = signal<ApiError | null>(null);
  readonly version = signal(0);
  readonly dirty = computed(() => this.state() !== 'saved');

  private timer: ReturnType<typeof setTimeout> | null = null;
  private latest: Doc | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly save: (doc: Doc, version: number) => Promise<SaveResult>,
    private readonly delay = AUTOSAVE_DELAY_MS,
  ) {}

  /** Starts from a loaded draft: nothing to save. */
  reset(version: number): void {
    this.clearTimer();
    this.latest = null;
    this.version.set(version);
    this.conflict.set(null);
    this.failure.set(null);
    this.state.set('saved');
  }

  /** The document changed: save it after the delay (restarted by every further change). */
  changed(doc: Doc): void {
    if (this.state() === 'conflict') {
      this.latest = doc;
      return;
    }
    this.latest = doc;
    if (this.state() !== 'saving') this.state.set('pending');
    this.clearTimer();
    this.timer = setTimeout(() => void this.saveNow(), this.delay);
  }

  /** Saves what is pending now (leaving the page, Ctrl+S). Resolves when nothing more is running. */
  async saveNow(): Promise<void> {
    this.clearTimer();
    if (this.running) {
      await this.running;
      if (this.latest !== null && this.state() !== 'conflict') return this.saveNow();
      return;
    }
    const doc = this.latest;
    if (doc === null || this.state() === 'conflict') return;
    this.latest = null;
    this.state.set('saving');
    this.running = this.save(doc, this.version())
      .then((result) => {
        this.version.set(result.version);
        this.failure.set(null);
        this.state.set(this.latest !== null ? 'pending' : 'saved');
      })
      .catch((error: unknown) => {
        const conflict = draftConflict(error);
        // The document that failed is still the one to save (unless a newer one came meanwhile).
        this.latest ??= doc;
        if (conflict) {
          this.conflict.set(conflict);
          this.state.set('conflict');
        } else {
          this.failure.set(toApiError(error));
          this.state.set('error');
        }
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
    if (this.latest !== null && this.state() === 'pending') await this.saveNow();
  }

  /** The unsaved document (for Save as a copy after a conflict). */
  unsaved(): Doc | null {
    return this.latest;
  }

  dispose(): void {
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
