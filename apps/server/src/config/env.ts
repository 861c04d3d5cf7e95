/**
 * Small, dependency-free helpers to read environment variables the same way in every config class.
 * Each helper records a readable problem instead of throwing, so a config loader can report every
 * bad variable at once (see `EnvReader.assertValid`).
 */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3 };

/** Parses `90`, `90s`, `15m`, `8h`, `7d` or `500ms` into milliseconds (a bare number means seconds). */
export function parseDurationMs(value: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(value);
  if (!match) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  return Math.round(Number(match[1]) * DURATION_UNITS_MS[unit]);
}

/** Parses `10485760`, `512kb`, `10mb` or `10MiB` into bytes (binary units either way). */
export function parseByteSize(value: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+)?\s*$/i.exec(value);
  if (!match) return undefined;
  const factor = SIZE_UNITS[(match[2] ?? 'b').toLowerCase()];
  if (factor === undefined) return undefined;
  return Math.round(Number(match[1]) * factor);
}

/** Reads variables from one env record and collects a readable problem per invalid variable. */
export class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  /** The trimmed value, or undefined when unset or blank. */
  raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  string(name: string, fallback: string): string;
  string(name: string): string | undefined;
  string(name: string, fallback?: string): string | undefined {
    return this.raw(name) ?? fallback;
  }

  required(name: string, why: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) this.problems.push(`${name} is required ${why}.`);
    return value;
  }

  integer(name: string, fallback: number, { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = {}): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = /^-?\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      this.problems.push(`${name} must be a whole number between ${min} and ${max} (got "${value}").`);
      return fallback;
    }
    return parsed;
  }

  durationMs(name: string, fallbackMs: number, { minMs = 1 } = {}): number {
    const value = this.raw(name);
    if (value === undefined) return fallbackMs;
    const parsed = parseDurationMs(value);
    if (parsed === undefined || parsed < minMs) {
      this.problems.push(`${name} must be a duration such as 90s, 15m, 8h or 7d (got "${value}").`);
      return fallbackMs;
    }
    return parsed;
  }

  byteSize(name: string, fallback: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = parseByteSize(value);
    if (parsed === undefined || parsed < 1) {
      this.problems.push(`${name} must be a size such as 10485760, 512kb or 10mb (got "${value}").`);
      return fallback;
    }
    return parsed;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name} must be true or false (got "${value}").`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}").`);
    return fallback;
  }

  /** An absolute http(s) URL, returned without a trailing slash. */
  httpUrl(name: string, fallback: string): string;
  httpUrl(name: string): string | undefined;
  httpUrl(name: string, fallback?: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
      this.problems.push(`${name} must be an absolute http:// or https:// URL without query or fragment (got "${value}").`);
      return fallback;
    }
    return value.replace(/\/+$/, '');
  }

  /** Adds a problem found by a caller's own check. */
  problem(message: string): void {
    this.problems.push(message);
  }

  /** Throws a ConfigError listing every problem found so far. */
  assertValid(): void {
    if (this.problems.length > 0) throw new ConfigError([...this.problems]);
  }
}
