// Every URL of the app in one list. Pages behind login sit under the _app layout.
import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  layout("routes/_app.tsx", [
    index("routes/home.tsx"),
    route("welcome", "routes/welcome.tsx"),
    // --- authenticated pages (add new ones here) ---
    route("directmessages", "routes/directmessages.tsx"),
    route("member/messages", "routes/member.messages.tsx"),
    route("newdirectmessage", "routes/newdirectmessage.tsx"),
    // groups
    route("groups", "routes/groups.tsx"),
    route("contactgroup/:id", "routes/contactgroup.$id.tsx"),
    route("smartgroup/:id", "routes/smartgroup.$id.tsx"),
    // the bare paths open the list they belong to
    route("contactgroup", "routes/bare-paths.ts", { id: "bare-contactgroup" }),
    route("smartgroup", "routes/bare-paths.ts", { id: "bare-smartgroup" }),
    route("groupmessage", "routes/bare-paths.ts", { id: "bare-groupmessage" }),
    route("joinus", "routes/joinus.tsx"),
    route("mycommunity/import", "routes/mycommunity.import.tsx"),
    route("mycommunity/import/:jobId", "routes/mycommunity.import.$jobId.tsx"),
    route("mycommunity/export", "routes/mycommunity.export.ts"),
    // community
    route("mycommunity", "routes/mycommunity.tsx"),
    route("memberinfo", "routes/memberinfo.tsx"),
    route("memberinfo/:id", "routes/memberinfo.tsx", { id: "memberinfo-id" }),
    route("invitemember", "routes/invitemember.tsx"),
    route("memberattributes", "routes/memberattributes.tsx"),
    route("myaccount", "routes/myaccount.tsx"),
    route("manageteam", "routes/manageteam.tsx"), // Administrator only
    // group messages
    route("newgroupmessage", "routes/newgroupmessage.tsx"),
    route("newgroupmessage/schedule", "routes/newgroupmessage.schedule.tsx"),
    route("newgroupmessage/preview", "routes/newgroupmessage.preview.tsx"),
    route("groupmessages", "routes/groupmessages.tsx"),
    route("groupmessages/:messageId/edit", "routes/groupmessages.$messageId.edit.tsx"),
    route("groupmessages/:messageId/delete", "routes/groupmessages.$messageId.delete.tsx"),
    route("groupmessages/:messageId/leftout", "routes/groupmessages.$messageId.leftout.tsx"),
    route("allgroupmessages", "routes/allgroupmessages.tsx"),
    route("welcome/success", "routes/welcome.success.tsx"),
    route("welcome/incomplete", "routes/welcome.incomplete.tsx"),
    route("termsupdated", "routes/termsupdated.tsx"),
    // billing: the plan, changing it, and the return from a bank's 3-D Secure page
    route("subscription", "routes/subscription.tsx"),
    route("subscription/confirm/:paymentId", "routes/subscription.confirm.$paymentId.tsx"),
    route("changesubscription", "routes/changesubscription.tsx"), // Administrator only
    route("subscription/cancel", "routes/subscription.cancel.tsx"), // Administrator only
    route("paymenthistory", "routes/paymenthistory.tsx"), // Administrator only
    route("paymenthistory/:invoiceNumber/invoice.pdf", "routes/paymenthistory.invoice.ts"),
    route("paymenthistory/creditnotes/:number/creditnote.pdf", "routes/paymenthistory.creditnote.ts"),
    route("referral", "routes/referral.tsx"),
    // campaigns: the list, choosing a type, each type's create and edit page, the results and their CSV
    route("campaigns", "routes/campaigns.tsx"),
    route("newcampaign", "routes/newcampaign.tsx"),
    route("bounceback", "routes/bounceback.tsx"),
    route("onequestion", "routes/onequestion.tsx"),
    route("quickpoll", "routes/quickpoll.tsx"),
    route("invitation", "routes/invitation.tsx"),
    route("pickwinners", "routes/pickwinners.tsx"),
    route("birthday", "routes/birthday.tsx"),
    route("reminder", "routes/reminder.tsx"),
    route("postregistration", "routes/postregistration.tsx"),
    route("customerexp", "routes/customerexp.tsx"),
    route("checkin", "routes/checkin.tsx"),
    route("viewcampaign", "routes/viewcampaign.tsx"),
    route("viewcampaign/export", "routes/viewcampaign.export.ts"),
    // --- venue: campaign QR codes and the check-in export ---
    route("checkinqrcode", "routes/checkinqrcode.tsx"),
    route("checkinqrcode/download", "routes/checkinqrcode.download.ts"),
    route("customerexpqrcode", "routes/customerexpqrcode.tsx"),
    route("customerexpqrcode/download", "routes/customerexpqrcode.download.ts"),
    route("checkinexport", "routes/checkinexport.tsx"),
    // --- integrations: outbound webhooks (Administrator only) ---
    route("manageintegrations/webhooks", "routes/manageintegrations.webhooks.tsx"),
    // --- support chat with an agent ---
    route("agentchat", "routes/agentchat.tsx"),
    // --- API keys for the public API (Administrator only) and the API reference ---
    route("manageintegrations/apikeys", "routes/manageintegrations.apikeys.tsx"),
    route("manageintegrations/apikeys/reference", "routes/manageintegrations.apikeys.reference.tsx"),
    // --- integrations (Administrator only): the shop's discount codes ---
    route("manageintegrations", "routes/manageintegrations.tsx"),
    // --- help centre and analytics ---
    route("helpcentre", "routes/helpcentre.tsx"),
    route("helpcentre/getstarted", "routes/helpcentre.$slug.tsx", { id: "helpcentre-getstarted" }),
    route("helpcentre/:slug", "routes/helpcentre.$slug.tsx"),
    route("analytics", "routes/analytics.tsx"),
    route("analytics/export", "routes/analytics.export.ts"),
  ]),
  layout("routes/_public.tsx", [
    route("login", "routes/login.tsx"),
    // --- public pages (add new ones here) ---
    route("join/:slug", "routes/join.$slug.tsx"), // web sign-up
    route("myinfo/:ref", "routes/myinfo.$ref.tsx"), // member form
    route("adminaccess/:token", "routes/adminaccess.$token.tsx"),
    route("signup", "routes/signup.tsx"),
    route("signup/verify", "routes/signup.verify.tsx"),
    route("signup/secure", "routes/signup.secure.tsx"),
    route("signup/terms", "routes/signup.terms.tsx"),
    route("signup-form", "routes/signup-form.tsx"),
    route("signup-form/:referralCode", "routes/signup-form.$referralCode.tsx"),
    route("forgotten-login", "routes/forgotten-login.tsx"),
    route("forgotten-login/verify", "routes/forgotten-login.verify.tsx"),
    // --- venue: a visitor's check-out link and a shared export file ---
    route("checkout/:ref", "routes/checkout.$ref.tsx"),
    route("checkinshare/:fileRef", "routes/checkinshare.$fileRef.tsx"),
    // --- team: an invited team member creates their account ---
    route("createaccount/:inviteCode", "routes/createaccount.$inviteCode.tsx"),
    route("createaccount/:inviteCode/verify", "routes/createaccount.$inviteCode.verify.tsx"),
  ]),
  // --- venue: a shared export file's CSV (public, behind its unguessable reference) ---
  route("checkinshare/:fileRef/download", "routes/checkinshare.$fileRef.download.ts"),
  route("logout", "routes/logout.tsx"),
  route("invalid", "routes/invalid.tsx"),
  route("locales/:lng", "routes/locales.ts"),
  ...prefix("api", [
    // --- /api/ resource routes (add new ones here) ---
    route("messages/preview", "routes/api/messages.preview.ts"),
    route("account/status", "routes/api/account.status.ts"),
    route("account/users/current", "routes/api/account.users.current.ts"),
    route("account/messageallowance", "routes/api/account.messageallowance.ts"),
    route("account/helpsectionsviewed", "routes/api/account.helpsectionsviewed.ts"),
    route("account/token", "routes/api/account.token.ts"),
    route("account/team", "routes/api/account.team.ts"),
    route("stats", "routes/api/stats.ts"),
    route("feed", "routes/api/feed.ts"),
    route("directmessages", "routes/api/directmessages.ts"),
    route("support/session", "routes/api/support.session.ts"),
    route("support/messages", "routes/api/support.messages.ts"),
    route("application/monitor", "routes/api/application.monitor.ts"),
    route("track", "routes/api/track.ts"),
    // campaigns
    route("campaigns", "routes/api/campaigns.ts"),
    route("campaigns/:id", "routes/api/campaigns.$id.ts"),
    route("campaigns/:id/end", "routes/api/campaigns.$id.end.ts"),
    // billing
    route("subscription", "routes/api/subscription.ts"),
    route("subscription/change", "routes/api/subscription.change.ts"),
    route("payments", "routes/api/payments.ts"),
    route("payments/:invoiceNumber/invoice.pdf", "routes/api/payments.invoice.ts"),
    // the public API for API-key clients (/api/v1/), and its OpenAPI document
    route("v1/openapi.json", "routes/api/v1/openapi.json.ts"),
    route("v1/members", "routes/api/v1/members.ts"),
    route("v1/members/:id", "routes/api/v1/members.$id.ts"),
    route("v1/members/:id/optout", "routes/api/v1/members.$id.optout.ts"),
    route("v1/members/:id/messages", "routes/api/v1/members.$id.messages.ts"),
    route("v1/groups", "routes/api/v1/groups.ts"),
    route("v1/groups/:id/members", "routes/api/v1/groups.$id.members.ts"),
    route("v1/groupmessages", "routes/api/v1/groupmessages.ts"),
    route("v1/groupmessages/:id", "routes/api/v1/groupmessages.$id.ts"),
    route("v1/campaigns", "routes/api/v1/campaigns.ts"),
    route("v1/campaigns/:id", "routes/api/v1/campaigns.$id.ts"),
    route("creditnotes", "routes/api/creditnotes.ts"),
    route("creditnotes/:number/creditnote.pdf", "routes/api/creditnotes.pdf.ts"),
    route("*", "routes/api/not-found.ts"), // "api/*": JSON 404 for unknown /api/ paths, ahead of the page catch-all
  ]),
  // --- provider webhooks (Twilio) ---
  route("webhooks/twilio/sms", "routes/webhooks/twilio.sms.ts"),
  route("webhooks/twilio/status", "routes/webhooks/twilio.status.ts"),
  route("webhooks/stripe", "routes/webhooks/stripe.ts"),
  route("webhooks/*", "routes/webhooks/not-found.ts"), // plain 404 for unknown webhook paths
  // --- payment simulator (billing) ---
  route("paymentsimulator", "routes/paymentsimulator.tsx"),
  route("paymentsimulator/authenticate/:reference", "routes/paymentsimulator.authenticate.$reference.tsx"),
  // --- email outbox (the embedded email provider's page) ---
  route("outbox", "routes/outbox.tsx"),
  route("outbox/:emailId/attachments/:index", "routes/outbox.attachment.ts"),
  // --- shop simulator (the shop integration's embedded provider) ---
  route("shopsimulator", "routes/shopsimulator.tsx"),
  // --- simulator (add routes here) ---
  route("simulator", "routes/simulator.tsx"),
  route("simulator/api/phones/:e164/messages", "routes/simulator-api/phone-messages.ts"),
  route("simulator/api/inbound", "routes/simulator-api/inbound.ts"),
  route("simulator/api/*", "routes/simulator-api/not-found.ts"), // JSON 404 for unknown simulator API paths
  // --- the operator console: its own sign-in and sessions, never reachable with a business's session ---
  ...prefix("ops", [
    layout("routes/ops/_layout.tsx", [
      index("routes/ops/businesses.tsx"),
      route("login", "routes/ops/login.tsx"),
      route("logout", "routes/ops/logout.tsx"),
      route("password", "routes/ops/password.tsx"),
      route("businesses/:id", "routes/ops/business.tsx"),
      route("support", "routes/ops/support.tsx"),
      route("support/:id", "routes/ops/support-chat.tsx"),
      route("replies", "routes/ops/replies.tsx"),
      route("pipeline", "routes/ops/pipeline.tsx"),
      route("analytics", "routes/ops/analytics.tsx"),
      route("audit", "routes/ops/audit.tsx"),
      route("*", "routes/ops/not-found.tsx", { id: "ops-not-found" }),
    ]),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
