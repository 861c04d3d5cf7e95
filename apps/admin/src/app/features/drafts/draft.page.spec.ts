import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { query, settle, textOf } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { DraftPage } from './draft.page';
import type { DraftData, DraftExportData } from './drafts.api';

const BASE = '/api/v1/orgs/acme/drafts/d1';

const DRAFT: DraftData = {
  id: 'd1',
  name: 'Orders topology',
  kind: 'flowchart',
  version: 5,
  nodeCount: 2,
  edgeCount: 1,
  createdAt: '2026-11-01T10:00:00Z',
  createdBy: null,
  updatedAt: '2026-11-01T11:00:00Z',
  updatedBy: { kind: 'user', id: 'u1', name: 'Ann', email: 'ann@acme.test' },
  source: { service: 'orders', diagram: 'topology', revision: 2, path: '.service/diagrams/topology.mmd', sha256: 'a', contextPath: null, contextSha256: null },
  graph: { kind: 'flowchart', nodes: [], edges: [], groups: [] },
  layout: { nodes: [], groups: [] },
  warnings: [],
};

const EXPORT: DraftExportData = {
  draftId: 'd1',
  version: 5,
  mermaid: 'flowchart LR\n  api["API"] --> db["DB"]\n',
  context: { nodes: { api: { type: 'shape' } } },
  contextText: '{\n  "nodes": {\n    "api": {\n      "type": "shape"\n    }\n  }\n}\n',
  fileNames: { diagram: 'orders-topology.mmd', context: 'orders-topology.context.json' },
  digests: { diagram: 'd', context: 'c' },
  serviceYaml: 'architectureDiagrams:\n  - name: orders-topology\n',
  synced: { service: 'orders', diagram: 'topology', revision: 3, sha256: 'd', contextSha256: 'c', equal: true },
};

describe('DraftPage', () => {
  let fixture: ComponentFixture<DraftPage>;
  let http: HttpTestingController;

  beforeEach(async () => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(DraftPage);
    fixture.componentRef.setInput('orgId', 'acme');
    fixture.componentRef.setInput('draftId', 'd1');
    fixture.detectChanges();
    http.expectOne(BASE).flush(DRAFT);
    http.expectOne(`${BASE}/export`).flush(EXPORT);
    await settle(fixture);
  });
  afterEach(() => http.verify());

  it("shows the draft's name, version, who saved last and where it was copied from", () => {
    expect(query(fixture, '[data-testid=draft-title]').textContent).toContain('Orders topology');
    expect(query(fixture, '[data-testid=draft-saved]').textContent).toContain('Version 5');
    expect(query(fixture, '[data-testid=draft-saved]').textContent).toContain('by Ann (ann@acme.test)');
    expect(query(fixture, '[data-testid=draft-source]').textContent).toContain('Copy of orders / topology, revision 2');
  });

  it('shows the exported Mermaid, context and .service.yaml lines, and whether the repository holds them', () => {
    expect(query(fixture, '[data-testid=export-mermaid]').textContent).toBe(EXPORT.mermaid);
    expect(query(fixture, '[data-testid=export-context]').textContent).toBe(EXPORT.contextText);
    expect(query(fixture, '[data-testid=export-service-yaml]').textContent).toBe(EXPORT.serviceYaml);
    expect(query(fixture, '[data-testid=export-synced]').textContent).toContain('The repository holds exactly these files');
    expect(textOf(fixture)).toContain('Download orders-topology.mmd and orders-topology.context.json');
  });

  it('downloads both files with their names and exact contents', () => {
    const created: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return `blob:${created.length}`;
    });
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    query<HTMLButtonElement>(fixture, '[data-testid=export-download]').click();
    expect(names).toEqual(['orders-topology.mmd', 'orders-topology.context.json']);
    expect(created.map((blob) => blob.size)).toEqual([new TextEncoder().encode(EXPORT.mermaid).length, new TextEncoder().encode(EXPORT.contextText).length]);
    click.mockRestore();
  });
});
