/** Developer aid: a CPU profile of one interaction on the large diagram, top functions by self time. */
import { benchBundle, startHarness } from './harness';

async function main(): Promise<void> {
  const harness = await startHarness();
  await harness.sync(benchBundle());
  const page = await harness.context.newPage();
  const client = await harness.context.newCDPSession(page);
  await page.goto(`${harness.server.baseUrl}/orgs/acme/services/bench/diagrams/large`);
  await page.waitForSelector('[data-testid=diagram-canvas][data-drawn="1000"]', { timeout: 120000 });
  await page.waitForTimeout(3000);
  await client.send('Profiler.enable');
  await client.send('Profiler.setSamplingInterval', { interval: 200 });
  await client.send('Profiler.start');
  await page.click(process.env['CLICK'] ?? '[data-testid=collapse-all]');
  await page.waitForTimeout(Number(process.env['WAIT'] ?? 8000));
  const { profile } = (await client.send('Profiler.stop')) as { profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number }[]; samples: number[]; timeDeltas: number[] } };
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const key = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  for (const [key, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${key}`);
  await harness.stop();
}
void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
