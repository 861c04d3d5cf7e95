import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE } from './support/server';

/**
 * scripts/ensure-chromium.sh, the browser-test step's set-up (`npm test`, `nx run admin:e2e`, .ci/run), on a machine
 * without Chromium. Other tests on the same machine need the real /usr/bin/chromium, so absence is simulated:
 * CHROMIUM_PATH names a file that does not exist, and an `apt-get` on PATH records how it is called and "installs"
 * that file. Root and non-root runs are real (setpriv drops to nobody; unshare maps a non-root tester to root).
 */
describe('scripts/ensure-chromium.sh', () => {
  let dir: string;
  let script: string;
  let chromium: string;
  let aptLog: string;
  /** PATH with the recording apt-get first. */
  let withApt: string;
  /** PATH with `id` only: no apt-get at all. */
  let withoutApt: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ensure-chromium-'));
    chmodSync(dir, 0o755);
    script = join(dir, 'ensure-chromium.sh');
    copyFileSync(join(WORKSPACE, 'scripts/ensure-chromium.sh'), script);
    chmodSync(script, 0o755);
    chromium = join(dir, 'usr-bin', 'chromium');
    mkdirSync(join(dir, 'usr-bin'));
    aptLog = join(dir, 'apt.log');
    const aptBin = join(dir, 'apt-bin');
    mkdirSync(aptBin);
    writeFileSync(
      join(aptBin, 'apt-get'),
      `#!/bin/sh\necho "DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> "${aptLog}"\nif [ "$1" = install ] && [ -n "$FAKE_APT_CREATES" ]; then printf '#!/bin/sh\\n' > "$FAKE_APT_CREATES"; chmod +x "$FAKE_APT_CREATES"; fi\n`,
      { mode: 0o755 },
    );
    withApt = `${aptBin}:/usr/bin:/bin`;
    const idOnly = join(dir, 'id-bin');
    mkdirSync(idOnly);
    symlinkSync(which('id'), join(idOnly, 'id'));
    withoutApt = idOnly;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const isRoot = process.getuid?.() === 0;
  /** Runs the script with bash (as `npm test` and .ci/run do) as root or as an ordinary user. */
  function run(as: 'root' | 'user', env: Record<string, string>): { code: number | null; stderr: string; stdout: string } {
    const bash = ['/bin/bash', script];
    const argv =
      as === 'root' ? (isRoot ? bash : [which('unshare'), '--map-root-user', ...bash]) : isRoot ? [which('setpriv'), '--reuid=65534', '--regid=65534', '--clear-groups', ...bash] : bash;
    const result = spawnSync(argv[0], argv.slice(1), { env: { HOME: dir, CHROMIUM_PATH: chromium, ...env }, encoding: 'utf8' });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }
  const aptCalls = (): string[] => (existsSync(aptLog) ? readFileSync(aptLog, 'utf8').trim().split('\n') : []);

  it('does nothing when Chromium is there', () => {
    writeFileSync(chromium, '#!/bin/sh\n', { mode: 0o755 });
    const result = run('root', { PATH: withApt });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(aptCalls()).toEqual([]);
  });

  it("installs Debian's chromium with apt-get when it is missing and the user is root", () => {
    const result = run('root', { PATH: withApt, FAKE_APT_CREATES: chromium });
    expect(result.code).toBe(0);
    expect(aptCalls()).toEqual(['DEBIAN_FRONTEND= update -qq', 'DEBIAN_FRONTEND=noninteractive install -y -qq chromium']);
    expect(existsSync(chromium)).toBe(true);
    expect(result.stderr).toContain(`${chromium} is missing; installing Debian's chromium package`);
  });

  it('fails with one line when apt-get installed chromium but the configured path is still missing', () => {
    const result = run('root', { PATH: withApt });
    expect(result.code).toBe(1);
    expect(aptCalls()).toHaveLength(2);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(`ensure-chromium: apt-get installed chromium, but ${chromium} is still missing; set CHROMIUM_PATH to the installed executable.`);
  });

  it.each([
    ['a user who is not root (apt-get present)', 'user' as const, () => withApt],
    ['root without apt-get', 'root' as const, () => withoutApt],
  ])('stops %s with one line saying exactly what to run, installing nothing', (_case, as, path) => {
    const result = run(as, { PATH: path() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `ensure-chromium: the browser tests need Chromium at ${chromium}: run \`sudo apt-get update && sudo apt-get install -y chromium\` (Debian/Ubuntu), or set CHROMIUM_PATH to an installed Chromium.\n`,
    );
    expect(aptCalls()).toEqual([]);
    expect(existsSync(chromium)).toBe(false);
  });
});

function which(command: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error(`${command} is not installed; this test needs it.`);
  return found;
}
