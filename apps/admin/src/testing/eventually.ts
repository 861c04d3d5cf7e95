/**
 * Retries an assertion until it passes or the time is up (pages, lazy chunks and drawings update asynchronously),
 * then throws its error. Framework-free: the unit specs (jsdom) and the browser tests (e2e) both use it.
 */
export async function eventually(assertion: () => Promise<void> | void, timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
