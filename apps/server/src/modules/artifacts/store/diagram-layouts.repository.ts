import { Injectable } from '@nestjs/common';
import type { DiagramLayout } from '@sc/contracts';
import { TransactionalRepository } from '../../../database/unit-of-work';

/** The SQL of `diagram_layouts`: the stored default-view layouts of diagram versions, shared by every instance. */
@Injectable()
export class DiagramLayoutsRepository extends TransactionalRepository {
  /** A stored default-view layout of a diagram version (DiagramLayoutService). */
  async findDiagramLayout(versionId: string, engine: string, inputsKey: string): Promise<DiagramLayout | null> {
    const rows: Array<{ layout: DiagramLayout }> = await this.manager.query(
      `SELECT layout FROM diagram_layouts WHERE version_id = $1 AND engine = $2 AND inputs_key = $3`,
      [versionId, engine, inputsKey],
    );
    return rows[0]?.layout ?? null;
  }

  /** Stores a layout; when another instance stored it first, theirs stays (the same content gives the same layout). */
  async saveDiagramLayout(versionId: string, engine: string, inputsKey: string, layout: DiagramLayout): Promise<void> {
    await this.manager.query(
      `INSERT INTO diagram_layouts (version_id, engine, inputs_key, layout) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [versionId, engine, inputsKey, JSON.stringify(layout)],
    );
  }
}
