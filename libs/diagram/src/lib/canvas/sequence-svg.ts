import type { SequenceBlockKind, SequenceStep } from '../model';
import type { OverlaidGraph } from '../overlay';
import { PALETTES, type DiagramTheme, type Palette } from './palette';
import { escapeXml } from './xml';
import { FONT_FAMILY, textWidth } from './text-size';

/**
 * A sequence diagram as a standalone SVG for the server's image routes and `service-cli render`, drawn from the
 * parsed graph without Mermaid (which needs a browser's layout), with what the dashboard's Mermaid drawing shows:
 * participants (actors as figures) with their context names in their boxes (`box … end`, with the box's label),
 * lifelines, each message with its label and Mermaid's arrow (solid or dotted line; arrowhead, open end, cross, async
 * or both ends), messages to oneself as a loop, notes (left of, right of, over one or two participants), blocks
 * (loop, alt, opt, par, critical, break: a frame around what they hold with their keyword in a tab, their label in
 * brackets and a dashed divider with its label for each `else`/`and`/`option`; `rect`: its colour behind what it
 * holds) and activations (a bar on the lifeline). The order is the graph's `steps` (libs/diagram graph-builders), or
 * its messages alone when it has none. `autonumber` numbers are not drawn.
 */

const MARGIN = 16;
const BOX_HEIGHT = 40;
const ACTOR_HEIGHT = 64;
const GAP = 48;
const MIN_BOX = 110;
const ROW = 44;
const SELF_ROW = 64;
const LINE = 17;
const NOTE_PADDING = 8;
const ACTIVATION_WIDTH = 10;
const FRAME_PADDING = 14;
const TAB_HEIGHT = 20;
const GROUP_LABEL = 24;
const LABEL_FONT = { size: 13 } as const;
const NAME_FONT = { size: 14, weight: 500 } as const;
const TAB_FONT = { size: 12, weight: 600 } as const;

/** Line and ends of each Mermaid message type (export-mermaid.ts lists their arrows). */
function messageLook(type: string | undefined): { dotted: boolean; end: 'arrow' | 'open' | 'cross' | 'async' | 'none'; both: boolean } {
  const kind = type ?? 'SOLID';
  const dotted = kind.includes('DOTTED');
  if (kind.startsWith('BIDIRECTIONAL')) return { dotted, end: 'arrow', both: true };
  if (kind.endsWith('_CROSS')) return { dotted, end: 'cross', both: false };
  if (kind.endsWith('_POINT')) return { dotted, end: 'async', both: false };
  if (kind.endsWith('_OPEN')) return { dotted, end: 'none', both: false };
  return { dotted, end: 'arrow', both: false };
}

/** A `rect` colour as written (`rgb(191, 223, 255)`, `#eef`, `aliceblue`), or null for anything else. */
function safeColour(colour: string | undefined): string | null {
  if (!colour) return null;
  const value = colour.trim();
  return /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\([\d\s.,%deg]+\)|[a-z]{3,30})$/i.test(value) ? value : null;
}

/** `<text>` of one or more lines (a label's `\n`), the first line's baseline at `y`. */
function textLines(x: number, y: number, text: string, attributes: string): string {
  const lines = text.split('\n');
  if (lines.length === 1) return `<text x="${x}" y="${y}"${attributes} xml:space="preserve">${escapeXml(text)}</text>`;
  const spans = lines.map((line, i) => `<tspan x="${x}" y="${y + i * LINE}">${escapeXml(line)}</tspan>`).join('');
  return `<text${attributes} xml:space="preserve">${spans}</text>`;
}

const widest = (text: string, font: { size: number; weight?: number }) => Math.max(0, ...text.split('\n').map((line) => textWidth(line, font)));

interface OpenBlock {
  block: SequenceBlockKind;
  label: string;
  fill: string | null;
  top: number;
  sections: { y: number; label: string }[];
  lo: number;
  hi: number;
}

export function sequenceSvg(graph: Pick<OverlaidGraph, 'nodes' | 'edges'> & { groups?: OverlaidGraph['groups']; steps?: SequenceStep[] }, theme: DiagramTheme = 'light'): string {
  const p = PALETTES[theme];
  const participants = graph.nodes.map((node) => ({ id: node.id, name: node.overlay?.name || node.label || node.id, actor: node.shape === 'actor' }));
  const steps: SequenceStep[] = graph.steps ?? graph.edges.map((_edge, edge) => ({ kind: 'message', edge }));
  const widths = participants.map((participant) => Math.max(MIN_BOX, Math.ceil(textWidth(participant.name, NAME_FONT)) + 32));
  const gaps = participants.map(() => GAP);
  const index = new Map(participants.map((participant, i) => [participant.id, i]));
  const at = (id: string) => index.get(id) ?? 0;
  const span = (a: number, b: number) => {
    let distance = 0;
    for (let k = a; k < b; k++) distance += widths[k] / 2 + gaps[k] + widths[k + 1] / 2;
    return distance;
  };
  /** Widens the gap before `b` so that the centres of `a` and `b` are at least `needed` apart. */
  const makeRoom = (a: number, b: number, needed: number) => {
    const have = span(a, b);
    if (b > a && needed > have) gaps[b - 1] += Math.ceil(needed - have);
  };
  // Wide labels and notes between neighbours widen the gaps (a label is centred between its two lifelines).
  for (const step of steps) {
    if (step.kind === 'message') {
      const edge = graph.edges[step.edge];
      if (!edge?.label) continue;
      const [a, b] = [at(edge.source), at(edge.target)].sort((x, y) => x - y);
      makeRoom(a, b, widest(edge.label, LABEL_FONT) + 24);
    } else if (step.kind === 'note') {
      const width = widest(step.text, LABEL_FONT) + NOTE_PADDING * 2;
      const [a, b] = step.participants.map(at).sort((x, y) => x - y);
      if (step.placement === 'over' && b !== undefined) makeRoom(a, b, width - 2 * ACTIVATION_WIDTH);
      else if (step.placement === 'right' && a + 1 < participants.length) makeRoom(a, a + 1, width + 2 * ACTIVATION_WIDTH);
      else if (step.placement === 'left' && a > 0) makeRoom(a - 1, a, width + 2 * ACTIVATION_WIDTH);
    }
  }
  const centres: number[] = [];
  let x = 0;
  participants.forEach((_participant, i) => {
    centres.push(x + widths[i] / 2);
    x += widths[i] + gaps[i];
  });
  const centre = (id: string) => centres[at(id)] ?? 0;
  const boxGroups = (graph.groups ?? []).filter((group) => group.nodes.some((id) => index.has(id)));
  const top = boxGroups.some((group) => group.label) ? GROUP_LABEL : 0;
  const head = participants.some((participant) => participant.actor) ? ACTOR_HEIGHT : BOX_HEIGHT;
  let minX = 0;
  let maxX = Math.max(x - (gaps[gaps.length - 1] ?? 0), 0);

  const open: OpenBlock[] = [];
  const cover = (lo: number, hi: number) => {
    minX = Math.min(minX, lo);
    maxX = Math.max(maxX, hi);
    for (const block of open) {
      block.lo = Math.min(block.lo, lo);
      block.hi = Math.max(block.hi, hi);
    }
  };
  /** Open activations per participant: the y each started at. */
  const active = new Map<string, number[]>();
  const depth = (id: string) => active.get(id)?.length ?? 0;
  const bars: string[] = [];
  const backgrounds: string[] = [];
  const frames: string[] = [];
  const messages: string[] = [];
  const notes: string[] = [];
  const markers = new Set<string>();
  let cursor = top + head + 4;
  /** The y of the message just drawn, while only activations follow it (they start or end at that message). */
  let lastLine: number | null = null;

  for (const step of steps) {
    if (step.kind === 'message') {
      const edge = graph.edges[step.edge];
      if (!edge) continue;
      const look = messageLook(edge.type);
      const dash = look.dotted ? ' stroke-dasharray="6 4"' : '';
      const end = look.end === 'none' ? '' : ` marker-end="url(#seq-${look.end})"`;
      const start = look.both ? ` marker-start="url(#seq-${look.end})"` : '';
      if (look.end !== 'none') markers.add(look.end);
      const label = edge.label ?? '';
      const lineCount = label ? label.split('\n').length : 1;
      const line = cursor + 24 + (lineCount - 1) * LINE;
      let from = centre(edge.source);
      let out = `<g data-edge-source="${escapeXml(edge.source)}" data-edge-target="${escapeXml(edge.target)}">`;
      if (edge.source === edge.target) {
        from += depth(edge.source) ? ACTIVATION_WIDTH / 2 : 0;
        out += textLines(from + 8, line - 8 - (lineCount - 1) * LINE, label, ` font-size="13" fill="${p.ink}"`);
        out += `<path d="M${from},${line}H${from + 36}V${line + 20}H${from + 2}" fill="none" stroke="${p.edge}" stroke-width="1.5"${dash}${end}${start}/>`;
        cover(from, from + Math.max(44, widest(label, LABEL_FONT) + 16));
        cursor += SELF_ROW + (lineCount - 1) * LINE;
      } else {
        let to = centre(edge.target);
        const rightwards = from < to;
        // Ends at the edge of an activation bar, as Mermaid draws it.
        if (depth(edge.source)) from += rightwards ? ACTIVATION_WIDTH / 2 : -ACTIVATION_WIDTH / 2;
        if (depth(edge.target)) to += rightwards ? -ACTIVATION_WIDTH / 2 : ACTIVATION_WIDTH / 2;
        out += textLines((from + to) / 2, line - 8 - (lineCount - 1) * LINE, label, ` font-size="13" text-anchor="middle" fill="${p.ink}"`);
        const tip = rightwards ? to - 2 : to + 2;
        out += `<path d="M${from},${line}H${tip}" fill="none" stroke="${p.edge}" stroke-width="1.5"${dash}${end}${start}/>`;
        cover(Math.min(from, to), Math.max(from, to));
        cursor += ROW + (lineCount - 1) * LINE;
      }
      messages.push(`${out}</g>`);
      lastLine = line;
      continue;
    }
    if (step.kind === 'activate') {
      const starts = active.get(step.participant) ?? [];
      starts.push(lastLine ?? cursor + 4);
      active.set(step.participant, starts);
      continue;
    }
    if (step.kind === 'deactivate') {
      const starts = active.get(step.participant);
      const from = starts?.pop();
      if (from !== undefined) bars.push(activationBar(p, centre(step.participant), starts?.length ?? 0, from, Math.max(from + 10, lastLine ?? cursor)));
      continue;
    }
    lastLine = null;
    if (step.kind === 'note') {
      const width = widest(step.text, LABEL_FONT) + NOTE_PADDING * 2;
      const height = step.text.split('\n').length * LINE + NOTE_PADDING;
      const xs = step.participants.map(centre);
      let left: number;
      let right: number;
      if (step.placement === 'over') {
        const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
        left = xs.length > 1 ? lo - ACTIVATION_WIDTH : (lo + hi) / 2 - width / 2;
        right = xs.length > 1 ? Math.max(hi + ACTIVATION_WIDTH, left + width) : left + width;
        if (xs.length > 1 && right - left > width) left = Math.min(left, (lo + hi) / 2 - width / 2);
      } else if (step.placement === 'right') {
        left = xs[0] + ACTIVATION_WIDTH;
        right = left + width;
      } else {
        right = xs[0] - ACTIVATION_WIDTH;
        left = right - width;
      }
      const noteTop = cursor + 6;
      notes.push(
        `<g data-note="${step.placement}"><rect x="${left}" y="${noteTop}" width="${right - left}" height="${height}" fill="${p.commentFill}" stroke="${p.commentStroke}" stroke-width="1"/>` +
          `${textLines((left + right) / 2, noteTop + NOTE_PADDING / 2 + 13, step.text, ` font-size="13" text-anchor="middle" fill="${p.ink}"`)}</g>`,
      );
      cover(left, right);
      cursor = noteTop + height + 6;
    } else if (step.kind === 'block') {
      open.push({ block: step.block, label: step.label, fill: step.block === 'rect' ? (safeColour(step.fill) ?? p.groupFill) : null, top: cursor + 4, sections: [], lo: Infinity, hi: -Infinity });
      cursor += step.block === 'rect' ? 12 : TAB_HEIGHT + 12;
    } else if (step.kind === 'section') {
      const block = open[open.length - 1];
      if (!block) continue;
      block.sections.push({ y: cursor + 4, label: step.label });
      cursor += TAB_HEIGHT + 8;
    } else if (step.kind === 'end') {
      const block = open.pop();
      if (!block) continue;
      const bottom = cursor + 4;
      // A block with nothing beside it spans every lifeline.
      const lo = Number.isFinite(block.lo) ? block.lo : (centres[0] ?? 0);
      const hi = Number.isFinite(block.hi) ? block.hi : (centres[centres.length - 1] ?? 0);
      const tab = block.block === 'rect' ? 0 : textWidth(block.block, TAB_FONT) + 18;
      const labels = [block.label, ...block.sections.map((section) => section.label)].map((label) => (label ? textWidth(`[${label}]`, LABEL_FONT) : 0));
      let left = lo - FRAME_PADDING;
      let right = hi + FRAME_PADDING;
      const needed = tab * 2 + Math.max(0, ...labels) + 16;
      if (right - left < needed) {
        const grow = (needed - (right - left)) / 2;
        left -= grow;
        right += grow;
      }
      const middle = (left + right) / 2;
      if (block.fill) {
        backgrounds.push(`<rect data-block="rect" x="${left}" y="${block.top}" width="${right - left}" height="${bottom - block.top}" fill="${escapeXml(block.fill)}"/>`);
      } else {
        let frame = `<g data-block="${block.block}"><rect x="${left}" y="${block.top}" width="${right - left}" height="${bottom - block.top}" fill="none" stroke="${p.outline}" stroke-width="1.2"/>`;
        frame += `<path d="M${left},${block.top}H${left + tab}V${block.top + TAB_HEIGHT - 6}L${left + tab - 6},${block.top + TAB_HEIGHT}H${left}Z" fill="${p.shapeFill}" stroke="${p.outline}" stroke-width="1.2"/>`;
        frame += `<text x="${left + tab / 2 - 3}" y="${block.top + 14}" font-size="12" font-weight="600" text-anchor="middle" fill="${p.ink}">${escapeXml(block.block)}</text>`;
        if (block.label) frame += `<text x="${middle}" y="${block.top + 15}" font-size="13" text-anchor="middle" fill="${p.ink}" xml:space="preserve">${escapeXml(`[${block.label}]`)}</text>`;
        for (const section of block.sections) {
          frame += `<path d="M${left},${section.y}H${right}" stroke="${p.outline}" stroke-width="1.2" stroke-dasharray="4 3"/>`;
          if (section.label) frame += `<text x="${middle}" y="${section.y + 16}" font-size="13" text-anchor="middle" fill="${p.ink}" xml:space="preserve">${escapeXml(`[${section.label}]`)}</text>`;
        }
        frames.push(`${frame}</g>`);
      }
      cursor = bottom + 10;
      cover(left, right);
    }
  }
  const bottom = cursor + 8;
  // Activations still open at the end run to the bottom, as in Mermaid.
  for (const [id, starts] of active) starts.forEach((from, level) => bars.push(activationBar(p, centre(id), level, from, bottom)));

  const boxes = (boxTop: number) =>
    participants
      .map((participant, i) => {
        const left = centres[i] - widths[i] / 2;
        const rectTop = boxTop + (head - BOX_HEIGHT);
        const nameY = participant.actor ? boxTop + ACTOR_HEIGHT - 10 : rectTop + 25;
        const name = `<text x="${centres[i]}" y="${nameY}" font-size="14" font-weight="500" text-anchor="middle" fill="${p.ink}" xml:space="preserve">${escapeXml(participant.name)}</text>`;
        if (participant.actor) {
          const c = centres[i];
          return (
            `<g data-node-id="${escapeXml(participant.id)}" data-node-type="actor"><g fill="none" stroke="${p.outline}" stroke-width="1.5">` +
            `<circle cx="${c}" cy="${boxTop + 9}" r="7"/><path d="M${c},${boxTop + 16}V${boxTop + 32}M${c - 12},${boxTop + 22}H${c + 12}M${c},${boxTop + 32}L${c - 10},${boxTop + 44}M${c},${boxTop + 32}L${c + 10},${boxTop + 44}"/></g>${name}</g>`
          );
        }
        return (
          `<g data-node-id="${escapeXml(participant.id)}" data-node-type="participant"><rect x="${left}" y="${rectTop}" width="${widths[i]}" height="${BOX_HEIGHT}" rx="4" fill="${p.shapeFill}" stroke="${p.outline}" stroke-width="1.2"/>` +
          `${name}</g>`
        );
      })
      .join('');
  // Participant boxes (`box Label … end`): a frame behind their columns, its label above them.
  const groupFrames = boxGroups
    .map((group) => {
      const members = group.nodes.filter((id) => index.has(id)).map(at);
      const left = Math.min(...members.map((i) => centres[i] - widths[i] / 2)) - 8;
      const right = Math.max(...members.map((i) => centres[i] + widths[i] / 2)) + 8;
      const label = group.label ? `<text x="${(left + right) / 2}" y="${17}" font-size="13" font-weight="600" text-anchor="middle" fill="${p.groupTitle}" xml:space="preserve">${escapeXml(group.label)}</text>` : '';
      return `<g data-group-id="${escapeXml(group.id)}"><rect x="${left}" y="${-4}" width="${right - left}" height="${bottom + head + 8}" rx="6" fill="${p.groupFill}" stroke="${p.groupStroke}" stroke-width="1"/>${label}</g>`;
    })
    .join('');
  const lifelines = centres.map((c) => `<path d="M${c},${top + head}V${bottom}" stroke="${p.cardStroke}" stroke-width="1" stroke-dasharray="3 3"/>`).join('');
  const markerPaths: Record<string, string> = {
    arrow: `<path d="M0,0L10,5L0,10Z" fill="${p.edge}"/>`,
    async: `<path d="M0,0L10,5" fill="none" stroke="${p.edge}" stroke-width="1.5"/>`,
    cross: `<path d="M1,1L9,9M9,1L1,9" fill="none" stroke="${p.edge}" stroke-width="1.5"/>`,
  };
  const defs = [...markers]
    .map((kind) => `<marker id="seq-${kind}" viewBox="0 0 10 10" refX="${kind === 'cross' ? 5 : 9}" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto-start-reverse">${markerPaths[kind]}</marker>`)
    .join('');
  const originX = Math.floor(minX) - MARGIN;
  const width = Math.ceil(maxX - originX + MARGIN);
  const height = Math.ceil(bottom + head + MARGIN * 2);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${originX} ${-MARGIN} ${width} ${height}" font-family="${escapeXml(FONT_FAMILY)}">` +
    `<defs>${defs}</defs><rect x="${originX}" y="${-MARGIN}" width="${width}" height="${height}" fill="${p.background}"/>` +
    `${groupFrames}${backgrounds.join('')}${lifelines}${bars.join('')}${frames.join('')}${boxes(top)}${messages.join('')}${notes.join('')}${boxes(bottom)}</svg>\n`
  );
}

/** An activation bar on a lifeline; nested ones step to the right. */
function activationBar(p: Palette, centre: number, level: number, from: number, to: number): string {
  const left = centre - ACTIVATION_WIDTH / 2 + level * (ACTIVATION_WIDTH / 2);
  return `<rect data-activation="" x="${left}" y="${from}" width="${ACTIVATION_WIDTH}" height="${to - from}" fill="${p.shapeFill}" stroke="${p.outline}" stroke-width="1"/>`;
}
