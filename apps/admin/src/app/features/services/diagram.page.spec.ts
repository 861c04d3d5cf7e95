import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router, type NavigationExtras } from '@angular/router';
import type { DiagramLayout } from '@sc/contracts';
import { LAYOUT_ENGINE_VERSION, createView, defaultViewLayoutInput, layoutFingerprint, type OverlaidGraph } from '@sc/diagram';
import { Clipboard } from '@angular/cdk/clipboard';
import { dialogOpened, query, settle as settleFixture, textOf } from '../../../testing/dom';
import { ME, errorBody } from '../../../testing/fixtures';
import { SessionService } from '../../core/session.service';
import { answerLate } from '../../../testing/http';
import { provideTestApp } from '../../../testing/providers';
import { CanvasCamera } from '../diagram-canvas/canvas-camera';
import { LayoutEngine } from '../diagram-canvas/layout-engine.service';
import { DiagramPage } from './diagram.page';
import { MermaidRenderer } from '../../shared/mermaid-renderer.service';
import type { DiagramData } from './services.api';

const GRAPH: OverlaidGraph = {
  kind: 'flowchart',
  direction: 'LR',
  nodes: [
    { id: 'api', label: 'Payments API', parent: 'core' },
    { id: 'worker', label: 'Worker', parent: 'core' },
    { id: 'db', label: 'DB' },
  ],
  groups: [{ id: 'core', label: 'Payments core', nodes: ['api', 'worker'] }],
  edges: [
    { source: 'api', target: 'worker', label: 'enqueue' },
    { source: 'worker', target: 'db' },
  ],
  contextName: 'Payments overview',
};

const DATA: DiagramData = {
  name: 'overview',
  kind: 'flowchart',
  revision: 3,
  path: '.service/diagrams/overview.mmd',
  mermaid: '',
  contextPath: '.service/diagrams/overview.context.json',
  context: {},
  graph: GRAPH,
  report: {
    applied: ['$.nodes.api'],
    unmatched: [{ key: 'nodes.Api', path: '$.nodes.Api', reason: 'no node has this id', hint: 'did you mean api?' }],
    errors: [],
    warnings: [],
  },
};

/** jsdom's Blob has no text(); FileReader reads it the old way. */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

const FLOW_SOURCE = 'sequenceDiagram\n  alt paid\n    web->>api: POST /checkout\n  end\n';
const DIAGRAM_URL = '/api/v1/orgs/acme/services/payments/diagrams/overview';

describe('DiagramPage', () => {
  let fixture: ComponentFixture<DiagramPage>;
  let http: HttpTestingController;
  /** Stands in for Mermaid, which needs a real browser layout engine; it records what it was asked to draw. */
  const drawn: string[] = [];
  /** Draws at once (sequence diagrams, through SequenceDiagramComponent). */
  let render: (source: string) => Promise<string>;

  beforeEach(async () => {
    drawn.length = 0;
    render = async (source) => (drawn.push(source), `<svg><text>drawing ${drawn.length}</text></svg>`);
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: MermaidRenderer, useValue: { render: (source: string) => render(source) } }],
    });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(DiagramPage);
    fixture.componentRef.setInput('orgId', 'acme');
    fixture.componentRef.setInput('service', 'payments');
    fixture.componentRef.setInput('name', 'overview');
    fixture.detectChanges();
  });

  /** The page's revision bar reads the revision list whenever it appears. */
  function answerRevisions(): void {
    for (const request of http.match((r) => r.url.endsWith('/revisions'))) request.flush([]);
  }

  /** The server has no layout of the diagram (yet), unless a test answered first: the page lays it out itself. */
  function answerLayouts(): void {
    for (const request of http.match((r) => r.url.split('?')[0].endsWith('/layout'))) {
      request.flush(errorBody('diagram_layout_not_found', 'Not ready.'), { status: 404, statusText: 'Not Found' });
    }
  }

  /** The diagram has no arrangement (it is read with the diagram, so the first drawing has it). */
  function answerArrangements(): void {
    for (const request of http.match((r) => r.url.endsWith('/arrangement'))) {
      if (!request.cancelled) request.flush({ version: 0, nodes: [], groups: [], edges: [], placed: [] });
    }
  }

  /** Settles the fixture, answering the revision list as soon as it is asked (the page is not stable before). */
  async function settle(target: ComponentFixture<DiagramPage>): Promise<void> {
    let settled = false;
    const settling = settleFixture(target).then(() => (settled = true));
    while (!settled) {
      answerRevisions();
      answerLayouts();
      answerArrangements();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await settling;
  }

  afterEach(() => {
    answerRevisions();
    answerLayouts();
    answerArrangements();
    http.verify();
    jest.restoreAllMocks();
  });

  const CHANGES = {
    name: 'overview',
    from: 2,
    to: 3,
    changed: true,
    nodes: { added: [{ id: 'worker', label: 'Worker' }], removed: [], changed: [] },
    edges: { added: [{ label: 'enqueue', target: 'worker', source: 'api' }], removed: [], changed: [] },
    groups: { added: [], removed: [], changed: [] },
  };

  async function loaded(): Promise<void> {
    http.expectOne(DIAGRAM_URL).flush(DATA);
    await settle(fixture);
    http.expectOne(`${DIAGRAM_URL}/diff?from=2&to=3`).flush(CHANGES);
    await settle(fixture);
    await settle(fixture);
  }

  const canvas = () => fixture.nativeElement.querySelector('[data-testid=diagram-canvas]') as HTMLElement | null;
  /** The header's info panel: description, file paths and revision. */
  function openInfo(): string {
    query<HTMLButtonElement>(fixture, '[data-testid=toggle-info]').click();
    fixture.detectChanges();
    return query(fixture, '[data-testid=diagram-info]').textContent ?? '';
  }
  /** Opens the header's Export menu (an overlay, outside the page's element) and returns one of its parts. */
  async function exportMenu(testId: string): Promise<HTMLElement> {
    if (document.querySelector(`[data-testid=${testId}]`) === null) {
      query<HTMLButtonElement>(fixture, '[data-testid=export-menu]').click();
      await settle(fixture);
    }
    const element = document.querySelector<HTMLElement>(`[data-testid=${testId}]`);
    if (element === null) throw new Error(`The export menu has no ${testId}`);
    return element;
  }
  const nodeIds = () => Array.from(canvas()?.querySelectorAll('[data-node-id]') ?? []).map((node) => node.getAttribute('data-node-id'));
  const edgeEnds = () =>
    Array.from(canvas()?.querySelectorAll('[data-edge-source]') ?? []).map((edge) => `${edge.getAttribute('data-edge-source')}>${edge.getAttribute('data-edge-target')}`);

  /** Lets the layout (ELK, in the test's thread) run until the canvas shows what `expected` says. */
  async function drawnUntil(expected: () => boolean): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      await settle(fixture);
      if (canvas()?.hasAttribute('data-drawn') && expected()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`The canvas did not draw what was expected; it shows nodes ${nodeIds().join(', ')} and edges ${edgeEnds().join(', ')}`);
  }

  it('draws the diagram on the canvas and lists its groups and context report', async () => {
    await loaded();
    expect(query(fixture, 'h1').textContent).toContain('Payments overview');
    await drawnUntil(() => nodeIds().length === 3);
    expect(nodeIds().sort()).toEqual(['api', 'db', 'worker']);
    expect(edgeEnds().sort()).toEqual(['api>worker', 'worker>db']);
    expect(query(fixture, '[data-group-id=core] button').getAttribute('aria-label')).toBe('Hide details');
    expect(query(fixture, '[data-node-id=api]').getAttribute('data-node-type')).toBe('mermaid');
    expect(drawn).toHaveLength(0);
    const text = textOf(fixture);
    expect(text).toContain('Payments core');
    expect(text).toContain('1 overlay applied.');
    expect(text).toContain('nodes.Api: no node has this id');
  });

  it('renders the first drawing’s nodes in one task, then its edges and `data-drawn` in a later one (not one long task)', async () => {
    // What the canvas holds at the end of each task that changed it (a mutation observer runs after the task's code).
    const states: string[] = [];
    const observer = new MutationObserver(() => {
      const view = canvas();
      if (view) states.push(`${nodeIds().length} nodes, ${edgeEnds().length} edges${view.hasAttribute('data-drawn') ? ', drawn' : ''}`);
    });
    observer.observe(fixture.nativeElement as HTMLElement, { subtree: true, childList: true, attributes: true });
    await loaded();
    await drawnUntil(() => nodeIds().length === 3);
    observer.disconnect();
    const firstNodes = states.find((state) => !state.startsWith('0 nodes'));
    expect(firstNodes).toBe('3 nodes, 0 edges');
    expect(states.at(-1)).toBe('3 nodes, 2 edges, drawn');
  });

  it('lists what changed since the previous revision by id and highlights it on the drawing', async () => {
    await loaded();
    const card = query(fixture, '[data-testid=diagram-changes]');
    expect(card.textContent).toContain('Changes since revision 2');
    const entries = Array.from(card.querySelectorAll('.change-list li')).map((li) => (li.textContent ?? '').replace(/\s+/g, ' ').trim());
    expect(entries).toEqual(['added node worker Worker', 'added edge api → worker enqueue']);
    await drawnUntil(() => nodeIds().length === 3);
    expect(query(fixture, '[data-node-id=worker]').getAttribute('data-status')).toBe('added');
    expect(query(fixture, '[data-edge-source=api][data-edge-target=worker]').getAttribute('data-status')).toBe('added');
    expect(query(fixture, '[data-node-id=api]').getAttribute('data-status')).toBeNull();

    query<HTMLButtonElement>(fixture, '[data-testid=toggle-highlights]').click();
    await drawnUntil(() => !canvas()?.querySelector('[data-status]'));
  });

  it('still shows the diagram when the changes cannot be loaded', async () => {
    http.expectOne(DIAGRAM_URL).flush(DATA);
    await settle(fixture);
    http.expectOne(`${DIAGRAM_URL}/diff?from=2&to=3`).flush('x', { status: 500, statusText: 'Error' });
    await settle(fixture);
    expect(fixture.nativeElement.querySelector('[data-testid=diagram-changes]')).toBeNull();
    await drawnUntil(() => nodeIds().length === 3);
    expect(fixture.nativeElement.querySelector('[role=alert]')).toBeNull();
  });

  it('keeps the collapsed groups when the changes arrive after the diagram', async () => {
    http.expectOne(DIAGRAM_URL).flush(DATA);
    await settle(fixture);
    const toggle = query<HTMLButtonElement>(fixture, '[data-testid=toggle-core]');
    toggle.click();
    await settle(fixture);
    http.expectOne(`${DIAGRAM_URL}/diff?from=2&to=3`).flush(CHANGES);
    await settle(fixture);
    expect(query(fixture, '[data-testid=diagram-changes]').textContent).toContain('Changes since revision 2');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await drawnUntil(() => nodeIds().join() === 'db');
  });

  it('lists the changes of the revision on screen, not of the one left', async () => {
    http.expectOne(DIAGRAM_URL).flush(DATA);
    await settle(fixture);
    const left = http.expectOne(`${DIAGRAM_URL}/diff?from=2&to=3`);
    fixture.componentRef.setInput('revision', '2');
    fixture.detectChanges();
    http.expectOne(`${DIAGRAM_URL}?revision=2`).flush({ ...DATA, revision: 2 });
    await settle(fixture);
    http.expectOne(`${DIAGRAM_URL}/diff?from=1&to=2`).flush({ ...CHANGES, from: 1, to: 2, changed: false });
    await settle(fixture);
    answerLate(left, CHANGES);
    await settle(fixture);
    const card = query(fixture, '[data-testid=diagram-changes]');
    expect(card.textContent).toContain('Changes since revision 1');
    expect(card.textContent).toContain('Unchanged since revision 1.');
  });

  it('reads an earlier revision when the URL asks for one', async () => {
    http.expectOne(DIAGRAM_URL).flush(DATA);
    await settle(fixture);
    http.expectOne(`${DIAGRAM_URL}/diff?from=2&to=3`).flush(CHANGES);
    fixture.componentRef.setInput('revision', '1');
    fixture.detectChanges();
    http.expectOne(`${DIAGRAM_URL}?revision=1`).flush({ ...DATA, revision: 1 });
    await settle(fixture);
    expect(openInfo()).toContain('revision 1');
    expect(fixture.nativeElement.querySelector('[data-testid=diagram-changes]')).toBeNull();
  });

  it('shows the revision asked for last, even when the earlier request answers after it', async () => {
    const current = http.expectOne(DIAGRAM_URL);
    fixture.componentRef.setInput('revision', '1');
    fixture.detectChanges();
    const earlier = http.expectOne(`${DIAGRAM_URL}?revision=1`);
    const withoutWorker: OverlaidGraph = { ...GRAPH, nodes: GRAPH.nodes.filter((node) => node.id !== 'worker'), edges: [] };
    earlier.flush({ ...DATA, revision: 1, graph: withoutWorker });
    await settle(fixture);
    answerLate(current, DATA);
    await settle(fixture);
    await settle(fixture);
    const info = openInfo();
    expect(info).toContain('revision 1');
    expect(info).not.toContain('revision 3');
    await drawnUntil(() => nodeIds().length === 2);
    expect(nodeIds().sort()).toEqual(['api', 'db']);
  });

  it('hides and shows a group’s details from its frame: members gone, crossing edges pointing at the group', async () => {
    await loaded();
    await drawnUntil(() => nodeIds().length === 3);
    query<HTMLButtonElement>(fixture, '[data-group-id=core] button[aria-label="Hide details"]').click();
    await drawnUntil(() => nodeIds().join() === 'db');
    expect(edgeEnds()).toEqual(['core>db']);
    expect(query(fixture, '[data-group-id=core] button').getAttribute('aria-label')).toBe('Show details');
    expect(query(fixture, '[data-testid=toggle-core]').getAttribute('aria-pressed')).toBe('true');
    expect(textOf(fixture)).toContain('1 node, 1 connection, 1 group shown');

    query<HTMLButtonElement>(fixture, '[data-group-id=core] button[aria-label="Show details"]').click();
    await drawnUntil(() => nodeIds().length === 3);
    expect(edgeEnds().sort()).toEqual(['api>worker', 'worker>db']);
    expect(query(fixture, '[data-testid=toggle-core]').getAttribute('aria-pressed')).toBe('false');
  });

  describe('state in the URL', () => {
    /** What the page asked the router to write, merged into the URL's query parameters. */
    function urlWrites(): jest.SpyInstance {
      return jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    }
    const written = (navigate: jest.SpyInstance) => navigate.mock.calls.map(([, extras]) => (extras as NavigationExtras).queryParams);

    it('writes a collapse to the URL and draws the collapse state the URL names (Back, Forward, a link)', async () => {
      const navigate = urlWrites();
      await loaded();
      await drawnUntil(() => nodeIds().length === 3);
      query<HTMLButtonElement>(fixture, '[data-group-id=core] button[aria-label="Hide details"]').click();
      await drawnUntil(() => nodeIds().join() === 'db');
      query<HTMLButtonElement>(fixture, '[data-testid=expand-all]').click();
      await drawnUntil(() => nodeIds().length === 3);
      expect(written(navigate)).toEqual([{ collapsed: ['core'] }, { collapsed: null }]);
      for (const call of navigate.mock.calls) expect(call[1]).toMatchObject({ queryParamsHandling: 'merge' });

      // Back: the router gives the page the earlier URL's parameters.
      fixture.componentRef.setInput('collapsed', 'core');
      await drawnUntil(() => nodeIds().join() === 'db');
      expect(query(fixture, '[data-testid=toggle-core]').getAttribute('aria-pressed')).toBe('true');
      // A group the graph does not have (a link made for another revision) is left out.
      fixture.componentRef.setInput('collapsed', ['gone']);
      await drawnUntil(() => nodeIds().length === 3);
    });

    it('opens the details of the node the URL names, and writes the node the user selects', async () => {
      const navigate = urlWrites();
      // Bringing the node into view moves the viewport with d3-zoom, which needs a real SVG (the canvas e2e covers it).
      const reveal = jest.spyOn(CanvasCamera.prototype, 'centreIfHidden').mockImplementation(() => undefined);
      fixture.componentRef.setInput('node', 'worker');
      await loaded();
      await drawnUntil(() => nodeIds().length === 3);
      await drawnUntil(() => fixture.nativeElement.querySelector('[data-testid=details-panel]') !== null);
      expect(query(fixture, '[data-testid=details-panel]').textContent).toContain('Worker');
      expect(written(navigate)).toEqual([]);
      // Revealed two frames after the first drawing is on screen, which a loaded machine may not have reached yet.
      await drawnUntil(() => reveal.mock.calls.length > 0);
      expect(reveal).toHaveBeenCalledWith('worker');

      query<HTMLElement>(fixture, '[data-node-id=db]').click();
      await settle(fixture);
      expect(written(navigate)).toEqual([{ node: 'db' }]);
      // Back: the URL names no node; the details close.
      fixture.componentRef.setInput('node', undefined);
      await drawnUntil(() => fixture.nativeElement.querySelector('[data-testid=details-panel]') === null);
    });

    it('lists the changes against the revision the URL names, and writes the revision picked', async () => {
      const navigate = urlWrites();
      fixture.componentRef.setInput('compare', '1');
      http.expectOne(DIAGRAM_URL).flush(DATA);
      await settle(fixture);
      http.expectOne(`${DIAGRAM_URL}/diff?from=1&to=3`).flush({ ...CHANGES, from: 1 });
      await settle(fixture);
      await settle(fixture);
      expect(query(fixture, '[data-testid=diagram-changes]').textContent).toContain('Changes since revision 1');
      fixture.componentInstance.compareWith(2);
      expect(written(navigate)).toEqual([{ compare: null }]);
      fixture.componentInstance.compareWith(1);
      expect(written(navigate).at(-1)).toEqual({ compare: 1 });
      // A comparison the user asked for that cannot be made says so (the picker stays to choose another).
      fixture.componentRef.setInput('compare', '2');
      fixture.detectChanges();
      http.expectOne(`${DIAGRAM_URL}/diff?from=2&to=3`).flush(errorBody('diagram_not_found', 'Not in revision 2.'), { status: 404, statusText: 'Not Found' });
      await settle(fixture);
      expect(query(fixture, '[data-testid=diagram-changes]').textContent).toContain('cannot be compared with revision 2');
    });
  });

  /**
   * GRAPH with a label no other test draws: the tab's layout cache (shared by the tests, as by the pages of a tab)
   * holds nothing for it, so what is drawn comes from the server's layout.
   */
  const SERVER_LAID_OUT: OverlaidGraph = { ...GRAPH, nodes: GRAPH.nodes.map((node) => (node.id === 'db' ? { ...node, label: 'Ledger DB' } : node)) };

  /** The server's layout of SERVER_LAID_OUT's default view, with positions ELK would never choose (db far below the rest). */
  /** core's port for the edges from worker (one source, one target: the tree from the source names it). */
  const PORT = 'core\u0001out\u0001from\u0001worker';
  function serverLayout(fingerprint = layoutFingerprint(defaultViewLayoutInput(SERVER_LAID_OUT, new Map()))): DiagramLayout {
    return {
      engine: LAYOUT_ENGINE_VERSION,
      fingerprint,
      containers: {
        // worker → db leaves the group through its port: one segment inside core, one at the top level.
        '': { width: 2000, height: 2000, children: { core: [0, 0], db: [1500, 1700] }, edges: { [`${PORT}\u0001db`]: { points: [600, 100, 1500, 1700] } } },
        core: {
          width: 600,
          height: 200,
          children: { api: [20, 60], worker: [300, 60] },
          edges: { 'api->worker#0': { points: [100, 80, 300, 80], label: [180, 60] }, [`worker\u0001${PORT}`]: { points: [400, 80, 600, 100] } },
          ports: { [PORT]: [600, 100] },
        },
      },
    };
  }
  const drawnBox = (id: string) => fixture.componentInstance.canvas()?.laidOutDiagram()?.result.boxes[id];

  it('draws the server’s layout of the default view at once when it is the layout of the graph shown, and ELK’s after a collapse', async () => {
    // Asked for once the diagram has said its kind.
    expect(http.match(`${DIAGRAM_URL}/layout`)).toEqual([]);
    http.expectOne(DIAGRAM_URL).flush({ ...DATA, graph: SERVER_LAID_OUT });
    http.expectOne(`${DIAGRAM_URL}/layout`).flush(serverLayout());
    await settle(fixture);
    http.expectOne(`${DIAGRAM_URL}/diff?from=2&to=3`).flush(CHANGES);
    await settle(fixture);
    await drawnUntil(() => nodeIds().length === 3);
    expect(drawnBox('db')).toMatchObject({ x: 1500, y: 1700 });
    query<HTMLButtonElement>(fixture, '[data-group-id=core] button[aria-label="Hide details"]').click();
    await drawnUntil(() => nodeIds().join() === 'db' && drawnBox('db')?.x !== 1500);
    query<HTMLButtonElement>(fixture, '[data-group-id=core] button[aria-label="Show details"]').click();
    await drawnUntil(() => nodeIds().length === 3);
    expect(drawnBox('db')).toMatchObject({ x: 1500, y: 1700 });
  });

  it.each([
    ['another graph', () => serverLayout('another-graph')],
    ['another engine', () => ({ ...serverLayout(), engine: 'layered-0' })],
  ])('lays the diagram out itself when the server’s layout is of %s', async (_case, layout) => {
    http.expectOne(DIAGRAM_URL).flush(DATA);
    http.expectOne(`${DIAGRAM_URL}/layout`).flush(layout());
    await settle(fixture);
    http.expectOne(`${DIAGRAM_URL}/diff?from=2&to=3`).flush(CHANGES);
    await settle(fixture);
    await drawnUntil(() => nodeIds().length === 3);
    expect(drawnBox('db')?.x).not.toBe(1500);
    expect(drawnBox('db')?.y).not.toBe(1700);
  });

  it('draws a collapse at once from the current drawing, then the new layout when it arrives', async () => {
    await loaded();
    await drawnUntil(() => nodeIds().length === 3);
    const before = query(fixture, '[data-node-id=db]').closest('[transform]')?.getAttribute('transform');
    query<HTMLButtonElement>(fixture, '[data-group-id=core] button[aria-label="Hide details"]').click();
    // Change detection only, no time for the layout (ELK runs asynchronously): the collapse is already drawn.
    fixture.detectChanges();
    fixture.detectChanges();
    expect(canvas()?.getAttribute('data-drawn')).toBe('1');
    expect(nodeIds()).toEqual(['db']);
    expect(edgeEnds()).toEqual(['core>db']);
    // In place: the node outside the group has not moved yet, and the canvas says its layout is still coming.
    expect(query(fixture, '[data-node-id=db]').closest('[transform]')?.getAttribute('transform')).toBe(before);
    expect(canvas()?.getAttribute('data-layout')).toBe('pending');
    // Then ELK's layout of the collapsed diagram replaces it.
    await drawnUntil(() => query(fixture, '[data-node-id=db]').closest('[transform]')?.getAttribute('transform') !== before);
    expect(nodeIds()).toEqual(['db']);
    expect(edgeEnds()).toEqual(['core>db']);
    await drawnUntil(() => canvas()?.getAttribute('data-layout') === 'done');
    // Expanded again: that layout is known, drawn at once with nothing pending.
    query<HTMLButtonElement>(fixture, '[data-group-id=core] button[aria-label="Show details"]').click();
    fixture.detectChanges();
    fixture.detectChanges();
    expect(nodeIds().length).toBe(3);
    expect(canvas()?.getAttribute('data-layout')).toBe('done');
  });

  it('empties the search box on Escape, even when the text was typed and Escape pressed before change detection', async () => {
    // Enter (go to the first match) empties it the same way (clearSearch); it centres the viewport with d3-zoom, which
    // needs a real SVG: the canvas e2e's searches cover it.
    await loaded();
    await drawnUntil(() => nodeIds().length === 3);
    const box = query<HTMLInputElement>(fixture, '[data-testid=diagram-search]');
    box.value = 'worker';
    box.dispatchEvent(new Event('input'));
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    fixture.detectChanges();
    expect(box.value).toBe('');
    expect(fixture.nativeElement.querySelector('.search-results')).toBeNull();
  });

  it('asks for a collapse’s layout only after the frame that paints the collapse drawn in place (ELK does not compete with that frame)', async () => {
    await loaded();
    await drawnUntil(() => nodeIds().length === 3);
    const layout = jest.spyOn(LayoutEngine.prototype, 'layout');
    // Frames run when the test says so.
    const frames: FrameRequestCallback[] = [];
    const frame = jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    try {
      query<HTMLButtonElement>(fixture, '[data-group-id=core] button[aria-label="Hide details"]').click();
      fixture.detectChanges();
      fixture.detectChanges();
      expect(nodeIds()).toEqual(['db']);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(layout).not.toHaveBeenCalled();
    } finally {
      frame.mockRestore();
    }
    for (const callback of frames.splice(0)) callback(performance.now());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(layout).toHaveBeenCalledTimes(1);
    await drawnUntil(() => nodeIds().length === 1);
  });

  it('updates the side list and the URL after the canvas has painted a collapse, not in the task that draws it', async () => {
    const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    await loaded();
    await drawnUntil(() => nodeIds().length === 3);
    await drawnUntil(() => fixture.nativeElement.querySelector('[data-testid=toggle-core]') !== null);
    const frames: FrameRequestCallback[] = [];
    const requestFrame = jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    query<HTMLButtonElement>(fixture, '[data-testid=toggle-core]').click();
    fixture.detectChanges();
    fixture.detectChanges();
    expect(nodeIds()).toEqual(['db']);
    expect(query(fixture, '[data-testid=toggle-core]').getAttribute('aria-pressed')).toBe('false');
    expect(navigate).not.toHaveBeenCalled();

    // The frame is painted: the list and the URL follow in a task of their own.
    requestFrame.mockRestore();
    for (const frame of frames.splice(0)) frame(performance.now());
    await drawnUntil(() => query(fixture, '[data-testid=toggle-core]').getAttribute('aria-pressed') === 'true');
    expect(navigate.mock.calls.map((call) => call[1]?.queryParams)).toEqual([{ collapsed: ['core'] }]);
  });

  /** Records the files the page hands to the browser's download: name and text. */
  function captureDownloads(): () => Promise<{ name: string; text: string }[]> {
    const created: Blob[] = [];
    const createObjectURL = jest.fn((blob: Blob) => (created.push(blob), `blob:${created.length}`));
    Object.defineProperty(globalThis.URL, 'createObjectURL', { value: createObjectURL, configurable: true });
    Object.defineProperty(globalThis.URL, 'revokeObjectURL', { value: jest.fn(), configurable: true });
    const clicks: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    return async () => {
      const texts = await Promise.all(created.map(readBlob));
      return clicks.map((name, index) => ({ name, text: texts[index] }));
    };
  }

  it('exports a synced diagram as the files exactly as synced in its revision', async () => {
    await loaded();
    expect((await exportMenu('export-mermaid-kind')).textContent).toContain('Exact files as synced in revision 3');
    const downloads = captureDownloads();
    (await exportMenu('export-mermaid')).click();
    const mermaid = 'C4Context\r\n  Person(a, "A")  %% as written\n';
    const context = '{ "name":\t"Payments overview" }';
    http.expectOne(`${DIAGRAM_URL}/source?revision=3`).flush({
      name: 'overview',
      kind: 'c4',
      revision: 3,
      exact: true,
      mermaid: { path: '.service/diagrams/overview.mmd', fileName: 'overview.mmd', content: mermaid, sha256: 'a'.repeat(64) },
      context: { path: '.service/diagrams/overview.context.json', fileName: 'overview.context.json', content: context, sha256: 'b'.repeat(64) },
    });
    await settle(fixture);
    expect(await downloads()).toEqual([
      { name: 'overview.mmd', text: mermaid },
      { name: 'overview.context.json', text: context },
    ]);
  });

  it('regenerates Mermaid and context files from a graph that is not the synced one', async () => {
    await loaded();
    fixture.componentInstance.view.set(createView({ ...GRAPH, nodes: GRAPH.nodes.slice(0, 2), edges: GRAPH.edges.slice(0, 1) }));
    await settle(fixture);
    expect((await exportMenu('export-mermaid-kind')).textContent).toContain('Regenerated from the graph');
    const downloads = captureDownloads();
    (await exportMenu('export-mermaid')).click();
    const [mermaid, context] = await downloads();
    expect([mermaid.name, context.name]).toEqual(['overview.mmd', 'overview.context.json']);
    expect(mermaid.text).toContain('subgraph core ["Payments core"]');
    expect(mermaid.text).not.toContain('DB');
    expect(JSON.parse(context.text)).toEqual({ name: 'Payments overview' });
  });

  it('offers editors "Edit a copy": a draft named after the diagram, copied from the revision shown, then opens it', async () => {
    TestBed.inject(SessionService).adopt({ ...ME, role: 'editor' });
    await loaded();
    const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    query<HTMLButtonElement>(fixture, '[data-testid=edit-copy]').click();
    const created = http.expectOne({ method: 'POST', url: '/api/v1/orgs/acme/drafts' });
    expect(created.request.body).toEqual({ name: 'overview', from: { service: 'payments', diagram: 'overview', revision: 3 } });
    created.flush({ id: 'd9', name: 'overview' });
    await settle(fixture);
    expect(navigate).toHaveBeenCalledWith(['/orgs', 'acme', 'drafts', 'd9']);
  });

  it('offers no "Edit a copy" to viewers, nor of a diagram that is not a flowchart', async () => {
    TestBed.inject(SessionService).adopt({ ...ME, role: 'viewer' });
    await loaded();
    expect(fixture.nativeElement.querySelector('[data-testid=edit-copy]')).toBeNull();
    TestBed.inject(SessionService).adopt({ ...ME, role: 'editor' });
    fixture.detectChanges();
    expect(fixture.nativeElement.querySelector('[data-testid=edit-copy]')).not.toBeNull();
  });

  it('offers admins embed links in the Export menu: the dialog creates one, later copies reuse it', async () => {
    TestBed.inject(SessionService).adopt({ ...ME, role: 'admin' });
    await loaded();
    (await exportMenu('copy-markdown')).click();
    await dialogOpened(fixture);
    (document.querySelector('[data-testid=embed-pinned] input') as HTMLInputElement).click();
    await settle(fixture);
    (document.querySelector('[data-testid=embed-create]') as HTMLButtonElement).click();
    const created = http.expectOne({ method: 'POST', url: '/api/v1/orgs/acme/embed-links' });
    expect(created.request.body).toEqual({ service: 'payments', diagram: 'overview', revision: 3 });
    const url = 'http://sc.test/embed/sce_ab12cd34_' + 'x'.repeat(32);
    created.flush({ id: 'e1', token: 'sce_…', url, svgUrl: `${url}.svg`, pngUrl: `${url}.png`, embedLink: {} });
    await settle(fixture);
    const fields = Array.from(document.querySelectorAll<HTMLInputElement>('mat-dialog-container input[data-testid^=embed-snippet-]'));
    // The Markdown asked for comes first; it shows the image and links to the diagram's page.
    expect(fields.map((field) => field.dataset['testid'])).toEqual(['embed-snippet-markdown', 'embed-snippet-image', 'embed-snippet-iframe']);
    expect(fields[0].value).toBe(`[![overview](${url}.svg)](${location.origin}/orgs/acme/services/payments/diagrams/overview)`);
    (document.querySelector('[data-testid=embed-done]') as HTMLButtonElement).click();
    await settle(fixture);
    const copy = jest.spyOn(TestBed.inject(Clipboard), 'copy').mockReturnValue(true);
    (await exportMenu('copy-iframe')).click();
    await settle(fixture);
    expect(copy).toHaveBeenCalledWith(expect.stringContaining(`<iframe src="${url}"`));
    expect(document.querySelector('mat-dialog-container')).toBeNull();
  });

  it('offers no embed links to editors', async () => {
    TestBed.inject(SessionService).adopt({ ...ME, role: 'editor' });
    await loaded();
    await exportMenu('export-svg');
    expect(document.querySelector('[data-testid=copy-image-link]')).toBeNull();
  });

  it('explains a diagram that does not exist', async () => {
    http.expectOne(DIAGRAM_URL).flush(errorBody('diagram_not_found', 'No diagram "overview" in service "payments".'), {
      status: 404,
      statusText: 'Not Found',
    });
    await settle(fixture);
    expect(query(fixture, '[role=alert]').textContent).toContain('No diagram "overview"');
    expect(drawn).toHaveLength(0);
    // Loading it again cannot make it exist: no "Try again" (issue 23).
    expect(fixture.nativeElement.querySelector('sc-load-error button')).toBeNull();
    expect(fixture.nativeElement.textContent).not.toContain('Try again');
  });

  it('explains a service that does not exist, without a "Try again"', async () => {
    http.expectOne(DIAGRAM_URL).flush(errorBody('service_not_found', 'There is no service named "payments" in this organization.'), { status: 404, statusText: 'Not Found' });
    await settle(fixture);
    expect(query(fixture, '[role=alert]').textContent).toContain('There is no service named "payments"');
    expect(fixture.nativeElement.textContent).not.toContain('Try again');
  });

  it('offers to try again when the diagram cannot be loaded', async () => {
    http.expectOne(DIAGRAM_URL).flush('x', { status: 500, statusText: 'Error' });
    await settle(fixture);
    const retry = query<HTMLButtonElement>(fixture, 'sc-load-error button');
    expect(retry.textContent).toContain('Try again');
    retry.click();
    fixture.detectChanges();
    http.expectOne(DIAGRAM_URL).flush({ ...DATA, revision: 1 });
    await settle(fixture);
    await settle(fixture);
    expect(fixture.nativeElement.querySelector('[role=alert]')).toBeNull();
    await drawnUntil(() => nodeIds().length === 3);
  });

  it('says when the service synced job notes but no job dependency diagram', async () => {
    http.expectOne(DIAGRAM_URL).flush({ ...DATA, revision: 1 });
    fixture.componentRef.setInput('source', 'jobs');
    fixture.componentRef.setInput('name', '');
    fixture.detectChanges();
    http.expectOne('/api/v1/orgs/acme/services/payments/jobs').flush({ revision: 2, notesPath: '.service/jobs.md', notes: 'Nightly at 02:00.', dependencies: null });
    await settle(fixture);
    expect(textOf(fixture)).toContain('This service synced no job dependency diagram.');
    expect(query(fixture, '[data-testid=artifact-notes]').textContent?.trim()).toBe('Nightly at 02:00.');
    expect(fixture.nativeElement.querySelector('[data-testid=diagram-canvas]')).toBeNull();
  });

  it('shows a flow with its notes and no context panel', async () => {
    http.expectOne(DIAGRAM_URL).flush({ ...DATA, revision: 1 });
    fixture.componentRef.setInput('source', 'flow');
    fixture.componentRef.setInput('name', 'checkout');
    fixture.detectChanges();
    http.expectOne('/api/v1/orgs/acme/services/payments/flows/checkout').flush({
      name: 'checkout',
      kind: 'flowchart',
      revision: 2,
      path: '.service/flows/checkout.mmd',
      mermaid: FLOW_SOURCE,
      graph: { ...GRAPH, contextName: undefined },
      notesPath: '.service/flows/checkout.md',
      notes: 'Retries <b>twice</b>.',
    });
    await settle(fixture);
    await settle(fixture);
    expect(query(fixture, 'h1').textContent).toContain('checkout');
    // Notes are markdown: the HTML in them is rendered (and sanitized), not shown as text.
    expect(query(fixture, '[data-testid=artifact-notes]').textContent?.trim()).toBe('Retries twice.');
    expect(query(fixture, '[data-testid=artifact-notes] b').textContent).toBe('twice');
    expect(fixture.nativeElement.querySelector('[data-testid=context-report]')).toBeNull();

    // A flow has no context file; its loaded Mermaid is the stored file, exported as is under its synced name.
    const downloads = captureDownloads();
    (await exportMenu('export-mermaid')).click();
    await settle(fixture);
    expect(await downloads()).toEqual([{ name: 'checkout.mmd', text: FLOW_SOURCE }]);
  });

  it('draws a sequence diagram from its stored source with the participants’ context names', async () => {
    http.expectOne(DIAGRAM_URL).flush({
      ...DATA,
      kind: 'sequence',
      revision: 1,
      mermaid: 'sequenceDiagram\n  C->>A: pay\n',
      graph: {
        kind: 'sequence',
        nodes: [
          { id: 'C', label: 'C' },
          { id: 'A', label: 'A', overlay: { name: 'Payments API' } },
        ],
        edges: [{ source: 'C', target: 'A', label: 'pay' }],
        groups: [],
      },
    });
    // A sequence diagram has no server layout: it is never asked for.
    expect(http.match((request) => request.url.split('?')[0].endsWith('/layout'))).toEqual([]);
    await settle(fixture);
    await settle(fixture);
    expect(drawn).toEqual(['sequenceDiagram\n  participant C; participant A as Payments API; C->>A: pay\n']);
    expect(query(fixture, '[data-testid=sequence-diagram]').innerHTML).toContain('drawing 1');
    expect(fixture.nativeElement.querySelector('[data-testid=diagram-canvas]')).toBeNull();
  });

  it('exports a sequence diagram as SVG: Mermaid’s drawing at its natural size, on white', async () => {
    render = async (source) => (drawn.push(source), '<svg id="m" viewBox="-50 -10 640 420" style="max-width: 640px;"><text>Payments API</text></svg>');
    http.expectOne(DIAGRAM_URL).flush({
      ...DATA,
      kind: 'sequence',
      revision: 1,
      mermaid: 'sequenceDiagram\n  C->>A: pay\n',
      graph: { kind: 'sequence', nodes: [{ id: 'C', label: 'C' }, { id: 'A', label: 'A', overlay: { name: 'Payments API' } }], edges: [], groups: [] },
    });
    await settle(fixture);
    await settle(fixture);
    const downloads = captureDownloads();
    (await exportMenu('export-svg')).click();
    const [file] = await downloads();
    expect(file.name).toBe('overview.svg');
    expect(file.text).toContain('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="420" id="m" viewBox="-50 -10 640 420"');
    expect(file.text).toContain('<rect x="-50" y="-10" width="640" height="420" fill="#ffffff"/><text>Payments API</text>');
  });
});
