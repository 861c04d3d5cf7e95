import { claimEarlyDiagram, diagramLayoutUrl, diagramUrl, prefetchDiagram } from './early-diagram-layout';

/** A fetch that answers each URL from `answers` (200 with the JSON), 404 for anything else; it records the URLs. */
function serve(answers: Record<string, unknown>): jest.Mock {
  const fetched = jest.fn(async (url: string) => {
    const body = answers[url];
    return { ok: body !== undefined, json: async () => body, text: async () => 'not found' } as unknown as Response;
  });
  Object.assign(globalThis, { fetch: fetched });
  return fetched;
}

describe('main.ts’s early requests for a diagram page (prefetchDiagram)', () => {
  afterEach(() => {
    claimEarlyDiagram(diagramUrl('acme', 'payments', 'checkout'));
    claimEarlyDiagram(diagramUrl('acme', 'payments', 'overview', 3));
    delete (globalThis as { fetch?: unknown }).fetch;
  });

  it('asks for a sequence diagram only, never for a layout it cannot have', async () => {
    const diagram = { kind: 'sequence', name: 'checkout' };
    const fetched = serve({ [diagramUrl('acme', 'payments', 'checkout')]: diagram });
    expect(prefetchDiagram('/orgs/acme/services/payments/diagrams/checkout', '')).toBe(true);
    const early = claimEarlyDiagram(diagramUrl('acme', 'payments', 'checkout'));
    await expect(early?.diagram).resolves.toEqual(diagram);
    await expect(early?.layout).resolves.toBeNull();
    expect(fetched.mock.calls.map(([url]) => url)).toEqual([diagramUrl('acme', 'payments', 'checkout')]);
  });

  it('asks for the layout of an architecture diagram once the diagram has said its kind, for the revision in the URL', async () => {
    const layout = { engine: 'x', fingerprint: 'y', containers: {} };
    const fetched = serve({
      [diagramUrl('acme', 'payments', 'overview', 3)]: { kind: 'flowchart' },
      [diagramLayoutUrl('acme', 'payments', 'overview', 3)]: layout,
    });
    expect(prefetchDiagram('/orgs/acme/services/payments/diagrams/overview', '?revision=3')).toBe(true);
    expect(claimEarlyDiagram(diagramUrl('acme', 'payments', 'overview'))).toBeNull();
    const early = claimEarlyDiagram(diagramUrl('acme', 'payments', 'overview', 3));
    await expect(early?.layout).resolves.toEqual(layout);
    expect(fetched.mock.calls.map(([url]) => url)).toEqual([diagramUrl('acme', 'payments', 'overview', 3), diagramLayoutUrl('acme', 'payments', 'overview', 3)]);
    // Claimed once: the page's next load asks itself.
    expect(claimEarlyDiagram(diagramUrl('acme', 'payments', 'overview', 3))).toBeNull();
  });

  it('leaves a refused diagram to the page (null) and then asks for no layout', async () => {
    const fetched = serve({});
    expect(prefetchDiagram('/orgs/acme/services/payments/diagrams/checkout', '')).toBe(true);
    const early = claimEarlyDiagram(diagramUrl('acme', 'payments', 'checkout'));
    await expect(early?.diagram).resolves.toBeNull();
    await expect(early?.layout).resolves.toBeNull();
    expect(fetched).toHaveBeenCalledTimes(1);
  });

  it('asks nothing on other pages', () => {
    const fetched = serve({});
    expect(prefetchDiagram('/orgs/acme/services/payments/flows/checkout', '')).toBe(false);
    expect(fetched).not.toHaveBeenCalled();
  });
});
