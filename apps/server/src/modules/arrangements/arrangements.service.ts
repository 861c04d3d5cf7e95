import { Injectable } from '@nestjs/common';
import type { ArrangementLists, ArrangementRequest, DiagramArrangement, ErrorDetail } from '@sc/contracts';
import { defaultViewLayoutInput, isArranged, keptBoxes, type GraphModel, type OverlaidGraph } from '@sc/diagram';
import { Clock } from '../../common/clock';
import { UnitOfWork } from '../../database/unit-of-work';
import type { Principal } from '../access/principal';
import { ArtifactsReadService } from '../artifacts/read/artifacts-read.service';
import { AuditService } from '../audit/audit.service';
import { arrangementLists, arrangementProblems } from './arrangement-checks';
import { ArrangementErrorCode, arrangementError } from './arrangements.errors';
import { ArrangementStore } from '../arrangement-store/arrangement-store';

const EMPTY: ArrangementLists = { nodes: [], groups: [], edges: [] };

/**
 * Arrangements of synced diagrams: read by any member, saved (If-Match version, one conditional write) and reset by
 * editors and above, both audited. Stored per service and diagram name, so every revision and every sync finds it;
 * `placed` is computed on each read against the diagram's current revision (libs/diagram `keptBoxes`, the rule the
 * dashboard draws with).
 */
@Injectable()
export class ArrangementsService {
  constructor(
    private readonly arrangements: ArrangementStore,
    private readonly artifacts: ArtifactsReadService,
    private readonly audit: AuditService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async get(organizationId: string, service: string, diagram: string): Promise<DiagramArrangement> {
    const { serviceId, view } = await this.artifacts.readDiagramOfService(organizationId, service, diagram);
    const stored = await this.arrangements.find(organizationId, serviceId, view.name);
    return answer(stored?.version ?? 0, stored ?? EMPTY, view.kind === 'sequence' ? null : view.graph);
  }

  /** Saves if `version` (the request's If-Match, 0 for a diagram never arranged) is the stored version, else 409. */
  async save(organizationId: string, service: string, diagram: string, principal: Principal, version: number, body: ArrangementRequest): Promise<DiagramArrangement> {
    const { serviceId, view } = await this.artifacts.readDiagramOfService(organizationId, service, diagram);
    if (view.kind === 'sequence') throw arrangementError(ArrangementErrorCode.KindUnsupported, `Diagram "${view.name}" is a sequence diagram, drawn by Mermaid's own layout: it cannot be arranged.`);
    const problems = arrangementProblems(body, view.graph);
    if (problems.length) {
      throw arrangementError(ArrangementErrorCode.Invalid, `The arrangement was not saved: ${problems.length} problem${problems.length === 1 ? '' : 's'}, the first: ${problems[0].message}`, problems);
    }
    const lists = arrangementLists(body);
    await this.unitOfWork.run(async () => {
      const saved = await this.arrangements.saveIfVersion(organizationId, serviceId, view.name, version, { ...lists, ...this.stamp(principal) });
      if (!saved) throw await this.conflict(organizationId, serviceId, view.name, version);
      await this.audit.record({
        organizationId,
        actor: principal,
        action: 'diagram.arranged',
        target: { type: 'diagram', id: `${service}/${view.name}`, label: view.name },
        before: { version },
        after: { version: version + 1, nodes: lists.nodes.length, groups: lists.groups.length, edges: lists.edges.length },
      });
    });
    return answer(version + 1, lists, view.graph);
  }

  /**
   * Back to the automatic layout: empty lists at the next version (not a deleted row, so a save of the version
   * before the reset still conflicts). With an `asked` version (the request's If-Match) only if the arrangement is
   * still at that version.
   */
  async reset(organizationId: string, service: string, diagram: string, principal: Principal, asked: number | undefined): Promise<void> {
    const { serviceId, view } = await this.artifacts.readDiagramOfService(organizationId, service, diagram);
    await this.unitOfWork.run(async () => {
      const stored = await this.arrangements.find(organizationId, serviceId, view.name);
      const version = asked ?? stored?.version ?? 0;
      if (asked !== undefined && asked !== (stored?.version ?? 0)) throw await this.conflict(organizationId, serviceId, view.name, asked);
      if (!stored || !isArranged(stored)) return;
      if (!(await this.arrangements.saveIfVersion(organizationId, serviceId, view.name, version, { ...EMPTY, ...this.stamp(principal) }))) {
        throw await this.conflict(organizationId, serviceId, view.name, version);
      }
      await this.audit.record({
        organizationId,
        actor: principal,
        action: 'diagram.arrangement_reset',
        target: { type: 'diagram', id: `${service}/${view.name}`, label: view.name },
        before: { version, nodes: stored.nodes.length, groups: stored.groups.length, edges: stored.edges.length },
        after: { version: version + 1 },
      });
    });
  }

  private stamp(principal: Principal) {
    return {
      updatedAt: this.clock.now(),
      updatedByUserId: principal.kind === 'session' ? principal.userId : null,
      updatedByTokenId: principal.kind === 'token' ? principal.tokenId : null,
    };
  }

  private async conflict(organizationId: string, serviceId: string, diagram: string, version: number) {
    const current = await this.arrangements.find(organizationId, serviceId, diagram);
    const currentVersion = current?.version ?? 0;
    const when = current ? ` at ${current.updatedAt.toISOString()}` : '';
    const message = `The arrangement of "${diagram}" was saved or reset${when} (now version ${currentVersion}); you edited version ${version}. Nothing was changed: reload it and arrange again.`;
    const detail: ErrorDetail & { currentVersion: number } = { path: 'If-Match', message, currentVersion };
    return arrangementError(ArrangementErrorCode.VersionConflict, message, [detail]);
  }
}

function answer(version: number, lists: ArrangementLists, graph: GraphModel | OverlaidGraph | null): DiagramArrangement {
  const { nodes, groups, edges } = lists;
  const placed = graph && isArranged(lists) ? keptBoxes(defaultViewLayoutInput(graph as OverlaidGraph, new Map()), lists).placed : [];
  return { version, nodes, groups, edges, placed };
}
