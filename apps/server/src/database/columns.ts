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

/** An organization's id (its slug, the primary key of `organizations`). */
export function OrganizationIdColumn(): PropertyDecorator {
  return column({ type: 'varchar', length: 63 });
}

/** The columns every row an organization owns starts with: a UUID key, the organization and the creation time. */
export abstract class OrganizationRecord {
  @UuidPrimaryColumn()
  id!: string;

  @OrganizationIdColumn()
  organizationId!: string;

  @TimestampColumn()
  createdAt!: Date;
}
