import { AppConfig } from '../../config/app-config';
import { SecretBox, SecretBoxError } from './secret-box';

function box(fill: number): SecretBox {
  const config = new AppConfig();
  config.secretKey = Buffer.alloc(32, fill);
  return new SecretBox(config);
}

describe('SecretBox', () => {
  const secretBox = box(1);

  it('round-trips and never contains the plaintext', () => {
    const sealed = secretBox.seal('client-secret-äöü');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('client-secret');
    expect(secretBox.open(sealed)).toBe('client-secret-äöü');
  });

  it('uses a fresh IV each time', () => {
    expect(secretBox.seal('same')).not.toBe(secretBox.seal('same'));
  });

  it('detects tampering with the ciphertext, the tag or the IV', () => {
    const parts = secretBox.seal('value').split('.');
    for (const index of [1, 2, 3]) {
      const altered = [...parts];
      const bytes = Buffer.from(altered[index], 'base64url');
      bytes[0] ^= 1;
      altered[index] = bytes.toString('base64url');
      expect(() => secretBox.open(altered.join('.'))).toThrow(SecretBoxError);
    }
  });

  it('refuses another key, unknown versions and garbage', () => {
    const sealed = secretBox.seal('value');
    expect(() => box(2).open(sealed)).toThrow(/altered or sealed with another key/);
    expect(() => secretBox.open(sealed.replace(/^v1/, 'v9'))).toThrow(/unknown format or key version/);
    expect(() => secretBox.open('not sealed')).toThrow(SecretBoxError);
  });

  it('requires a 32-byte key', () => {
    const config = new AppConfig();
    config.secretKey = Buffer.alloc(16);
    expect(() => new SecretBox(config)).toThrow(/32 bytes/);
  });
});
