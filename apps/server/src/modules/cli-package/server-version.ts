import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const REPOSITORY_PACKAGE = 'system-context-service';

/**
 * The server's release is the repository's version (the root package.json); the CLI package it serves has the same
 * one (apps/cli/package.json, kept equal by apps/server/test/cli-package/downloads.spec.ts). The root package.json
 * lies above this file both in the sources and in the build (dist/apps/server/…, the Docker image's /app).
 */
function repositoryVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === REPOSITORY_PACKAGE && manifest.version) return manifest.version;
    }
    if (dirname(dir) === dir) throw new Error(`No package.json of ${REPOSITORY_PACKAGE} above ${__dirname}: the server cannot tell its version.`);
  }
}

export const SERVER_VERSION = repositoryVersion();
