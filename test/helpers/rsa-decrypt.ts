import { constants, type KeyObject, privateDecrypt } from 'node:crypto';

/** PKCS#1 v1.5 decryption, the padding taken off by hand: Node refuses RSA_PKCS1_PADDING for private decryption on some OpenSSL builds. */
export function rsaDecrypt(privateKey: KeyObject, hex: string): string {
  const block = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(hex, 'hex'));
  if (block[0] !== 0 || block[1] !== 2) throw new Error('not a PKCS#1 v1.5 encryption block');
  return block.subarray(block.indexOf(0, 2) + 1).toString('utf8');
}
