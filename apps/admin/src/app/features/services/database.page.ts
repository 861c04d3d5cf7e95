import { ChangeDetectionStrategy, Component, Injector, afterNextRender, computed, effect, inject, input } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { ActivatedRoute } from '@angular/router';
import { MatCardModule } from '@angular/material/card';
import type { DatabaseView, SyncArtifactRef } from '@sc/contracts';
import { pageResource } from '../../core/page-resource';
import { MarkdownComponent } from '../../shared/markdown.component';
import { ArtifactHeaderComponent, type ArtifactFile } from './artifact-header.component';
import { ServicesApi, parseRevision } from './services.api';
import { tableAnchor } from '../search/search.api';
import { WhereUsedComponent } from '../search/where-used.component';

/** A synced database schema: tables and columns parsed from SQL, or the collections of a JSON schema. */
@Component({
  selector: 'sc-database-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatCardModule, ArtifactHeaderComponent, MarkdownComponent, WhereUsedComponent],
  template: `
    <div class="page">
      <sc-artifact-header [orgId]="orgId()" [service]="service()" [current]="name()" [loaded]="loaded" loadingLabel="Loading database schema" [file]="file()" [artifact]="artifactRef()" />
      @if (db(); as db) {
        @for (table of db.tables; track table.name) {
          <mat-card appearance="outlined" class="section" [attr.id]="anchor(table.name)">
            <mat-card-header>
              <mat-card-title><h2 class="mono">{{ table.name }}</h2></mat-card-title>
            </mat-card-header>
            <mat-card-content><sc-where-used [orgId]="orgId()" [table]="table.name" [database]="db.name" /></mat-card-content>
            <table class="schema" [attr.aria-label]="'Columns of ' + table.name">
              <thead>
                <tr><th>Column</th><th>Type</th><th>Null</th><th>Key</th><th>Default</th><th>References</th></tr>
              </thead>
              <tbody>
                @for (column of table.columns; track column.name) {
                  <tr>
                    <td class="mono">{{ column.name }}</td>
                    <td class="mono">{{ column.type }}</td>
                    <td>{{ column.nullable ? 'yes' : 'no' }}</td>
                    <td>{{ column.primaryKey ? 'primary' : column.unique ? 'unique' : '' }}</td>
                    <td class="mono">{{ column.default ?? '' }}</td>
                    <td class="mono">{{ column.references ?? '' }}</td>
                  </tr>
                }
              </tbody>
            </table>
          </mat-card>
        }
        @if (db.collections.length > 0) {
          <mat-card appearance="outlined" class="section">
            <mat-card-header>
              <mat-card-title><h2>{{ db.engine === 'mongodb' ? 'Collections' : 'Tables' }}</h2></mat-card-title>
            </mat-card-header>
            <mat-card-content>
              <ul>
                @for (name of db.collections; track name) {
                  <li class="mono">{{ name }}</li>
                }
              </ul>
              <pre class="source">{{ documentText() }}</pre>
            </mat-card-content>
          </mat-card>
        }
        @if (db.tables.length === 0 && db.collections.length === 0) {
          <p class="muted">The schema file defines no tables.</p>
        }
        @if (db.notes) {
          <mat-card appearance="outlined" class="section">
            <mat-card-header>
              <mat-card-title><h2>Notes</h2></mat-card-title>
            </mat-card-header>
            <mat-card-content data-testid="artifact-notes"><sc-markdown [markdown]="db.notes" /></mat-card-content>
          </mat-card>
        }
      }
    </div>
  `,
  styleUrl: './services.scss',
})
export class DatabasePage {
  private readonly api = inject(ServicesApi);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();
  readonly service = input.required<string>();
  readonly name = input.required<string>();
  /** `?revision=n` from the URL; absent means the current revision. */
  readonly revision = input<string | undefined>();

  readonly loaded = pageResource({
    params: () => ({ orgId: this.orgId(), service: this.service(), name: this.name(), revision: parseRevision(this.revision()) }),
    load: ({ orgId, service, name, revision }) => this.api.database(orgId, service, name, revision),
    initial: null as DatabaseView | null,
  });
  readonly db = this.loaded.value;
  readonly file = computed((): ArtifactFile | null => {
    const db = this.db();
    return db && { title: db.name, format: db.engine, path: db.path, revision: db.revision };
  });
  readonly artifactRef = computed((): SyncArtifactRef | null => {
    const db = this.db();
    return db && { kind: 'database-schema', name: db.name };
  });
  readonly documentText = computed(() => JSON.stringify(this.db()?.document ?? null, null, 2));
  readonly anchor = tableAnchor;
  private readonly fragment = toSignal(inject(ActivatedRoute).fragment, { initialValue: null });

  constructor() {
    // A search hit opens the schema at its table (#table-<name>): scrolled to once the tables are drawn.
    const injector = inject(Injector);
    effect(() => {
      const fragment = this.fragment();
      if (!fragment || !this.db()) return;
      afterNextRender(() => document.getElementById(fragment)?.scrollIntoView?.({ block: 'start' }), { injector });
    });
  }
}
