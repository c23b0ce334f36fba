import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Sealing a new key between the payment webhook (which creates it) and the success page (which
 * shows it once). A checkout is stored under `sessionRef` = HMAC(server secret, session id), and
 * its key is sealed with AES-256-GCM under HMAC(server secret, "seal" + session id). The session id
 * itself is never stored, so neither private.db alone nor private.db plus the secret opens a seal:
 * only the holder of the session id (the subscriber's browser, via the success URL) can.
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;

function derive(secret: string, purpose: string, sessionId: string): Buffer {
  return createHmac('sha256', secret).update(`${purpose}\0${sessionId}`, 'utf8').digest();
}

/** The stored reference of a checkout session: hex HMAC-SHA-256 under the server secret. */
export function sessionRef(secret: string, sessionId: string): string {
  return derive(secret, 'lpa-checkout-ref', sessionId).toString('hex');
}

/** Seal `plaintext` for the holder of `sessionId`: iv (12) ‖ tag (16) ‖ ciphertext. */
export function seal(secret: string, sessionId: string, plaintext: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', derive(secret, 'lpa-checkout-seal', sessionId), iv);
  cipher.setAAD(Buffer.from(sessionRef(secret, sessionId), 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** Open a seal made by {@link seal}. Errors: throws when the secret, session id or bytes differ. */
export function unseal(secret: string, sessionId: string, sealed: Buffer): string {
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', derive(secret, 'lpa-checkout-seal', sessionId), iv);
  decipher.setAAD(Buffer.from(sessionRef(secret, sessionId), 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
