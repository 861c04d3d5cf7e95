import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { SyncArtifact } from '@sc/contracts';
import { UnitOfWork } from '../../../database/unit-of-work';
import { SearchService } from '../../search/search.service';
import { BlobStore } from '../store/blob-store';
import { ServicesRepository } from '../store/services.repository';
import type { ArtifactVersionRecord } from '../store/entities/artifact-version.entity';
import { searchEntriesOf } from './search-entries';
import { BackgroundPass } from '../retention/background-pass';

/**
 * Indexes the services synced before the search index existed (no entry at all), from their current revision's
 * stored analyses and notes, exactly as their next sync would: once in the background at every start, and by
 * `runOnce()`. Idempotent and safe with several instances and with syncs: each service is indexed in one
 * transaction holding its row lock (the lock every sync takes first), after checking again that it still has no
 * entry, so a sync that indexed it meanwhile wins.
 */
@Injectable()
export class SearchBackfillService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly passes = new BackgroundPass(() => this.pass(), {
    logger: new Logger('SearchBackfill'),
    done: (indexed) => (indexed > 0 ? `Indexed ${indexed} service(s) synced before the search index existed.` : null),
    failed: 'Search backfill failed',
  });

  constructor(
    private readonly repository: ServicesRepository,
    private readonly search: SearchService,
    private readonly unitOfWork: UnitOfWork,
    private readonly blobs: BlobStore,
  ) {}

  onApplicationBootstrap(): void {
    this.passes.start();
  }

  async onApplicationShutdown(): Promise<void> {
    // Each service is its own short transaction: the pass in progress ends soon.
    await this.passes.stop();
  }

  /** Indexes every service without entries; answers how many it indexed. Concurrent calls share one pass. */
  runOnce(): Promise<number> {
    return this.passes.run();
  }

  private async pass(): Promise<number> {
    let indexed = 0;
    for (const serviceId of await this.search.servicesWithoutEntries()) {
      const done = await this.unitOfWork.run(async () => {
        const service = await this.repository.lockServiceById(serviceId);
        // Deleted, or indexed by a sync (or another instance) since the list was read.
        if (!service || service.currentRevision === 0 || (await this.search.hasEntries(serviceId))) return false;
        const versions = await this.repository.versionsInRevision(service.id, service.currentRevision);
        const contents = await this.blobs.blobContents(versions.flatMap((version) => [version.notesSha256, isMarkdown(version) ? version.sha256 : null]));
        const artifacts = versions.map((version) => ({ artifact: indexedArtifact(version, contents), analysis: version.analysis }));
        await this.search.replaceService(service.organizationId, service.id, searchEntriesOf(service, artifacts));
        return true;
      });
      if (done) indexed += 1;
    }
    return indexed;
  }
}

/** searchEntriesOf reads a Markdown text artifact's own content (its headings); other main files it never reads. */
function isMarkdown(version: ArtifactVersionRecord): boolean {
  return version.analysis.type === 'text' && version.path.toLowerCase().endsWith('.md');
}

/** The parts of a synced artifact searchEntriesOf reads, rebuilt from the stored version. */
function indexedArtifact(version: ArtifactVersionRecord, contents: Map<string, string>): SyncArtifact {
  return {
    kind: version.kind,
    name: version.name,
    file: { path: version.path, content: isMarkdown(version) ? (contents.get(version.sha256) ?? '') : '', sha256: version.sha256 },
    ...(version.notesPath && version.notesSha256 ? { notes: { path: version.notesPath, content: contents.get(version.notesSha256) ?? '', sha256: version.notesSha256 } } : {}),
  };
}
