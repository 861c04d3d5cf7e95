import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type CounterConfiguration, type GaugeConfiguration, type HistogramConfiguration } from 'prom-client';
import { DataSource } from 'typeorm';
import { safeEqual } from '../../common/crypto/tokens';
import { mapError } from '../../common/errors/all-exceptions.filter';
import { DomainError } from '../../common/errors/domain-error';
import { MetricsErrorCode, metricsError } from './metrics.errors';
import { AppConfig } from '../../config/app-config';
import { MetricsConfig } from './metrics.config';

export type SignInMethod = 'sso' | 'sign_in_link';

/** The pg pool's counters (PostgreSQL); the embedded PGlite pool has none. */
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Express sets `route` on the request once a route matched; its path is the template (`/orgs/:orgId/...`), never the raw URL. */
type RoutedRequest = IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };

/**
 * Prometheus metrics (prom-client) in a registry of this application. Labels are bounded and never personal:
 * route templates, methods, status codes, outcome codes from the error enums; never an organization, email or token.
 */
@Injectable()
export class MetricsService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly registry = new Registry();
  private metricsServer?: Server;

  private readonly httpDuration = this.histogram({
    name: 'sc_http_request_duration_seconds',
    help: 'HTTP requests by route template, method and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  private readonly syncDuration = this.histogram({
    name: 'sc_sync_duration_seconds',
    help: 'Syncs by outcome (created, unchanged or the error code) with their duration.',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  });
  private readonly syncArtifacts = this.histogram({
    name: 'sc_sync_artifacts',
    help: 'Artifacts per stored sync.',
    buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000],
  });
  private readonly parseDuration = this.histogram({
    name: 'sc_mermaid_parse_duration_seconds',
    help: 'Mermaid parses in the worker pool (queue wait included) by outcome.',
    labelNames: ['outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });
  private readonly parseTimeouts = this.counter({
    name: 'sc_mermaid_parse_timeouts_total',
    help: 'Mermaid parses stopped by SERVICE_MERMAID_PARSE_TIMEOUT.',
  });
  private readonly signIns = this.counter({
    name: 'sc_sign_ins_total',
    help: 'Sign-ins (SSO callback, sign-in link) by outcome: signed_in or the error code.',
    labelNames: ['method', 'outcome'] as const,
  });

  private readonly revisionsRemoved = this.counter({
    name: 'sc_revisions_removed_total',
    help: 'Revisions removed, by reason: retention (SERVICE_REVISIONS_KEEP) or service_deleted.',
    labelNames: ['reason'] as const,
  });
  private readonly blobsRemoved = this.counter({
    name: 'sc_blobs_removed_total',
    help: 'Stored files (blobs) no revision referenced any more, removed, by reason: retention or service_deleted.',
    labelNames: ['reason'] as const,
  });

  private readonly authCacheLookups = this.counter({
    name: 'sc_auth_cache_lookups_total',
    help: 'Who a session or API token is, by where the answer came from: hit (the authorization cache), miss (the database, then cached) or bypassed (cache off, or its change listener not connected).',
    labelNames: ['result'] as const,
  });
  /** Bound once: counting runs on every authenticated request. */
  readonly authCacheLookup = {
    hit: this.authCacheLookups.labels({ result: 'hit' }),
    miss: this.authCacheLookups.labels({ result: 'miss' }),
    bypassed: this.authCacheLookups.labels({ result: 'bypassed' }),
  };

  constructor(
    private readonly config: MetricsConfig,
    private readonly appConfig: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const pool = () => this.poolCounts();
    this.gauge({
      name: 'sc_db_pool_connections',
      help: 'Database pool connections by state (PostgreSQL only).',
      labelNames: ['state'] as const,
      collect() {
        const counts = pool();
        if (!counts) return;
        this.set({ state: 'total' }, counts.totalCount);
        this.set({ state: 'idle' }, counts.idleCount);
        this.set({ state: 'waiting' }, counts.waitingCount);
      },
    });
  }

  /** The pool's queue length, read at each scrape (MermaidParseService registers it). */
  registerParseQueue(length: () => number): void {
    this.scrapedGauge('sc_mermaid_parse_queue_length', 'Mermaid parses waiting for a free parser thread.', length);
  }

  /** 1 while the cache change listener is connected (caches usable), read at each scrape (AuthCache registers it). */
  registerCacheListener(live: () => boolean): void {
    this.scrapedGauge(
      'sc_cache_listener_up',
      'Whether the cache change listener (PostgreSQL LISTEN) is connected; while 0 the authorization cache is bypassed.',
      () => (live() ? 1 : 0),
    );
  }

  observeParse(seconds: number, outcome: 'ok' | 'timeout' | 'unavailable'): void {
    this.parseDuration.observe({ outcome }, seconds);
    if (outcome === 'timeout') this.parseTimeouts.inc();
  }

  observeSync(seconds: number, outcome: string, artifacts?: number): void {
    this.syncDuration.observe({ outcome }, seconds);
    if (artifacts !== undefined) this.syncArtifacts.observe(artifacts);
  }

  countRemoved(reason: 'retention' | 'service_deleted', removed: { revisionsRemoved: number; blobsRemoved: number }): void {
    this.revisionsRemoved.inc({ reason }, removed.revisionsRemoved);
    this.blobsRemoved.inc({ reason }, removed.blobsRemoved);
  }

  countSignIn(method: SignInMethod, outcome: string): void {
    this.signIns.inc({ method, outcome });
  }

  /**
   * GET /metrics on the main port: only with SERVICE_METRICS_TOKEN (and no metrics port), as a bearer token.
   * Otherwise 404, as if the route did not exist; a missing or wrong token is 401.
   */
  assertMainPortAccess(authorization: string | undefined): void {
    const token = this.config.token;
    if (token === null || this.config.port !== null) throw metricsError(MetricsErrorCode.NotFound, 'Metrics are not served on this port.');
    if (authorization === undefined || !safeEqual(authorization, `Bearer ${token}`)) {
      throw metricsError(MetricsErrorCode.TokenInvalid, 'GET /metrics needs "Authorization: Bearer <SERVICE_METRICS_TOKEN>".');
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    this.adapterHost.httpAdapter?.getHttpServer()?.on('request', (req: RoutedRequest, res: ServerResponse) => {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        this.httpDuration.observe({ method: req.method ?? 'GET', route: routeTemplate(req), status: String(res.statusCode) }, Number(process.hrtime.bigint() - started) / 1e9);
      });
    });
    if (this.config.port !== null) {
      this.metricsServer = createServer((req, res) => void this.answer(req, res));
      await new Promise<void>((resolve, reject) => {
        this.metricsServer?.once('error', reject);
        // Same interface as the API (HOST): loopback unless the operator opened it.
        this.metricsServer?.listen(this.config.port ?? 0, this.appConfig.host, () => resolve());
      });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.metricsServer ? this.metricsServer.close(() => resolve()) : resolve()));
  }

  // Every metric goes into this service's registry, never prom-client's global one: two applications in one
  // process (the tests) would otherwise register the same names twice.
  private histogram<Label extends string>(config: Omit<HistogramConfiguration<Label>, 'registers'>): Histogram<Label> {
    return new Histogram({ ...config, registers: [this.registry] });
  }

  private counter<Label extends string>(config: Omit<CounterConfiguration<Label>, 'registers'>): Counter<Label> {
    return new Counter({ ...config, registers: [this.registry] });
  }

  private gauge<Label extends string>(config: Omit<GaugeConfiguration<Label>, 'registers'>): Gauge<Label> {
    return new Gauge({ ...config, registers: [this.registry] });
  }

  /** A gauge without labels whose value is read at each scrape. */
  private scrapedGauge(name: string, help: string, read: () => number): void {
    this.gauge({
      name,
      help,
      collect() {
        this.set(read());
      },
    });
  }

  /** The metrics port: GET /metrics, nothing else. */
  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      const { status, body } = mapError(metricsError(MetricsErrorCode.NotFound, 'Only GET /metrics is served on the metrics port.'));
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    await this.send(res);
  }

  /** Writes the exposition format (text/plain; version=0.0.4). */
  async send(res: ServerResponse): Promise<void> {
    const text = await this.registry.metrics();
    res.writeHead(200, { 'content-type': this.registry.contentType, 'cache-control': 'no-store' }).end(text);
  }

  private poolCounts(): PoolCounts | undefined {
    const master = (this.dataSource.driver as unknown as { master?: Partial<PoolCounts> }).master;
    return typeof master?.totalCount === 'number' ? (master as PoolCounts) : undefined;
  }
}

/** Outcome label of a failure: the error code of a DomainError (a bounded enum), else `error`. */
export function outcomeOf(error: unknown): string {
  return error instanceof DomainError ? error.code : 'error';
}

function routeTemplate(req: RoutedRequest): string {
  const path = req.route?.path;
  if (typeof path === 'string') return `${req.baseUrl ?? ''}${path}`;
  // No route matched: static admin files, the SPA fallback, 404s. Their URLs are not labels.
  return 'unmatched';
}
