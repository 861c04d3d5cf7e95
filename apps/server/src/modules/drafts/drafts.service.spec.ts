import type { CreateDraftRequest, DraftConflictDetail, UpdateDraftRequest } from '@sc/contracts';
import { refusalOf as refusal, serviceSpec } from '../../testing/service-spec';
import { DraftsModule } from './drafts.module';
import { DraftsService } from './drafts.service';

// At most two nodes per draft here, so the size rule is reached with a small graph.
const spec = serviceSpec([DraftsModule], { SERVICE_DRAFT_MAX_NODES: '2' });

const EMPTY_LAYOUT = { nodes: [], groups: [] };
const graphOf = (...labels: string[]) => ({ kind: 'flowchart', nodes: labels.map((label, index) => ({ id: `n${index}`, label })), edges: [], groups: [] });
const save = (name: string, ...labels: string[]) => ({ name, graph: graphOf(...labels), layout: EMPTY_LAYOUT }) as unknown as UpdateDraftRequest;

/** DraftsService on a real (in-memory PGlite) database, one per file: organization "acme" with an editor. */
async function sut() {
  const { app, ctx } = spec;
  const acme = await ctx.newOrg({ id: 'acme' });
  const editor = await ctx.newMembership(acme, 'editor', { email: 'erin@acme.example' });
  return { app, ctx, drafts: app.get(DraftsService), acme, editor };
}

describe('DraftsService', () => {
  it('starts a draft from one thing only: "from", "mermaid" or "graph" with "layout"', async () => {
    const { drafts, editor } = await sut();
    const both = { name: 'x', mermaid: 'flowchart LR\n  a --> b', graph: graphOf('a'), layout: EMPTY_LAYOUT } as unknown as CreateDraftRequest;
    expect((await refusal(drafts.create('acme', editor.as, both))).code).toBe('invalid_draft_request');
    const contextAlone = { name: 'x', context: '{}' } as unknown as CreateDraftRequest;
    expect((await refusal(drafts.create('acme', editor.as, contextAlone))).code).toBe('invalid_draft_request');
    const graphWithoutLayout = { name: 'x', graph: graphOf('a') } as unknown as CreateDraftRequest;
    expect((await refusal(drafts.create('acme', editor.as, graphWithoutLayout))).code).toBe('invalid_draft_request');

    // Nothing at all is an empty drawing at version 1, written by the editor.
    const empty = await drafts.create('acme', editor.as, { name: 'blank' } as CreateDraftRequest);
    expect(empty).toMatchObject({ name: 'blank', version: 1, graph: { nodes: [], edges: [] } });
    expect((await drafts.list('acme', { limit: 100, after: undefined })).items).toHaveLength(1);
  });

  it('saves only the version the writer edited: a stale save changes nothing and names who saved last', async () => {
    const { drafts, editor, acme, app } = await sut();
    const draft = await drafts.create('acme', editor.as, save('contested', 'first') as unknown as CreateDraftRequest);
    app.clock.advance(60_000);
    const saved = await drafts.update('acme', draft.id, editor.as, 1, save('contested', 'second editor'));
    expect(saved.version).toBe(2);

    // The owner still holds version 1: refused, and the draft is the editor's.
    const stale = await refusal(drafts.update('acme', draft.id, acme.asOwner, 1, save('contested', 'owner')));
    expect(stale.code).toBe('draft_version_conflict');
    const detail = stale.details[0] as DraftConflictDetail;
    expect(detail).toMatchObject({ path: 'If-Match', currentVersion: 2, updatedAt: '2026-03-01T09:01:00.000Z' });
    expect(detail.message).toContain('erin@acme.example');
    expect((await drafts.get('acme', draft.id)).graph.nodes).toEqual([expect.objectContaining({ label: 'second editor' })]);
    // A missing or unreadable If-Match never reaches the service: the route's IfMatchVersion pipe answers 428
    // (draft-params.spec.ts).
  });

  it('deletes with If-Match only at that version, and without it at any version', async () => {
    const { drafts, editor } = await sut();
    const draft = await drafts.create('acme', editor.as, { name: 'old' } as CreateDraftRequest);
    await drafts.update('acme', draft.id, editor.as, 1, save('old', 'moved on'));
    expect((await refusal(drafts.remove('acme', draft.id, 1))).code).toBe('draft_version_conflict');
    await drafts.remove('acme', draft.id, undefined);
    expect((await refusal(drafts.get('acme', draft.id))).code).toBe('draft_not_found');
  });

  it('keeps a draft inside its organization: another organization finds nothing', async () => {
    const { ctx, drafts, editor } = await sut();
    const globex = await ctx.newOrg({ id: 'globex' });
    const draft = await drafts.create('acme', editor.as, { name: 'acme only' } as CreateDraftRequest);
    expect((await refusal(drafts.get('globex', draft.id))).code).toBe('draft_not_found');
    expect((await refusal(drafts.update('globex', draft.id, globex.asOwner, 1, save('taken', 'x')))).code).toBe('draft_not_found');
    expect((await refusal(drafts.remove('globex', draft.id, undefined))).code).toBe('draft_not_found');
    expect((await drafts.list('globex', { limit: 100, after: undefined })).items).toHaveLength(0);
    expect((await drafts.get('acme', draft.id)).name).toBe('acme only');
  });

  it('refuses a graph over the configured node limit, on create and on save', async () => {
    const { drafts, editor } = await sut();
    const tooBig = save('big', 'a', 'b', 'c');
    expect((await refusal(drafts.create('acme', editor.as, tooBig as unknown as CreateDraftRequest))).code).toBe('draft_too_large');
    const draft = await drafts.create('acme', editor.as, save('small', 'a', 'b') as unknown as CreateDraftRequest);
    expect((await refusal(drafts.update('acme', draft.id, editor.as, 1, tooBig))).code).toBe('draft_too_large');
    expect((await drafts.get('acme', draft.id)).version).toBe(1);
  });
});
