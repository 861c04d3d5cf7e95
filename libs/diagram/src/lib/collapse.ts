import type { OverlaidGraph } from './overlay';
import type { DiagramView } from './view';

export function createView(graph: OverlaidGraph): DiagramView {
  void graph;
  throw new Error('createView: not implemented yet');
}
export function collapseGroup(view: DiagramView, groupId: string): DiagramView {
  void view; void groupId;
  throw new Error('collapseGroup: not implemented yet');
}
export function expandGroup(view: DiagramView, groupId: string): DiagramView {
  void view; void groupId;
  throw new Error('expandGroup: not implemented yet');
}
