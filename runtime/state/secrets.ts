// Credentials and sealed secrets: tokens (`svc_` + 32 base62), SHA-256 digests, constant-time
// comparison, and AES-256-GCM for provider keys at rest with a key derived from SVC_SECRET.
import { createCipheriv, createDecipheriv, createHash, hash, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const TOKEN_RE = /^svc_[0-9A-Za-z]{32}$/;

/** `svc_` + 32 uniformly random base62 characters (about 190 bits) */
export function newToken(): string {
  let s = 'svc_';
  for (let i = 0; i < 32; i++) s += BASE62[randomInt(62)];
  return s;
}

/** an opaque random id (sessions) */
export function newOpaqueId(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return hash('sha256', text, 'hex'); // one-shot: no Hash object per call
}

/** equal strings, compared in time independent of where they differ */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/**
 * The master secret: SVC_SECRET when set; else `<dataDir>/secret`, generated (mode 0600) on first use
 * when storage is durable; else (memory storage) a random secret that lives as long as the process.
 */
export function masterSecret(configured: string | null, dataDir: string, durable: boolean): string {
  if (configured) return configured;
  if (!durable) return randomBytes(32).toString('hex');
  const file = join(dataDir, 'secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      process.stderr.write(`svc: SVC_SECRET is not set; generated ${file} to encrypt provider keys (keep it with the data)\n`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

export class Sealer {
  private key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'svc', 'provider-keys/aes-256-gcm/v1', 32));
  }

  /** `v1.<iv>.<tag>.<ciphertext>` (base64url); `context` is bound as associated data */
  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** the plain text, or null when the record was sealed with another secret or altered */
  open(sealed: string, context: string): string | null {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || body === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
