import { Injectable } from '@nestjs/common';
import { insertRows } from '../../../database/insert-rows';
import { TransactionalRepository } from '../../../database/unit-of-work';

export interface NewBlob {
  sha256: string;
  content: string;
  size: number;
}

/**
 * The SQL of `artifact_blobs`: file contents by SHA-256, shared by every version of every service of every
 * organization, so their storing and collecting lock the blobs themselves (the service row lock does not cover them).
 * Every method joins the current unit of work (UnitOfWork.run) when one is open.
 */
@Injectable()
export class BlobStore extends TransactionalRepository {
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
   * Deletes those of `hashes` that no artifact version of any service references; returns how many went.
   *
   * Safe against concurrent syncs on any instance (READ COMMITTED):
   * 1. Lock the candidates `FOR UPDATE` (sorted, like insertBlobs). A sync that holds `FOR KEY SHARE` on one
   *    (it is re-using it) makes us wait until it commits or rolls back; a sync that asks later waits for us.
   * 2. Re-check and delete in a NEW statement: in READ COMMITTED each statement takes a fresh snapshot, so it
   *    sees the versions of every sync that committed while we waited in step 1. (Re-checking inside the
   *    locking statement would not do: after a wait PostgreSQL re-evaluates only the locked row, and a
   *    sub-select keeps the statement's old snapshot.)
   * A sync that arrives after step 1 finds the blob gone once we commit and stores it again (insertBlobs).
   * The foreign keys from artifact_versions back this up: a dangling reference can never be committed.
   */
  async deleteUnreferencedBlobs(hashes: string[]): Promise<number> {
    if (hashes.length === 0) return 0;
    const locked: Array<{ sha256: string }> = await this.manager.query(
      'SELECT sha256 FROM artifact_blobs WHERE sha256 = ANY($1) ORDER BY sha256 FOR UPDATE',
      [[...new Set(hashes)]],
    );
    if (locked.length === 0) return 0;
    const deleted: Array<{ sha256: string }> = await this.manager.query(
      `WITH gone AS (
         DELETE FROM artifact_blobs b WHERE b.sha256 = ANY($1)
            AND NOT EXISTS (SELECT 1 FROM artifact_versions v WHERE v.sha256 = b.sha256)
            AND NOT EXISTS (SELECT 1 FROM artifact_versions v WHERE v.context_sha256 = b.sha256)
            AND NOT EXISTS (SELECT 1 FROM artifact_versions v WHERE v.notes_sha256 = b.sha256)
         RETURNING sha256)
       SELECT sha256 FROM gone`,
      [locked.map((row) => row.sha256)],
    );
    return deleted.length;
  }

  /**
   * Stores file contents that are not stored yet (identical content already stored is left as is) and locks
   * every one of them (`FOR KEY SHARE`) until the sync's transaction ends.
   *
   * Blobs are shared by every service of every organization, so the per-service lock does not protect them:
   * retention or a service deletion elsewhere may be deleting a blob this sync re-uses. The lock closes that
   * race (see deleteUnreferencedBlobs): once held, no collector can delete the blob before this sync's
   * versions referencing it are committed; a blob a collector deleted first is missing from the locked rows
   * and is stored again.
   */
  async insertBlobs(blobs: NewBlob[], now: Date): Promise<void> {
    let missing = [...new Map(blobs.map((blob) => [blob.sha256, blob])).values()];
    for (let attempt = 1; missing.length > 0; attempt++) {
      // A collector can delete a blob between our insert and our lock at most once per run; three rounds is ample.
      if (attempt > 3) throw new Error(`Could not store and lock ${missing.length} blob(s) while they were being collected.`);
      await this.insertBlobRows(missing, now);
      // One statement, sorted: every transaction locks blobs in the same order (no deadlock with a collector).
      const locked: Array<{ sha256: string }> = await this.manager.query(
        'SELECT sha256 FROM artifact_blobs WHERE sha256 = ANY($1) ORDER BY sha256 FOR KEY SHARE',
        [missing.map((blob) => blob.sha256)],
      );
      const present = new Set(locked.map((row) => row.sha256));
      missing = missing.filter((blob) => !present.has(blob.sha256));
    }
  }

  private insertBlobRows(unique: NewBlob[], now: Date): Promise<void> {
    return insertRows(
      unique,
      (blob) => [blob.sha256, blob.content, blob.size, now],
      (values, parameters) =>
        this.manager.query(`INSERT INTO artifact_blobs (sha256, content, size, created_at) VALUES ${values} ON CONFLICT (sha256) DO NOTHING`, parameters),
    );
  }
}
