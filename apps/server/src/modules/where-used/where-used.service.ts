import { Injectable } from '@nestjs/common';
import { SEARCH_LIMITS, WHERE_USED_LIMITS, type WhereUsedBinding, type WhereUsedDefinition, type WhereUsedEdge, type WhereUsedHit } from '@sc/contracts';
import type { OverlaidGraph, OverlaidNode } from '@sc/diagram';
import { ArtifactsReadService } from '../artifacts/read/artifacts-read.service';
import { SearchService } from '../search/search.service';

export interface WhereUsedOptions {
  /** Only nodes bound by their context dbConfig.tableName (the route); otherwise context name, id and label bind too (MCP). */
  tableOnly?: boolean;
  /** With tableOnly: leave out nodes whose dbConfig names another database (case-insensitive). */
  database?: string | null;
}

export interface WhereUsedFound {
  usedIn: WhereUsedHit[];
  definedIn: WhereUsedDefinition[];
  truncated: boolean;
}

/**
 * "Where is this used": the architecture diagrams of the organization's current revisions with a node binding a
 * name. Candidates come from the search index (node hits), each candidate diagram is read once through the artifacts
 * read service and its nodes matched exactly (case-insensitive), with the edges in and out of each matched node; the
 * schemas defining a table of that name come from the index's table hits. Serves the search route and the MCP tool.
 */
@Injectable()
export class WhereUsedService {
  constructor(
    private readonly search: SearchService,
    private readonly artifacts: ArtifactsReadService,
  ) {}

  async find(organizationId: string, name: string, options: WhereUsedOptions = {}): Promise<WhereUsedFound> {
    const wanted = name.toLowerCase();
    const database = options.database?.toLowerCase() ?? null;
    const [nodeHits, tableHits] = await Promise.all([
      this.search.search(organizationId, { q: name, kind: 'node', limit: SEARCH_LIMITS.maxLimit }),
      this.search.search(organizationId, { q: name, kind: 'table', limit: SEARCH_LIMITS.maxLimit }),
    ]);
    const diagrams = new Map<string, { service: string; diagram: string }>();
    for (const hit of nodeHits.hits) {
      if (hit.artifact?.kind !== 'architecture-diagram') continue;
      diagrams.set(JSON.stringify([hit.service, hit.artifact.name]), { service: hit.service, diagram: hit.artifact.name });
    }
    const usedIn: WhereUsedHit[] = [];
    let truncated = nodeHits.truncated;
    for (const { service, diagram } of diagrams.values()) {
      const graph = (await this.artifacts.readDiagram(organizationId, service, diagram)).graph as OverlaidGraph;
      for (const node of graph.nodes) {
        const binding = bindingOf(node, wanted);
        if (!binding || (options.tableOnly && binding !== 'dbConfig.tableName')) continue;
        const named = node.overlay?.dbConfig?.databaseName;
        if (database !== null && typeof named === 'string' && named.toLowerCase() !== database) continue;
        if (usedIn.length === WHERE_USED_LIMITS.maxHits) {
          truncated = true;
          break;
        }
        usedIn.push({
          service,
          diagram,
          node: { id: node.id, label: node.label, name: node.overlay?.name ?? null, type: node.overlay?.type ?? null, dbConfig: node.overlay?.dbConfig ?? null },
          matchedBy: binding,
          incoming: graph.edges.filter((candidate) => candidate.target === node.id).map(edgeOf),
          outgoing: graph.edges.filter((candidate) => candidate.source === node.id).map(edgeOf),
        });
      }
    }
    const definedIn = tableHits.hits
      .filter((hit) => hit.element.id.toLowerCase() === wanted && hit.artifact)
      .filter((hit) => database === null || hit.artifact?.name.toLowerCase() === database)
      .map((hit) => ({ service: hit.service, database: hit.artifact?.name ?? '', table: hit.element.id }));
    return { usedIn, definedIn, truncated };
  }
}

function edgeOf(edge: OverlaidGraph['edges'][number]): WhereUsedEdge {
  return { from: edge.source, to: edge.target, label: edge.overlay?.label ?? edge.label ?? null };
}

/** How a node binds the wanted name, or null: the context's dbConfig.tableName first, then its context name, id and label. */
function bindingOf(node: OverlaidNode, wanted: string): WhereUsedBinding | null {
  const same = (value: string | undefined | null) => typeof value === 'string' && value.toLowerCase() === wanted;
  if (same(node.overlay?.dbConfig?.tableName)) return 'dbConfig.tableName';
  if (same(node.overlay?.name)) return 'context name';
  if (same(node.id)) return 'id';
  if (same(node.label)) return 'label';
  return null;
}
