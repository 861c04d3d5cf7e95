/**
 * Starts the harness (built server with the fixture and the generated diagrams synced) and, with `--shot URLPATH NAME`
 * pairs, saves screenshots of those pages to tmp/screenshots/; without any, keeps running and prints the base URL.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { benchBundle, fixtureBundle, startHarness } from './harness';

async function main(): Promise<void> {
  const harness = await startHarness();
  await harness.sync(await fixtureBundle());
  await harness.sync(benchBundle());
  const args = process.argv.slice(2);
  if (args[0] !== '--shot') {
    console.log(`serving ${harness.server.baseUrl}`);
    return;
  }
  const dir = join(__dirname, '../../tmp/screenshots');
  mkdirSync(dir, { recursive: true });
  const page = await harness.context.newPage();
  page.on('console', (m) => console.log(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
  for (let i = 1; i + 1 < args.length; i += 2) {
    await page.goto(`${harness.server.baseUrl}${args[i]}`);
    await page.waitForTimeout(Number(process.env['SHOT_WAIT'] ?? 4000));
    // SHOT_CLICK: accessible names of buttons to press before the picture, separated by `|`.
    for (const name of (process.env['SHOT_CLICK'] ?? '').split('|').filter(Boolean)) {
      await page.getByRole('button', { name, exact: true }).first().click();
      await page.waitForTimeout(1500);
    }
    await page.screenshot({ path: join(dir, `${args[i + 1]}.png`), fullPage: false });
    console.log(`saved ${args[i + 1]}.png`);
  }
  await harness.stop();
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
