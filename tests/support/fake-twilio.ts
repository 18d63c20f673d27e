// A local HTTP server that answers like Twilio's REST API (2010-04-01), for the adapter's tests:
//   POST Messages.json (create), GET Messages/{Sid}.json (fetch), GET Messages.json (list, filtered by To/From),
//   GET AvailablePhoneNumbers/GB/Mobile.json, POST IncomingPhoneNumbers.json.
// It checks HTTP Basic auth against the account SID and auth token, records every request, and can be
// told to fail the next requests (an HTTP error with a Twilio error body, a hang past the client's
// time-out, or an unreadable body).
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`;
export const FAKE_AUTH_TOKEN = "fake-auth-token-0123456789abcdef";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  authorised: boolean;
}

export interface FakeMessage {
  sid: string;
  from: string;
  to: string;
  body: string;
  status: string;
  error_code: number | null;
  status_callback: string | null;
  date_created: string; // RFC 2822, as Twilio gives it
}

export type Fault =
  | { kind: "status"; status: number; code?: number; message?: string }
  | { kind: "hang" } // never answer (the client's time-out fires)
  | { kind: "garbage"; status?: number } // a body that is not JSON
  | { kind: "reset" }; // drop the connection

export interface FakeTwilio {
  /** Give as TWILIO_API_BASE: http://127.0.0.1:port */
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly messages: FakeMessage[];
  readonly purchased: { sid: string; phone_number: string; sms_url: string | null; friendly_name: string | null }[];
  /** Numbers AvailablePhoneNumbers/GB/Mobile answers with. */
  availableNumbers: string[];
  /** Queue faults for the next matching requests (all requests when `path` is not given). */
  fail(fault: Fault, times?: number, path?: RegExp): void;
  close(): Promise<void>;
}

function twilioError(res: http.ServerResponse, status: number, code: number | undefined, message: string) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ code: code ?? status, message, more_info: `https://www.twilio.com/docs/errors/${code ?? status}`, status }));
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

function messageResource(accountSid: string, m: FakeMessage) {
  return {
    account_sid: accountSid,
    api_version: "2010-04-01",
    body: m.body,
    date_created: m.date_created,
    date_sent: null,
    date_updated: m.date_created,
    direction: "outbound-api",
    error_code: m.error_code,
    error_message: null,
    from: m.from,
    messaging_service_sid: null,
    num_media: "0",
    num_segments: "1",
    price: null,
    price_unit: "GBP",
    sid: m.sid,
    status: m.status,
    subresource_uris: {},
    to: m.to,
    uri: `/2010-04-01/Accounts/${accountSid}/Messages/${m.sid}.json`,
  };
}

export async function startFakeTwilio(options: { accountSid?: string; authToken?: string } = {}): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? FAKE_ACCOUNT_SID;
  const authToken = options.authToken ?? FAKE_AUTH_TOKEN;
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
  const requests: RecordedRequest[] = [];
  const messages: FakeMessage[] = [];
  const purchased: FakeTwilio["purchased"] = [];
  const faults: { fault: Fault; path?: RegExp }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const state = { availableNumbers: ["+447700900001", "+447700900002", "+447700900003"] };
  const base = `/2010-04-01/Accounts/${accountSid}`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const authorised = req.headers.authorization === expectedAuth;
      const method = req.method ?? "GET";
      requests.push({ method, path: url.pathname, query: url.searchParams, form, authorised });

      const i = faults.findIndex((f) => !f.path || f.path.test(url.pathname));
      if (i >= 0) {
        const { fault } = faults.splice(i, 1)[0];
        if (fault.kind === "hang") {
          hanging.add(res);
          return;
        }
        if (fault.kind === "reset") {
          req.socket.destroy();
          return;
        }
        if (fault.kind === "garbage") {
          res.writeHead(fault.status ?? 200, { "Content-Type": "text/html" });
          res.end("<html><body>Bad gateway, probably</body></html>");
          return;
        }
        twilioError(res, fault.status, fault.code, fault.message ?? "Injected fault");
        return;
      }

      if (!authorised) return twilioError(res, 401, 20003, "Authenticate");
      if (!url.pathname.startsWith(base)) return twilioError(res, 404, 20404, "The requested resource was not found");
      const rest = url.pathname.slice(base.length);

      if (method === "POST" && rest === "/Messages.json") {
        const to = form.get("To") ?? "";
        // A Messaging Service sends from one of its numbers; the fake records the service id as the sender.
        const from = form.get("From") ?? form.get("MessagingServiceSid") ?? "";
        const body = form.get("Body") ?? "";
        if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
        if (!/^\+[1-9]\d{6,14}$/.test(to)) return twilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
        if (!from) return twilioError(res, 400, 21603, "A 'From' phone number is required.");
        const m: FakeMessage = {
          sid: `SM${crypto.randomBytes(16).toString("hex")}`,
          from,
          to,
          body,
          status: "queued",
          error_code: null,
          status_callback: form.get("StatusCallback"),
          date_created: new Date().toUTCString().replace("GMT", "+0000"),
        };
        messages.push(m);
        return json(res, 201, messageResource(accountSid, m));
      }

      const one = /^\/Messages\/((?:SM|MM)[0-9a-f]{32})\.json$/i.exec(rest);
      if (method === "GET" && one) {
        const m = messages.find((x) => x.sid === one[1]);
        if (!m) return twilioError(res, 404, 20404, `The requested resource ${url.pathname} was not found`);
        return json(res, 200, messageResource(accountSid, m));
      }

      if (method === "GET" && rest === "/Messages.json") {
        const to = url.searchParams.get("To");
        const from = url.searchParams.get("From");
        const list = messages.filter((m) => (!to || m.to === to) && (!from || m.from === from)).reverse();
        return json(res, 200, {
          messages: list.map((m) => messageResource(accountSid, m)),
          end: Math.max(0, list.length - 1),
          first_page_uri: `${base}/Messages.json?PageSize=50&Page=0`,
          next_page_uri: null,
          page: 0,
          page_size: 50,
          previous_page_uri: null,
          start: 0,
          uri: `${base}/Messages.json?PageSize=50&Page=0`,
        });
      }

      if (method === "GET" && rest === "/AvailablePhoneNumbers/GB/Mobile.json") {
        return json(res, 200, {
          available_phone_numbers: state.availableNumbers.map((n) => ({
            friendly_name: n.replace("+44", "0"),
            phone_number: n,
            iso_country: "GB",
            address_requirements: "any",
            beta: false,
            capabilities: { voice: true, SMS: true, MMS: false },
          })),
          uri: `${base}/AvailablePhoneNumbers/GB/Mobile.json`,
        });
      }

      if (method === "POST" && rest === "/IncomingPhoneNumbers.json") {
        const phone = form.get("PhoneNumber") ?? "";
        if (!state.availableNumbers.includes(phone)) return twilioError(res, 400, 21422, "PhoneNumber requested is not available");
        state.availableNumbers = state.availableNumbers.filter((n) => n !== phone);
        const bought = { sid: `PN${crypto.randomBytes(16).toString("hex")}`, phone_number: phone, sms_url: form.get("SmsUrl"), friendly_name: form.get("FriendlyName") };
        purchased.push(bought);
        return json(res, 201, { account_sid: accountSid, ...bought, sms_method: form.get("SmsMethod") ?? "POST", capabilities: { sms: true } });
      }

      twilioError(res, 404, 20404, "The requested resource was not found");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messages,
    purchased,
    get availableNumbers() {
      return state.availableNumbers;
    },
    set availableNumbers(list: string[]) {
      state.availableNumbers = list;
    },
    fail(fault, times = 1, path) {
      for (let i = 0; i < times; i++) faults.push({ fault, path });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
