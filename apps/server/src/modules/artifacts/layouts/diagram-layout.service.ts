import { Injectable, Logger } from '@nestjs/common';
import type { ArrangementLists, DiagramLayout } from '@sc/contracts';
import { LAYOUT_ENGINE_VERSION, PNG_MAX_PIXELS, PNG_MIN_SCALE, type DiagramTheme, type OverlaidGraph } from '@sc/diagram';
import { performance } from 'node:perf_hooks';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../../../common/crypto/tokens';
import { ArrangementStore } from '../../arrangement-store/arrangement-store';
import { ArtifactsConfig, type LayoutSettings } from '../artifacts.config';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { DiagramLayoutsRepository } from '../store/diagram-layouts.repository';
import { ServicesRepository } from '../store/services.repository';
import { DiagramLayoutPool } from '../../parsing/diagram-layout-pool';
import { MermaidParseService } from '../../parsing/mermaid-parse.service';
import { BlobStore } from '../store/blob-store';
import { SEQUENCE_STEPS_VERSION } from '../sync/artifact-analysis';
import type { ArtifactVersionRecord } from '../store/entities/artifact-version.entity';
import type { DiagramImage, LayoutDatabase } from '../../parsing/diagram-layout-worker';

/** What an image read asks for (validated by the controller's query parsing). */
export interface DiagramImageOptions {
  /** Groups drawn collapsed; each must be a group of the diagram. */
  collapsed: string[];
  format: 'svg' | 'png';
  /** PNG pixels per SVG unit (1..4). */
  scale: number;
  /** The drawing's colours (libs/diagram render-svg.ts palettes). */
  theme: DiagramTheme;
}

/** A rendered image and its strong ETag (a hash of its bytes). */
export interface RenderedDiagramImage {
  body: Buffer;
  etag: string;
  /** A PNG: the scale it was rendered at, less than the one asked for when that would pass the pixel limit. */
  scale?: number;
}

/**
 * A PNG has at most this many pixels (its bitmap alone is 4 bytes a pixel): a larger one is rendered at the largest
 * scale that fits, and refused (422 diagram_image_too_large) only below PNG_MIN_SCALE (libs/diagram png-scale.ts).
 */
export const MAX_IMAGE_PIXELS = PNG_MAX_PIXELS;
/** Rendered images kept per instance (by content hash of what they are drawn from), and their bytes at most. */
const IMAGES_KEPT = 64;
const IMAGE_BYTES_KEPT = 64 * 1024 * 1024;
/** Names the drawing code (render-svg.ts, sequence-svg.ts, png-scale.ts) in the image cache key: change it when the drawing changes. */
const RENDER_VERSION = 'svg-3+resvg-2.6.2';

/** What one stored layout is computed from, and the part of its key besides the version and the engine. */
interface LayoutInputs {
  graph: OverlaidGraph;
  databases: Map<string, LayoutDatabase>;
  /** '' when the diagram names no database; else a hash of the fingerprints of the named ones in the revision. */
  key: string;
}

/** Failed layouts remembered per instance (so a diagram that times out is not tried on every read); bounded. */
const FAILED_KEPT = 1000;

/**
 * The default view's layout of synced diagrams (libs/diagram `layoutDefaultView`: the dashboard's own model and
 * layout code), computed with ELK in SERVICE_LAYOUT_WORKERS worker threads, once per diagram version, layout
 * engine and named database schemas, and stored in `diagram_layouts` for every instance (the threads are the parsing
 * module's DiagramLayoutPool). Computed in the
 * background after a sync commits a revision, and on a read that finds none; a sync never waits for it and never
 * fails because of it. A layout that times out (SERVICE_LAYOUT_TIMEOUT) or a diagram over SERVICE_LAYOUT_MAX_ELEMENTS
 * gets none: the dashboard then lays it out itself, as it does until a layout is stored.
 */
@Injectable()
export class DiagramLayoutService {
  private readonly logger = new Logger(DiagramLayoutService.name);
  private readonly settings: LayoutSettings;
  /** Layouts being computed by this instance, by key: a read or a sync asking for one again joins it. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly failed = new Set<string>();
  /** Rendered images by key, oldest first (a hit moves to the end), and those being rendered. */
  /** Rendered images by content key, least recently used out first beyond IMAGES_KEPT or IMAGE_BYTES_KEPT. */
  private readonly images = new LRUCache<string, RenderedDiagramImage>({
    max: IMAGES_KEPT,
    maxSize: IMAGE_BYTES_KEPT,
    sizeCalculation: (image) => Math.max(1, image.body.length),
  });
  private readonly rendering = new Map<string, Promise<RenderedDiagramImage>>();

  constructor(
    private readonly repository: ServicesRepository,
    private readonly layoutStore: DiagramLayoutsRepository,
    private readonly pool: DiagramLayoutPool,
    private readonly arrangements: ArrangementStore,
    private readonly blobs: BlobStore,
    private readonly mermaid: MermaidParseService,
    config: ArtifactsConfig,
  ) {
    this.settings = config.layout;
  }

  /**
   * The stored layout of the version's default view as drawn in `revision` (its databases size data nodes), or null:
   * none yet (its computation is started, the caller does not wait for it), or none possible (a sequence diagram,
   * too large, a layout that failed).
   */
  async find(serviceId: string, revision: number, version: ArtifactVersionRecord): Promise<DiagramLayout | null> {
    const inputs = await this.inputs(serviceId, revision, version);
    if (!inputs) return null;
    const stored = await this.layoutStore.findDiagramLayout(version.id, LAYOUT_ENGINE_VERSION, inputs.key);
    if (!stored) void this.start(version.id, inputs);
    return stored;
  }

  /**
   * The version's image as drawn in `revision` (the dashboard's model, node geometry and layout: the stored default
   * layout replayed when nothing is collapsed, else ELK in the layout thread, then the diagram's saved arrangement
   * applied as the dashboard applies it — libs/diagram `applyArrangement`), rendered in the layout thread and cached
   * by a hash of everything it is drawn from (the arrangement by its version: a save or reset makes a new image).
   */
  async image(serviceId: string, revision: number, version: ArtifactVersionRecord, options: DiagramImageOptions): Promise<RenderedDiagramImage> {
    const analysis = version.analysis;
    if (analysis.type !== 'diagram') throw artifactsError(ArtifactsErrorCode.ArtifactNotFound, `"${version.name}" is not a diagram.`);
    const graph = analysis.overlaid ?? analysis.graph;
    // A sequence diagram has no layout or groups: its participants and messages are drawn in order (sequence-svg.ts).
    const sequence = analysis.diagramKind === 'sequence';
    if (sequence && options.collapsed.length) throw artifactsError(ArtifactsErrorCode.InvalidImageQuery, `Diagram "${version.name}" is a sequence diagram; it has no groups to collapse.`);
    const groups = new Set(graph.groups.map((group) => group.id));
    const unknown = options.collapsed.filter((id) => !groups.has(id));
    if (unknown.length) {
      const known = groups.size ? `its groups are ${[...groups].map((id) => `"${id}"`).join(', ')}` : 'it has no groups';
      throw artifactsError(ArtifactsErrorCode.InvalidImageQuery, `?collapsed= names ${unknown.map((id) => `"${id}"`).join(', ')}, not a group of diagram "${version.name}"; ${known}.`);
    }
    const inputs = sequence ? { graph: await this.withSequenceSteps(version, graph), databases: new Map(), key: '' } : await this.inputs(serviceId, revision, version);
    if (!inputs) {
      throw artifactsError(ArtifactsErrorCode.DiagramImageTooLarge, `Diagram "${version.name}" has more than ${this.settings.maxElements} nodes and groups (SERVICE_LAYOUT_MAX_ELEMENTS); it is not drawn on the server.`);
    }
    const collapsed = [...new Set(options.collapsed)].sort();
    // The arrangement is stored per service and diagram name (every revision is drawn with it). The key names it by
    // its version alone (a small read; every instance reads the same row, so a save or reset on any instance makes a
    // new key on all of them): its lists are read only to render. They are read after the version, so an image kept
    // under a version is drawn with that version or a later one (versions only grow), never an earlier one.
    const arrangementVersion = await this.arrangements.currentVersion(serviceId, version.name);
    const arranged = arrangementVersion > 0 ? [serviceId, arrangementVersion] : null;
    const key = sha256Hex(
      JSON.stringify([RENDER_VERSION, LAYOUT_ENGINE_VERSION, version.id, inputs.key, arranged, collapsed, options.format, options.format === 'png' ? options.scale : 1, options.theme]),
    );
    const kept = this.images.get(key);
    if (kept) return kept;
    const running = this.rendering.get(key);
    if (running) return running;
    const job = (arranged ? this.arrangements.current(serviceId, version.name) : Promise.resolve(null))
      .then((arrangement) => this.render(version, inputs, { ...options, collapsed }, arrangement?.lists ?? null))
      .finally(() => this.rendering.delete(key));
    this.rendering.set(key, job);
    const image = await job;
    // An image larger than the whole cache is served but not kept (lru-cache would refuse it anyway).
    if (image.body.length <= IMAGE_BYTES_KEPT) this.images.set(key, image);
    return image;
  }

  /**
   * A sequence diagram analysed before its notes, blocks and activations were kept (`steps`, analyzer version 5) has
   * its source parsed again (Mermaid in the parsing workers; the image is cached after), so its image shows them
   * without waiting for a sync that changes the file. A parse that fails draws the stored messages alone.
   */
  private async withSequenceSteps(version: ArtifactVersionRecord, graph: OverlaidGraph): Promise<OverlaidGraph> {
    if (version.analysis.version >= SEQUENCE_STEPS_VERSION) return graph;
    const source = (await this.blobs.blobContents([version.sha256])).get(version.sha256);
    const parsed = source === undefined ? null : await this.mermaid.parse(source).catch(() => null);
    return parsed?.ok && parsed.graph.steps ? { ...graph, steps: parsed.graph.steps } : graph;
  }

  private async render(version: ArtifactVersionRecord, inputs: LayoutInputs, options: DiagramImageOptions, arrangement: ArrangementLists | null): Promise<RenderedDiagramImage> {
    // A collapsed view has other containers than the default view's: its layout is computed in the thread.
    const stored = options.collapsed.length || inputs.graph.kind === 'sequence' ? null : await this.layoutStore.findDiagramLayout(version.id, LAYOUT_ENGINE_VERSION, inputs.key);
    const started = performance.now();
    let result: DiagramImage;
    try {
      const answer = await this.pool.run({
        graph: inputs.graph,
        databases: [...inputs.databases],
        image: { collapsed: options.collapsed, stored, arrangement, format: options.format, scale: options.scale, theme: options.theme, maxPixels: MAX_IMAGE_PIXELS },
      });
      result = answer as DiagramImage;
    } catch (error) {
      this.logger.warn({ msg: 'diagram image failed', versionId: version.id, error: messageOf(error) });
      throw artifactsError(ArtifactsErrorCode.DiagramImageFailed, `Diagram "${version.name}" could not be rendered: ${messageOf(error)}. Retrying later can succeed.`);
    }
    if ('tooLarge' in result) {
      const { width, height } = result.tooLarge;
      throw artifactsError(
        ArtifactsErrorCode.DiagramImageTooLarge,
        `The PNG of diagram "${version.name}" would be ${width}×${height} pixels even at scale ${PNG_MIN_SCALE}, over the limit of ${MAX_IMAGE_PIXELS / 1_000_000} megapixels; use the SVG (image.svg), which has no pixel limit.`,
      );
    }
    const body = result.png ? Buffer.from(result.png.buffer, result.png.byteOffset, result.png.byteLength) : Buffer.from(result.svg, 'utf8');
    this.logger.log({ msg: 'diagram image', versionId: version.id, format: options.format, bytes: body.length, ...(result.scale !== undefined ? { scale: result.scale } : {}), ms: Math.round(performance.now() - started) });
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"`, ...(result.scale !== undefined ? { scale: result.scale } : {}) };
  }

  /**
   * After a sync committed `revision`: lays out its diagrams that have no stored layout, one after the other, in the
   * background. Returns at once and never throws; the returned promise (for tests) settles when all are done.
   */
  afterSync(organizationId: string, serviceName: string, revision: number): Promise<void> {
    return this.layOutRevision(organizationId, serviceName, revision).catch((error: unknown) => {
      this.logger.warn({ msg: 'diagram layouts not computed', organizationId, service: serviceName, revision, error: messageOf(error) });
    });
  }

  private async layOutRevision(organizationId: string, serviceName: string, revision: number): Promise<void> {
    const service = await this.repository.findService(organizationId, serviceName);
    if (!service) return;
    // The revision's schemas are read once for all its diagrams, not once per diagram that names a database.
    const schemas = await this.repository.versionsInRevision(service.id, revision, { kind: 'database-schema' });
    for (const version of await this.repository.versionsInRevision(service.id, revision, { kind: 'architecture-diagram' })) {
      const inputs = await this.inputs(service.id, revision, version, schemas);
      if (inputs && !(await this.layoutStore.findDiagramLayout(version.id, LAYOUT_ENGINE_VERSION, inputs.key))) await this.start(version.id, inputs);
    }
  }

  /** Computes and stores one layout unless this instance is already at it or failed it; settles when done. */
  private start(versionId: string, inputs: LayoutInputs): Promise<void> {
    const key = `${versionId}/${inputs.key}`;
    if (this.failed.has(key)) return Promise.resolve();
    const running = this.running.get(key);
    if (running) return running;
    const job = this.compute(versionId, inputs)
      .catch((error: unknown) => {
        if (this.failed.size >= FAILED_KEPT) this.failed.clear();
        this.failed.add(key);
        this.logger.warn({ msg: 'diagram layout failed', versionId, error: messageOf(error) });
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, job);
    return job;
  }

  private async compute(versionId: string, inputs: LayoutInputs): Promise<void> {
    const started = performance.now();
    const layout = (await this.pool.run({ graph: inputs.graph, databases: [...inputs.databases] })) as DiagramLayout;
    // Another instance may have stored the same layout meanwhile: the first one stays (they are equal).
    await this.layoutStore.saveDiagramLayout(versionId, LAYOUT_ENGINE_VERSION, inputs.key, layout);
    this.logger.log({ msg: 'diagram layout', versionId, containers: Object.keys(layout.containers).length, ms: Math.round(performance.now() - started) });
  }

  /**
   * The graph and databases the dashboard would draw the version with in `revision` (`schemas`: the revision's
   * database schemas when the caller has them); null when it gets no layout.
   */
  private async inputs(serviceId: string, revision: number, version: ArtifactVersionRecord, schemas?: ArtifactVersionRecord[]): Promise<LayoutInputs | null> {
    const analysis = version.analysis;
    if (analysis.type !== 'diagram' || analysis.diagramKind === 'sequence') return null;
    const graph = analysis.overlaid ?? analysis.graph;
    if (graph.nodes.length + graph.groups.length > this.settings.maxElements) return null;
    // The same databases the diagram page reads: those the data nodes name, from the same revision.
    const named = new Set(analysis.databases.filter(Boolean));
    if (named.size === 0) return { graph, databases: new Map(), key: '' };
    const versions = (schemas ?? (await this.repository.versionsInRevision(serviceId, revision, { kind: 'database-schema' }))).filter((schema) => named.has(schema.name));
    const databases = new Map(
      versions.map((schema): [string, LayoutDatabase] => [
        schema.name,
        {
          tables: schema.analysis.type === 'sql-schema' ? schema.analysis.tables : [],
          collections: schema.analysis.type === 'json-schema' ? schema.analysis.collections : [],
        },
      ]),
    );
    return { graph, databases, key: sha256Hex(versions.map((schema) => `${schema.name}=${schema.fingerprint}`).join('\n')) };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
