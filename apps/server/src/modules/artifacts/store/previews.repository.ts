import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ArtifactKind, SyncSource, TokenRef } from '@sc/contracts';
import { ArtifactVersionRecord } from './entities/artifact-version.entity';
import type { RevisionChanges } from './entities/service-revision.entity';
import { insertRows } from '../../../database/insert-rows';
import { TransactionalRepository } from '../../../database/unit-of-work';

/** A stored preview (`service_previews`, migration 1765400000000-service-previews). */
export interface PreviewRecord {
  id: string;
  serviceId: string;
  label: string;
  baseRevision: number;
  createdAt: Date;
  expiresAt: Date;
  tokenId: string | null;
  artifactCount: number;
  changes: RevisionChanges;
  syncedBy: TokenRef | null;
  source: SyncSource | null;
}

interface PreviewRow {
  id: string;
  service_id: string;
  label: string;
  base_revision: number;
  created_at: Date | string;
  expires_at: Date | string;
  token_id: string | null;
  artifact_count: number;
  changes: RevisionChanges;
  synced_by: TokenRef | null;
  source: SyncSource | null;
}

/**
 * The SQL of previews. Their artifact versions and blobs are ServicesRepository's (shared with revisions); this
 * holds the preview rows and their links. Every method joins the current unit of work when one is open.
 */
@Injectable()
export class PreviewsRepository extends TransactionalRepository {
  /**
   * Stores a preview in place of the service's preview with the same label (its links go with it, ON DELETE
   * CASCADE). Call with the service locked (ServicesRepository.lockServiceByName). Returns the new id.
   */
  async replacePreview(preview: Omit<PreviewRecord, 'id'>, members: Array<{ kind: ArtifactKind; name: string; versionId: string }>): Promise<string> {
    await this.manager.query('DELETE FROM service_previews WHERE service_id = $1 AND label = $2', [preview.serviceId, preview.label]);
    const id = randomUUID();
    await this.manager.query(
      `INSERT INTO service_previews (id, service_id, label, base_revision, created_at, expires_at, token_id, artifact_count, changes, synced_by, source)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11::jsonb)`,
      [
        id, preview.serviceId, preview.label, preview.baseRevision, preview.createdAt, preview.expiresAt, preview.tokenId, preview.artifactCount,
        JSON.stringify(preview.changes), preview.syncedBy === null ? null : JSON.stringify(preview.syncedBy), preview.source === null ? null : JSON.stringify(preview.source),
      ],
    );
    await insertRows(
      members,
      (member) => [id, member.kind, member.name, member.versionId],
      (values, parameters) => this.manager.query(`INSERT INTO preview_artifacts (preview_id, kind, name, version_id) VALUES ${values}`, parameters),
    );
    return id;
  }

  /** The service's previews that have not expired at `now`, newest first. */
  async listPreviews(serviceId: string, now: Date): Promise<PreviewRecord[]> {
    const rows: PreviewRow[] = await this.manager.query(
      'SELECT * FROM service_previews WHERE service_id = $1 AND expires_at > $2 ORDER BY created_at DESC, label',
      [serviceId, now],
    );
    return rows.map(toRecord);
  }

  /** One preview of the service, unless it expired at `now`. */
  async findPreview(serviceId: string, id: string, now: Date): Promise<PreviewRecord | null> {
    const rows: PreviewRow[] = await this.manager.query('SELECT * FROM service_previews WHERE service_id = $1 AND id = $2 AND expires_at > $3', [serviceId, id, now]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The artifact versions a preview links, optionally of one kind. */
  versionsInPreview(previewId: string, kind?: ArtifactKind): Promise<ArtifactVersionRecord[]> {
    const query = this.manager
      .createQueryBuilder(ArtifactVersionRecord, 'v')
      .innerJoin('preview_artifacts', 'pa', 'pa.version_id = v.id')
      .where('pa.preview_id = :previewId', { previewId })
      .orderBy('v.kind')
      .addOrderBy('v.name');
    if (kind) query.andWhere('pa.kind = :kind', { kind });
    return query.getMany();
  }

  /** Deletes one preview of the service that has not expired; false when there is none. */
  async deletePreview(serviceId: string, id: string, now: Date): Promise<boolean> {
    const gone: Array<{ id: string }> = await this.manager.query(
      'WITH gone AS (DELETE FROM service_previews WHERE service_id = $1 AND id = $2 AND expires_at > $3 RETURNING id) SELECT id FROM gone',
      [serviceId, id, now],
    );
    return gone.length > 0;
  }

  /** Ids of the services holding a preview expired at `now` (retention candidates). */
  async servicesWithExpiredPreviews(now: Date): Promise<string[]> {
    const rows: Array<{ service_id: string }> = await this.manager.query(
      'SELECT DISTINCT service_id FROM service_previews WHERE expires_at <= $1 ORDER BY service_id',
      [now],
    );
    return rows.map((row) => row.service_id);
  }

  /** Deletes the service's previews expired at `now` (their links cascade); returns how many went. */
  async deleteExpiredPreviews(serviceId: string, now: Date): Promise<number> {
    const gone: Array<{ id: string }> = await this.manager.query(
      'WITH gone AS (DELETE FROM service_previews WHERE service_id = $1 AND expires_at <= $2 RETURNING id) SELECT id FROM gone',
      [serviceId, now],
    );
    return gone.length;
  }
}

function toRecord(row: PreviewRow): PreviewRecord {
  return {
    id: row.id,
    serviceId: row.service_id,
    label: row.label,
    baseRevision: Number(row.base_revision),
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    tokenId: row.token_id,
    artifactCount: Number(row.artifact_count),
    changes: row.changes,
    syncedBy: row.synced_by,
    source: row.source,
  };
}
