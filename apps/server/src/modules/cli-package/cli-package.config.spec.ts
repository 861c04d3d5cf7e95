import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../config/env';
import { CliPackageConfig, MIN_CLI_VERSION } from './cli-package.config';

describe('CliPackageConfig', () => {
  it('defaults to dist/cli-package below the working directory and the built-in minimum CLI version', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'sc-cwd-'));
    try {
      expect(CliPackageConfig.fromEnv({}, cwd)).toEqual(new CliPackageConfig(join(cwd, 'dist/cli-package'), MIN_CLI_VERSION));
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('takes a directory and a higher minimum from the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sc-pkg-'));
    try {
      expect(CliPackageConfig.fromEnv({ SERVICE_CLI_PACKAGE_DIR: dir, SERVICE_CLI_MIN_VERSION: '1.4.0' })).toEqual(new CliPackageConfig(dir, '1.4.0'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a missing directory and a minimum that is not a version, naming both variables', () => {
    const attempt = () => CliPackageConfig.fromEnv({ SERVICE_CLI_PACKAGE_DIR: '/nonexistent/cli-package', SERVICE_CLI_MIN_VERSION: 'latest' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/SERVICE_CLI_PACKAGE_DIR \(\/nonexistent\/cli-package\) does not exist[\s\S]*SERVICE_CLI_MIN_VERSION must be a version such as 1\.2\.0 \(got "latest"\)/);
  });
});
