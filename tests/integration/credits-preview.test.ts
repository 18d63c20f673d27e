import { describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { useTestApp, type TestClient } from "../support/server";

describe("POST /api/messages/preview", () => {
  const t = useTestApp();

  async function signedIn(): Promise<TestClient> {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    await client.login(account.email, account.password);
    return client;
  }
  const preview = (client: TestClient, payload: unknown) => client.json("/api/messages/preview", "POST", payload);

  it("needs a signed-in user (401 UA002 with nothing sent)", async () => {
    const res = await preview(t.app.client(), { messageText: "Hello" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ responseCode: "UA002" });
  });

  it("answers encoding, segments, characters and the characters that forced UCS-2", async () => {
    const client = await signedIn();
    const cases: [string, unknown][] = [
      ["Hello {name}, see you at 9!", { encoding: "GSM-7", segments: 1, characters: 27, nonGsmCharacters: [] }],
      ["a".repeat(161), { encoding: "GSM-7", segments: 2, characters: 161, nonGsmCharacters: [] }],
      ["€".repeat(81), { encoding: "GSM-7", segments: 2, characters: 81, nonGsmCharacters: [] }],
      ["It’s “open” 🇬🇧", { encoding: "UCS-2", segments: 1, characters: 13, nonGsmCharacters: ["’", "“", "”", "🇬🇧"] }],
      ["a".repeat(66) + "😀" + "a".repeat(66), { encoding: "UCS-2", segments: 3, characters: 133, nonGsmCharacters: ["😀"] }],
      ["", { encoding: "GSM-7", segments: 0, characters: 0, nonGsmCharacters: [] }],
    ];
    for (const [messageText, expected] of cases) {
      const res = await preview(client, { messageText });
      expect(res.status, messageText).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json(), messageText).toEqual(expected);
    }
  });

  it("accepts 1,600 characters and refuses 1,601 with a 400 BR025 envelope", async () => {
    const client = await signedIn();
    const ok = await preview(client, { messageText: "a".repeat(1600) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ segments: 11, characters: 1600 });
    // 1,600 emoji are 3,200 code units but 1,600 characters: still accepted.
    expect((await preview(client, { messageText: "😀".repeat(1600) })).status).toBe(200);
    const tooLong = await preview(client, { messageText: "a".repeat(1601) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({ responseCode: "BR025", data: null, errorStatuses: [{ responseCode: "BR025", data: { field: "messageText" } }] });
  });

  it("refuses bad bodies with 400 BR025, never a 500", async () => {
    const client = await signedIn();
    for (const payload of [{}, { messageText: 42 }, { messageText: null }, "not json", "[1,2]", { messageText: "x".repeat(70_000) }]) {
      const res = await preview(client, payload);
      expect(res.status, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect((await res.json()).responseCode).toBe("BR025");
    }
    const get = await client.get("/api/messages/preview");
    expect(get.status).toBe(405);
    expect(t.app.serverErrors).not.toMatch(/unexpected error/);
  });
});
