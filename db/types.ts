// Database types: one interface per table, joined in `DB`. Times are ISO-8601 UTC strings;
// booleans are 0/1 integers; ids are numbers (bigint columns are parsed to numbers on PostgreSQL).
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

export interface BusinessesTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  phone_number: string | null;
  join_keyword: Generated<string>;
  onboarding: Generated<string>;
  onboarding_error: string | null;
  status: Generated<string>;
  locale: Generated<string>;
  trial_credits: Generated<number>;
  trial_ends_at: string | null;
  message_allowance: Generated<number>;
  allowance_used: Generated<number>;
  allowance_period_start: string | null;
  referral_code: string;
  referred_by_id: number | null;
  terms_version: string | null;
  opt_in_message: string | null;
  opt_out_message: string | null;
  help_message: string | null;
  created_at: string;
  /** Quiet hours in UK local time, "HH:MM" (group and campaign texts wait for the end). */
  quiet_start: Generated<string>;
  quiet_end: Generated<string>;
  /** After a failed renewal: sending stops at this moment unless the payment succeeds first. */
  payment_grace_ends_at: Generated<string | null>;
  /** The invoices' customer address and VAT number (optional). */
  billing_address: Generated<string | null>;
  billing_vat_number: Generated<string | null>;
  /** While an operator has disabled or suspended the business: the status it had before (given back when lifted). */
  held_status: Generated<string | null>;
}

export interface UsersTable {
  id: Generated<number>;
  business_id: number;
  name: string;
  email: string;
  mobile: string;
  password_hash: string;
  role: "ADMIN" | "TEAM";
  failed_logins: Generated<number>;
  locked_until: string | null;
  disabled: Generated<number>;
  last_login_at: string | null;
  last_active_at: string | null;
  created_at: string;
  /** Set when the Administrator removed them from the team: they cannot sign in; their name stays on what they did. */
  removed_at: Generated<string | null>;
  removed_by_user_id: Generated<number | null>;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  kind: "WEB" | "API";
  admin_access: Generated<number>;
  created_at: string;
  expires_at: string;
  /** When a request last used the session (written at most once a minute); null until then. */
  last_seen_at: string | null;
}

export interface SignupsTable {
  id: string;
  company: string;
  name: string;
  email: string;
  mobile: string;
  referral_code: string | null;
  verified_at: string | null;
  /** Set at sign-up step 3 (migration 20261121001000). */
  password_hash: string | null;
  created_at: string;
  expires_at: string;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  purpose: "SIGNUP" | "RESET" | "REJOIN" | "CANCEL" | "INVITE";
  subject: string;
  code_hash: string;
  attempts: Generated<number>;
  used_at: string | null;
  created_at: string;
  expires_at: string;
}

export interface RateLimitsTable {
  key: string;
  window_start: string;
  count: number;
}

export interface HelpSectionsViewedTable {
  user_id: number;
  section: string;
  viewed_at: string;
}

export interface TrackEventsTable {
  id: Generated<number>;
  business_id: number;
  user_id: number | null;
  action: string;
  created_at: string;
}

export interface NoticesTable {
  id: Generated<number>;
  business_id: number;
  kind: string;
  title: string;
  body: string;
  created_at: string;
}

export interface SupportSessionsTable {
  id: Generated<number>;
  business_id: number;
  user_id: number | null;
  status: Generated<string>;
  created_at: string;
  /** The operator handling the chat (migration 20261203000000). */
  assigned_operator_id: Generated<number | null>;
  /** When an operator last read the chat: the user's later messages are unread. */
  agent_read_at: Generated<string | null>;
  closed_at: Generated<string | null>;
}

export interface SupportMessagesTable {
  id: Generated<number>;
  session_id: number;
  sender: "USER" | "AGENT";
  text: string;
  created_at: string;
  /** The operator who wrote an AGENT message; null for the automatic reply outside opening hours. */
  operator_id: Generated<number | null>;
}

export interface SimNumbersTable {
  number: string;
  assigned_at: string;
}

export interface SimMessagesTable {
  id: Generated<number>;
  sid: string;
  direction: "TO_PHONE" | "FROM_PHONE";
  phone: string;
  business_number: string;
  body: string;
  status: string;
  created_at: string;
  /** The client reference the sender passed (our outbound id), for reconciliation. */
  reference: string | null;
  error_code: string | null;
}

export interface SimSettingsTable {
  key: string;
  value: string;
}

export interface AdminAccessTokensTable {
  id: string;
  user_id: number;
  used_at: string | null;
  expires_at: string;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  business_id: number;
  kind: "GRANT" | "CHARGE" | "REFUND";
  pool: "TRIAL" | "ALLOWANCE";
  credits: number;
  reason: string;
  reference: string | null;
  created_at: string;
  /** Set on a grant: the same grant is never recorded twice. */
  grant_key: Generated<string | null>;
  /** On an ALLOWANCE row: the allowance period (the business's allowance_period_start) it counts in. */
  period: Generated<string | null>;
}

export interface InboundMessagesTable {
  id: Generated<number>;
  business_id: number;
  provider_id: string;
  from_number: string;
  to_number: string;
  body: string;
  received_at: string;
  processed_at: string | null;
  /** Set by inbound processing: the member who sent it, and what it was (a keyword or MESSAGE). */
  member_id: Generated<number | null>;
  kind: Generated<string | null>;
  /** Failed attempts at handling it; at INBOUND_MAX_ATTEMPTS it is set aside (kind ERROR, error kept). */
  attempts: Generated<number>;
  error: Generated<string | null>;
  /** The campaign the router gave it to, if any. */
  campaign_id: Generated<number | null>;
  /** Something for the owner to notice: MAYBE_STOP when it may be an objection the rules could not be sure of. */
  flag: Generated<string | null>;
}

export interface DeliveryReceiptsTable {
  id: Generated<number>;
  business_id: number | null;
  provider_id: string;
  status: string;
  error_code: string | null;
  received_at: string;
}

/** The shared per-number sending pace: the number's theoretical arrival time (GCRA), epoch ms. */
export interface NumberPaceTable {
  from_phone: string;
  /** bigint: PostgreSQL returns it as a string, SQLite as a number. */
  tat_ms: number | string;
}

export interface DB extends PipelineTables, GroupTables, AttributeTables, CampaignTables, ExportFileTables, BillingTables, TeamTables, WebhookTables, OperatorTables, ApiKeyTables, ShopTables {
  businesses: BusinessesTable;
  users: UsersTable;
  sessions: SessionsTable;
  signups: SignupsTable;
  verification_codes: VerificationCodesTable;
  rate_limits: RateLimitsTable;
  help_sections_viewed: HelpSectionsViewedTable;
  track_events: TrackEventsTable;
  notices: NoticesTable;
  support_sessions: SupportSessionsTable;
  support_messages: SupportMessagesTable;
  sim_numbers: SimNumbersTable;
  sim_messages: SimMessagesTable;
  sim_settings: SimSettingsTable;
  admin_access_tokens: AdminAccessTokensTable;
  credit_ledger: CreditLedgerTable;
  inbound_messages: InboundMessagesTable;
  delivery_receipts: DeliveryReceiptsTable;
  number_pace: NumberPaceTable;
  group_message_drafts: GroupMessageDraftsTable;
}

// ---- Group message drafts (the Compose, Schedule, Preview steps) ----

export interface GroupMessageDraftsTable {
  id: Generated<number>;
  business_id: number;
  user_id: number | null;
  body: string;
  group_id: number | null;
  send_mode: "NOW" | "LATER" | null;
  send_at: string | null;
  token: string;
  message_id: number | null;
  created_at: string;
  updated_at: string;
}

export type Business = Selectable<BusinessesTable>;
export type NewBusiness = Insertable<BusinessesTable>;
export type BusinessUpdate = Updateable<BusinessesTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;

// ---- Messaging pipeline (members core, consent log, messages, outbound, conversations) ----

export type MemberStatus = "PENDING" | "SUBSCRIBED" | "OPTED_OUT" | "DELETED";

export interface MembersTable {
  id: Generated<number>;
  business_id: number;
  phone: string;
  first_name: string | null;
  full_name: string | null;
  status: MemberStatus;
  unique_ref: string;
  joined_at: string | null;
  invited_at: string | null;
  opted_out_at: string | null;
  created_at: string;
  updated_at: string;
  birthday: string | null; // "MM-DD"
  appointment_at: string | null; // ISO-8601 UTC
  note: string | null;
  /** When the welcome text asked for their first name (null: not asked, or answered). */
  name_asked_at: Generated<string | null>;
  /** The user who added or last edited the member by hand (null: the member, a text, an import or an API client). */
  created_by: Generated<number | null>;
  updated_by: Generated<number | null>;
}

export type ConsentAction = "OPT_IN_REQUESTED" | "OPTED_IN" | "OPTED_OUT" | "REJOINED";
export type ConsentChannel = "SMS" | "INVITE" | "WEB" | "IMPORT" | "API";

export interface ConsentLogTable {
  id: Generated<number>;
  business_id: number;
  member_id: number | null;
  phone: string;
  action: ConsentAction;
  channel: ConsentChannel;
  evidence: string;
  created_at: string;
}

export type MessageKind = "DM" | "GROUP" | "CAMPAIGN" | "SYSTEM";
export type MessageStatus = "SCHEDULED" | "SENDING_SOON" | "SENDING" | "COMPLETE" | "FAILED";

export interface MessagesTable {
  id: Generated<number>;
  business_id: number;
  kind: MessageKind;
  body: string;
  group_id: number | null;
  member_id: number | null;
  status: MessageStatus;
  send_at: string;
  editable_until: string;
  recipients: Generated<number>;
  credits: Generated<number>;
  error: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  /** Group messages: unique per business, so a double-submitted send creates one message. */
  idempotency_key: Generated<string | null>;
  /** The campaign this text belongs to, if any. */
  campaign_id: Generated<number | null>;
  /** The user who last edited it during its pause (null: nobody, or an API client). */
  updated_by: Generated<number | null>;
  /** Group messages sent to part of their group (the credit ran out): how many members were left out. */
  left_out: Generated<number>;
}

export type OutboundStatus = "QUEUED" | "SENDING" | "SENT" | "DELIVERED" | "FAILED" | "UNKNOWN";

export interface OutboundTable {
  id: Generated<number>;
  message_id: number;
  business_id: number;
  member_id: number | null;
  to_phone: string;
  from_phone: string;
  body: string;
  segments: number;
  priority: number;
  status: OutboundStatus;
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  worker_id: string | null;
  provider_id: string | null;
  error_code: string | null;
  error: string | null;
  quiet_hours: Generated<number>;
  charged: Generated<number>;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
}

export type ConversationState = "UNREAD" | "READ" | "ACTIVE" | "SNOOZED" | "INACTIVE";

export interface ConversationsTable {
  id: Generated<number>;
  business_id: number;
  member_id: number;
  state: ConversationState;
  last_message_at: string;
  unread_count: Generated<number>;
  /** Set while SNOOZED: when it wakes as UNREAD (migration 20261122012000). */
  snoozed_until: Generated<string | null>;
  read_at: Generated<string | null>;
  /** The flag of the member's latest text (MAYBE_STOP: it may be an objection), null when none. */
  last_in_flag: Generated<string | null>;
}

export interface PipelineTables {
  members: MembersTable;
  consent_log: ConsentLogTable;
  messages: MessagesTable;
  outbound: OutboundTable;
  conversations: ConversationsTable;
}

export type Member = Selectable<MembersTable>;
export type Message = Selectable<MessagesTable>;
export type OutboundRow = Selectable<OutboundTable>;

// ---- Community groups and CSV import (migration 20261122011000_groups) ----

export type GroupType = "LIST" | "SMART" | "CAMPAIGN";

export interface GroupsTable {
  id: Generated<number>;
  business_id: number;
  name: string;
  type: GroupType;
  /** JSON filter (SMART groups only): see app/domain/groups/smart-filter.ts. */
  filter: string | null;
  created_at: string;
  updated_at: string;
}

export interface GroupMembersTable {
  group_id: number;
  member_id: number;
  added_at: string;
}

export type ImportJobStatus = "MAPPING" | "QUEUED" | "RUNNING" | "DONE" | "FAILED";

export interface ImportJobsTable {
  id: Generated<number>;
  business_id: number;
  created_by: number | null;
  status: ImportJobStatus;
  filename: string;
  content: string;
  mapping: string | null;
  consent_evidence: string | null;
  total_rows: Generated<number>;
  processed_rows: Generated<number>;
  added: Generated<number>;
  updated: Generated<number>;
  skipped: Generated<number>;
  report: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface GroupTables {
  groups: GroupsTable;
  group_members: GroupMembersTable;
  import_jobs: ImportJobsTable;
}

export type Group = Selectable<GroupsTable>;

// ---- Member attributes (community) ----

export type AttributeType = "TEXT" | "NUMBER" | "DATE" | "TIME" | "BIRTHDAY" | "NOTE" | "LIST";

export interface AttributesTable {
  id: Generated<number>;
  business_id: number;
  key: string;
  name: string;
  type: AttributeType;
  show_on_form: Generated<number>;
  member_can_edit: Generated<number>;
  mandatory: Generated<number>;
  position: Generated<number>;
  created_at: string;
}

export interface AttributeListItemsTable {
  id: Generated<number>;
  attribute_id: number;
  label: string;
  position: Generated<number>;
}

export interface MemberAttributeValuesTable {
  member_id: number;
  attribute_id: number;
  business_id: number;
  value_text: string | null;
  value_number: number | null;
}

export interface AttributeTables {
  attributes: AttributesTable;
  attribute_list_items: AttributeListItemsTable;
  member_attribute_values: MemberAttributeValuesTable;
}

export type Attribute = Selectable<AttributesTable>;

// ---- Campaigns (migration 20261128000000_campaigns, decision record 008) ----

export interface CampaignsTable {
  id: Generated<number>;
  business_id: number;
  type: string;
  kind: "ONETIME" | "ONGOING";
  name: string;
  keyword: string | null;
  message_text: string | null;
  thank_you_text: string | null;
  group_id: number | null;
  issue_at: string;
  close_at: string | null;
  status: "SCHEDULED" | "LIVE" | "ONGOING" | "SUSPENDED" | "FAILED" | "ENDED";
  error_code: string | null;
  version: Generated<number>;
  /** JSON: the type's own settings. */
  settings: string;
  public_ref: string;
  result_group_id: number | null;
  seed_hash: string | null;
  seed: string | null;
  issued_at: string | null;
  ended_at: string | null;
  idempotency_key: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  /** Who last edited and who ended it (null: nobody yet, the system or an API client). */
  updated_by: Generated<number | null>;
  ended_by: Generated<number | null>;
}

export interface CampaignFiresTable {
  id: Generated<number>;
  business_id: number;
  campaign_id: number;
  /** 0 for a step of the whole campaign. */
  member_id: number;
  step: string;
  occurrence: Generated<string>;
  fire_at: string;
  version: number;
  status: "DUE" | "DONE" | "SKIPPED" | "CANCELLED";
  reason: string | null;
  message_id: number | null;
  created_at: string;
  done_at: string | null;
}

export interface CampaignWaitsTable {
  id: Generated<number>;
  business_id: number;
  campaign_id: number;
  member_id: number;
  status: "OPEN" | "ANSWERED" | "CLOSED";
  step: Generated<string>;
  helped: Generated<number>;
  opened_at: string;
  closes_at: string | null;
}

export interface CampaignResponsesTable {
  id: Generated<number>;
  business_id: number;
  campaign_id: number;
  member_id: number | null;
  phone: string;
  step: string;
  answer: string | null;
  raw: string;
  inbound_id: number | null;
  party_size: Generated<number>;
  is_current: Generated<number>;
  created_at: string;
}

export interface CampaignAnswerCountsTable {
  campaign_id: number;
  answer: string;
  total: number;
  places: Generated<number>;
}

export interface CampaignWinnersTable {
  campaign_id: number;
  business_id: number;
  member_id: number;
  rank: number;
  drawn_at: string;
}

export interface CampaignCheckinsTable {
  id: Generated<number>;
  business_id: number;
  campaign_id: number;
  member_id: number | null;
  phone: string;
  ref: string;
  source: "SMS" | "QR";
  checked_in_at: string;
  checked_out_at: string | null;
}

export interface CampaignTables {
  campaigns: CampaignsTable;
  campaign_fires: CampaignFiresTable;
  campaign_waits: CampaignWaitsTable;
  campaign_responses: CampaignResponsesTable;
  campaign_answer_counts: CampaignAnswerCountsTable;
  campaign_winners: CampaignWinnersTable;
  campaign_checkins: CampaignCheckinsTable;
}

export type CampaignRow = Selectable<CampaignsTable>;

// --- Export files (built in the background, shared by an unguessable link) ---

export type ExportFileStatus = "PENDING" | "CREATING" | "AVAILABLE" | "FAILED";

export interface ExportFilesTable {
  id: Generated<number>;
  business_id: number;
  campaign_id: number;
  file_ref: string;
  status: ExportFileStatus;
  rows: number | null;
  content: string | null;
  error: string | null;
  claimed_at: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface ExportFileTables {
  export_files: ExportFilesTable;
}
// ---- Billing (subscriptions, payments, the payment simulator) ----

export interface SubscriptionsTable {
  id: Generated<number>;
  business_id: number;
  plan_id: string;
  allowance: number;
  price_pence: number;
  status: "ACTIVE" | "PAYMENT_FAILED";
  period_start: string;
  period_end: string;
  next_plan_id: string | null;
  discount_percent: Generated<number>;
  discount_ends_at: string | null;
  payment_method: string | null;
  card_label: string | null;
  failed_at: string | null;
  retry_at: string | null;
  renewing_until: string | null;
  created_at: string;
  updated_at: string;
}

export type PaymentKind = "ACTIVATE" | "RENEWAL" | "INCREASE" | "MONTH_INCREASE";
export type PaymentStatus = "PENDING" | "REQUIRES_ACTION" | "PAID" | "FAILED";

export interface PaymentsTable {
  id: Generated<number>;
  business_id: number;
  kind: PaymentKind;
  status: PaymentStatus;
  idempotency_key: string;
  description: string;
  plan_id: string;
  plan_price_pence: number;
  allowance: number;
  net_pence: number;
  company_discount_pence: Generated<number>;
  referral_discount_pence: Generated<number>;
  credit_pence: Generated<number>;
  vat_pence: number;
  total_pence: number;
  period_start: string;
  period_end: string;
  provider_ref: string | null;
  action_url: string | null;
  failure_code: string | null;
  invoice_number: number | null;
  customer_name: Generated<string | null>;
  customer_address: Generated<string | null>;
  customer_vat_number: Generated<string | null>;
  created_at: string;
  paid_at: string | null;
}

export interface SimPaymentsTable {
  id: Generated<number>;
  business_id: number | null;
  reference: string;
  idempotency_key: string;
  card: string;
  amount_pence: number;
  description: string;
  status: "SUCCEEDED" | "DECLINED" | "REQUIRES_ACTION" | "ABANDONED" | "REFUNDED";
  created_at: string;
}

export interface EmailsTable {
  id: Generated<number>;
  business_id: number | null;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attachments: string | null;
  status: "QUEUED" | "SENDING" | "SENT" | "FAILED";
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  provider: string | null;
  provider_id: string | null;
  error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface ReferralRewardsTable {
  id: Generated<number>;
  business_id: number;
  referral_id: number;
  role: "REFERRER" | "REFERRED";
  amount_pence: number;
  status: "AWARDED" | "REDEEMED";
  payment_id: number | null;
  created_at: string;
  redeemed_at: string | null;
}

export interface BillingTables {
  emails: EmailsTable;
  referral_rewards: ReferralRewardsTable;
  subscriptions: SubscriptionsTable;
  payments: PaymentsTable;
  sim_payments: SimPaymentsTable;
  payment_customers: PaymentCustomersTable;
  payment_events: PaymentEventsTable;
  credit_notes: CreditNotesTable;
  message_left_out: MessageLeftOutTable;
}

export interface PaymentCustomersTable {
  id: Generated<number>;
  business_id: number;
  provider: string;
  customer_ref: string;
  created_at: string;
}

export interface PaymentEventsTable {
  id: Generated<number>;
  provider: string;
  event_id: string;
  type: string;
  received_at: string;
  processed_at: string | null;
}

export type CreditNoteStatus = "PENDING" | "ISSUED" | "FAILED";

export interface CreditNotesTable {
  id: Generated<number>;
  business_id: number;
  payment_id: number;
  status: CreditNoteStatus;
  idempotency_key: string;
  provider_ref: string | null;
  reason: string;
  net_pence: number;
  vat_pence: number;
  total_pence: number;
  number: number | null;
  customer_name: string | null;
  customer_address: string | null;
  customer_vat_number: string | null;
  created_at: string;
  issued_at: string | null;
}

export type CreditNote = Selectable<CreditNotesTable>;

export interface MessageLeftOutTable {
  id: Generated<number>;
  message_id: number;
  business_id: number;
  member_id: number;
}

export type Subscription = Selectable<SubscriptionsTable>;
export type Payment = Selectable<PaymentsTable>;

// ---- Team: invitations and the audit trail (migration 20261203000500_team_invites) ----

export type InviteStatus = "OPEN" | "ACCEPTED" | "REVOKED" | "EXPIRED";

export interface TeamInvitesTable {
  id: Generated<number>;
  business_id: number;
  channel: "SMS" | "EMAIL";
  /** E.164 mobile or lower-case email. */
  sent_to: string;
  code_hash: string;
  code_hint: string;
  status: InviteStatus;
  invited_by_user_id: number | null;
  issued_at: string;
  expires_at: string;
  sent_count: Generated<number>;
  ended_at: string | null;
  ended_by_user_id: number | null;
  accepted_user_id: number | null;
  pending_name: string | null;
  pending_email: string | null;
  pending_mobile: string | null;
  pending_password_hash: string | null;
  created_at: string;
}

export interface AuditEventsTable {
  id: Generated<number>;
  business_id: number;
  user_id: number | null;
  action: string;
  subject_type: string;
  subject_id: number | null;
  detail: string | null;
  created_at: string;
}

export interface TeamTables {
  team_invites: TeamInvitesTable;
  audit_events: AuditEventsTable;
}

export interface WebhookSecretsTable {
  id: Generated<number>;
  business_id: number;
  secret: string;
  previous_secret: string | null;
  previous_until: string | null;
  created_at: string;
  rolled_at: string | null;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  business_id: number;
  url: string;
  description: string | null;
  /** Space-separated event types. */
  events: string;
  enabled: Generated<number>;
  disabled_reason: "MANUAL" | "FAILING" | null;
  consecutive_failures: Generated<number>;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  business_id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  payload: string;
  status: "PENDING" | "SENDING" | "SUCCEEDED" | "FAILED";
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface WebhookTables {
  webhook_secrets: WebhookSecretsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

// The operator console (migration 20261203000000).
export interface OperatorsTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  must_change_password: Generated<number>;
  failed_logins: Generated<number>;
  locked_until: string | null;
  last_login_at: string | null;
  created_at: string;
}

export interface OperatorSessionsTable {
  id: string;
  operator_id: number;
  created_at: string;
  expires_at: string;
  last_seen_at: string | null;
}

export interface OperatorAuditTable {
  id: Generated<number>;
  operator_id: number | null;
  operator_email: string;
  action: string;
  business_id: number | null;
  target: string | null;
  detail: string | null;
  created_at: string;
}

export interface SavedRepliesTable {
  id: Generated<number>;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface OperatorTables {
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  operator_audit: OperatorAuditTable;
  saved_replies: SavedRepliesTable;
}

// ---- API keys and the public API's idempotency records ----

export type ApiPermission = "NONE" | "READ" | "WRITE";

export interface ApiKeysTable {
  id: Generated<number>;
  business_id: number;
  name: string;
  enabled: Generated<number>;
  member_permission: ApiPermission;
  messaging_permission: ApiPermission;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
}

export interface ApiKeySecretsTable {
  id: Generated<number>;
  api_key_id: number;
  secret_hash: string;
  last_four: string;
  created_at: string;
  expires_at: string | null;
}

export interface ApiIdempotencyTable {
  id: Generated<number>;
  business_id: number;
  idem_key: string;
  request_hash: string;
  status: number | null;
  response_body: string | null;
  location: string | null;
  created_at: string;
}

export interface ApiKeyTables {
  api_keys: ApiKeysTable;
  api_key_secrets: ApiKeySecretsTable;
  api_idempotency: ApiIdempotencyTable;
}

export interface ShopIntegrationsTable {
  id: Generated<number>;
  business_id: number;
  provider: "simulator" | "shopify";
  shop_domain: string;
  shop_name: string;
  token_enc: string;
  token_last4: string;
  discount_id: string | null;
  discount_title: string | null;
  connected_by: number | null;
  connected_at: string;
  updated_at: string;
}

export interface ShopCodesTable {
  id: Generated<number>;
  business_id: number;
  shop_domain: string;
  discount_id: string;
  code: string;
  request_id: number | null;
  message_id: number | null;
  member_id: number | null;
  reserved_at: string | null;
  created_at: string;
}

export interface ShopCodeRequestsTable {
  id: Generated<number>;
  business_id: number;
  draft_id: number | null;
  fire_id: Generated<number | null>;
  needed: number;
  made: Generated<number>;
  status: "PENDING" | "MAKING" | "READY" | "FAILED";
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  error_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface SimShopCodesTable {
  id: Generated<number>;
  shop_domain: string;
  discount_id: string;
  code: string;
  created_at: string;
  redeemed_at: string | null;
}

export interface ShopTables {
  shop_integrations: ShopIntegrationsTable;
  shop_codes: ShopCodesTable;
  shop_code_requests: ShopCodeRequestsTable;
  sim_shop_codes: SimShopCodesTable;
}
