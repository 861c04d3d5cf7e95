import { Injectable } from '@nestjs/common';
import type { ArtifactKind } from '@sc/contracts';
import { CacheChanges } from '../../../database/cache-changes';
import { NotifiedCache } from '../../../database/notified-cache';
import { AnswerCache } from './answer-cache';
import { ServicesRepository } from '../store/services.repository';
import { ServiceRecord } from '../store/entities/service.entity';

/** Services by name and versions by revision, kept: a cached read then needs no database round trip at all. */
const MAX_ENTRIES = 10_000;
/** A second guard only: the entries are emptied on every instance by the notification of any change. */
const MAX_LIFETIME_MS = 60_000;

/**
 * The lookups in front of every artifact read (the service by name, whether a revision exists, the version a
 * revision holds under a kind and name), kept in memory while the answer cache is on (SERVICE_READ_CACHE_SIZE).
 * A sync, retention or a deleted service notifies every instance (topic `services`, CacheChanges), which empties
 * them; while the change listener is down they are bypassed. Only found rows are kept; the access checks of the
 * AuthGuard run before any of this.
 */
@Injectable()
export class ReadLookups {
  private readonly services: NotifiedCache<Readonly<ServiceRecord>>;
  private readonly versions: NotifiedCache<string>;
  private readonly revisions: NotifiedCache<true>;

  constructor(
    private readonly repository: ServicesRepository,
    changes: CacheChanges,
    answers: AnswerCache,
  ) {
    const options = { max: answers.enabled ? MAX_ENTRIES : 0, ttlMs: MAX_LIFETIME_MS };
    this.services = new NotifiedCache(changes, 'services', options);
    this.versions = new NotifiedCache(changes, 'services', options);
    this.revisions = new NotifiedCache(changes, 'services', options);
  }

  /** Frozen: one cached record serves many requests. */
  serviceRecord(organizationId: string, name: string): Promise<Readonly<ServiceRecord> | null> {
    return this.services.through(JSON.stringify([organizationId, name]), async () => {
      const service = await this.repository.findService(organizationId, name);
      return service && Object.freeze(service);
    });
  }

  async revisionExists(serviceId: string, number: number): Promise<boolean> {
    return (await this.revisions.through(`${serviceId}#${number}`, async () => ((await this.repository.findRevision(serviceId, number)) ? true : null))) === true;
  }

  versionId(serviceId: string, revision: number, kind: ArtifactKind, name: string): Promise<string | null> {
    return this.versions.through(JSON.stringify([serviceId, revision, kind, name]), () => this.repository.versionIdInRevision(serviceId, revision, kind, name));
  }
}
