import { constants, promises as fs, type Stats } from 'node:fs';
import { positionOf } from '@sc/diagram';

export type RegularFileRead = { ok: true; bytes: Buffer } | { ok: false; reason: 'not_a_file'; message: string } | { ok: false; reason: 'too_large'; message: string };

/**
 * Reads `absolute` only when it is a regular file. A FIFO, device or socket is refused: reading one blocks until
 * a writer appears (or never ends, like /dev/zero). The file is opened with O_NONBLOCK, which makes opening a
 * FIFO return at once instead of waiting for a writer, and the type is checked on the opened descriptor, so
 * the path cannot be swapped between the check and the read. Open errors (ENOENT, EACCES) are thrown.
 * `shown` is the path as the user should see it in messages.
 */
export async function readRegularFile(absolute: string, shown: string, maxBytes: number): Promise<RegularFileRead> {
  const handle = await fs.open(absolute, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, reason: 'not_a_file', message: `${shown} is ${describeFileType(stat)}, not a regular file; refusing to read it.` };
    if (stat.size > maxBytes) return { ok: false, reason: 'too_large', message: `${shown} is ${stat.size} bytes; files over ${maxBytes} bytes are not read.` };
    return { ok: true, bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

function describeFileType(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'a special file';
}

/**
 * Where the first NUL character (U+0000) of a text is, as a sentence naming the file, or undefined when there
 * is none. The service stores text in PostgreSQL, which cannot hold NUL, so the CLI refuses it before sending.
 */
export function nulProblem(content: string, shown: string): { message: string; line: number; column: number } | undefined {
  const offset = content.indexOf('\u0000');
  if (offset < 0) return undefined;
  const { line, column } = positionOf(content, offset);
  return { line, column, message: `${shown} contains a NUL character (U+0000) at line ${line}, column ${column}; the service stores text and cannot hold it. Remove it.` };
}
