// `node scripts/api-v1-demo.mjs --url http://localhost:3000 --key tc_live_… --phone 07911 123456`
// A client of the public API that knows nothing but the OpenAPI document: it reads /api/v1/openapi.json, finds
// the operations by their operationId, adds the phone as a member (PRIOR_CONSENT), texts them, and prints the
// conversation until a reply arrives. With the SMS simulator as the provider, --reply "text" makes the virtual
// phone answer through the simulator's own API first (as a person would from their phone).
// Plain Node (20+, global fetch), no dependencies. Exit code 0 once the reply is read, 1 otherwise.
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: process.env.TC_URL ?? "http://localhost:3000" },
    key: { type: "string", default: process.env.TC_API_KEY },
    phone: { type: "string" },
    name: { type: "string", default: "Ann" },
    text: { type: "string", default: "Hi {{firstName}}, your table is ready. Are you on your way?" },
    reply: { type: "string" },
    "wait-seconds": { type: "string", default: "20" },
  },
});
if (!values.key || !values.phone) {
  console.error("Usage: node scripts/api-v1-demo.mjs --url <app> --key <tc_live_…> --phone <UK mobile> [--reply <text the phone sends back>]");
  process.exit(2);
}
const base = values.url.replace(/\/$/, "");

const doc = await (await fetch(`${base}/api/v1/openapi.json`)).json();
const operations = new Map();
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item)) operations.set(op.operationId, { method: method.toUpperCase(), path });
}

/** Calls an operation by its operationId; path parameters are filled from `params`. */
async function call(operationId, params = {}, body, headers = {}) {
  const op = operations.get(operationId);
  if (!op) throw new Error(`the document has no operation ${operationId}`);
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name) => encodeURIComponent(String(params[name])));
  const res = await fetch(base + path, {
    method: op.method,
    headers: { Authorization: `Bearer ${values.key}`, ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${operationId}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const member = await call(
  "addMember",
  {},
  { phone: values.phone, firstName: values.name, consent: { source: "PRIOR_CONSENT", evidence: "Agreed to texts when booking (demo script)" } },
  { "Idempotency-Key": randomUUID() },
);
console.log(`member ${member.id} ${member.phone} ${member.status}`);
const sent = await call("sendMessage", { id: member.id }, { text: values.text }, { "Idempotency-Key": randomUUID() });
console.log(`sent message ${sent.messageId} (${sent.credits} credit${sent.credits === 1 ? "" : "s"})`);

const deadline = Date.now() + Number(values["wait-seconds"]) * 1000;
if (values.reply) {
  // The simulator's virtual phone answers once the text has reached it.
  let delivered = false;
  while (!delivered && Date.now() < deadline) {
    const received = await (await fetch(`${base}/simulator/api/phones/${encodeURIComponent(member.phone)}/messages`)).json();
    const ours = received.find((m) => m.body.includes(values.text.replace(/\{\{\s*firstName\s*\}\}/g, values.name)));
    if (ours) {
      delivered = true;
      const res = await fetch(`${base}/simulator/api/inbound`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ from: member.phone, to: ours.from, body: values.reply }) });
      if (res.status !== 201) throw new Error(`the simulator refused the reply: ${res.status} ${await res.text()}`);
      console.log(`the phone replied: ${values.reply}`);
    } else await new Promise((r) => setTimeout(r, 200));
  }
  if (!delivered) {
    console.error("the text did not reach the simulator's phone in time");
    process.exit(1);
  }
}

while (Date.now() < deadline) {
  const conversation = await call("getConversation", { id: member.id });
  const reply = conversation.items.find((i) => i.direction === "in");
  if (reply) {
    console.log(`reply from ${conversation.member.phone}: ${reply.text}`);
    process.exit(0);
  }
  await new Promise((r) => setTimeout(r, 200));
}
console.error("no reply yet");
process.exit(1);
