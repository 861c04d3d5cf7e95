import { Entity } from 'typeorm';
import { BooleanColumn, HashedTokenRecord, IntegerColumn, JsonbColumn, OrganizationRecord, UuidColumn, VarcharColumn, WithUpdatedAt } from '../../database/columns';

/** A SCIM bearer token (one per identity provider that provisions the organization). */
@Entity({ name: 'scim_tokens' })
export class ScimToken extends HashedTokenRecord {
  @VarcharColumn(100)
  name!: string;
}

/** The SCIM view of a provisioned member: what the identity provider sent, linked to the user it provisions. */
@Entity({ name: 'scim_users' })
export class ScimUser extends WithUpdatedAt(OrganizationRecord) {
  @UuidColumn()
  userId!: string;

  @VarcharColumn(320)
  userName!: string;

  @VarcharColumn(255, { nullable: true })
  externalId!: string | null;

  @BooleanColumn()
  active!: boolean;

  /** The stored SCIM attributes (name, displayName, emails, the enterprise extension…), never a password. */
  @JsonbColumn()
  attributes!: Record<string, unknown>;

  /** Increases with every change: meta.version and the ETag are `W/"<version>"`. */
  @IntegerColumn()
  version!: number;
}

@Entity({ name: 'scim_groups' })
export class ScimGroup extends WithUpdatedAt(OrganizationRecord) {
  @VarcharColumn(255)
  displayName!: string;

  @VarcharColumn(255, { nullable: true })
  externalId!: string | null;

  /** `scim_users.id` of the members. */
  @JsonbColumn()
  memberIds!: string[];

  @IntegerColumn()
  version!: number;
}
