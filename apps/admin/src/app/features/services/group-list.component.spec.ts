import { ComponentFixture, TestBed } from '@angular/core/testing';
import { collapseGroup, createView, type DiagramView, type OverlaidGraph } from '@sc/diagram';
import { provideTestApp } from '../../../testing/providers';
import { GroupListComponent } from './group-list.component';

/** Mermaid lists nested subgraphs inner first; the list must still show the tree, each level by name. */
const GRAPH: OverlaidGraph = {
  kind: 'flowchart',
  nodes: [
    { id: 'api', label: 'API', parent: 'core' },
    { id: 'worker', label: 'Worker', parent: 'jobs' },
    { id: 'cron', label: 'Cron', parent: 'jobs' },
    { id: 'web', label: 'Web', parent: 'edge' },
    { id: 'db', label: 'DB' },
  ],
  groups: [
    { id: 'jobs', label: 'Jobs', parent: 'core', nodes: ['worker', 'cron'] },
    { id: 'core', label: 'Payments core', parent: 'platform', nodes: ['api', 'jobs'] },
    { id: 'edge', label: 'Edge', parent: 'platform', nodes: ['web'] },
    { id: 'platform', label: 'Platform', nodes: ['core', 'edge'] },
    { id: 'audit', label: 'Audit', nodes: ['db'] },
  ],
  edges: [],
};

describe('GroupListComponent', () => {
  let fixture: ComponentFixture<GroupListComponent>;
  let toggled: string[];

  function show(view: DiagramView): HTMLElement {
    fixture.componentRef.setInput('view', view);
    fixture.detectChanges();
    return fixture.nativeElement as HTMLElement;
  }

  /** "id(depth)" of each listed group in document order. */
  function outline(root: HTMLElement): string[] {
    return Array.from(root.querySelectorAll<HTMLElement>('li[data-group-item]')).map((li) => {
      let depth = 0;
      for (let parent = li.parentElement?.closest('li'); parent; parent = parent.parentElement?.closest('li')) depth++;
      return `${li.dataset['groupItem']}(${depth})`;
    });
  }

  beforeEach(() => {
    toggled = [];
    TestBed.configureTestingModule({ providers: provideTestApp() });
    fixture = TestBed.createComponent(GroupListComponent);
    fixture.componentInstance.groupToggle.subscribe((id) => toggled.push(id));
  });

  it('shows nested groups as a tree, each level sorted by name', () => {
    const root = show(createView(GRAPH));
    expect(outline(root)).toEqual(['audit(0)', 'platform(0)', 'edge(1)', 'core(1)', 'jobs(2)']);
    expect(root.querySelector('li[data-group-item=core] .group-row')?.textContent).toContain('1 node, 1 group');
    expect(root.querySelector('li[data-group-item=jobs] .group-row')?.textContent).toContain('2 nodes');
  });

  it('toggles a group from its button', () => {
    const root = show(createView(GRAPH));
    root.querySelector<HTMLButtonElement>('[data-testid=toggle-core]')?.click();
    expect(toggled).toEqual(['core']);
  });

  it('disables the groups inside a collapsed group and says which one to expand', () => {
    const root = show(collapseGroup(collapseGroup(createView(GRAPH), 'core'), 'platform'));
    const core = root.querySelector<HTMLButtonElement>('[data-testid=toggle-core]');
    const jobs = root.querySelector<HTMLButtonElement>('[data-testid=toggle-jobs]');
    const platform = root.querySelector<HTMLButtonElement>('[data-testid=toggle-platform]');
    expect(platform?.disabled).toBe(false);
    expect(platform?.getAttribute('aria-label')).toBe('Expand Platform');
    expect(core?.disabled).toBe(true);
    expect(jobs?.disabled).toBe(true);
    // The outermost collapsed group is the one to expand first.
    const note = root.querySelector(`#${jobs?.getAttribute('aria-describedby')}`);
    expect(note?.textContent).toBe('Inside collapsed “Platform”: expand it first.');
    expect(root.querySelector('li[data-group-item=audit] .hidden-note')).toBeNull();
  });
});
