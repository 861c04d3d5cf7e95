/**
 * The layout worker, in its own file: Angular's builder bundles `new Worker(new URL(…, import.meta.url))` as a
 * separate lazily fetched script (with ELK inside), and unit tests map this module to an in-thread engine.
 */
export function createLayoutWorker(): Worker {
  return new Worker(new URL('./layout.worker', import.meta.url), { type: 'module' });
}
