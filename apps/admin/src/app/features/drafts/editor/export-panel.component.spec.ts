import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture } from '@angular/core/testing';
import { query, settle, textOf } from '../../../../testing/dom';
import { createWithInputs, setUpTestApp } from '../../../../testing/providers';
import type { DraftExportData } from '../drafts.api';
import { ExportPanelComponent } from './export-panel.component';

const BASE = '/api/v1/orgs/acme/drafts/d1';

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

describe('ExportPanelComponent', () => {
  let fixture: ComponentFixture<ExportPanelComponent>;
  let http: HttpTestingController;

  beforeEach(async () => {
    http = setUpTestApp();
    fixture = createWithInputs(ExportPanelComponent, { orgId: 'acme', draftId: 'd1', version: 5 });
    fixture.detectChanges();
    http.expectOne(`${BASE}/export`).flush(EXPORT);
    await settle(fixture);
  });
  afterEach(() => http.verify());

  it('shows the exported Mermaid, context and .service.yaml lines, and whether the repository holds them', () => {
    expect(query(fixture, '[data-testid=export-mermaid]').textContent).toBe(EXPORT.mermaid);
    expect(query(fixture, '[data-testid=export-context]').textContent).toBe(EXPORT.contextText);
    expect(query(fixture, '[data-testid=export-service-yaml]').textContent).toBe(EXPORT.serviceYaml);
    expect(query(fixture, '[data-testid=export-synced]').textContent).toContain('The repository holds exactly these files');
    expect(textOf(fixture)).toContain('Download orders-topology.mmd and orders-topology.context.json');
  });

  it('says when the files differ from what the repository last synced', async () => {
    fixture.componentRef.setInput('version', 6);
    fixture.detectChanges();
    http.expectOne(`${BASE}/export`).flush({ ...EXPORT, version: 6, synced: { service: 'orders', diagram: 'topology', revision: 3, sha256: 'd', contextSha256: 'c', equal: false } });
    await settle(fixture);
    expect(query(fixture, '[data-testid=export-synced]').textContent).toContain('These files differ from what orders / topology last synced (revision 3)');
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

  it('holds the download back while changes are unsaved or the export is of an older version', async () => {
    fixture.componentRef.setInput('pending', true);
    await settle(fixture);
    expect(query<HTMLButtonElement>(fixture, '[data-testid=export-download]').disabled).toBe(true);
    fixture.componentRef.setInput('pending', false);
    fixture.componentRef.setInput('version', 7);
    fixture.detectChanges();
    const request = http.expectOne(`${BASE}/export`);
    fixture.detectChanges();
    expect(query<HTMLButtonElement>(fixture, '[data-testid=export-download]').disabled).toBe(true);
    request.flush({ ...EXPORT, version: 7 });
    await settle(fixture);
    expect(query<HTMLButtonElement>(fixture, '[data-testid=export-download]').disabled).toBe(false);
  });
});
