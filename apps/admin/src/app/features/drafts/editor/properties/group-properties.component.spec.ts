import { type OverlaidGraph, type OverlaidGroup } from '@sc/diagram';
import { PanelDriver } from '../../../../../testing/properties-kit';
import { GroupPropertiesComponent } from './group-properties.component';

type GroupChange = { previousId: string; group: OverlaidGroup };

const graph: OverlaidGraph = {
  kind: 'flowchart',
  nodes: [{ id: 'api', label: 'API', parent: 'core' }],
  edges: [],
  groups: [
    { id: 'core', label: 'Core', nodes: ['api'], overlay: { name: 'Core services' } },
    { id: 'edge', label: 'Edge', nodes: [] },
  ],
};

function panel(group: OverlaidGroup): PanelDriver<GroupPropertiesComponent, GroupChange> {
  return new PanelDriver(GroupPropertiesComponent, { group, graph }, (c) => c.groupChange, (change) => ['group', change.group]);
}

describe('GroupPropertiesComponent', () => {
  it('validates the id like a node id and emits the renamed group with the id it had', async () => {
    const driver = panel(graph.groups[0]);
    await driver.expectIdProblems('group-id', [
      ['api', 'already the id of a node'],
      ['edge', 'already the id of a group'],
      ['sub graph', 'letters, digits'],
      ['subgraph', 'keyword'],
    ]);
    expect(driver.emitted).toEqual([]);
    await driver.type('group-id', 'core_services');
    expect(driver.emitted).toEqual([{ previousId: 'core', group: { id: 'core_services', label: 'Core', nodes: ['api'], overlay: { name: 'Core services' } } }]);
  });

  it('edits the label; an empty one is refused with the reason', async () => {
    const driver = panel(graph.groups[1]);
    await driver.type('group-label', 'Edge services');
    expect(driver.emitted.at(-1)?.group).toEqual({ id: 'edge', label: 'Edge services', nodes: [] });
    await driver.type('group-label', '  ');
    expect(driver.emitted).toHaveLength(1);
    expect(driver.text('group-problems')).toContain('visible character');
  });

  it('edits the context name, dropping an overlay left empty', async () => {
    const driver = panel(graph.groups[0]);
    await driver.type('group-name', 'Core platform');
    expect(driver.emitted.at(-1)?.group).toEqual({ id: 'core', label: 'Core', nodes: ['api'], overlay: { name: 'Core platform' } });
    await driver.type('group-name', '');
    expect(driver.emitted.at(-1)?.group).toEqual({ id: 'core', label: 'Core', nodes: ['api'] });
  });
});
