import { CoreSchema1763700000000 } from './1763700000000-core-schema';
import { ArtifactStore1763800000000 } from './1763800000000-artifact-store';
import { Sso1763900000000 } from './1763900000000-sso';
import { RevisionBundleDigest1764000000000 } from './1764000000000-revision-bundle-digest';
import { AuditLog1764200000000 } from './1764200000000-audit-log';
import { DiagramDrafts1764400000000 } from './1764400000000-diagram-drafts';
import { BlobReferenceIndexes1764600000000 } from './1764600000000-blob-reference-indexes';
import { CacheChangeNotifications1764800000000 } from './1764800000000-cache-change-notifications';
import { DiagramLayouts1765000000000 } from './1765000000000-diagram-layouts';
import { Provenance1765200000000 } from './1765200000000-provenance';
import { ServicePreviews1765400000000 } from './1765400000000-service-previews';
import { DiagramArrangements1765500000000 } from './1765500000000-diagram-arrangements';
import { SamlProviders1765700000000 } from './1765700000000-saml-providers';
import { SearchEntries1765600000000 } from './1765600000000-search-entries';
import { Scim1765800000000 } from './1765800000000-scim';
import { VerifiedDomains1765800100000 } from './1765800100000-verified-domains';
import { EmbedLinks1765900000000 } from './1765900000000-embed-links';
import { AnalysisKeyOrder1766000000000 } from './1766000000000-analysis-key-order';

/**
 * Every migration class, ordered by timestamp. Add yours at the end of the list (plain PostgreSQL SQL:
 * the same migrations run on embedded PGlite and on PostgreSQL), and its line to applied-migrations.json
 * (migrations.spec.ts names it).
 */
export const MIGRATIONS = [
  CoreSchema1763700000000,
  ArtifactStore1763800000000,
  Sso1763900000000,
  RevisionBundleDigest1764000000000,
  AuditLog1764200000000,
  DiagramDrafts1764400000000,
  BlobReferenceIndexes1764600000000,
  CacheChangeNotifications1764800000000,
  DiagramLayouts1765000000000,
  Provenance1765200000000,
  ServicePreviews1765400000000,
  DiagramArrangements1765500000000,
  SearchEntries1765600000000,
  SamlProviders1765700000000,
  Scim1765800000000,
  VerifiedDomains1765800100000,
  EmbedLinks1765900000000,
  AnalysisKeyOrder1766000000000,
];
