import { createHash } from 'node:crypto';
import { pushBundle as pushRawBundle } from './organization';
import type { RunningServer } from './server';

export { setUpOrganization } from './organization';

/** A file of a sync bundle as the CLI sends it: path, text and the SHA-256 of its UTF-8 bytes. */
export function syncFile(path: string, content: string) {
  return { path, content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}

/** Pushes a bundle of `service` and `artifacts` exactly as service-cli sync does and expects it accepted. */
export async function pushBundle(server: RunningServer, syncToken: string, service: Record<string, string>, artifacts: unknown[]): Promise<void> {
  expect(await pushRawBundle(server, syncToken, { version: 1, service, artifacts })).toMatchObject({ body: 'ok' });
}
