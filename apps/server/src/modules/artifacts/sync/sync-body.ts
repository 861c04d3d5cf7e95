import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { assertJsonDepth } from '../../../common/http/json-input';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { syncTooLarge } from './bundle-checks';

/**
 * Reads the gateway's JSON body with its own limit, which applies to the DECOMPRESSED bytes: a few KiB of
 * gzip that inflate to gigabytes (a zip bomb) are cut off as soon as the inflated stream passes the limit,
 * without ever holding more than the limit in memory.
 */

const DECODERS: Record<string, (() => Transform) | undefined> = {
  identity: undefined,
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const contentType = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json' && !contentType.endsWith('+json')) {
    drain(req);
    throw artifactsError(ArtifactsErrorCode.UnsupportedMediaType, 'The sync bundle must be sent as application/json.');
  }
  const encoding = String(req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (!(encoding in DECODERS)) {
    drain(req);
    throw artifactsError(
      ArtifactsErrorCode.UnsupportedContentEncoding,
      `Content-Encoding "${encoding}" is not supported; send the bundle as is or gzip-compressed.`,
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    drain(req);
    throw syncTooLarge(maxBytes, `The request body is ${declared} bytes`);
  }

  const decoderFactory = DECODERS[encoding];
  const decoder = decoderFactory?.();
  const source = decoder ? req.pipe(decoder) : req;
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) {
        decoder?.destroy();
        drain(req);
        throw syncTooLarge(maxBytes, `The request body is over ${maxBytes} bytes once decompressed`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (isZlibError(error)) {
      drain(req);
      throw artifactsError(ArtifactsErrorCode.InvalidBundle, `The ${encoding} body could not be decompressed: ${error.message}.`);
    }
    throw error;
  }

  const text = Buffer.concat(chunks, total).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (error) {
    throw artifactsError(ArtifactsErrorCode.InvalidBundle, `The body is not valid JSON: ${(error as Error).message}.`);
  }
  // The global input check skips the gateway (its body is read here); the bundle checks report unstorable text.
  assertJsonDepth(body, 'sync bundle');
  return body;
}

/**
 * Duck-typed: zlib's errors may come from another realm (test sandboxes), where instanceof Error fails. gzip and
 * deflate errors have codes `Z_…`, Brotli's `ERR__ERROR_…` / `ERR_BROTLI_…`.
 */
function isZlibError(error: unknown): error is { code: string; message: string } {
  const candidate = error as { code?: unknown; message?: unknown } | null;
  return typeof candidate?.code === 'string' && /^(Z_|ERR__|ERR_BROTLI)/.test(candidate.code) && typeof candidate.message === 'string';
}

/** Discards what is left of the request so the error response can still be written on the connection. */
function drain(req: IncomingMessage): void {
  req.unpipe();
  req.resume();
}
