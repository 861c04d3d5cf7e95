// Builds service-cli once, before the test workers start: specs run the built binary (test/artifacts/cli-process.ts).
// Each spec building it itself made two workers start `nx run cli:build` at the same time, and Nx refused one of
// them as a recursive invocation (diagram-image.spec failed beside cli-sync.spec in CI).
const { execFile } = require('node:child_process');
const { resolve } = require('node:path');

module.exports = () =>
  new Promise((done, fail) => {
    execFile('npx', ['nx', 'run', 'cli:build', '--output-style=static'], { cwd: resolve(__dirname, '../../..'), env: { ...process.env, NX_DAEMON: 'false' } }, (error, stdout, stderr) => {
      if (error) fail(new Error(`cli:build failed before the integration tests:\n${stdout}\n${stderr}`));
      else done();
    });
  });
