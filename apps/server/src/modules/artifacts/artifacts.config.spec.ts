import { DEFAULT_SYNC_LIMITS } from '@sc/contracts';
import { ConfigError } from '../../config/env';
import { ArtifactsConfig } from './artifacts.config';

describe('ArtifactsConfig.fromEnv', () => {
  it('defaults to 1 MiB per file, 16 MiB per schema file, 32 MiB per sync and 500 artifacts', () => {
    expect(ArtifactsConfig.fromEnv({}).limits).toEqual({ maxFileBytes: 1048576, maxSchemaBytes: 16777216, maxSyncBytes: 33554432, maxArtifacts: 500 });
    expect(DEFAULT_SYNC_LIMITS.maxArtifacts).toBe(500);
  });

  it('reads sizes with units and a count', () => {
    const config = ArtifactsConfig.fromEnv({ SERVICE_SYNC_MAX_FILE_BYTES: '512kb', SERVICE_SYNC_MAX_SCHEMA_BYTES: '1mb', SERVICE_SYNC_MAX_BYTES: '2MiB', SERVICE_SYNC_MAX_ARTIFACTS: '20' });
    expect(config.limits).toEqual({ maxFileBytes: 524288, maxSchemaBytes: 1048576, maxSyncBytes: 2097152, maxArtifacts: 20 });
    expect(() => ArtifactsConfig.fromEnv({ SERVICE_SYNC_MAX_SCHEMA_BYTES: '64mb' })).toThrow(/SERVICE_SYNC_MAX_SCHEMA_BYTES must not be larger than SERVICE_SYNC_MAX_BYTES/);
    // Unset, the schema limit follows a lowered per-sync limit instead of refusing the configuration.
    expect(ArtifactsConfig.fromEnv({ SERVICE_SYNC_MAX_BYTES: '1mb' }).limits.maxSchemaBytes).toBe(1048576);
  });

  it('lists every invalid variable by name', () => {
    let error: unknown;
    try {
      ArtifactsConfig.fromEnv({ SERVICE_SYNC_MAX_BYTES: 'lots', SERVICE_SYNC_MAX_ARTIFACTS: '0' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((problem) => problem.split(' ')[0])).toEqual(['SERVICE_SYNC_MAX_BYTES', 'SERVICE_SYNC_MAX_ARTIFACTS']);
  });

  it('refuses a per-file limit above the per-sync limit', () => {
    expect(() => ArtifactsConfig.fromEnv({ SERVICE_SYNC_MAX_FILE_BYTES: '2mb', SERVICE_SYNC_MAX_BYTES: '1mb' })).toThrow(/must not be larger/);
  });

  it('keeps every revision unless SERVICE_REVISIONS_KEEP is set, and checks the retention settings', () => {
    expect(ArtifactsConfig.fromEnv({}).retention).toEqual({ keepRevisions: null, intervalMs: 3_600_000 });
    expect(ArtifactsConfig.fromEnv({ SERVICE_REVISIONS_KEEP: '20', SERVICE_RETENTION_INTERVAL: '10m' }).retention).toEqual({ keepRevisions: 20, intervalMs: 600_000 });
    expect(() => ArtifactsConfig.fromEnv({ SERVICE_REVISIONS_KEEP: '0' })).toThrow(/SERVICE_REVISIONS_KEEP/);
    expect(() => ArtifactsConfig.fromEnv({ SERVICE_REVISIONS_KEEP: 'all' })).toThrow(/SERVICE_REVISIONS_KEEP/);
    expect(() => ArtifactsConfig.fromEnv({ SERVICE_RETENTION_INTERVAL: 'soon' })).toThrow(/SERVICE_RETENTION_INTERVAL/);
  });
});
