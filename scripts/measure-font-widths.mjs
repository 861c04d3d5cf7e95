// Regenerates the advance-width table of libs/diagram/src/lib/canvas/font-widths.ts: measures every character of the
// table's ranges with Debian's Chromium (playwright-core) in the dashboard's font stack and in the two fonts it falls
// back to on Linux and stands in for elsewhere (DejaVu Sans, Liberation Sans = Arial's metrics), and keeps the widest,
// so an estimate from the table is never narrower than the text drawn in any of them.
// Usage: node scripts/measure-font-widths.mjs > /tmp/widths.json
import { chromium } from 'playwright-core';

const STACK = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const MONO = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace";
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
const result = await page.evaluate(({ STACK, MONO }) => {
  const chars = [];
  for (let c = 0x20; c <= 0x7e; c++) chars.push(String.fromCodePoint(c));
  for (let c = 0xa0; c <= 0x17f; c++) chars.push(String.fromCodePoint(c));
  const ctx = new OffscreenCanvas(1, 1).getContext('2d');
  const widest = (weight, families) =>
    chars.map((ch) => Math.max(...families.map((family) => { ctx.font = `${weight} 1000px ${family}`; return ctx.measureText(ch).width; })));
  const sans = [STACK, "'DejaVu Sans'", "'Liberation Sans'"];
  const mono = [MONO, "'DejaVu Sans Mono'", "'Liberation Mono'"];
  return {
    chars: chars.join(''),
    w400: widest(400, sans).map((w) => Math.ceil(w)),
    w500: widest(500, sans).map((w) => Math.ceil(w)),
    w600: widest(600, sans).map((w) => Math.ceil(w)),
    mono: Math.ceil(Math.max(...widest(400, mono))),
  };
}, { STACK, MONO });
await browser.close();
process.stdout.write(JSON.stringify(result));
