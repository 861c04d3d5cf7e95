import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateDraftRequest, draftFileSlug } from './drafts';
import { nameProblem } from './service-config/names';

describe('draftFileSlug', () => {
  it('makes a valid artifact name from any draft name', () => {
    expect(draftFileSlug('Orders topology')).toBe('orders-topology');
    expect(draftFileSlug('  Café — Zürich / v2 ')).toBe('cafe-zurich-v2');
    expect(draftFileSlug('日本')).toBe('diagram');
    expect(draftFileSlug('x'.repeat(300))).toHaveLength(100);
    for (const name of ['Orders topology', '  Café — Zürich / v2 ', '日本', `${'a-'.repeat(60)}b`, '---']) expect(nameProblem(draftFileSlug(name))).toBeUndefined();
  });
});

describe('CreateDraftRequest', () => {
  it('keeps graph and layout as sent (the server validates them with JSON paths) and validates from', () => {
    const graph = { kind: 'flowchart', nodes: [{ id: 'a', label: 'A', overlay: { data: { Owner: { type: 'Text Input', value: 'x' } } } }], edges: [], groups: [] };
    const request = plainToInstance(CreateDraftRequest, { name: 'X', graph, layout: { nodes: [], groups: [] } });
    expect(request.graph).toBe(graph);
    expect(validateSync(request, { whitelist: true, forbidNonWhitelisted: true })).toEqual([]);
    const bad = plainToInstance(CreateDraftRequest, { name: '', from: { service: 'orders', revision: 0 }, graph: [] });
    expect(validateSync(bad, { whitelist: true, forbidNonWhitelisted: true }).map((e) => e.property).sort()).toEqual(['from', 'graph', 'name']);
  });
});
