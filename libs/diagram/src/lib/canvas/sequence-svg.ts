import type { OverlaidGraph } from '../overlay';
import { PALETTES, type DiagramTheme } from './palette';
import { FONT_FAMILY, textWidth } from './text-size';

/**
 * A sequence diagram as a standalone SVG for the server's image routes, drawn from the parsed graph (participants in
 * their order, messages top to bottom) without Mermaid, which needs a browser's layout. What the graph keeps is
 * drawn: participants (actors as figures) with their context names, lifelines, each message with its label and
 * Mermaid's arrow (solid or dotted line; arrowhead, open end, cross, async or both ends), messages to oneself as a
 * loop. Notes, blocks (alt, loop, par) and activations are not in the graph and are not drawn: the dashboard draws
 * those with Mermaid.
 */

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const MARGIN = 16;
const BOX_HEIGHT = 40;
const ACTOR_HEIGHT = 64;
const GAP = 48;
const MIN_BOX = 110;
const ROW = 44;
const SELF_ROW = 64;
const LABEL_FONT = { size: 13 } as const;
const NAME_FONT = { size: 14, weight: 500 } as const;

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

export function sequenceSvg(graph: Pick<OverlaidGraph, 'nodes' | 'edges'>, theme: DiagramTheme = 'light'): string {
  const p = PALETTES[theme];
  const participants = graph.nodes.map((node) => ({ id: node.id, name: node.overlay?.name || node.label || node.id, actor: node.shape === 'actor' }));
  const widths = participants.map((participant) => Math.max(MIN_BOX, Math.ceil(textWidth(participant.name, NAME_FONT)) + 32));
  // Wide labels between neighbours widen the gap (a label is centred between its two lifelines).
  const gaps = participants.map(() => GAP);
  const index = new Map(participants.map((participant, i) => [participant.id, i]));
  for (const edge of graph.edges) {
    const [a, b] = [index.get(edge.source) ?? 0, index.get(edge.target) ?? 0].sort((x, y) => x - y);
    if (a === b || !edge.label) continue;
    let span = 0;
    for (let k = a; k < b; k++) span += widths[k] / 2 + gaps[k] + widths[k + 1] / 2;
    const needed = textWidth(edge.label, LABEL_FONT) + 24;
    if (needed > span) gaps[b - 1] += Math.ceil(needed - span);
  }
  const centres: number[] = [];
  let x = 0;
  participants.forEach((_participant, i) => {
    centres.push(x + widths[i] / 2);
    x += widths[i] + gaps[i];
  });
  const selfWidths = graph.edges.filter((edge) => edge.source === edge.target).map((edge) => textWidth(edge.label ?? '', LABEL_FONT) + 48);
  const contentWidth = Math.max(x - (gaps[gaps.length - 1] ?? 0), 0) + Math.max(0, ...selfWidths.map((width) => width / 2));
  const head = participants.some((participant) => participant.actor) ? ACTOR_HEIGHT : BOX_HEIGHT;
  let y = head + 28;
  const messages: string[] = [];
  const markers = new Set<string>();
  for (const edge of graph.edges) {
    const from = centres[index.get(edge.source) ?? 0] ?? 0;
    const to = centres[index.get(edge.target) ?? 0] ?? 0;
    const look = messageLook(edge.type);
    const dash = look.dotted ? ' stroke-dasharray="6 4"' : '';
    const end = look.end === 'none' ? '' : ` marker-end="url(#seq-${look.end})"`;
    const start = look.both ? ` marker-start="url(#seq-${look.end})"` : '';
    if (look.end !== 'none') markers.add(look.end);
    const label = edge.label ? escape(edge.label) : '';
    let out = `<g data-edge-source="${escape(edge.source)}" data-edge-target="${escape(edge.target)}">`;
    if (edge.source === edge.target) {
      out += `<text x="${from + 8}" y="${y - 8}" font-size="13" fill="${p.ink}" xml:space="preserve">${label}</text>`;
      out += `<path d="M${from},${y}H${from + 36}V${y + 20}H${from + 2}" fill="none" stroke="${p.edge}" stroke-width="1.5"${dash}${end}${start}/>`;
      y += SELF_ROW;
    } else {
      out += `<text x="${(from + to) / 2}" y="${y - 8}" font-size="13" text-anchor="middle" fill="${p.ink}" xml:space="preserve">${label}</text>`;
      const tip = from < to ? to - 2 : to + 2;
      out += `<path d="M${from},${y}H${tip}" fill="none" stroke="${p.edge}" stroke-width="1.5"${dash}${end}${start}/>`;
      y += ROW;
    }
    messages.push(`${out}</g>`);
  }
  const bottom = y - 8;
  const boxes = (top: number) =>
    participants
      .map((participant, i) => {
        const left = centres[i] - widths[i] / 2;
        const boxTop = top + (head - BOX_HEIGHT);
        const nameY = participant.actor ? top + ACTOR_HEIGHT - 10 : boxTop + 25;
        const name = `<text x="${centres[i]}" y="${nameY}" font-size="14" font-weight="500" text-anchor="middle" fill="${p.ink}" xml:space="preserve">${escape(participant.name)}</text>`;
        if (participant.actor) {
          const c = centres[i];
          return (
            `<g data-node-id="${escape(participant.id)}" data-node-type="actor"><g fill="none" stroke="${p.outline}" stroke-width="1.5">` +
            `<circle cx="${c}" cy="${top + 9}" r="7"/><path d="M${c},${top + 16}V${top + 32}M${c - 12},${top + 22}H${c + 12}M${c},${top + 32}L${c - 10},${top + 44}M${c},${top + 32}L${c + 10},${top + 44}"/></g>${name}</g>`
          );
        }
        return (
          `<g data-node-id="${escape(participant.id)}" data-node-type="participant"><rect x="${left}" y="${boxTop}" width="${widths[i]}" height="${BOX_HEIGHT}" rx="4" fill="${p.shapeFill}" stroke="${p.outline}" stroke-width="1.2"/>` +
          `${name}</g>`
        );
      })
      .join('');
  const lifelines = centres.map((c) => `<path d="M${c},${head}V${bottom}" stroke="${p.cardStroke}" stroke-width="1" stroke-dasharray="3 3"/>`).join('');
  const markerPaths: Record<string, string> = {
    arrow: `<path d="M0,0L10,5L0,10Z" fill="${p.edge}"/>`,
    async: `<path d="M0,0L10,5" fill="none" stroke="${p.edge}" stroke-width="1.5"/>`,
    cross: `<path d="M1,1L9,9M9,1L1,9" fill="none" stroke="${p.edge}" stroke-width="1.5"/>`,
  };
  const defs = [...markers]
    .map((kind) => `<marker id="seq-${kind}" viewBox="0 0 10 10" refX="${kind === 'cross' ? 5 : 9}" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto-start-reverse">${markerPaths[kind]}</marker>`)
    .join('');
  const width = Math.ceil(contentWidth + MARGIN * 2);
  const height = Math.ceil(bottom + head + MARGIN * 2);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${-MARGIN} ${-MARGIN} ${width} ${height}" font-family="${escape(FONT_FAMILY)}">` +
    `<defs>${defs}</defs><rect x="${-MARGIN}" y="${-MARGIN}" width="${width}" height="${height}" fill="${p.background}"/>` +
    `${lifelines}${boxes(0)}${messages.join('')}${boxes(bottom)}</svg>\n`
  );
}
