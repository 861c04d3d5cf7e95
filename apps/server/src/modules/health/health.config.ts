import { Env, EnvReader } from '../../config/env';

/** Lifecycle settings, read once at boot. */
export class HealthConfig {
  constructor(
    /** How long SIGTERM/SIGINT waits for in-flight requests and syncs before cutting them off. */
    readonly shutdownGraceMs: number,
  ) {}

  /** SERVICE_SHUTDOWN_GRACE (25s: under the 30 s a container runtime waits before SIGKILL). */
  static fromEnv(env: Env): HealthConfig {
    const read = new EnvReader(env);
    const shutdownGraceMs = read.durationMs('SERVICE_SHUTDOWN_GRACE', 25_000, { minMs: 0 });
    read.assertValid();
    return new HealthConfig(shutdownGraceMs);
  }
}
