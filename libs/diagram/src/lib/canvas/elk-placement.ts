import type { ArrangementLists } from '@sc/contracts';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { applyArrangement, isArranged, placementUnits, type ArrangedDrawing } from './arrangement';
import type { Box, ElkEngine, LayoutInput, LayoutResult, Point } from './layout';

/**
 * Where ELK puts what an arrangement does not place (new since it was saved, or chosen for "Auto-arrange selection"),
 * around what it keeps. One ELK run per container that has units to place (the top level, or a kept group's frame):
 * the units (a placed group as one box of its automatic size, its inside laid out automatically) and their kept
 * neighbours by edge, laid out by ELK's layered algorithm in the diagram's direction with its interactive strategies,
 * which take the kept boxes' coordinates as constraints on the layers and the order within them (and keep their
 * coordinates across the flow where they can). The run's result is then moved so that the kept neighbours land,
 * on average, where they are kept: each unit's proposal is where that puts it (beside its neighbour in the flow's
 * direction, between its neighbours when it has several). A connected part of the run with no kept neighbour gets
 * no proposal (applyArrangement puts it near its automatic place).
 *
 * ELK does not know the boxes that are no neighbours, and moves the kept ones to fit the new ones between them:
 * applyArrangement takes each proposal as the place to start from and moves it to the nearest spot that overlaps no
 * box (the guarantee "never over a kept box" is its, checked by its property test).
 */

const EDGE = '\u0000edge';
/** Between layers, as in the automatic layout (LAYERED_OPTIONS in layout.ts). */
const LAYER_GAP = 56;

/**
 * The options of the placement run. `INTERACTIVE` cycle breaking, layering and crossing minimisation read the
 * coordinates handed in (the kept boxes where they are kept): an edge is reversed, a node layered and ordered as its
 * position says, so the run's layers follow the kept drawing rather than an order of ELK's own. `INTERACTIVE` node
 * placement keeps the coordinates across the flow where it can, and components stay in one graph (not separated and
 * packed, which would drop the coordinates). The spacing is the automatic layout's (LAYERED_OPTIONS in layout.ts), so a new
 * node sits as far from its neighbour as it would in the automatic layout.
 */
function placementOptions(direction: LayoutInput['direction']): Record<string, string> {
  return {
    'elk.algorithm': 'layered',
    'elk.direction': direction,
    'elk.spacing.nodeNode': '28',
    'elk.layered.spacing.nodeNodeBetweenLayers': String(LAYER_GAP),
    'elk.separateConnectedComponents': 'false',
    'elk.layered.cycleBreaking.strategy': 'INTERACTIVE',
    'elk.layered.layering.strategy': 'INTERACTIVE',
    'elk.layered.crossingMinimization.strategy': 'INTERACTIVE',
    'elk.layered.nodePlacement.strategy': 'INTERACTIVE',
  };
}

/** The corner of a box of `size` one layer after `box` in the flow (`after`), or one layer before it. */
function besideInFlow(direction: LayoutInput['direction'], box: Box, size: { width: number; height: number }, after: boolean): Point {
  const right = { x: box.x + box.width + LAYER_GAP, y: box.y };
  const left = { x: box.x - size.width - LAYER_GAP, y: box.y };
  const below = { x: box.x, y: box.y + box.height + LAYER_GAP };
  const above = { x: box.x, y: box.y - size.height - LAYER_GAP };
  if (direction === 'RIGHT') return after ? right : left;
  if (direction === 'LEFT') return after ? left : right;
  if (direction === 'DOWN') return after ? below : above;
  return after ? above : below;
}

/**
 * ELK's proposal for each unit applyArrangement will place (top-left corner, by unit id), from `auto` (the sizes of
 * the units) and the boxes the arrangement keeps. Empty without an arrangement or anything to place.
 */
export async function elkPlacements(elk: ElkEngine, input: LayoutInput, auto: LayoutResult, arrangement: ArrangementLists | null | undefined): Promise<Map<string, Point>> {
  const proposals = new Map<string, Point>();
  if (!isArranged(arrangement)) return proposals;
  const { kept, units } = placementUnits(input, arrangement);
  if (units.length === 0) return proposals;
  const unitOf = new Map<string, string>();
  for (const unit of units) for (const member of unit.members) unitOf.set(member, unit.id);
  const containers = new Map<string | undefined, typeof units>();
  for (const unit of units) {
    const list = containers.get(unit.parent);
    if (list) list.push(unit);
    else containers.set(unit.parent, [unit]);
  }

  for (const [container, inside] of containers) {
    const here = new Set(inside.map((unit) => unit.id));
    // An edge's end as this run sees it: the unit of this container holding it, or a kept box (a neighbour).
    const end = (id: string): { id: string; fixed: boolean } | undefined => {
      const unit = unitOf.get(id);
      if (unit !== undefined) return here.has(unit) ? { id: unit, fixed: false } : undefined;
      return kept.has(id) ? { id, fixed: true } : undefined;
    };
    const edges: { source: string; target: string }[] = [];
    const fixed = new Set<string>();
    for (const edge of input.edges) {
      const source = end(edge.source);
      const target = end(edge.target);
      if (!source || !target || source.id === target.id || (source.fixed && target.fixed)) continue;
      edges.push({ source: source.id, target: target.id });
      if (source.fixed) fixed.add(source.id);
      if (target.fixed) fixed.add(target.id);
    }
    if (fixed.size === 0) continue;

    // A unit starts where the flow puts it from its kept neighbours (the mean of one layer after each it is pointed
    // to from, one layer before each it points to; its automatic place without any): ELK's interactive strategies
    // then layer and order it from there. Started on top of a neighbour instead, a node narrower than it (a resized
    // one) has its centre before the neighbour's, and the interactive cycle breaking reversed the edge between them.
    const beside = new Map<string, Point[]>();
    for (const edge of edges) {
      for (const [unit, neighbour, after] of [
        [edge.target, edge.source, true],
        [edge.source, edge.target, false],
      ] as const) {
        const box = fixed.has(neighbour) && !fixed.has(unit) ? kept.get(neighbour) : undefined;
        if (!box) continue;
        const place = besideInFlow(input.direction, box, auto.boxes[unit] ?? { width: 0, height: 0 }, after);
        beside.set(unit, [...(beside.get(unit) ?? []), place]);
      }
    }
    const start = new Map<string, Point>();
    for (const unit of inside) {
      const places = beside.get(unit.id) ?? [];
      const own = auto.boxes[unit.id] ?? { x: 0, y: 0 };
      start.set(unit.id, places.length ? { x: places.reduce((sum, p) => sum + p.x, 0) / places.length, y: places.reduce((sum, p) => sum + p.y, 0) / places.length } : { x: own.x, y: own.y });
    }
    const children: ElkNode[] = [
      ...inside.map((unit) => ({ id: unit.id, x: start.get(unit.id)?.x ?? 0, y: start.get(unit.id)?.y ?? 0, width: auto.boxes[unit.id]?.width ?? 0, height: auto.boxes[unit.id]?.height ?? 0 })),
      ...[...fixed].map((id) => {
        const box = kept.get(id) as NonNullable<ReturnType<typeof kept.get>>;
        return { id, x: box.x, y: box.y, width: box.width, height: box.height };
      }),
    ];
    const elkEdges: ElkExtendedEdge[] = edges.map((edge, i) => ({ id: `${EDGE}${i}`, sources: [edge.source], targets: [edge.target] }));
    const result = await elk.layout({ id: `${container ?? ''}\u0000placement`, layoutOptions: placementOptions(input.direction), children, edges: elkEdges });
    const laidOut = new Map((result.children ?? []).map((child) => [child.id, { x: child.x ?? 0, y: child.y ?? 0 }]));

    // Each connected part of the run is moved so that its kept neighbours are, on average, where they are kept.
    const part = new Map<string, string>();
    const root = (id: string): string => {
      let current = id;
      while (part.get(current) !== undefined && part.get(current) !== current) current = part.get(current) as string;
      part.set(id, current);
      return current;
    };
    for (const child of children) part.set(child.id, child.id);
    for (const edge of edges) part.set(root(edge.source), root(edge.target));
    const shifts = new Map<string, { x: number; y: number; count: number }>();
    for (const id of fixed) {
      const at = laidOut.get(id);
      const box = kept.get(id);
      if (!at || !box) continue;
      const key = root(id);
      const shift = shifts.get(key) ?? { x: 0, y: 0, count: 0 };
      shifts.set(key, { x: shift.x + box.x - at.x, y: shift.y + box.y - at.y, count: shift.count + 1 });
    }
    for (const unit of inside) {
      const at = laidOut.get(unit.id);
      const shift = shifts.get(root(unit.id));
      if (at && shift) proposals.set(unit.id, { x: at.x + shift.x / shift.count, y: at.y + shift.y / shift.count });
    }
  }
  return proposals;
}

/**
 * The drawing of `input` with `arrangement` over `auto`, what it does not place put where ELK proposes
 * (elkPlacements) and moved off any box it would overlap (applyArrangement). The server's images and the
 * dashboard's canvas draw with it; `auto` itself when nothing is arranged.
 */
export async function arrangeWithElk(elk: ElkEngine, input: LayoutInput, auto: LayoutResult, arrangement: ArrangementLists | null | undefined): Promise<ArrangedDrawing> {
  if (!isArranged(arrangement)) return { layout: auto, placed: [] };
  return applyArrangement(input, auto, arrangement, await elkPlacements(elk, input, auto, arrangement));
}
