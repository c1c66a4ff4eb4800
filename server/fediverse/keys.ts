import { exportJwk, generateCryptoKeyPair, importJwk } from "@fedify/fedify";
import type { Kysely } from "kysely";
import type { Database } from "../kernel/db/schema.ts";
import { keepFirstKeyPairs, readKeyPairs } from "./repositories/fedify-store.ts";

interface StoredKeyPair {
  publicKey: JsonWebKey;
  privateKey: JsonWebKey;
}

interface StoredKeys {
  rsa: StoredKeyPair;
  ed25519: StoredKeyPair;
}

/**
 * An actor's key pairs: RSA for HTTP Signatures, which every fediverse server checks, and
 * Ed25519 for object integrity proofs. Made once, at the first start, and kept in the database
 * (`fediverse_keys`, which no export carries), so every app server signs with the same keys and
 * followers' servers never see them change.
 */
export async function loadOrCreateKeyPairs(db: Kysely<Database>, actor: string): Promise<CryptoKeyPair[]> {
  let stored = await readKeyPairs(db, actor);
  if (stored === undefined) {
    const fresh: StoredKeys = {
      rsa: await exportPair(await generateCryptoKeyPair("RSASSA-PKCS1-v1_5")),
      ed25519: await exportPair(await generateCryptoKeyPair("Ed25519")),
    };
    stored = await keepFirstKeyPairs(db, actor, JSON.stringify(fresh));
  }
  const keys = JSON.parse(stored) as StoredKeys;
  return [await importPair(keys.rsa), await importPair(keys.ed25519)];
}

async function exportPair(pair: CryptoKeyPair): Promise<StoredKeyPair> {
  return { publicKey: await exportJwk(pair.publicKey), privateKey: await exportJwk(pair.privateKey) };
}

async function importPair(pair: StoredKeyPair): Promise<CryptoKeyPair> {
  return {
    publicKey: await importJwk(pair.publicKey, "public"),
    privateKey: await importJwk(pair.privateKey, "private"),
  };
}
