import { Entity } from 'typeorm';
import type { ClaimRule, EntraCloud, SsoProviderType, SsoRole } from '@sc/contracts';
import { BooleanColumn, ErrorCodeColumn, JsonbColumn, OrganizationRecord, SealedSecretColumn, TextColumn, TimestampColumn, VarcharColumn, WithUpdatedAt } from '../../../database/columns';

@Entity({ name: 'sso_providers' })
export class SsoProvider extends WithUpdatedAt(OrganizationRecord) {
  /** Permanent: part of the callback URL registered at the provider. */
  @VarcharColumn(63)
  slug!: string;

  @VarcharColumn(100)
  displayName!: string;

  @VarcharColumn(16)
  type!: SsoProviderType;

  @BooleanColumn()
  enabled!: boolean;

  @VarcharColumn(253, { nullable: true })
  tenantId!: string | null;

  @VarcharColumn(16, { nullable: true })
  cloud!: EntraCloud | null;

  @VarcharColumn(253, { nullable: true })
  domain!: string | null;

  @VarcharColumn(512)
  clientId!: string;

  @SealedSecretColumn()
  clientSecretSealed!: string;

  @VarcharColumn(1000)
  scopes!: string;

  @VarcharColumn(2048, { nullable: true })
  authUrl!: string | null;

  @VarcharColumn(2048, { nullable: true })
  tokenUrl!: string | null;

  @VarcharColumn(2048, { nullable: true })
  userinfoUrl!: string | null;

  @VarcharColumn(2048, { nullable: true })
  issuer!: string | null;

  @VarcharColumn(2048, { nullable: true })
  jwksUri!: string | null;

  /** SAML: where the metadata was read from (null: pasted). */
  @VarcharColumn(2048, { nullable: true })
  idpMetadataUrl!: string | null;

  /** SAML: the metadata document in use (pasted, or read from idpMetadataUrl at the last save). */
  @TextColumn({ nullable: true })
  idpMetadataXml!: string | null;

  @BooleanColumn()
  allowIdpInitiated!: boolean;

  /** SAML, parsed from the metadata at save: the IdP's entity ID, its HTTP-Redirect SSO URL, its signing certificates (PEM). */
  @VarcharColumn(1024, { nullable: true })
  idpEntityId!: string | null;

  @VarcharColumn(2048, { nullable: true })
  idpSsoUrl!: string | null;

  @JsonbColumn()
  idpCertificates!: string[];

  @VarcharColumn(200)
  emailClaim!: string;

  @VarcharColumn(200)
  nameClaim!: string;

  @VarcharColumn(200)
  subjectClaim!: string;

  @JsonbColumn()
  allowedDomains!: string[];

  @BooleanColumn()
  allowSignUp!: boolean;

  @VarcharColumn(16)
  defaultRole!: SsoRole;

  @JsonbColumn()
  claimRules!: ClaimRule[];

  /** The last test sign-in (null: never tested): enabling needs a pass within SSO_TEST_VALID_HOURS, or a confirmation. */
  @TimestampColumn({ nullable: true })
  lastTestAt!: Date | null;

  @BooleanColumn({ nullable: true })
  lastTestOk!: boolean | null;

  @ErrorCodeColumn()
  lastTestErrorCode!: string | null;

  @VarcharColumn(2000, { nullable: true })
  lastTestMessage!: string | null;
}
