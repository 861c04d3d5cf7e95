/**
 * For the specs of the describe block it is called in: `worker` as the global Worker, which jsdom does not have (the
 * layout modules only check that the browser has one; the workers themselves are mocked through createLayoutWorker).
 */
export function useWorkerGlobal(worker: unknown): void {
  const hadWorker = 'Worker' in globalThis;
  beforeAll(() => {
    if (!hadWorker) Object.assign(globalThis, { Worker: worker });
  });
  afterAll(() => {
    if (!hadWorker) delete (globalThis as { Worker?: unknown }).Worker;
  });
}
