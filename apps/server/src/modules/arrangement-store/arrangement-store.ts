import { Injectable } from '@nestjs/common';
import type { ArrangementLists } from '@sc/contracts';
import { isArranged } from '@sc/diagram';
import type { ArrangementRecord } from './arrangement.entity';
import { ArrangementsRepository, type ArrangementChanges } from './arrangements.repository';

/** A diagram's saved arrangement as the server draws it: its lists and the version they were saved as. */
export interface StoredArrangement {
  version: number;
  lists: ArrangementLists;
}

/**
 * The stored arrangements (`diagram_arrangements`): read by the modules that draw synced diagrams (the image routes in
 * ArtifactsModule), read and written by ArrangementsModule, which holds the rules (versions, checks, audit). A module
 * of its own (ArrangementStoreModule), so ArtifactsModule can read arrangements while ArrangementsModule reads
 * diagrams through ArtifactsModule, without a cycle between the two.
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

  /**
   * The version of the arrangement `current` would answer (0: none, as for `current`'s null: never saved, or reset to
   * automatic), without reading its lists: versions only grow, so it names what an image is drawn with for a cache
   * (DiagramLayoutService.image).
   */
  async currentVersion(serviceId: string, diagram: string): Promise<number> {
    const stored = await this.arrangements.versionOfService(serviceId, diagram);
    return stored?.arranged ? stored.version : 0;
  }

  /** The stored row of a diagram of the organization's service (an arrangement reset to automatic included). */
  find(organizationId: string, serviceId: string, diagram: string): Promise<ArrangementRecord | null> {
    return this.arrangements.find(organizationId, serviceId, diagram);
  }

  /** Writes the lists when the stored version is still `version` (0: none stored); false when another save came first. */
  saveIfVersion(organizationId: string, serviceId: string, diagram: string, version: number, changes: ArrangementChanges): Promise<boolean> {
    return this.arrangements.saveIfVersion(organizationId, serviceId, diagram, version, changes);
  }
}
