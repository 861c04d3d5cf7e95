import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, BrowserContextOptions, Locator, Page, chromium } from 'playwright-core';
import { eventually } from '../../src/testing/eventually';
import { WORKSPACE } from './server';

export { eventually };

export const SCREENSHOT_DIR = join(WORKSPACE, 'tmp/screenshots');

/** Debian's Chromium, never a downloaded browser; flags keep it offline and quiet on a CI host. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Problems a person would notice or that hint at a broken page: uncaught errors and CSP refusals. */
export function watchForPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  return problems;
}

/** A new page of `context` that waits `timeout` ms at most per step, with its problems collected (watchForPageProblems). */
export async function openWatchedPage(context: BrowserContext, timeout: number): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  return { page, problems: watchForPageProblems(page) };
}

/** Chromium with one context (`options`) and one watched page: what each e2e spec starts with. */
export async function openBrowser(options: BrowserContextOptions, timeout: number): Promise<{ browser: Browser; context: BrowserContext; page: Page; problems: string[] }> {
  const browser = await launchChromium();
  const context = await browser.newContext(options);
  return { browser, context, ...(await openWatchedPage(context, timeout)) };
}

/** Saves a full-page screenshot once dialogs, ripples and snackbars have finished animating. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * Resolves once the page has rendered twice more: Angular's change detection, and the effects it runs (autosave
 * noticing a change), have seen everything that happened before the call. What a test waits on instead of a sleep
 * before asserting that something did not happen.
 */
export async function nextRendering(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** Resolves once every image of the page has loaded or failed (its load or error handlers have run) and it rendered. */
export async function imagesSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
  await nextRendering(page);
}

export async function visible(locator: Locator): Promise<void> {
  await locator.first().waitFor({ state: 'visible' });
}

export async function containsText(locator: Locator, text: string): Promise<void> {
  await eventually(async () => expect(await locator.innerText()).toContain(text));
}
