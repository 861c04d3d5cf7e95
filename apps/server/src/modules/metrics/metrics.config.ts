import { Env, EnvReader } from '../../config/env';

/** Where /metrics is served: its own port, or the main port behind a bearer token; neither means off (404). */
export class MetricsConfig {
  constructor(
    readonly port: number | null,
    readonly token: string | null,
  ) {}

  get enabled(): boolean {
    return this.port !== null || this.token !== null;
  }

  /** SERVICE_METRICS_PORT (unset), SERVICE_METRICS_TOKEN (unset; at least 16 characters). */
  static fromEnv(env: Env): MetricsConfig {
    const read = new EnvReader(env);
    const port = read.raw('SERVICE_METRICS_PORT') === undefined ? null : read.integer('SERVICE_METRICS_PORT', 0, { min: 1, max: 65535 });
    const token = read.string('SERVICE_METRICS_TOKEN') ?? null;
    if (token !== null && token.length < 16) read.problem('SERVICE_METRICS_TOKEN must be at least 16 characters long.');
    read.assertValid();
    return new MetricsConfig(port, token);
  }
}
