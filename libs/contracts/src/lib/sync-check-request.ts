import { IsOptional, IsString, Length, Matches, ValidateBy, type ValidationArguments } from 'class-validator';
import { syncSourceProblems, type SyncSource } from './sync';

/** Body of POST /api/v1/gateway/sync/check (token with the sync scope; the token's organization is searched). */
export class SyncCheckRequest {
  @IsString()
  @Length(1, 100)
  service!: string;

  /** `syncBundleDigest` of the bundle the caller would send. */
  @Matches(/^[0-9a-f]{64}$/, { message: 'digest must be 64 lowercase hexadecimal characters (a SHA-256)' })
  digest!: string;

  /** Where the bundle comes from (same rules as the bundle's `source`); an unchanged sync is audited with it. */
  @IsOptional()
  @ValidateBy({
    name: 'isSyncSource',
    validator: {
      validate: (value: unknown) => syncSourceProblems(value).length === 0,
      defaultMessage: (args?: ValidationArguments) => syncSourceProblems(args?.value).map((problem) => `source${problem.path ? `.${problem.path}` : ''}: ${problem.message}`).join(' '),
    },
  })
  source?: SyncSource;
}
