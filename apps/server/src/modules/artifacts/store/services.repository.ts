import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LessThan, MoreThan } from 'typeorm';
import type { ArtifactKind } from '@sc/contracts';
import { ArtifactVersionRecord } from './entities/artifact-version.entity';
import { RevisionArtifactRecord } from './entities/revision-artifact.entity';
import { ServiceRecord } from './entities/service.entity';
import { ServiceRevisionRecord } from './entities/service-revision.entity';
import { insertRows } from '../../../database/insert-rows';
import { TransactionalRepository } from '../../../database/unit-of-work';

export interface ServiceMetadata {
  description: string | null;
  repositoryUrl: string | null;
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

interface VersionHashes {
  sha256: string;
  context_sha256: string | null;
  notes_sha256: string | null;
}

function hashesOf(versions: VersionHashes[]): string[] {
  return [...new Set(versions.flatMap((version) => [version.sha256, version.context_sha256, version.notes_sha256]).filter((hash): hash is string => hash !== null))];
}

/** `first_revision` of a version stored by a preview push: no revision holds it yet (revisions count from 1). */
export const NOT_IN_A_REVISION = 0;

/**
 * The SQL of services, their revisions and artifact versions, with the service row lock every writer of a service
 * takes first. File contents are BlobStore's, stored layouts DiagramLayoutsRepository's. Every method joins the
 * current unit of work (UnitOfWork.run) when one is open.
 */
@Injectable()
export class ServicesRepository extends TransactionalRepository {
  findService(organizationId: string, name: string): Promise<ServiceRecord | null> {
    return this.manager.findOneBy(ServiceRecord, { organizationId, name });
  }

  /** By name, at most `limit`, only names after `after` when given. */
  async listServices(organizationId: string, { limit, after }: { limit: number; after?: string }): Promise<ServiceWithCount[]> {
    const services = await this.manager.find(ServiceRecord, {
      where: { organizationId, ...(after !== undefined ? { name: MoreThan(after) } : {}) },
      order: { name: 'ASC' },
      take: limit,
    });
    if (services.length === 0) return [];
    const counts: Array<{ service_id: string; artifact_count: number }> = await this.manager.query(
      `SELECT r.service_id, r.artifact_count FROM service_revisions r
         JOIN services s ON s.id = r.service_id AND s.current_revision = r.number
        WHERE s.id = ANY($1)`,
      [services.map((service) => service.id)],
    );
    const byService = new Map(counts.map((row) => [row.service_id, Number(row.artifact_count)]));
    return services.map((service) => ({ service, artifactCount: byService.get(service.id) ?? 0 }));
  }

  /** The service's current revision number and its bundle digest; null when the organization has no such service. */
  async currentDigest(organizationId: string, name: string): Promise<{ serviceId: string; revision: number; digest: string | null; repositoryUrl: string | null } | null> {
    const rows: Array<{ id: string; current_revision: number; bundle_digest: string | null; repository_url: string | null }> = await this.manager.query(
      `SELECT s.id, s.current_revision, s.repository_url, r.bundle_digest FROM services s
         LEFT JOIN service_revisions r ON r.service_id = s.id AND r.number = s.current_revision
        WHERE s.organization_id = $1 AND s.name = $2`,
      [organizationId, name],
    );
    const [row] = rows;
    return row ? { serviceId: row.id, revision: Number(row.current_revision), digest: row.bundle_digest, repositoryUrl: row.repository_url } : null;
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

  /** The id of the version a revision holds under kind and name, without loading the row (the read cache's key). */
  async versionIdInRevision(serviceId: string, revision: number, kind: ArtifactKind, name: string): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.manager.query(
      `SELECT ra.version_id AS id FROM revision_artifacts ra
         JOIN service_revisions r ON r.id = ra.revision_id
        WHERE r.service_id = $1 AND r.number = $2 AND ra.kind = $3 AND ra.name = $4`,
      [serviceId, revision, kind, name],
    );
    return rows[0]?.id ?? null;
  }

  findVersion(id: string): Promise<ArtifactVersionRecord | null> {
    return this.manager.findOneBy(ArtifactVersionRecord, { id });
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

  /**
   * Creates the service row if it is new, then locks it until the transaction ends. Every sync of the same
   * service takes this lock first, so concurrent syncs run one after the other and each sees the revision
   * the previous one committed (no lost update). The unique keys guard the same rules at the table level.
   */
  async lockService(organizationId: string, name: string, now: Date): Promise<ServiceRecord> {
    // Twice at most: when an admin deleted the service while this sync waited for the lock, the row is gone
    // once the lock is granted, and this sync starts the service afresh (as any first sync does).
    for (let attempt = 0; attempt < 2; attempt++) {
      await this.manager.query(
        `INSERT INTO services (id, organization_id, name, current_revision, created_at, updated_at)
         VALUES ($1, $2, $3, 0, $4, $4)
         ON CONFLICT (organization_id, name) DO NOTHING`,
        [randomUUID(), organizationId, name, now],
      );
      const service = await this.lockServiceByName(organizationId, name);
      if (service) return service;
    }
    throw new Error(`Service ${organizationId}/${name} vanished twice while being locked.`);
  }

  /** The same row lock as lockService (so it waits for a sync of the service and syncs wait for it); null when gone. */
  lockServiceById(serviceId: string): Promise<ServiceRecord | null> {
    return this.lockServiceWhere('s.id = :serviceId', { serviceId });
  }

  /**
   * The service row, locked until the transaction ends (the lock every writer of a service takes first: syncs,
   * previews, deletion); null when the organization has no such service.
   */
  lockServiceByName(organizationId: string, name: string): Promise<ServiceRecord | null> {
    return this.lockServiceWhere('s.organization_id = :organizationId AND s.name = :name', { organizationId, name });
  }

  /** The one row-lock query of services (SELECT … FOR UPDATE). */
  private lockServiceWhere(condition: string, parameters: Record<string, string>): Promise<ServiceRecord | null> {
    return this.manager.createQueryBuilder(ServiceRecord, 's').setLock('pessimistic_write').where(condition, parameters).getOne();
  }

  /** Ids of the services holding more than `keep` revisions (retention candidates). */
  async servicesWithMoreRevisionsThan(keep: number): Promise<string[]> {
    const rows: Array<{ service_id: string }> = await this.manager.query(
      'SELECT service_id FROM service_revisions GROUP BY service_id HAVING count(*) > $1 ORDER BY service_id',
      [keep],
    );
    return rows.map((row) => row.service_id);
  }

  /**
   * Deletes the service's revisions older than its newest `keep` (their links go with them, ON DELETE CASCADE),
   * then the versions no remaining revision holds. Call with the service locked (lockServiceById). Returns the
   * number of revisions removed and the hashes the removed versions referenced (candidates for collection).
   */
  async pruneRevisions(serviceId: string, keep: number): Promise<{ revisionsRemoved: number; hashes: string[] }> {
    const removed: Array<{ id: string }> = await this.manager.query(
      `WITH gone AS (
         DELETE FROM service_revisions WHERE service_id = $1
            AND number < (SELECT number FROM service_revisions WHERE service_id = $1 ORDER BY number DESC OFFSET $2 - 1 LIMIT 1)
         RETURNING id)
       SELECT id FROM gone`,
      [serviceId, keep],
    );
    return { revisionsRemoved: removed.length, hashes: await this.deleteUnlinkedVersions(serviceId) };
  }

  /**
   * Deletes the service's versions that no revision and no preview links; returns the hashes they referenced
   * (candidates for collection). Call with the service locked: under the service lock no sync or preview push of
   * this service is between inserting a version and linking it, so a version without a link is garbage.
   */
  async deleteUnlinkedVersions(serviceId: string): Promise<string[]> {
    const versions: VersionHashes[] = await this.manager.query(
      `WITH gone AS (
         DELETE FROM artifact_versions v WHERE v.service_id = $1
            AND NOT EXISTS (SELECT 1 FROM revision_artifacts ra WHERE ra.version_id = v.id)
            AND NOT EXISTS (SELECT 1 FROM preview_artifacts pa WHERE pa.version_id = v.id)
         RETURNING sha256, context_sha256, notes_sha256)
       SELECT * FROM gone`,
      [serviceId],
    );
    return hashesOf(versions);
  }

  /**
   * Deletes a locked service with its revisions, previews, links and versions (ON DELETE CASCADE). Returns how many
   * revisions and previews went and the hashes its versions referenced (candidates for collection).
   */
  async deleteService(serviceId: string): Promise<{ revisionsRemoved: number; previewsRemoved: number; hashes: string[] }> {
    const versions: VersionHashes[] = await this.manager.query(
      'SELECT sha256, context_sha256, notes_sha256 FROM artifact_versions WHERE service_id = $1',
      [serviceId],
    );
    const [{ revisions, previews }] = (await this.manager.query(
      `SELECT (SELECT count(*)::int FROM service_revisions WHERE service_id = $1) AS revisions,
              (SELECT count(*)::int FROM service_previews WHERE service_id = $1) AS previews`,
      [serviceId],
    )) as Array<{ revisions: number; previews: number }>;
    // Revisions, previews, their links and the versions go with the row (ON DELETE CASCADE).
    await this.manager.query('DELETE FROM services WHERE id = $1', [serviceId]);
    return { revisionsRemoved: Number(revisions), previewsRemoved: Number(previews), hashes: hashesOf(versions) };
  }

  async recordSync(serviceId: string, metadata: ServiceMetadata, now: Date, currentRevision?: number): Promise<void> {
    await this.manager.update(
      ServiceRecord,
      { id: serviceId },
      { ...metadata, lastSyncedAt: now, updatedAt: now, ...(currentRevision !== undefined ? { currentRevision } : {}) },
    );
  }

  /**
   * Inserts the versions that do not exist yet (an artifact may return to an earlier version) and returns
   * the id of every requested version, keyed by `kind/name`. A version a preview stored first
   * (`first_revision` NOT_IN_A_REVISION) takes the first revision that holds it.
   */
  async upsertVersions(serviceId: string, versions: NewVersion[], now: Date): Promise<Map<string, string>> {
    await insertRows(
      versions,
      (version) => [
        randomUUID(), serviceId, version.kind, version.name, version.fingerprint, version.path, version.sha256, version.size,
        version.contextPath, version.contextSha256, version.notesPath, version.notesSha256, version.engine, version.format,
        JSON.stringify(version.analysis), version.firstRevision, now,
      ],
      (values, parameters) =>
        this.manager.query(
          `INSERT INTO artifact_versions (id, service_id, kind, name, fingerprint, path, sha256, size, context_path, context_sha256,
             notes_path, notes_sha256, engine, format, analysis, first_revision, created_at)
           VALUES ${values}
           ON CONFLICT (service_id, kind, name, fingerprint) DO UPDATE SET first_revision = EXCLUDED.first_revision
             WHERE artifact_versions.first_revision = ${NOT_IN_A_REVISION}`,
          parameters,
        ),
      { casts: { 14: '::json' } },
    );
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
    await insertRows(
      members,
      (member) => [id, member.kind, member.name, member.versionId],
      (values, parameters) => this.manager.query(`INSERT INTO revision_artifacts (revision_id, kind, name, version_id) VALUES ${values}`, parameters),
    );
  }
}
