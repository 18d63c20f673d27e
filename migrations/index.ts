// A static registry of migrations, so that they bundle cleanly into the server build.
// Frozen: never edit a migration that has shipped; add a new one.
import type { Migration } from "kysely";
import * as m20261121000000 from "./20261121000000_foundation";
import * as m20261121001000 from "./20261121001000_signup_password";
import * as m20261121100000 from "./20261121100000_messaging_credits_inbound";
import * as m20261122000100 from "./20261122000100_messaging_pipeline";
import * as m20261122000200 from "./20261122000200_outbound_partial_indexes";
import * as m20261122000300 from "./20261122000300_inbound_pending_sender_idx";
import * as m20261122010000 from "./20261122010000_attributes";
import * as m20261122011000 from "./20261122011000_groups";
import * as m20261122012000 from "./20261122012000_conversations_snooze";
import * as m20261122013000 from "./20261122013000_group_message_fields";
import * as m20261122014500 from "./20261122014500_conversations_unread_idx";
import * as m20261123000000 from "./20261123000000_inbound_waiting_idx";
import * as m20261123001000 from "./20261123001000_number_pace";
import * as m20261123002000 from "./20261123002000_inbound_attempts";
import * as m20261124000000 from "./20261124000000_message_campaign";
import * as m20261125000000 from "./20261125000000_conversations_snoozed_idx";
import * as m20261126000000 from "./20261126000000_session_last_seen";
import * as m20261127000000 from "./20261127000000_member_name_asked";
import * as m20261127000100 from "./20261127000100_conversations_business_snoozed_idx";
import * as m20261128000000 from "./20261128000000_campaigns";
import * as m20261129100000 from "./20261129100000_export_files";
import * as m20261201000000 from "./20261201000000_billing";
import * as m20261201000100 from "./20261201000100_email_outbox";
import * as m20261201000200 from "./20261201000200_referral_rewards";
import * as m20261203000500 from "./20261203000500_team_invites";
import * as m20261203000000 from "./20261203000000_webhooks";
import * as m20261203000000ops from "./20261203000000_ops_console";
import * as m20261203000014 from "./20261203000014_api_keys";
import * as m20261203000000shop from "./20261203000000_shop_integration";
import * as m20261203190000 from "./20261203190000_analytics_indexes";
import * as m20261204001700 from "./20261204001700_stripe_credit_notes";

export const migrations: Record<string, Migration> = {
  "20261121000000_foundation": m20261121000000,
  "20261121001000_signup_password": m20261121001000,
  "20261121100000_messaging_credits_inbound": m20261121100000,
  "20261122000100_messaging_pipeline": m20261122000100,
  "20261122000200_outbound_partial_indexes": m20261122000200,
  "20261122000300_inbound_pending_sender_idx": m20261122000300,
  "20261122010000_attributes": m20261122010000,
  "20261122011000_groups": m20261122011000,
  "20261122012000_conversations_snooze": m20261122012000,
  "20261122013000_group_message_fields": m20261122013000,
  "20261122014500_conversations_unread_idx": m20261122014500,
  "20261123000000_inbound_waiting_idx": m20261123000000,
  "20261123001000_number_pace": m20261123001000,
  "20261123002000_inbound_attempts": m20261123002000,
  "20261124000000_message_campaign": m20261124000000,
  "20261125000000_conversations_snoozed_idx": m20261125000000,
  "20261126000000_session_last_seen": m20261126000000,
  "20261127000000_member_name_asked": m20261127000000,
  "20261127000100_conversations_business_snoozed_idx": m20261127000100,
  "20261128000000_campaigns": m20261128000000,
  "20261129100000_export_files": m20261129100000,
  "20261201000000_billing": m20261201000000,
  "20261201000100_email_outbox": m20261201000100,
  "20261201000200_referral_rewards": m20261201000200,
  "20261203000500_team_invites": m20261203000500,
  "20261203000000_webhooks": m20261203000000,
  "20261203000000_ops_console": m20261203000000ops,
  "20261203000014_api_keys": m20261203000014,
  "20261203000000_shop_integration": m20261203000000shop,
  "20261203190000_analytics_indexes": m20261203190000,
  "20261204001700_stripe_credit_notes": m20261204001700,
};
