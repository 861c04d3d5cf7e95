// Test runs keep their temporary files in memory where the machine has a tmpfs at /dev/shm (Linux): every test app
// and browser-test server starts on its own copy of the run's template database (40 MB, 1,100 files) and writes to it
// while it runs. Copying it to the ext4 /tmp cost about 0.5 CPU-seconds and removing it 0.06; to /dev/shm 0.08 and 0.03
// (measured on the 2-core CI machine), and the database's own writes skip the disk too.
// Called by the Jest global setups before they create anything: the workers, and the processes tests start, inherit
// TMPDIR, which os.tmpdir() reads. A TMPDIR the developer set is left as it is, and so is a small /dev/shm (Docker's
// default is 64 MB; two workers' databases, the packed CLI's install and Chromium's profiles need far more).
const { accessSync, constants, statfsSync } = require('node:fs');

const MEMORY_DIR = '/dev/shm';
const MIN_FREE_BYTES = 2 * 1024 ** 3;

function useMemoryTmpdir() {
  if (process.env['TMPDIR']) return;
  try {
    accessSync(MEMORY_DIR, constants.W_OK | constants.X_OK);
    const { bavail, bsize } = statfsSync(MEMORY_DIR);
    if (bavail * bsize < MIN_FREE_BYTES) return;
  } catch {
    return;
  }
  process.env['TMPDIR'] = MEMORY_DIR;
}

module.exports = { useMemoryTmpdir };
