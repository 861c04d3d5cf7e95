import type { Page } from 'playwright-core';
import type { SyncResult } from '@sc/contracts';
import { containsText, eventually, screenshot, visible } from './support/browser';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

/**
 * Previews in a real browser (issue 24): `sync --preview` pushes a bundle as a preview; its URL opens a page that
 * says it is not synced, links to the current revision, draws each changed diagram with what was added, changed and
 * removed highlighted against the current revision, and lists the unchanged ones. The service page lists it.
 */

const TOPOLOGY = `flowchart LR
  subgraph core[Core]
    api[Orders API] --> db[(Orders DB)]
  end
  web[Web] --> api
  api --> queue[[Events]]
`;
/** web renamed, queue and its edge removed, cache and its edge added. */
const TOPOLOGY_NEXT = TOPOLOGY.replace('web[Web]', 'web[Web shop]').replace('api --> queue[[Events]]', 'api --> cache[(Cache)]');
const STABLE = 'flowchart LR\n  a[Start] --> b[Done]\n';

describe('previews in a real browser', () => {
  const e2e = useE2eSession({
    setupToken: `e2e-previews-${Date.now()}-0123456789`,
    browser: { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' },
    timeout: 30000,
    organization: true,
  });
  const diagram = (name: string, source: string) => ({ kind: 'architecture-diagram', name, file: file(`.service/diagrams/${name}.mmd`, source) });
  const service = { name: 'shop', description: 'Previews e2e' };
  let previewPath = '';

  beforeAll(async () => {
    await pushBundle(e2e.server, e2e.syncToken, service, [diagram('topology', TOPOLOGY), diagram('stable', STABLE), diagram('legacy', 'flowchart LR\n  old[Old] --> gone[Gone]\n')]);
    // What `service-cli sync --preview --label feature/cache` sends.
    const response = await fetch(`${e2e.server.baseUrl}/api/v1/gateway/sync?preview=${encodeURIComponent('feature/cache')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.syncToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 1, service, artifacts: [diagram('topology', TOPOLOGY_NEXT), diagram('stable', STABLE), diagram('fresh', 'flowchart LR\n  n1[New] --> n2[Newer]\n')] }),
    });
    expect(response.status).toBe(201);
    const result = (await response.json()) as SyncResult;
    previewPath = new URL(result.preview?.url ?? '').pathname;
    expect(previewPath).toMatch(/^\/orgs\/acme\/services\/shop\/previews\/[0-9a-f-]{36}$/);
  });

  const page = (): Page => e2e.page;
  const drawing = (name: string) => page().locator(`[data-testid=preview-diagram][data-name="${name}"]`).getByTestId('diagram-canvas');

  it('opens from the preview URL: a banner says it is not synced, each changed diagram is drawn with its changes highlighted', async () => {
    await page().goto(`${e2e.server.baseUrl}${previewPath}`);
    const banner = page().getByTestId('preview-banner');
    await visible(banner);
    expect(await banner.innerText()).toContain('Preview of feature/cache, not synced');
    expect(await banner.getByTestId('preview-current-link').getAttribute('href')).toBe('/orgs/acme/services/shop');

    const topology = drawing('topology');
    await eventually(async () => expect(await topology.getAttribute('data-layout')).toBe('done'), 60000);
    const node = (id: string) => topology.locator(`[data-node-id="${id}"]`);
    await eventually(async () => expect(await node('cache').getAttribute('data-status')).toBe('added'));
    expect(await node('web').getAttribute('data-status')).toBe('changed');
    expect(await node('api').getAttribute('data-status')).toBeNull();
    expect(await topology.locator('[data-edge-source=api][data-edge-target=cache]').getAttribute('data-status')).toBe('added');
    // Removed elements are drawn ghosted.
    expect(await topology.locator('[data-edge-source=api][data-edge-target=queue]').getAttribute('data-status')).toBe('removed');
    expect(await node('queue').getAttribute('data-status')).toBe('removed');

    // An added diagram is drawn all added; removed and unchanged diagrams are listed.
    const fresh = drawing('fresh');
    await eventually(async () => expect(await fresh.locator('[data-node-id=n1]').getAttribute('data-status')).toBe('added'), 60000);
    expect(await page().getByTestId('preview-removed').innerText()).toContain('legacy');
    expect(await page().getByTestId('preview-unchanged').innerText()).toContain('stable');
    expect(await page().locator('[data-testid=preview-diagram]').count()).toBe(2);
    await screenshot(page(), '60-preview');

    // The current revision is what it was: the diagram page draws revision 1's topology, queue and all.
    await banner.getByTestId('preview-current-link').click();
    await eventually(async () => expect(new URL(page().url()).pathname).toBe('/orgs/acme/services/shop'));
    const previews = page().getByTestId('service-previews');
    // The section is drawn at once, with a progress bar, and lists the previews when their load answers.
    await visible(previews);
    await containsText(previews, 'feature/cache');
    await eventually(async () => expect(await page().getByTestId('revision-synced').count()).toBe(1));
  });

  it('lists the preview on the service page and opens it from there', async () => {
    await page().goto(`${e2e.server.baseUrl}/orgs/acme/services/shop`);
    await page().getByTestId('preview-link-feature/cache').click();
    await eventually(async () => expect(new URL(page().url()).pathname).toBe(previewPath));
    await visible(page().getByTestId('preview-banner'));
  });
});
