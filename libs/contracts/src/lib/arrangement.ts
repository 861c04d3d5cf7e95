import { Transform } from 'class-transformer';
import { IsArray, IsDefined } from 'class-validator';

/**
 * A synced diagram's arrangement: where people put its nodes, group frames and edge bends, stored per diagram (not
 * per revision, never in the repository) under
 * /api/v1/orgs/:orgId/services/:service/diagrams/:name/arrangement. Positions are absolute canvas coordinates of the
 * diagram's default view (the top-left corner of each box). After a sync, libs/diagram's `applyArrangement` keeps
 * every arranged element that still exists where it was and places the others around them.
 */

export interface ArrangedPoint {
  x: number;
  y: number;
}

/** A node's box; width and height only when someone resized it (else the node's own size). */
export interface ArrangedNode {
  id: string;
  x: number;
  y: number;
  width?: number;
  height?: number;
}

/** A group's frame. */
export interface ArrangedGroup {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * An edge's bends, the edge named by its ends and its index among the edges with the same ends (in the order the
 * Mermaid file writes them). No points: drawn straight.
 */
export interface ArrangedEdge {
  source: string;
  target: string;
  index: number;
  points: ArrangedPoint[];
}

/** What PUT sends (with `If-Match: "<version>"`). Lists, not objects keyed by id: ids such as `__proto__` are valid. */
export interface ArrangementLists {
  nodes: ArrangedNode[];
  groups: ArrangedGroup[];
  edges: ArrangedEdge[];
}

/** GET/PUT answer: version 0 and empty lists when the diagram has no arrangement (laid out automatically). */
export interface DiagramArrangement extends ArrangementLists {
  version: number;
  /**
   * Ids of the nodes and groups of the diagram's current revision that the arrangement does not place (new since
   * the last save, or moved into another group where their old place does not fit): the page highlights them.
   */
  placed: string[];
}

/** Bounds of one PUT: a diagram has at most this many elements of each list. */
export const ARRANGEMENT_MAX_ENTRIES = 20_000;
/** Bends of one edge. */
export const ARRANGEMENT_MAX_POINTS = 200;
/** Coordinates are finite and within ±this many canvas units. */
export const ARRANGEMENT_MAX_COORDINATE = 10_000_000;

/**
 * PUT body. The lists are taken as sent (not copied by class-transformer, which drops keys such as `__proto__`);
 * the server checks them entry by entry and answers every problem with its JSON path.
 */
export class ArrangementRequest {
  @IsDefined()
  @IsArray()
  @Transform(({ obj }) => (obj as { nodes?: unknown }).nodes)
  nodes!: unknown[];

  @IsDefined()
  @IsArray()
  @Transform(({ obj }) => (obj as { groups?: unknown }).groups)
  groups!: unknown[];

  @IsDefined()
  @IsArray()
  @Transform(({ obj }) => (obj as { edges?: unknown }).edges)
  edges!: unknown[];
}
