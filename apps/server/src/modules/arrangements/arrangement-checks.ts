import { ARRANGEMENT_MAX_COORDINATE, ARRANGEMENT_MAX_ENTRIES, ARRANGEMENT_MAX_POINTS, type ArrangementLists, type ErrorDetail } from '@sc/contracts';
import { jsonPath, type GraphModel } from '@sc/diagram';
import { layoutProblems } from '../drafts/draft-checks';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The problems of a PUT body against the diagram's current graph, each with its JSON path: node and group boxes by
 * the drafts' layout rules (finite numbers, sizes above 0, one per id, only ids the graph has), a frame's size
 * required, and each edge bend list naming an edge the graph has (by its ends and its index among the edges with
 * the same ends) with at most ARRANGEMENT_MAX_POINTS finite points.
 */
export function arrangementProblems(body: { nodes: unknown[]; groups: unknown[]; edges: unknown[] }, graph: Pick<GraphModel, 'nodes' | 'groups' | 'edges'>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message: `${path}: ${message}` });
  for (const key of ['nodes', 'groups', 'edges'] as const) {
    if (body[key].length > ARRANGEMENT_MAX_ENTRIES) problem(`$.${key}`, `at most ${ARRANGEMENT_MAX_ENTRIES} entries, found ${body[key].length}.`);
  }
  if (problems.length) return problems;
  problems.push(...layoutProblems({ nodes: body.nodes, groups: body.groups }, graph, '$'));
  body.groups.forEach((frame, index) => {
    if (isObject(frame)) for (const field of ['width', 'height']) if (!(field in frame)) problem(jsonPath('$.groups', index), `"${field}" is required (a frame's size).`);
  });
  const tooFar = (value: unknown) => typeof value === 'number' && Math.abs(value) > ARRANGEMENT_MAX_COORDINATE;
  for (const key of ['nodes', 'groups'] as const) {
    body[key].forEach((box, index) => {
      if (!isObject(box)) return;
      for (const field of ['x', 'y', 'width', 'height']) if (tooFar(box[field])) problem(jsonPath(jsonPath(`$.${key}`, index), field), `must be within ±${ARRANGEMENT_MAX_COORDINATE}.`);
    });
  }

  const parallel = new Map<string, number>();
  for (const edge of graph.edges) parallel.set(`${edge.source}\u0001${edge.target}`, (parallel.get(`${edge.source}\u0001${edge.target}`) ?? 0) + 1);
  const seen = new Set<string>();
  body.edges.forEach((edge, index) => {
    const at = jsonPath('$.edges', index);
    if (!isObject(edge)) {
      problem(at, 'expected an edge {source, target, index, points}.');
      return;
    }
    for (const field of Object.keys(edge)) if (!['source', 'target', 'index', 'points'].includes(field)) problem(jsonPath(at, field), `unknown property "${field}"; allowed: source, target, index, points.`);
    const { source, target, index: nth, points } = edge;
    if (typeof source !== 'string') problem(jsonPath(at, 'source'), 'expected the id of the edge\'s source.');
    if (typeof target !== 'string') problem(jsonPath(at, 'target'), 'expected the id of the edge\'s target.');
    if (typeof nth !== 'number' || !Number.isInteger(nth) || nth < 0) problem(jsonPath(at, 'index'), 'expected a whole number from 0: the edge\'s place among the edges with the same ends.');
    else if (typeof source === 'string' && typeof target === 'string') {
      const count = parallel.get(`${source}\u0001${target}`) ?? 0;
      const key = `${source}\u0001${target}\u0001${nth}`;
      if (nth >= count) problem(at, `the graph has ${count === 0 ? 'no edge' : `only ${count} edge${count === 1 ? '' : 's'}`} from "${source}" to "${target}"${count === 0 ? '' : `; index ${nth} names none`}.`);
      else if (seen.has(key)) problem(at, `this edge already has bends in this list.`);
      seen.add(key);
    }
    if (!Array.isArray(points)) problem(jsonPath(at, 'points'), 'expected an array of points {x, y} (empty: a straight edge).');
    else if (points.length > ARRANGEMENT_MAX_POINTS) problem(jsonPath(at, 'points'), `at most ${ARRANGEMENT_MAX_POINTS} bends, found ${points.length}.`);
    else {
      points.forEach((point: unknown, p) => {
        const pointAt = jsonPath(jsonPath(at, 'points'), p);
        const ok = isObject(point) && Object.keys(point).length === 2 && [point['x'], point['y']].every((v) => typeof v === 'number' && Number.isFinite(v) && !tooFar(v));
        if (!ok) problem(pointAt, `expected a point {x, y} of finite numbers within ±${ARRANGEMENT_MAX_COORDINATE}.`);
      });
    }
  });
  return problems;
}

/** The body as stored, once arrangementProblems found nothing: only the documented fields, in a fixed order. */
export function arrangementLists(body: { nodes: unknown[]; groups: unknown[]; edges: unknown[] }): ArrangementLists {
  const box = (value: unknown) => value as { id: string; x: number; y: number; width?: number; height?: number };
  return {
    nodes: body.nodes.map(box).map(({ id, x, y, width, height }) => ({ id, x, y, ...(width !== undefined ? { width } : {}), ...(height !== undefined ? { height } : {}) })),
    groups: body.groups.map(box).map(({ id, x, y, width, height }) => ({ id, x, y, width: width as number, height: height as number })),
    edges: body.edges
      .map((value) => value as { source: string; target: string; index: number; points: { x: number; y: number }[] })
      .map(({ source, target, index, points }) => ({ source, target, index, points: points.map(({ x, y }) => ({ x, y })) })),
  };
}
