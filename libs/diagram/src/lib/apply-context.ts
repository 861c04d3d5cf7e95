import type { ContextEdge, ContextGroup, ContextNode, DiagramContext } from './context/context-types';
import { jsonPath } from './context/strict-json';
import { DiagramIssue, DiagramIssueCode, GraphModel } from './model';
import type { ApplyContextOptions, ApplyContextResult, ApplyReport, OverlaidGraph, OverlaidGroup } from './overlay';

const STATE_MARKER = '[*]';
const MARKER_HINT = '[*] is a start/end marker, not a state: it has no context key.';

interface EdgeKeyResolution {
  matches: { source: string; target: string }[];
  hint?: string;
  reason: string;
}

/**
 * The edges of a graph looked up by source and target. Built once per graph: resolving every key of a
 * context against a fresh set made applying (and exporting) a context quadratic in the number of edges.
 */
export class EdgeIndex {
  private readonly pairs: Set<string>;
  private lowerKeys?: Map<string, string>;

  constructor(private readonly edges: readonly { source: string; target: string }[]) {
    this.pairs = new Set(edges.map((e) => `${e.source}\u0000${e.target}`));
  }

  has(source: string, target: string): boolean {
    return this.pairs.has(`${source}\u0000${target}`);
  }

  /** The key of an edge whose key equals `key` ignoring case (for a hint). */
  caseInsensitiveKey(key: string): string | undefined {
    this.lowerKeys ??= new Map(this.edges.map((e) => [`${e.source}-${e.target}`.toLowerCase(), `${e.source}-${e.target}`]));
    return this.lowerKeys.get(key.toLowerCase());
  }
}

/**
 * Splits an edge key `<source>-<target>` at every `-` and keeps the splits naming a real edge,
 * so ids that themselves contain `-` (api-gateway-auth-svc) resolve correctly.
 */
export function resolveEdgeKey(key: string, edges: EdgeIndex, ids: Set<string>): EdgeKeyResolution {
  const splits: { source: string; target: string }[] = [];
  for (let i = key.indexOf('-'); i >= 0; i = key.indexOf('-', i + 1)) {
    splits.push({ source: key.slice(0, i), target: key.slice(i + 1) });
  }
  const matches = splits.filter((s) => edges.has(s.source, s.target));
  if (matches.length > 0) return { matches, reason: '' };
  if (splits.length === 0) return { matches, reason: 'an edge key must be "<source>-<target>".' };
  if (key.includes(STATE_MARKER)) return { matches, reason: 'no such edge.', hint: MARKER_HINT };
  const reversed = splits.find((s) => edges.has(s.target, s.source));
  if (reversed) {
    return {
      matches,
      reason: `there is no edge from ${reversed.source} to ${reversed.target}.`,
      hint: `${key} does not exist; ${reversed.target}-${reversed.source} does (edge keys follow the Mermaid direction).`,
    };
  }
  const caseMatch = edges.caseInsensitiveKey(key);
  if (caseMatch) return { matches, reason: 'edge keys are case-sensitive.', hint: `did you mean ${caseMatch}?` };
  const known = splits.find((s) => ids.has(s.source) && ids.has(s.target));
  return {
    matches,
    reason: known ? `there is no edge from ${known.source} to ${known.target}.` : `no edge matches "${key}".`,
  };
}

function caseInsensitiveMatch(id: string, ids: Iterable<string>): string | undefined {
  const lower = id.toLowerCase();
  for (const candidate of ids) if (candidate !== id && candidate.toLowerCase() === lower) return candidate;
  return undefined;
}

/**
 * Attaches the context's overlays to the graph elements they match (exact, case-sensitive
 * ids; edges in Mermaid's direction) and reports every key that matches nothing, with a hint.
 * Unmatched node and edge keys are warnings (the spec says they are simply not applied);
 * group members that are not node ids, ambiguous edge keys and unknown databases are errors.
 */
export function applyContext(graph: GraphModel, context: DiagramContext, options: ApplyContextOptions = {}): ApplyContextResult {
  const report: ApplyReport = { applied: [], unmatched: [], errors: [], warnings: [] };
  const nodeIds = new Set(graph.nodes.map((n) => n.id));
  const groupIds = new Set(graph.groups.map((g) => g.id));
  const allIds = new Set([...nodeIds, ...groupIds]);

  const nodeOverlays = new Map<string, ContextNode>();
  const edgeOverlays = new Map<string, ContextEdge>();
  const groupOverlays = new Map<string, ContextGroup>();

  const unmatched = (path: string, key: string, reason: string, hint: string | undefined, severity: 'error' | 'warning') => {
    report.unmatched.push({ key, path, reason, ...(hint ? { hint } : {}) });
    const issue: DiagramIssue = {
      code: DiagramIssueCode.ContextUnmatchedKey,
      severity,
      message: `${path}: ${reason}${hint ? ` Hint: ${hint}` : ''}`,
      path,
      ...(hint ? { hint } : {}),
    };
    (severity === 'error' ? report.errors : report.warnings).push(issue);
  };
  const idHint = (id: string) => {
    if (id === STATE_MARKER) return MARKER_HINT;
    const close = caseInsensitiveMatch(id, allIds);
    return close ? `did you mean ${close}?` : undefined;
  };

  for (const [id, overlay] of Object.entries(context.nodes ?? {})) {
    const path = jsonPath('$.nodes', id);
    if (nodeIds.has(id)) {
      nodeOverlays.set(id, overlay);
      report.applied.push(path);
      checkDatabase(overlay, path, options.databaseNames, report);
    } else if (groupIds.has(id)) {
      unmatched(path, `nodes.${id}`, `${id} is a group, not a node.`, `put it under groups.${id}.`, 'warning');
    } else {
      unmatched(path, `nodes.${id}`, `no node has the id "${id}" (ids are case-sensitive).`, idHint(id), 'warning');
    }
  }

  const edgeIndex = new EdgeIndex(graph.edges);
  for (const [key, overlay] of Object.entries(context.edges ?? {})) {
    const path = jsonPath('$.edges', key);
    const resolution = resolveEdgeKey(key, edgeIndex, allIds);
    if (resolution.matches.length === 1) {
      const [match] = resolution.matches;
      edgeOverlays.set(`${match.source}\u0000${match.target}`, overlay);
      report.applied.push(path);
    } else if (resolution.matches.length > 1) {
      const readings = resolution.matches.map((m) => `${m.source} → ${m.target}`).join(', ');
      report.unmatched.push({ key: `edges.${key}`, path, reason: `ambiguous: it can be read as ${readings}.` });
      report.errors.push({
        code: DiagramIssueCode.ContextAmbiguousKey,
        severity: 'error',
        message: `${path}: the key is ambiguous because node ids contain "-": it can be read as ${readings}. Rename a node so the key is unique.`,
        path,
      });
    } else {
      unmatched(path, `edges.${key}`, resolution.reason, resolution.hint, 'warning');
    }
  }

  const contextGroups: OverlaidGroup[] = [];
  for (const [id, group] of Object.entries(context.groups ?? {})) {
    const path = jsonPath('$.groups', id);
    if (nodeIds.has(id)) {
      // A group and a node sharing an id could not be told apart by edges, collapse or export.
      unmatched(path, `groups.${id}`, `"${id}" is already a node id; a group needs an id of its own.`, undefined, 'error');
      continue;
    }
    const members: string[] = [];
    (group.nodes ?? []).forEach((member, index) => {
      const memberPath = jsonPath(jsonPath(path, 'nodes'), index);
      if (nodeIds.has(member)) members.push(member);
      else unmatched(memberPath, `groups.${id}.nodes[${index}]`, `"${member}" is not a node id of the diagram.`, idHint(member), 'error');
    });
    groupOverlays.set(id, group);
    report.applied.push(path);
    if (!groupIds.has(id)) {
      contextGroups.push({ id, label: group.name ?? id, nodes: members, overlay: group, origin: 'context' });
    } else if (members.length > 0) {
      groupOverlays.set(id, { ...group, nodes: members });
    }
  }

  const overlaid: OverlaidGraph = {
    ...graph,
    ...(context.name !== undefined ? { contextName: context.name } : {}),
    ...(context.description !== undefined ? { contextDescription: context.description } : {}),
    nodes: graph.nodes.map((n) => (nodeOverlays.has(n.id) ? { ...n, overlay: nodeOverlays.get(n.id) } : { ...n })),
    edges: graph.edges.map((e) => {
      const overlay = edgeOverlays.get(`${e.source}\u0000${e.target}`);
      return overlay ? { ...e, overlay } : { ...e };
    }),
    groups: [
      ...graph.groups.map((g) => {
        const overlay = groupOverlays.get(g.id);
        if (!overlay) return { ...g, nodes: [...g.nodes] };
        const extra = (overlay.nodes ?? []).filter((member) => !g.nodes.includes(member));
        return { ...g, nodes: [...g.nodes, ...extra], overlay };
      }),
      ...contextGroups,
    ],
  };
  return { graph: overlaid, report };
}

function checkDatabase(overlay: ContextNode, path: string, databaseNames: readonly string[] | undefined, report: ApplyReport): void {
  const name = overlay.dbConfig?.databaseName;
  if (databaseNames === undefined || name === undefined || databaseNames.includes(name)) return;
  const close = caseInsensitiveMatch(name, databaseNames);
  const dbPath = `${path}.dbConfig.databaseName`;
  report.errors.push({
    code: DiagramIssueCode.ContextUnknownDatabase,
    severity: 'error',
    message: `${dbPath}: "${name}" is not a database of this sync${databaseNames.length ? ` (synced: ${databaseNames.join(', ')})` : ' (no databases are synced)'}.`,
    path: dbPath,
    expected: [...databaseNames],
    ...(close ? { hint: `did you mean ${close}?` } : {}),
  });
}
