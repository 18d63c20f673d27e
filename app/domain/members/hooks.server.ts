// Hooks on a member's own data (name, birthday, appointment, custom attributes): called inside the transaction that
// changed them, so what depends on that data (a birthday greeting's next send, an appointment reminder) moves with
// it or not at all. Status changes have their own hook in the consent service.
import type { Kysely } from "kysely";
import type { DB } from "#db/types";

export interface MemberDataChange {
  businessId: number;
  memberId: number;
}

export type MemberDataHook = (trx: Kysely<DB>, change: MemberDataChange, now: Date) => Promise<void>;

const hooks: MemberDataHook[] = [];

/** Registers a hook called after a member's data changed, inside the same transaction. Returns its removal. */
export function onMemberDataChange(hook: MemberDataHook): () => void {
  hooks.push(hook);
  return () => {
    const i = hooks.indexOf(hook);
    if (i >= 0) hooks.splice(i, 1);
  };
}

export async function memberDataChanged(trx: Kysely<DB>, change: MemberDataChange, now: Date): Promise<void> {
  for (const hook of hooks) await hook(trx, change, now);
}
