import { HttpTestingController } from '@angular/common/http/testing';
import { ApplicationRef } from '@angular/core';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { SessionService } from '../../core/session.service';
import { query } from '../../../testing/dom';
import { ME, errorBody } from '../../../testing/fixtures';
import { createWithInputs, setUpTestApp } from '../../../testing/providers';
import { By } from '@angular/platform-browser';
import { DraftPage } from './draft.page';
import { EditorCanvasComponent } from './editor/editor-canvas.component';
import type { DraftData, DraftExportData } from './drafts.api';

const BASE = '/api/v1/orgs/acme/drafts/d1';

const DRAFT: DraftData = {
  id: 'd1',
  name: 'Orders topology',
  kind: 'flowchart',
  version: 5,
  nodeCount: 1,
  edgeCount: 0,
  createdAt: '2026-11-01T10:00:00Z',
  createdBy: null,
  updatedAt: '2026-11-01T11:00:00Z',
  updatedBy: { kind: 'user', id: 'u1', name: 'Ann', email: 'ann@acme.test' },
  source: { service: 'orders', diagram: 'topology', revision: 2, path: '.service/diagrams/topology.mmd', sha256: 'a', contextPath: null, contextSha256: null },
  graph: { kind: 'flowchart', direction: 'LR', nodes: [{ id: 'api', label: 'API' }], edges: [], groups: [] },
  layout: { nodes: [{ id: 'api', x: 0, y: 0 }], groups: [] },
  warnings: [],
};

const EXPORT: DraftExportData = {
  draftId: 'd1',
  version: 5,
  mermaid: 'flowchart LR\n  api["API"]\n',
  context: {},
  contextText: '{}\n',
  fileNames: { diagram: 'orders-topology.mmd', context: 'orders-topology.context.json' },
  digests: { diagram: 'd', context: 'c' },
  serviceYaml: 'architectureDiagrams:\n  - name: orders-topology\n',
  synced: null,
};

/** The editor page of a draft opened by an editor, before the draft's request is answered. */
function openAsEditor(draftId: string): { http: HttpTestingController; fixture: ComponentFixture<DraftPage> } {
  const http = setUpTestApp();
  TestBed.inject(SessionService).adopt({ ...ME, role: 'editor' });
  const fixture = createWithInputs(DraftPage, { orgId: 'acme', draftId });
  fixture.detectChanges();
  return { http, fixture };
}

/** Runs pending work and change detection without waiting for stability (a request may stay open on purpose). */
async function renderPage(fixture: ComponentFixture<DraftPage>): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  fixture.detectChanges();
  TestBed.inject(ApplicationRef).tick();
}

/**
 * The autosave's timer firing, after the page has seen every change: what is pending is saved now (the timer calls
 * saveNow; its one-second delay is tested with fake timers in autosave.spec.ts). Waiting the real second made these
 * tests fail on a busy machine.
 */
async function autosaveFires(fixture: ComponentFixture<DraftPage>): Promise<void> {
  await renderPage(fixture);
  void fixture.componentInstance.autosave.saveNow();
  await renderPage(fixture);
}

describe('DraftPage (the editor)', () => {
  let fixture: ComponentFixture<DraftPage>;
  let http: HttpTestingController;

  beforeEach(async () => {
    ({ http, fixture } = openAsEditor('d1'));
    http.expectOne(BASE).flush(DRAFT);
    await render();
    http.expectOne(`${BASE}/export`).flush(EXPORT);
    await render();
  });
  afterEach(() => http.verify());

  const page = () => fixture.componentInstance;

  const render = () => renderPage(fixture);

  /**
   * Waits for the autosave and answers it as version 6, then the export of that version. On a busy machine the
   * autosave's own one-second timer can fire before the test's last changes were seen, saving an earlier state
   * first: then each save is answered in turn (versions 6, 7…), with the export of each version asked for.
   */
  async function answerAutosave(): Promise<void> {
    await autosaveFires(fixture);
    http.expectOne(BASE).flush({ ...DRAFT, version: 6 });
    await render();
    for (let version = 7, [save] = http.match(BASE); save; version++, [save] = http.match(BASE)) {
      save.flush({ ...DRAFT, version });
      await render();
    }
    // The export of an earlier version is cancelled when the next version comes in.
    for (const exported of http.match(`${BASE}/export`).filter((request) => !request.cancelled)) exported.flush({ ...EXPORT, version: page().autosave.version() });
    expect(page().autosave.state()).toBe('saved');
  }

  it("shows the draft's name, version, where it was copied from, the palette and the export", () => {
    expect(query<HTMLInputElement>(fixture, '[data-testid=draft-title]').value).toBe('Orders topology');
    expect(query(fixture, '[data-testid=draft-saved]').textContent).toContain('Version 5');
    expect(query(fixture, '[data-testid=draft-source]').textContent).toContain('Copy of orders / topology, revision 2');
    expect(fixture.nativeElement.querySelectorAll('[data-palette-type]:not([data-palette-shape])')).toHaveLength(11);
    expect(fixture.nativeElement.querySelectorAll('[data-palette-shape]')).toHaveLength(23);
    expect(query(fixture, '[data-testid=save-state]').textContent).toContain('All changes saved');
    expect(query(fixture, '[data-testid=export-mermaid]').textContent).toBe(EXPORT.mermaid);
  });

  it('shows viewers the drawing and the export without the editing tools', async () => {
    TestBed.inject(SessionService).adopt({ ...ME, role: 'viewer' });
    await render();
    expect(fixture.nativeElement.querySelectorAll('[data-palette-type]')).toHaveLength(0);
    expect(fixture.nativeElement.querySelector('[data-testid=undo]')).toBeNull();
    expect(query(fixture, '[data-testid=diagram-canvas]')).toBeTruthy();
    expect(query(fixture, 'h1[data-testid=draft-title]').textContent).toContain('Orders topology');
    const key = new KeyboardEvent('keydown', { key: 'Delete', bubbles: true });
    page().store.selection.set({ nodes: ['api'], groups: [], edges: [] });
    document.body.dispatchEvent(key);
    expect(page().store.doc().graph.nodes).toHaveLength(1);
  });

  it('selects a focused node with Enter or Space (keyboard access to what a click selects); Shift adds it', () => {
    const canvas = fixture.debugElement.query(By.directive(EditorCanvasComponent)).componentInstance as EditorCanvasComponent;
    page().store.selection.set({ nodes: [], groups: ['g'], edges: [0] });
    canvas.keySelected('api', new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(page().store.selection()).toEqual({ nodes: ['api'], groups: [], edges: [] });
    page().store.selection.set({ nodes: [], groups: ['g'], edges: [] });
    canvas.keySelected('api', new KeyboardEvent('keydown', { key: ' ', shiftKey: true }));
    expect(page().store.selection()).toEqual({ nodes: ['api'], groups: ['g'], edges: [] });
  });

  it('saves a change about a second later over the version it edits, then exports the new version', async () => {
    query<HTMLButtonElement>(fixture, '[data-palette-type=table]').click();
    await render();
    expect(query(fixture, '[data-testid=save-state]').getAttribute('data-state')).toBe('pending');
    http.expectNone(BASE);
    await autosaveFires(fixture);
    const save = http.expectOne(BASE);
    expect(save.request.method).toBe('PUT');
    expect(save.request.headers.get('If-Match')).toBe('"5"');
    expect(save.request.body.graph.nodes.map((n: { id: string }) => n.id)).toEqual(['api', 'table1']);
    save.flush({ ...DRAFT, version: 6, graph: save.request.body.graph, layout: save.request.body.layout });
    await render();
    expect(query(fixture, '[data-testid=save-state]').getAttribute('data-state')).toBe('saved');
    expect(query(fixture, '[data-testid=draft-saved]').textContent).toContain('Version 6');
    http.expectOne(`${BASE}/export`).flush({ ...EXPORT, version: 6 });
    await render();
  });

  it('undoes and redoes with the keyboard, and does not take keys typed in a field', async () => {
    query<HTMLButtonElement>(fixture, '[data-palette-type=code]').click();
    await render();
    const key = (init: KeyboardEventInit, target: EventTarget = document.body) => target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, ...init }));
    key({ key: 'z', ctrlKey: true });
    expect(page().store.doc().graph.nodes.map((n) => n.id)).toEqual(['api']);
    key({ key: 'z', ctrlKey: true, shiftKey: true });
    expect(page().store.doc().graph.nodes.map((n) => n.id)).toEqual(['api', 'code1']);
    key({ key: 'z', metaKey: true });
    key({ key: 'y', ctrlKey: true });
    expect(page().store.doc().graph.nodes.map((n) => n.id)).toEqual(['api', 'code1']);
    key({ key: 'z', ctrlKey: true }, query(fixture, '[data-testid=draft-title]'));
    expect(page().store.doc().graph.nodes).toHaveLength(2);
    await answerAutosave();
  });

  it('copies and pastes the selection, but leaves Ctrl+C to the browser while page text is selected', async () => {
    const key = (init: KeyboardEventInit) => document.body.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, ...init }));
    page().store.selection.set({ nodes: ['api'], groups: [], edges: [] });
    const text = query(fixture, '[data-testid=export-mermaid]');
    window.getSelection()?.selectAllChildren(text);
    key({ key: 'c', ctrlKey: true });
    window.getSelection()?.removeAllRanges();
    key({ key: 'v', ctrlKey: true });
    expect(page().store.doc().graph.nodes.map((n) => n.id)).toEqual(['api']);
    key({ key: 'c', ctrlKey: true });
    key({ key: 'v', ctrlKey: true });
    expect(page().store.doc().graph.nodes.map((n) => n.id)).toEqual(['api', 'api1']);
    key({ key: 'd', ctrlKey: true });
    expect(page().store.doc().graph.nodes).toHaveLength(3);
    await answerAutosave();
  });

  it('on a version conflict names who saved, offers Reload and Save as a copy, and the copy keeps the drawing', async () => {
    query<HTMLButtonElement>(fixture, '[data-palette-type=comment]').click();
    await render();
    await autosaveFires(fixture);
    http.expectOne(BASE).flush(
      errorBody('draft_version_conflict', 'Someone else saved this draft.', [
        { message: 'saved by Bob', currentVersion: 7, updatedAt: '2026-11-01T12:00:00Z', updatedBy: { kind: 'user', id: 'u2', name: 'Bob', email: 'bob@acme.test' } } as { message: string },
      ]),
      { status: 409, statusText: 'Conflict' },
    );
    await render();
    expect(query(fixture, '[data-testid=save-conflict]').textContent).toContain('Bob (bob@acme.test) saved version 7');
    const confirm = jest.spyOn(window, 'confirm').mockReturnValue(false);
    expect(await page().canLeave()).toBe(false);
    expect(confirm).toHaveBeenCalled();

    const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    query<HTMLButtonElement>(fixture, '[data-testid=conflict-copy]').click();
    const created = http.expectOne('/api/v1/orgs/acme/drafts');
    expect(created.request.body).toMatchObject({ name: 'Orders topology (copy)', graph: { nodes: [{ id: 'api' }, { id: 'note1' }] } });
    created.flush({ ...DRAFT, id: 'd2', name: 'Orders topology (copy)' });
    await render();
    expect(navigate).toHaveBeenCalledWith(['/orgs', 'acme', 'drafts', 'd2']);

    expect(await page().canLeave()).toBe(true);
  });

  it('Reload after a conflict continues from the stored version', async () => {
    query<HTMLButtonElement>(fixture, '[data-palette-type=comment]').click();
    await render();
    await autosaveFires(fixture);
    http.expectOne(BASE).flush(errorBody('draft_version_conflict', 'Someone else saved this draft.', [{ message: 'x', currentVersion: 7 } as { message: string }]), { status: 409, statusText: 'Conflict' });
    await render();
    query<HTMLButtonElement>(fixture, '[data-testid=conflict-reload]').click();
    fixture.detectChanges();
    http.expectOne(BASE).flush({ ...DRAFT, version: 7, graph: { ...DRAFT.graph, nodes: [{ id: 'db', label: 'DB' }] }, layout: { nodes: [{ id: 'db', x: 0, y: 0 }], groups: [] } });
    await render();
    http.expectOne(`${BASE}/export`).flush({ ...EXPORT, version: 7 });
    await render();
    expect(page().store.doc().graph.nodes.map((n) => n.id)).toEqual(['db']);
    expect(page().store.canUndo()).toBe(false);
    expect(query(fixture, '[data-testid=save-state]').getAttribute('data-state')).toBe('saved');
    expect(query(fixture, '[data-testid=draft-saved]').textContent).toContain('Version 7');
  });
});

describe('DraftPage of a draft that does not exist', () => {
  it('says so without a "Try again" (loading it again cannot make it exist)', async () => {
    const { http, fixture } = openAsEditor('gone');
    http.expectOne('/api/v1/orgs/acme/drafts/gone').flush(errorBody('draft_not_found', 'There is no draft with this id in this organization.'), { status: 404, statusText: 'Not Found' });
    await renderPage(fixture);
    expect(query(fixture, '[role=alert]').textContent).toContain('There is no draft with this id in this organization.');
    expect(fixture.nativeElement.textContent).not.toContain('Try again');
    http.verify();
  });
});

describe('DraftPage of a fresh copy of a synced diagram', () => {
  it('lays it out without counting that as a change: nothing unsaved, nothing to undo, nothing saved', async () => {
    const { http, fixture } = openAsEditor('d1');
    const fresh: DraftData = { ...DRAFT, version: 1, layout: { nodes: [], groups: [] } };
    http.expectOne(BASE).flush(fresh);
    const tick = () => renderPage(fixture);
    await tick();
    http.expectOne(`${BASE}/export`).flush({ ...EXPORT, version: 1, synced: { service: 'orders', diagram: 'topology', revision: 2, sha256: 'd', contextSha256: 'c', equal: true } });
    for (let i = 0; i < 200 && fixture.componentInstance.store.doc().layout.nodes.length === 0; i++) await tick();
    expect(fixture.componentInstance.store.doc().layout.nodes.map((node) => node.id)).toEqual(['api']);
    // Longer than the autosave's delay: a layout counted as a change would have been saved by now.
    await autosaveFires(fixture);
    await tick();
    http.expectNone(BASE);
    expect(fixture.componentInstance.store.canUndo()).toBe(false);
    expect(query(fixture, '[data-testid=save-state]').getAttribute('data-state')).toBe('saved');
    expect(query(fixture, '[data-testid=export-synced]').textContent).toContain('The repository holds exactly these files');
    http.verify();
  });
});

describe('DraftPage fitting the drawing into the view', () => {
  /** Fits asked of the canvas, each with whether ngx-vflow had rendered (measured its view) by then. */
  function fits(): boolean[] {
    const rendered: boolean[] = [];
    jest.spyOn(EditorCanvasComponent.prototype, 'fit').mockImplementation(function (this: EditorCanvasComponent) {
      rendered.push(this.rendered());
    });
    return rendered;
  }
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  afterEach(() => jest.restoreAllMocks());

  async function untilFitted(fixture: ComponentFixture<DraftPage>, rendered: boolean[]): Promise<void> {
    for (let i = 0; i < 100 && rendered.length === 0; i++) {
      await nextFrame();
      await renderPage(fixture);
    }
  }

  it('fits a loaded draft once, after the canvas has rendered', async () => {
    const rendered = fits();
    const { http, fixture } = openAsEditor('d1');
    http.expectOne(BASE).flush(DRAFT);
    await renderPage(fixture);
    http.expectOne(`${BASE}/export`).flush(EXPORT);
    await untilFitted(fixture, rendered);
    await renderPage(fixture);
    expect(rendered).toEqual([true]);
  });

  it('fits a new layout once, after the canvas has rendered it', async () => {
    const { http, fixture } = openAsEditor('d1');
    http.expectOne(BASE).flush(DRAFT);
    await renderPage(fixture);
    http.expectOne(`${BASE}/export`).flush(EXPORT);
    await untilFitted(fixture, fits());
    const rendered = fits();
    await fixture.componentInstance.autoLayout('TB');
    await untilFitted(fixture, rendered);
    expect(rendered).toEqual([true]);
    expect(fixture.componentInstance.store.canUndo()).toBe(true);
    await autosaveFires(fixture);
    http.expectOne(BASE).flush({ ...DRAFT, version: 6 });
    await renderPage(fixture);
    http.expectOne(`${BASE}/export`).flush({ ...EXPORT, version: 6 });
  });
});
