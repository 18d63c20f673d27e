// A member's text arriving in their DM thread: the conversation opens, or becomes active and unread again, with
// the unread count raised. Written inside the inbound worker's transaction.
import type { Kysely } from "kysely";
import type { DB } from "#db/types";

export async function recordInboundInConversation(
  trx: Kysely<DB>,
  input: { businessId: number; memberId: number; receivedAt: string; flag?: string | null },
): Promise<void> {
  await trx
    .insertInto("conversations")
    .values({ business_id: input.businessId, member_id: input.memberId, state: "UNREAD", last_message_at: input.receivedAt, unread_count: 1, last_in_flag: input.flag ?? null })
    .onConflict((oc) =>
      oc.columns(["business_id", "member_id"]).doUpdateSet((eb) => ({
        state: "UNREAD",
        last_message_at: eb.ref("excluded.last_message_at"),
        unread_count: eb(eb.ref("conversations.unread_count"), "+", 1),
        last_in_flag: eb.ref("excluded.last_in_flag"),
      })),
    )
    .execute();
}
