import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, screenshot, visible } from './support/browser';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

/**
 * Embed links in the browser (issue 26): an admin copies Markdown from a diagram's Export menu (the dialog creates the
 * link, framed only by the README's site), a plain HTML page on another loopback origin shows the SVG and PNG as <img> and the zoomable page in an
 * iframe, and after the link is revoked on the service page the same page shows broken images.
 */
describe('embed links', () => {
  const e2e = useE2eSession({ setupToken: `e2e-embed-${Date.now()}-0123456789`, browser: { viewport: { width: 1400, height: 900 } }, timeout: 20000, organization: true });
  let readme: Server;
  let readmeUrl = '';
  let readmeHtml = '';

  beforeAll(async () => {
    await pushBundle(e2e.server, e2e.syncToken, { name: 'payments', description: 'Takes card payments.' }, [
      { kind: 'architecture-diagram', name: 'topology', file: file('.service/diagrams/topology.mmd', 'flowchart LR\n  web[Web shop] --> api[Payments API]\n  api --> ledgerDb[(Ledger DB)]\n') },
    ]);
    // A README's page as a forge or wiki serves it: another origin than the server's.
    readme = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readmeHtml));
    await new Promise<void>((listening) => readme.listen(0, '127.0.0.1', listening));
    readmeUrl = `http://127.0.0.1:${(readme.address() as AddressInfo).port}/README.html`;
  });
  afterAll(() => new Promise<void>((closed) => (readme ? readme.close(() => closed()) : closed())));

  /** Natural width of each <img> of the README page once it has loaded or failed (0 when broken). */
  const imageWidths = () =>
    e2e.page.evaluate(async () => {
      const images = Array.from(document.images);
      const settled = (image: HTMLImageElement) =>
        new Promise((done) => {
          image.addEventListener('load', done, { once: true });
          image.addEventListener('error', done, { once: true });
        });
      await Promise.all(images.map((image) => (image.complete ? null : settled(image))));
      return images.map((image) => image.naturalWidth);
    });

  it('creates a link from the Export menu, shows it on another site as <img> and iframe, and stops showing it once revoked', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.baseUrl}/orgs/acme/services/payments/diagrams/topology`);
    await visible(page.getByTestId('diagram-canvas'));
    await page.getByTestId('export-menu').click();
    await page.getByTestId('copy-markdown').click();
    await visible(page.getByTestId('embed-create'));
    // Only the README's site may frame the zoomable page: a bad origin is named before anything is created.
    const readmeOrigin = new URL(readmeUrl).origin;
    await page.getByTestId('embed-framing-listed').locator('input').check();
    await page.getByTestId('embed-frame-ancestors').fill(`${readmeOrigin}\nwiki.example.com/docs`);
    await page.getByTestId('embed-create').click();
    await eventually(async () => expect(await page.getByTestId('embed-frame-ancestors-errors').innerText()).toContain('Line 2: “wiki.example.com/docs” is not an origin'));
    await screenshot(page, '69-embed-link-frame-ancestors');
    await page.getByTestId('embed-frame-ancestors').fill(readmeOrigin);
    await page.getByTestId('embed-create').click();
    const markdownField = page.getByTestId('embed-snippet-markdown');
    await visible(markdownField);
    const markdown = await markdownField.inputValue();
    const imageUrl = await page.getByTestId('embed-snippet-image').inputValue();
    const iframe = await page.getByTestId('embed-snippet-iframe').inputValue();
    expect(markdown).toBe(`[![topology](${imageUrl})](${server.baseUrl}/orgs/acme/services/payments/diagrams/topology)`);
    expect(imageUrl).toMatch(new RegExp(`^${server.baseUrl}/embed/sce_[a-z0-9]{8}_[A-Za-z0-9_-]{32}\\.svg$`));
    await screenshot(page, '70-embed-link-dialog');
    await page.getByTestId('embed-done').click();

    readmeHtml = `<!doctype html><html><head><title>README</title></head><body style="font-family:sans-serif">
<h1>payments</h1><p>Architecture (SVG):</p><img id="svg" src="${imageUrl}" alt="topology">
<p>PNG:</p><img id="png" src="${imageUrl.replace(/\.svg$/, '.png')}" alt="topology png" width="400">
<p>Zoomable:</p>${iframe}</body></html>`;
    await page.goto(readmeUrl);
    await eventually(async () => expect((await imageWidths()).every((width) => width > 0)).toBe(true));
    // The iframe's page draws the same image, its own script (allowed by hash) fitting it into the frame.
    const frame = page.frameLocator('iframe');
    await eventually(async () => expect(await frame.locator('#image').evaluate((image: HTMLImageElement) => image.naturalWidth > 0 && image.style.transform.includes('scale'))).toBe(true));
    await screenshot(page, '71-embed-readme');

    // Revoke on the service page's Embed links card.
    await page.goto(`${server.baseUrl}/orgs/acme/services/payments`);
    const card = page.getByTestId('embed-links');
    await eventually(async () => expect(await card.innerText()).toContain(new URL(readmeUrl).origin));
    await card.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Revoke link' }).click();
    await eventually(async () => expect(await card.innerText()).toContain('Revoked'));
    await screenshot(page, '72-embed-links-revoked');

    await page.goto(readmeUrl);
    await eventually(async () => expect(await imageWidths()).toEqual([0, 0]));
    await eventually(async () => expect(await frame.locator('h1').innerText()).toBe('This embed link is not available'));
    await screenshot(page, '73-embed-readme-revoked');
  });
});
