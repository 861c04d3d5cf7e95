import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config';

const KEY_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/**
 * Encrypts secrets at rest (e.g. SSO client secrets) with AES-256-GCM under SERVICE_SECRET_KEY.
 * Sealed format: `v1.<iv>.<tag>.<ciphertext>` (base64url parts). The version prefix names the key
 * generation so a later key rotation can tell old ciphertexts apart. GCM authenticates, so any
 * tampering (or a different key) makes `open` throw instead of returning garbage.
 */
@Injectable()
export class SecretBox {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    if (config.secretKey.length !== 32) throw new SecretBoxError('The secret key must be 32 bytes.');
    this.key = config.secretKey;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(KEY_VERSION));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [KEY_VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
    if (version !== KEY_VERSION || rest.length > 0 || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new SecretBoxError('The sealed value has an unknown format or key version.');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(version));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('The sealed value could not be decrypted: it was altered or sealed with another key.');
    }
  }
}
