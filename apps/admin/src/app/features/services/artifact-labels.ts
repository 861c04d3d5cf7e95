import type { ArtifactKind } from '@sc/contracts';

export const ARTIFACT_KIND_LABELS: Record<ArtifactKind, string> = {
  'architecture-diagram': 'Architecture diagram',
  flow: 'Flow',
  'database-schema': 'Database schema',
  'job-notes': 'Job notes',
  'job-dependencies': 'Job dependencies',
  'service-summary': 'Service summary',
  doc: 'Document',
  'api-spec': 'API spec',
};

/** "1.2 KB": sizes as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Repository URLs are shown as links only when they are web addresses (never javascript: or similar). */
export function safeWebUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** Where an artifact is shown, relative to its service page, and the button text; every kind has a page. */
export function artifactLink(kind: ArtifactKind, name: string): { commands: string[]; label: string } {
  switch (kind) {
    case 'architecture-diagram':
      return { commands: ['diagrams', name], label: 'View diagram' };
    case 'flow':
      return { commands: ['flows', name], label: 'View flow' };
    case 'job-dependencies':
    case 'job-notes':
      return { commands: ['jobs'], label: 'View jobs' };
    case 'database-schema':
      return { commands: ['databases', name], label: 'View schema' };
    case 'service-summary':
      return { commands: ['summary'], label: 'Read summary' };
    case 'doc':
      return { commands: ['docs', name], label: 'Read document' };
    case 'api-spec':
      return { commands: ['api-specs', name], label: 'View spec' };
  }
}
