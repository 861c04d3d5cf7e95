// The server's release is the repository's version (package.json); the CLI package it serves has the same one
// (apps/cli/package.json, kept equal by apps/server/test/cli-package/cli-package.spec.ts). tsc copies the imported
// package.json into the build, so this holds in dist/ and the Docker image alike.
import { version } from '../../../../../package.json';

export const SERVER_VERSION: string = version;
