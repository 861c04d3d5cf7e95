import { searchMatches } from './canvas-search';

describe('canvas search', () => {
  const items = Array.from({ length: 12 }, (_, i) => ({ id: `worker${i}`, title: `Worker ${i}`, kind: 'service' }));

  it('finds by id or title, whatever the case, at most eight, none for a blank query', () => {
    expect(searchMatches([{ id: 'api', title: 'Payments API', kind: 'service' }], '  PAYMENTS ')).toHaveLength(1);
    expect(searchMatches([{ id: 'api', title: 'Payments API', kind: 'service' }], 'api')).toHaveLength(1);
    expect(searchMatches(items, 'worker').map((item) => item.id)).toEqual(items.slice(0, 8).map((item) => item.id));
    expect(searchMatches(items, '   ')).toEqual([]);
  });
});
