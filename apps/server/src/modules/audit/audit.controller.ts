import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuditFilter, AuditQuery, type AuditEntry, type ListPage } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { ListPagePipe, NUMBER_CURSOR, type PageRequest } from '../../common/http/paging';
import { OrgAccess, OrgPagedList } from '../access/decorators';
import { AuditService } from './audit.service';

/** Organization settings → Audit log: owners and admins only. */
@ApiTags('audit')
@Controller('orgs/:orgId/audit')
export class AuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  @OrgPagedList('admin', 'Newest first')
  page(@Param('orgId') orgId: string, @Query(new ListPagePipe(NUMBER_CURSOR, AuditQuery)) page: PageRequest<string, AuditFilter>): Promise<ListPage<AuditEntry>> {
    return this.audit.page(orgId, page);
  }

  /** Every matching entry as JSON lines, streamed as a download. */
  @Get('export')
  @OrgAccess('admin')
  async export(@Param('orgId') orgId: string, @Query() filter: AuditFilter, @Res() res: Response): Promise<void> {
    const entries = this.audit.entries(orgId, filter);
    // Read the first entry before answering, so a bad filter still gets the JSON error instead of a broken download.
    const first = await entries.next();
    res.status(200);
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="audit-${orgId}-${this.clock.now().toISOString().slice(0, 10)}.jsonl"`);
    if (!first.done) await write(res, first.value);
    for await (const entry of entries) {
      if (res.destroyed) return;
      await write(res, entry);
    }
    res.end();
  }
}

/** Writes one line; when the buffer is full, waits until it drains or the client has gone. */
async function write(res: Response, entry: unknown): Promise<void> {
  if (res.write(`${JSON.stringify(entry)}\n`)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
