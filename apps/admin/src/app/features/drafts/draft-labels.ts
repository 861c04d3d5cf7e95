import type { DraftActor } from '@sc/contracts';

/** "Ann (ann@acme.example)", "API token “ci”", or a note that the author is gone. */
export function actorName(actor: DraftActor | null): string {
  if (!actor) return 'a removed member or token';
  return actor.kind === 'user' ? (actor.name === actor.email ? actor.email : `${actor.name} (${actor.email})`) : `API token “${actor.name}”`;
}
