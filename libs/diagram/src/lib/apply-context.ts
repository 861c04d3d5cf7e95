import type { DiagramContext } from './context/context-types';
import type { GraphModel } from './model';
import type { ApplyContextOptions, ApplyContextResult } from './overlay';

/** Attaches the context's overlays to the graph elements they match and reports every key that does not. */
export function applyContext(graph: GraphModel, context: DiagramContext, options: ApplyContextOptions = {}): ApplyContextResult {
  void graph; void context; void options;
  throw new Error('applyContext: not implemented yet');
}
