import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import {
  LayoutCache,
  PNG_MAX_PIXELS,
  PNG_MIN_SCALE,
  buildModel,
  createView,
  diagramSvg,
  fitPngScale,
  layoutDiagram,
  layoutInput,
  sequenceSvg,
  withoutRemoteImages,
  type DiagramTheme,
  type OverlaidGraph,
} from '@sc/diagram';
import type ElkConstructor from 'elkjs/lib/elk.bundled.js';
import { CliError } from './cli-error';
import { ExitCode } from './exit-codes';
import { formatProblems } from './format';
import { runReportingErrors } from './io';
import { displayPathOf } from './load-config';
import type { RenderJson } from './output-types';
import { checkOneDiagram, readInput, type InspectContext } from './run-inspect';

export interface RenderOptions {
  file: string;
  context?: string;
  databases: string[];
  /** Where to write: `.svg` or `.png` decides the format. */
  output: string;
  /** PNG pixels per SVG unit (1..4). */
  scale: number;
  /** The drawing's colours (light unless given). */
  theme?: DiagramTheme;
  json: boolean;
}

/**
 * `service-cli render`: one Mermaid file (and a context) drawn as the server's image.svg / image.png draw it — the
 * same model, layout (ELK, here in-process: a local one-off run) and libs/diagram renderer; PNG with resvg.
 */
export async function runRender(options: RenderOptions, context: InspectContext): Promise<ExitCode> {
  const { io, cwd } = context;
  return runReportingErrors(io, options.json, async () => {
    const format = path.extname(options.output).toLowerCase() === '.png' ? 'png' : path.extname(options.output).toLowerCase() === '.svg' ? 'svg' : null;
    if (!format) throw new CliError(ExitCode.Validation, 'render_output_format', `-o ${options.output}: write the image to a .svg or a .png file.`);
    if (!Number.isInteger(options.scale) || options.scale < 1 || options.scale > 4) throw new CliError(ExitCode.Validation, 'render_scale', '--scale must be a whole number from 1 to 4.');
    const file = displayPathOf(path.resolve(cwd, options.file), cwd);
    const contextFile = options.context !== undefined ? displayPathOf(path.resolve(cwd, options.context), cwd) : undefined;
    const check = await checkOneDiagram(context.checkDiagram, {
      diagramFile: file,
      mermaid: await readInput(path.resolve(cwd, options.file), options.file),
      ...(contextFile !== undefined && options.context !== undefined ? { contextFile, context: await readInput(path.resolve(cwd, options.context), options.context) } : {}),
      ...(options.databases.length ? { databaseNames: options.databases } : {}),
    });
    const report = (output?: RenderJson['output']): ExitCode => {
      const exitCode = output ? ExitCode.Ok : ExitCode.Validation;
      if (options.json) io.out(JSON.stringify({ ok: !!output, exitCode, file, ...(contextFile ? { contextFile } : {}), ...(output ? { output } : {}), problems: check.problems } satisfies RenderJson, null, 2));
      else if (check.problems.length) io.err(formatProblems(check.problems, {}));
      if (!options.json) {
        const reduced = output?.scale !== undefined && output.scale < options.scale ? `, scale ${output.scale} to stay within ${PNG_MAX_PIXELS / 1_000_000} megapixels` : '';
        if (output) io.out(`Wrote ${output.path} (${output.width}×${output.height}${reduced}).`);
        else io.err(`${file} is invalid; nothing was written.`);
      }
      return exitCode;
    };
    if (!check.ok || !check.graph) return report();
    // A sequence diagram is drawn in its order without a layout, as the server draws it (sequence-svg.ts).
    const theme = options.theme ?? 'light';
    const svg = check.graph.kind === 'sequence' ? sequenceSvg(check.graph, theme) : await canvasSvg(check.graph, theme);
    const [, width, height] = /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg)?.map(Number) ?? [0, 0, 0];
    let bytes: Buffer = Buffer.from(svg, 'utf8');
    let size = { width, height };
    let scale: number | undefined;
    if (format === 'png') {
      // The server's rule: too many pixels at --scale → the largest scale that fits, refused only below the minimum.
      const fit = fitPngScale(width, height, options.scale);
      if (!fit.ok) {
        throw new CliError(
          ExitCode.Validation,
          'render_too_large',
          `The PNG would be ${fit.width}×${fit.height} pixels even at scale ${PNG_MIN_SCALE}, over the limit of ${PNG_MAX_PIXELS / 1_000_000} megapixels; write an .svg instead.`,
        );
      }
      // Loaded only for a PNG: a native module, and the other commands never need it.
      const { Resvg } = await import('@resvg/resvg-js');
      bytes = new Resvg(svg, { fitTo: { mode: 'zoom', value: fit.scale }, font: { loadSystemFonts: true }, logLevel: 'off' }).render().asPng();
      size = { width: fit.width, height: fit.height };
      scale = fit.scale;
    }
    const target = path.resolve(cwd, options.output);
    await writeFile(target, bytes);
    return report({ path: displayPathOf(target, cwd), format, ...size, bytes: bytes.length, ...(scale !== undefined ? { scale } : {}) });
  });
}

/** Any other kind as the canvas draws it: the model, ELK's layout, render-svg.ts. */
async function canvasSvg(graph: OverlaidGraph, theme: DiagramTheme): Promise<string> {
  // No database schemas here: data nodes show the database they name, without its tables.
  const model = buildModel({ view: createView(graph), databases: new Map(), highlights: null });
  // Loaded here, not at start-up: ELK is a large bundle the other commands never need.
  const ELK = (await import('elkjs/lib/elk.bundled.js')).default as unknown as typeof ElkConstructor;
  const layout = await layoutDiagram(new ELK(), layoutInput(model), new LayoutCache());
  return withoutRemoteImages(diagramSvg(model, layout, theme));
}
