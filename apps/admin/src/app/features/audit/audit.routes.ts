import { Routes } from '@angular/router';
import { managersOnlyGuard } from '../../core/auth.guard';
import { AuditLogPage } from './audit-log.page';

/** The audit log is for owners and admins (the server refuses the API to others). */
export const auditRoutes: Routes = [{ path: '', component: AuditLogPage, canActivate: [managersOnlyGuard], title: 'Audit log · System Context' }];
