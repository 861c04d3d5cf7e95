#!/usr/bin/env node
// .ci/run's first check: the Node.js running CI must be one the README promises (package.json engines.node),
// so CI tests exactly what is documented. Runs before `npm install`, hence no semver library: engines.node is
// kept in the one form `^MAJOR.MINOR.PATCH` (one major line, at least that release) and anything else fails here.
import { readFileSync } from 'node:fs';

const range = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines?.node ?? '';
const wanted = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
if (!wanted) {
  console.error(`check-node-version: package.json engines.node is "${range}"; keep it in the form ^MAJOR.MINOR.PATCH or update scripts/check-node-version.mjs.`);
  process.exit(1);
}
const [major, minor, patch] = wanted.slice(1).map(Number);
const [runMajor, runMinor, runPatch] = process.versions.node.split('.').map(Number);
const supported = runMajor === major && (runMinor > minor || (runMinor === minor && runPatch >= patch));
if (!supported) {
  console.error(`check-node-version: Node.js ${process.version} is not supported; the README and package.json (engines.node ${range}) promise Node.js ${major}.${minor}.${patch} or a later ${major}.x, and CI tests exactly that.`);
  process.exit(1);
}
console.log(`Node.js ${process.version} satisfies engines.node ${range}.`);
