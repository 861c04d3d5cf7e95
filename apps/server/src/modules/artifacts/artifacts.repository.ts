import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LessThan } from 'typeorm';
import type { ArtifactKind } from '@sc/contracts';
import { ArtifactVersionRecord } from './entities/artifact-version.entity';
import { RevisionArtifactRecord } from './entities/revision-artifact.entity';
import { ServiceRecord } from './entities/service.entity';
import { ServiceRevisionRecord } from './entities/service-revision.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

export interface ServiceMetadata {
  description: string | null;
  repositoryUrl: string | null;
}

export interface NewBlob {
  sha256: string;
  content: string;
  size: number;
}

export type NewVersion = Omit<ArtifactVersionRecord, 'id' | 'serviceId' | 'createdAt'>;

export interface RevisionMember {
  id: string;
  kind: ArtifactKind;
  name: string;
  fingerprint: string;
}

export interface ServiceWithCount {
  service: ServiceRecord;
  artifactCount: number;
}

/** Rows per multi-row INSERT: keeps every statement far below PostgreSQL's 65535 bind parameters. */
const INSERT_CHUNK = 200;

/** All SQL of the artifact store. Every method joins the current unit of work (UnitOfWork.run) when one is open. */
@Injectable()
export class ArtifactsRepository extends TransactionalRepository {
  findService(organizationId: string, name: string): Promise<ServiceRecord | null> {
    return this.manager.findOneBy(ServiceRecord, { organizationId, name });
  }

  async listServices(organizationId: string): Promise<ServiceWithCount[]> {
    const services = await this.manager.find(ServiceRecord, { where: { organizationId }, order: { name: 'ASC' } });
    if (services.length === 0) return [];
    const counts: Array<{ service_id: string; artifact_count: number }> = await this.manager.query(
      `SELECT r.service_id, r.artifact_count FROM service_revisions r
         JOIN services s ON s.id = r.service_id AND s.current_revision = r.number
        WHERE s.organization_id = $1`,
      [organizationId],
    );
    const byService = new Map(counts.map((row) => [row.service_id, Number(row.artifact_count)]));
    return services.map((service) => ({ service, artifactCount: byService.get(service.id) ?? 0 }));
  }

  /** The service's current revision number and its bundle digest; null when the organization has no such service. */
  async currentDigest(organizationId: string, name: string): Promise<{ serviceId: string; revision: number; digest: string | null } | null> {
    const rows: Array<{ id: string; current_revision: number; bundle_digest: string | null }> = await this.manager.query(
      `SELECT s.id, s.current_revision, r.bundle_digest FROM services s
         LEFT JOIN service_revisions r ON r.service_id = s.id AND r.number = s.current_revision
        WHERE s.organization_id = $1 AND s.name = $2`,
      [organizationId, name],
    );
    const [row] = rows;
    return row ? { serviceId: row.id, revision: Number(row.current_revision), digest: row.bundle_digest } : null;
  }

  /** A sync that changed nothing still counts as a sync (the dashboard shows when CI last reported). */
  async recordUnchangedSync(serviceId: string, now: Date): Promise<void> {
    await this.manager.update(ServiceRecord, { id: serviceId }, { lastSyncedAt: now, updatedAt: now });
  }

  /** Remembers which bundle last confirmed a revision (its artifacts stay as they are). */
  async setRevisionDigest(serviceId: string, number: number, digest: string): Promise<void> {
    await this.manager.update(ServiceRevisionRecord, { serviceId, number }, { bundleDigest: digest });
  }

  findRevision(serviceId: string, number: number): Promise<ServiceRevisionRecord | null> {
    return this.manager.findOneBy(ServiceRevisionRecord, { serviceId, number });
  }

  /** Newest first, at most `limit`, only numbers below `before` when given. */
  listRevisions(serviceId: string, { limit, before }: { limit: number; before?: number }): Promise<ServiceRevisionRecord[]> {
    return this.manager.find(ServiceRevisionRecord, {
      where: { serviceId, ...(before !== undefined ? { number: LessThan(before) } : {}) },
      order: { number: 'DESC' },
      take: limit,
    });
  }

  /** The artifact versions of one revision, optionally only one kind or one artifact. */
  versionsInRevision(
    serviceId: string,
    revision: number,
    filter: { kind?: ArtifactKind; name?: string } = {},
  ): Promise<ArtifactVersionRecord[]> {
    const query = this.manager
      .createQueryBuilder(ArtifactVersionRecord, 'v')
      .innerJoin(RevisionArtifactRecord, 'ra', 'ra.version_id = v.id')
      .innerJoin(ServiceRevisionRecord, 'r', 'r.id = ra.revision_id')
      .where('r.service_id = :serviceId AND r.number = :revision', { serviceId, revision })
      .orderBy('v.kind')
      .addOrderBy('v.name');
    if (filter.kind) query.andWhere('ra.kind = :kind', { kind: filter.kind });
    if (filter.name !== undefined) query.andWhere('ra.name = :name', { name: filter.name });
    return query.getMany();
  }

  /** Which version of which artifact a revision holds, without the (large) stored analyses. */
  async revisionMembers(serviceId: string, revision: number): Promise<RevisionMember[]> {
    const rows: Array<{ id: string; kind: ArtifactKind; name: string; fingerprint: string }> = await this.manager.query(
      `SELECT v.id, v.kind, v.name, v.fingerprint FROM revision_artifacts ra
         JOIN service_revisions r ON r.id = ra.revision_id
         JOIN artifact_versions v ON v.id = ra.version_id
        WHERE r.service_id = $1 AND r.number = $2`,
      [serviceId, revision],
    );
    return rows;
  }

  async blobContents(hashes: Array<string | null>): Promise<Map<string, string>> {
    const wanted = [...new Set(hashes.filter((hash): hash is string => hash !== null))];
    if (wanted.length === 0) return new Map();
    const rows: Array<{ sha256: string; content: string }> = await this.manager.query(
      'SELECT sha256, content FROM artifact_blobs WHERE sha256 = ANY($1)',
      [wanted],
    );
    return new Map(rows.map((row) => [row.sha256, row.content]));
  }

  /**
   * Creates the service row if it is new, then locks it until the transaction ends. Every sync of the same
   * service takes this lock first, so concurrent syncs run one after the other and each sees the revision
   * the previous one committed (no lost update). The unique keys guard the same rules at the table level.
   */
  async lockService(organizationId: string, name: string, now: Date): Promise<ServiceRecord> {
    await this.manager.query(
      `INSERT INTO services (id, organization_id, name, current_revision, created_at, updated_at)
       VALUES ($1, $2, $3, 0, $4, $4)
       ON CONFLICT (organization_id, name) DO NOTHING`,
      [randomUUID(), organizationId, name, now],
    );
    const service = await this.manager
      .createQueryBuilder(ServiceRecord, 's')
      .setLock('pessimistic_write')
      .where('s.organization_id = :organizationId AND s.name = :name', { organizationId, name })
      .getOne();
    if (!service) throw new Error(`Service ${organizationId}/${name} vanished while being locked.`);
    return service;
  }

  async recordSync(serviceId: string, metadata: ServiceMetadata, now: Date, currentRevision?: number): Promise<void> {
    await this.manager.update(
      ServiceRecord,
      { id: serviceId },
      { ...metadata, lastSyncedAt: now, updatedAt: now, ...(currentRevision !== undefined ? { currentRevision } : {}) },
    );
  }

  /** Stores file contents that are not stored yet; identical content already stored is left as is. */
  async insertBlobs(blobs: NewBlob[], now: Date): Promise<void> {
    const unique = [...new Map(blobs.map((blob) => [blob.sha256, blob])).values()];
    for (let start = 0; start < unique.length; start += INSERT_CHUNK) {
      const chunk = unique.slice(start, start + INSERT_CHUNK);
      const params: unknown[] = [];
      const rows = chunk.map((blob) => {
        params.push(blob.sha256, blob.content, blob.size, now);
        const n = params.length;
        return `($${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
      });
      await this.manager.query(
        `INSERT INTO artifact_blobs (sha256, content, size, created_at) VALUES ${rows.join(', ')} ON CONFLICT (sha256) DO NOTHING`,
        params,
      );
    }
  }

  /**
   * Inserts the versions that do not exist yet (an artifact may return to an earlier version) and returns
   * the id of every requested version, keyed by `kind/name`.
   */
  async upsertVersions(serviceId: string, versions: NewVersion[], now: Date): Promise<Map<string, string>> {
    for (let start = 0; start < versions.length; start += INSERT_CHUNK) {
      const chunk = versions.slice(start, start + INSERT_CHUNK);
      const params: unknown[] = [];
      const rows = chunk.map((version) => {
        params.push(
          randomUUID(), serviceId, version.kind, version.name, version.fingerprint, version.path, version.sha256, version.size,
          version.contextPath, version.contextSha256, version.notesPath, version.notesSha256, version.engine, version.format,
          JSON.stringify(version.analysis), version.firstRevision, now,
        );
        const n = params.length - 17;
        const placeholders = Array.from({ length: 17 }, (_, index) => `$${n + index + 1}${index === 14 ? '::jsonb' : ''}`);
        return `(${placeholders.join(', ')})`;
      });
      await this.manager.query(
        `INSERT INTO artifact_versions (id, service_id, kind, name, fingerprint, path, sha256, size, context_path, context_sha256,
           notes_path, notes_sha256, engine, format, analysis, first_revision, created_at)
         VALUES ${rows.join(', ')}
         ON CONFLICT (service_id, kind, name, fingerprint) DO NOTHING`,
        params,
      );
    }
    if (versions.length === 0) return new Map();
    const ids: Array<{ id: string; kind: string; name: string }> = await this.manager.query(
      `SELECT id, kind, name FROM artifact_versions WHERE service_id = $1 AND fingerprint = ANY($2)`,
      [serviceId, versions.map((version) => version.fingerprint)],
    );
    return new Map(ids.map((row) => [`${row.kind}/${row.name}`, row.id]));
  }

  async insertRevision(
    revision: Omit<ServiceRevisionRecord, 'id'>,
    members: Array<{ kind: ArtifactKind; name: string; versionId: string }>,
  ): Promise<void> {
    const id = randomUUID();
    await this.manager.insert(ServiceRevisionRecord, { id, ...revision });
    for (let start = 0; start < members.length; start += INSERT_CHUNK) {
      await this.manager.insert(
        RevisionArtifactRecord,
        members.slice(start, start + INSERT_CHUNK).map((member) => ({ revisionId: id, ...member })),
      );
    }
  }
}
