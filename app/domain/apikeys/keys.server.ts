// API keys: the business's keys for the public API (/api/v1/), managed by the Administrator on
// /manageintegrations/apikeys. A key has a name, an enabled flag, a member permission and a messaging
// permission (none, read or write; at least one not none, §5). The secret is shown once, when it is made or
// rolled; only its SHA-256 hash and last four characters are kept. Rolling makes a new secret and lets the old
// one go on working for a chosen grace period, so a client can be switched over without downtime.
//
// Every call is checked against the database (no cache), so disabling or deleting a key refuses its very next call.
import type { Kysely } from "kysely";
import type { ApiPermission, DB } from "#db/types";
import { AppError } from "~/lib/errors";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "./format.server";

type Db = Kysely<DB>;

export const API_PERMISSIONS = ["NONE", "READ", "WRITE"] as const satisfies readonly ApiPermission[];
/** The grace periods offered when rolling a key, in seconds (0: the old secret stops at once). */
export const ROLL_GRACE_SECONDS = [0, 3600, 86_400, 7 * 86_400] as const;
export const API_KEY_NAME_MAX = 40;
/** last_used_at is written at most this often per key, so a busy key does not write on every call. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The scopes of the public API and the permission each needs (§6): member read = view; member write = view,
 * add, edit, opt out; messaging read = view DMs; messaging write = view and send.
 */
export type ApiScope = "members:read" | "members:write" | "messages:read" | "messages:write";

export interface ApiKeyPrincipal {
  keyId: number;
  businessId: number;
  name: string;
  memberPermission: ApiPermission;
  messagingPermission: ApiPermission;
}

export function hasScope(p: Pick<ApiKeyPrincipal, "memberPermission" | "messagingPermission">, scope: ApiScope): boolean {
  switch (scope) {
    case "members:read":
      return p.memberPermission !== "NONE";
    case "members:write":
      return p.memberPermission === "WRITE";
    case "messages:read":
      return p.messagingPermission !== "NONE";
    case "messages:write":
      return p.messagingPermission === "WRITE";
  }
}

export interface ApiKeyInput {
  name: string;
  enabled: boolean;
  memberPermission: ApiPermission;
  messagingPermission: ApiPermission;
}

function checkInput(input: ApiKeyInput): ApiKeyInput {
  const name = input.name.trim();
  if (!name) throw new AppError("BR025", { context: "required" }, { field: "name" });
  if (name.length > API_KEY_NAME_MAX || /[\u0000-\u001F\u007F]/.test(name)) throw new AppError("BR022", undefined, { field: "name" });
  if (!API_PERMISSIONS.includes(input.memberPermission)) throw new AppError("BR025", undefined, { field: "memberPermission" });
  if (!API_PERMISSIONS.includes(input.messagingPermission)) throw new AppError("BR025", undefined, { field: "messagingPermission" });
  // §5: at least one permission must be selected.
  if (input.memberPermission === "NONE" && input.messagingPermission === "NONE") {
    throw new AppError("BR025", { context: "apiKeyPermission" }, { field: "memberPermission" });
  }
  return { ...input, name };
}

async function insertSecret(db: Db, keyId: number, now: Date): Promise<string> {
  const key = generateApiKey();
  await db
    .insertInto("api_key_secrets")
    .values({ api_key_id: keyId, secret_hash: hashApiKey(key), last_four: key.slice(-4), created_at: now.toISOString(), expires_at: null })
    .execute();
  return key;
}

/** Makes a key for the business and returns its secret, the only time the secret is seen. */
export async function createApiKey(db: Db, businessId: number, raw: ApiKeyInput, createdBy: number | null, now: Date): Promise<{ id: number; key: string }> {
  const input = checkInput(raw);
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("api_keys")
      .values({
        business_id: businessId,
        name: input.name,
        enabled: input.enabled ? 1 : 0,
        member_permission: input.memberPermission,
        messaging_permission: input.messagingPermission,
        created_by: createdBy,
        created_at: at,
        updated_at: at,
        last_used_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    return { id, key: await insertSecret(trx, id, now) };
  });
}

export interface ApiKeyRow {
  id: number;
  name: string;
  enabled: boolean;
  memberPermission: ApiPermission;
  messagingPermission: ApiPermission;
  createdAt: string;
  lastUsedAt: string | null;
  /** The last four characters of the current secret. */
  lastFour: string;
  /** Secrets replaced by a roll that still work until their time. */
  previous: Array<{ lastFour: string; expiresAt: string }>;
}

/** The business's keys, newest first (what the list shows: never a secret). */
export async function listApiKeys(db: Db, businessId: number, now: Date): Promise<ApiKeyRow[]> {
  const keys = await db.selectFrom("api_keys").selectAll().where("business_id", "=", businessId).orderBy("id", "desc").limit(200).execute();
  if (!keys.length) return [];
  const secrets = await db
    .selectFrom("api_key_secrets")
    .select(["api_key_id", "last_four", "expires_at"])
    .where("api_key_id", "in", keys.map((k) => k.id))
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now.toISOString())]))
    .orderBy("id", "desc")
    .execute();
  return keys.map((k) => {
    const own = secrets.filter((s) => Number(s.api_key_id) === Number(k.id));
    return {
      id: Number(k.id),
      name: k.name,
      enabled: Number(k.enabled) === 1,
      memberPermission: k.member_permission,
      messagingPermission: k.messaging_permission,
      createdAt: k.created_at,
      lastUsedAt: k.last_used_at,
      lastFour: own.find((s) => s.expires_at === null)?.last_four ?? "",
      previous: own.filter((s) => s.expires_at !== null).map((s) => ({ lastFour: s.last_four, expiresAt: s.expires_at as string })),
    };
  });
}

async function requireKey(db: Db, businessId: number, keyId: number) {
  if (!Number.isSafeInteger(keyId) || keyId <= 0) throw new AppError("NF001", undefined, { status: 404 });
  const key = await db.selectFrom("api_keys").select(["id", "name"]).where("business_id", "=", businessId).where("id", "=", keyId).executeTakeFirst();
  if (!key) throw new AppError("NF001", undefined, { status: 404 });
  return key;
}

/** Disables or enables a key; a disabled key's next call is refused (401). */
export async function setApiKeyEnabled(db: Db, businessId: number, keyId: number, enabled: boolean, now: Date): Promise<string> {
  const key = await requireKey(db, businessId, keyId);
  await db.updateTable("api_keys").set({ enabled: enabled ? 1 : 0, updated_at: now.toISOString() }).where("id", "=", key.id).where("business_id", "=", businessId).execute();
  return key.name;
}

/**
 * Rolls a key: a new secret, returned once; the current one keeps working for `graceSeconds` (0: it stops now).
 * Secrets from earlier rolls whose time is up are removed.
 */
export async function rollApiKey(db: Db, businessId: number, keyId: number, graceSeconds: number, now: Date): Promise<{ name: string; key: string }> {
  if (!(ROLL_GRACE_SECONDS as readonly number[]).includes(graceSeconds)) throw new AppError("BR025", undefined, { field: "grace" });
  const key = await requireKey(db, businessId, keyId);
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom("api_key_secrets").where("api_key_id", "=", key.id).where("expires_at", "<=", at).execute();
    if (graceSeconds === 0) {
      await trx.deleteFrom("api_key_secrets").where("api_key_id", "=", key.id).where("expires_at", "is", null).execute();
    } else {
      const until = new Date(now.getTime() + graceSeconds * 1000).toISOString();
      await trx.updateTable("api_key_secrets").set({ expires_at: until }).where("api_key_id", "=", key.id).where("expires_at", "is", null).execute();
    }
    await trx.updateTable("api_keys").set({ updated_at: at }).where("id", "=", key.id).execute();
    return { name: key.name, key: await insertSecret(trx, Number(key.id), now) };
  });
}

/** Deletes a key and every secret of it; its next call is refused (401). */
export async function deleteApiKey(db: Db, businessId: number, keyId: number): Promise<string> {
  const key = await requireKey(db, businessId, keyId);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("api_key_secrets").where("api_key_id", "=", key.id).execute();
    await trx.deleteFrom("api_keys").where("id", "=", key.id).where("business_id", "=", businessId).execute();
  });
  return key.name;
}

/**
 * The key behind a secret, or null: a malformed key or a wrong checksum (no lookup at all), an unknown secret,
 * a rolled secret past its grace period, or a disabled key. One indexed read per call; last_used_at is written
 * at most once a minute.
 */
export async function authenticateApiKey(db: Db, secret: string, now: Date, hash = isWellFormedApiKey(secret) ? hashApiKey(secret) : null): Promise<ApiKeyPrincipal | null> {
  if (!hash) return null;
  const at = now.toISOString();
  const row = await db
    .selectFrom("api_key_secrets as s")
    .innerJoin("api_keys as k", "k.id", "s.api_key_id")
    .innerJoin("businesses as b", "b.id", "k.business_id")
    .select(["k.id", "k.business_id", "k.name", "k.enabled", "k.member_permission", "k.messaging_permission", "k.last_used_at", "s.expires_at", "b.status as business_status"])
    .where("s.secret_hash", "=", hash)
    .executeTakeFirst();
  if (!row || Number(row.enabled) !== 1) return null;
  if (row.expires_at !== null && row.expires_at <= at) return null;
  // A business an operator disabled or suspended: its keys are refused like its logins (UA005).
  if (row.business_status === "DISABLED" || row.business_status === "SUSPENDED") throw new AppError("UA005");
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
    await db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", row.id).execute();
  }
  return {
    keyId: Number(row.id),
    businessId: Number(row.business_id),
    name: row.name,
    memberPermission: row.member_permission,
    messagingPermission: row.messaging_permission,
  };
}
