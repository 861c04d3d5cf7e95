import { Column, PrimaryColumn, type ColumnOptions } from 'typeorm';

/**
 * Column decorators for the shapes the tables repeat, so that an entity states only what is particular to each
 * column. The column's name is its property's name in snake_case (`organizationId` → `organization_id`), as every
 * migration writes it. The migrations remain the schema (synchronize is off): these only describe it to TypeORM.
 */

interface NullableOption {
  nullable?: boolean;
}

function snakeCase(propertyName: string): string {
  return propertyName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `@Column` named after its property in snake_case. */
function column(options: ColumnOptions): PropertyDecorator {
  return (target, propertyKey) => Column({ name: snakeCase(String(propertyKey)), ...options })(target, propertyKey);
}

export function UuidPrimaryColumn(): PropertyDecorator {
  return PrimaryColumn({ type: 'uuid' });
}

export function UuidColumn(options: NullableOption = {}): PropertyDecorator {
  return column({ type: 'uuid', ...options });
}

export function TimestampColumn(options: NullableOption = {}): PropertyDecorator {
  return column({ type: 'timestamptz', ...options });
}

/** A SHA-256 in lower-case hex: file hashes, fingerprints and the hashes of tokens, states and cookies. */
export function Sha256Column(options: NullableOption = {}): PropertyDecorator {
  return column({ type: 'char', length: 64, ...options });
}

export function VarcharColumn(length: number, options: NullableOption = {}): PropertyDecorator {
  return column({ type: 'varchar', length, ...options });
}

export function TextColumn(options: NullableOption & Pick<ColumnOptions, 'transformer'> = {}): PropertyDecorator {
  return column({ type: 'text', ...options });
}

export function IntegerColumn(options: NullableOption = {}): PropertyDecorator {
  return column({ type: 'integer', ...options });
}

export function BooleanColumn(options: Pick<ColumnOptions, 'default' | 'nullable'> = {}): PropertyDecorator {
  return column({ type: 'boolean', ...options });
}

export function JsonbColumn(options: NullableOption = {}): PropertyDecorator {
  return column({ type: 'jsonb', ...options });
}

/** `json` keeps the text as it was sent (key order included); `jsonb` does not. */
export function JsonColumn(options: NullableOption = {}): PropertyDecorator {
  return column({ type: 'json', ...options });
}

/** A secret sealed with SecretBox (AES-256-GCM under SERVICE_SECRET_KEY): never returned nor logged. */
export function SealedSecretColumn(): PropertyDecorator {
  return TextColumn();
}

/** The visible start of an API, SCIM or embed token: names the token without being its secret. */
export function TokenPrefixColumn(options: NullableOption = {}): PropertyDecorator {
  return VarcharColumn(32, options);
}

/** The error code (libs/contracts) a sign-in or test sign-in failed with (null: none). */
export function ErrorCodeColumn(): PropertyDecorator {
  return VarcharColumn(64, { nullable: true });
}

/** The client address of the request a record was made for, as the server saw it (null: none, or unknown). */
export function ClientAddressColumn(): PropertyDecorator {
  return VarcharColumn(64, { nullable: true });
}

/** An organization's id (its slug, the primary key of `organizations`). */
export function OrganizationIdColumn(): PropertyDecorator {
  return column({ type: 'varchar', length: 63 });
}

/** A row keyed by a UUID the code generates, with its creation time. */
export abstract class UuidRecord {
  @UuidPrimaryColumn()
  id!: string;

  @TimestampColumn()
  createdAt!: Date;
}

/** The columns every row an organization owns starts with: a UUID key, the organization and the creation time. */
export abstract class OrganizationRecord extends UuidRecord {
  @OrganizationIdColumn()
  organizationId!: string;
}

/**
 * A bearer secret the organization hands out (API token, SCIM token, embed link): the database keeps the SHA-256 of
 * the secret and its visible prefix, never the secret, and records who created it, its last use and its revocation.
 */
export abstract class HashedTokenRecord extends OrganizationRecord {
  @TokenPrefixColumn()
  prefix!: string;

  @Sha256Column()
  tokenHash!: string;

  @UuidColumn({ nullable: true })
  createdByUserId!: string | null;

  @TimestampColumn({ nullable: true })
  lastUsedAt!: Date | null;

  @TimestampColumn({ nullable: true })
  revokedAt!: Date | null;
}

/** What every answer about a bearer secret shows of its record: the visible prefix, the creator and the times (ISO 8601). */
export function hashedTokenFields(token: HashedTokenRecord): { prefix: string; createdByUserId: string | null; createdAt: string; lastUsedAt: string | null; revokedAt: string | null } {
  return {
    prefix: token.prefix,
    createdByUserId: token.createdByUserId,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's base takes any constructor arguments (TS2545).
type RecordClass = abstract new (...args: any[]) => object;

/** Adds `updated_at`: when the row last changed. */
export function WithUpdatedAt<TBase extends RecordClass>(Base: TBase) {
  abstract class Updated extends Base {
    @TimestampColumn()
    updatedAt!: Date;
  }
  return Updated;
}

/**
 * Adds the columns of a row people edit from the dashboard (a user) or through the API (a token): when it last
 * changed and by whom. A mixin, because the tables that have them do not share one base (a draft is an
 * OrganizationRecord, an arrangement is keyed by service and diagram).
 */
export function WithLastEdit<TBase extends RecordClass>(Base: TBase) {
  abstract class LastEdit extends WithUpdatedAt(Base) {
    @UuidColumn({ nullable: true })
    updatedByUserId!: string | null;

    @UuidColumn({ nullable: true })
    updatedByTokenId!: string | null;
  }
  return LastEdit;
}
