import { Injectable } from '@nestjs/common';
import type { ArrangementLists } from '@sc/contracts';
import { isArranged } from '@sc/diagram';
import { ArrangementsRepository } from './arrangements.repository';

/** A diagram's saved arrangement as the server draws it: its lists and the version they were saved as. */
export interface StoredArrangement {
  version: number;
  lists: ArrangementLists;
}

/**
 * Read-only access to saved arrangements for the modules that draw synced diagrams (the image routes in
 * ArtifactsModule). Its own module (ArrangementStoreModule), so ArtifactsModule can read arrangements while
 * ArrangementsModule reads diagrams through ArtifactsModule, without a cycle between the two.
 */
@Injectable()
export class ArrangementStore {
  constructor(private readonly arrangements: ArrangementsRepository) {}

  /**
   * The arrangement of `diagram` in the service (already looked up in the caller's organization), or null when
   * nobody arranged it or it was reset (the automatic layout is drawn).
   */
  async current(serviceId: string, diagram: string): Promise<StoredArrangement | null> {
    const stored = await this.arrangements.findOfService(serviceId, diagram);
    if (!stored || !isArranged(stored)) return null;
    return { version: stored.version, lists: { nodes: stored.nodes, groups: stored.groups, edges: stored.edges } };
  }
}
