import { Injectable } from '@nestjs/common';
import type { SearchAnswer } from '@sc/contracts';
import type { SearchQuery } from './search-query.pipe';
import { SearchRepository, type NewSearchEntry } from './search.repository';

export type { NewSearchEntry };

/** The organization's search index: the sync replaces a service's entries, members search them. */
@Injectable()
export class SearchService {
  constructor(private readonly repository: SearchRepository) {}

  /**
   * Replaces every entry of the service with these: call it inside the sync's unit of work, when a revision
   * becomes current, so the index changes exactly when the revision does.
   */
  replaceService(organizationId: string, serviceId: string, entries: NewSearchEntry[]): Promise<void> {
    return this.repository.replaceService(organizationId, serviceId, entries);
  }

  /**
   * After a sync that left the revision as it was: only the service's own entry is rewritten (its description may
   * have changed), so a large schema is not re-indexed at every unchanged sync; a service without artifact entries
   * (synced before the index existed) gets all of them.
   */
  async refreshUnchangedService(organizationId: string, serviceId: string, entries: () => NewSearchEntry[]): Promise<void> {
    const all = entries();
    if (await this.repository.hasArtifactEntries(serviceId)) {
      await this.repository.replaceService(organizationId, serviceId, all.filter((entry) => entry.elementKind === 'service'), 'service');
    } else {
      await this.repository.replaceService(organizationId, serviceId, all);
    }
  }

  /**
   * Services synced before the index existed: a revision and no entry at all (every sync writes at least the
   * service's own entry). The artifacts module's SearchBackfillService indexes them.
   */
  servicesWithoutEntries(): Promise<string[]> {
    return this.repository.servicesWithoutEntries();
  }

  /** Whether the service has any entry (checked again under the service's lock before a backfill writes). */
  hasEntries(serviceId: string): Promise<boolean> {
    return this.repository.hasEntries(serviceId);
  }

  async search(organizationId: string, query: SearchQuery): Promise<SearchAnswer> {
    const hits = await this.repository.search(organizationId, query);
    return { query: query.q, kind: query.kind, hits, truncated: hits.length === query.limit };
  }
}
