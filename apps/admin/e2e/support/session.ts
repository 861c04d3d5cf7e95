import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { openBrowser } from './browser';
import { setUpOrganization } from './organization';
import { RunningServer, startServer } from './server';

/** What an e2e describe block drives: the built server and one Chromium context with a watched page. */
export interface E2eSession {
  server: RunningServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught errors and CSP refusals of `page` so far (watchForPageProblems). */
  problems: string[];
  /** With `organization`: an API token of organization `acme` with the sync scope (setUpOrganization). */
  syncToken: string;
}

export interface E2eSessionOptions {
  /** The server's SERVICE_SETUP_TOKEN. */
  setupToken: string;
  browser: BrowserContextOptions;
  /** How long each page step may wait, in ms. */
  timeout: number;
  /** Sets up organization `acme` with the browser signed in as its owner (setUpOrganization). */
  organization?: boolean;
  /** More environment for the server, read when the server starts (e.g. SERVICE_DNS_SERVERS of a DNS server started before). */
  serverEnv?: () => Record<string, string>;
  /** Problems the page is known to report without anything being wrong; every other one fails the test. */
  ignoredProblem?: RegExp;
}

/**
 * Registers the hooks every e2e describe block needs: before all tests the server starts and Chromium opens (and, with
 * `organization`, the owner is signed in); after each test the page must have reported no problems; after all, both
 * stop. The returned session's fields are set once the describe block's first beforeAll has run.
 */
export function useE2eSession(options: E2eSessionOptions): E2eSession {
  const session = {} as E2eSession;
  beforeAll(async () => {
    // Side by side: the server starts in its own process while Chromium launches in another. What started is kept
    // before a failure is thrown, so afterAll stops it.
    const [server, opened] = await Promise.allSettled([startServer(options.setupToken, options.serverEnv?.()), openBrowser(options.browser, options.timeout)]);
    if (server.status === 'fulfilled') session.server = server.value;
    if (opened.status === 'fulfilled') Object.assign(session, opened.value);
    for (const started of [server, opened]) if (started.status === 'rejected') throw started.reason;
    if (options.organization) session.syncToken = await setUpOrganization(session.server, session.context);
  });
  afterAll(async () => {
    await session.context?.close();
    await session.browser?.close();
    await session.server?.stop();
  });
  afterEach(() => expect(session.problems.filter((problem) => !options.ignoredProblem?.test(problem))).toEqual([]));
  return session;
}
