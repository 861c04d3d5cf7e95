import { IsString, Length, Matches } from 'class-validator';

/** Body of POST /api/v1/gateway/sync/check (token with the sync scope; the token's organization is searched). */
export class SyncCheckRequest {
  @IsString()
  @Length(1, 100)
  service!: string;

  /** `syncBundleDigest` of the bundle the caller would send. */
  @Matches(/^[0-9a-f]{64}$/, { message: 'digest must be 64 lowercase hexadecimal characters (a SHA-256)' })
  digest!: string;
}
