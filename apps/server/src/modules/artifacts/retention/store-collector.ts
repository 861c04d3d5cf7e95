import { Injectable } from '@nestjs/common';
import { BlobStore } from '../store/blob-store';
import { ServicesRepository } from '../store/services.repository';

/**
 * The collection of what nothing links any more, shared by retention, service deletion, preview replacement and
 * preview deletion. Call inside the unit of work that holds the service's row lock (ServicesRepository.lockService…):
 * under it no sync of the service is between storing a version and linking it. Blobs are shared by all services, so
 * their collection has its own locking protocol with syncs of other services (BlobStore.insertBlobs and
 * deleteUnreferencedBlobs).
 */
@Injectable()
export class StoreCollector {
  constructor(
    private readonly services: ServicesRepository,
    private readonly blobs: BlobStore,
  ) {}

  /** Deletes the service's versions no revision or preview links, then their blobs nothing references; returns how many blobs went. */
  async collectUnlinked(serviceId: string): Promise<number> {
    return this.collectBlobs(await this.services.deleteUnlinkedVersions(serviceId));
  }

  /** Deletes those of `hashes` no artifact version references any more; returns how many went. */
  collectBlobs(hashes: string[]): Promise<number> {
    return this.blobs.deleteUnreferencedBlobs(hashes);
  }
}
