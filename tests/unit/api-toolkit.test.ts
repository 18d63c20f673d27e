// The /api/ toolkit on its own: JSON bodies and queries checked with zod, the error envelope for every
// kind of failure, 405 for methods a route does not serve, and no stack traces in answers.
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { apiError, apiHandler, badRequest, MAX_JSON_BYTES, parseJsonBody, parseQuery, type ApiArgs } from "~/lib/api.server";
import { AppError } from "~/lib/errors";

const schema = z.object({ name: z.string().max(5), count: z.number().int() });

function jsonRequest(body: BodyInit | null, type = "application/json"): Request {
  return new Request("http://test/api/x", { method: "POST", body, headers: type ? { "Content-Type": type } : {} });
}

async function caught(promise: Promise<unknown> | (() => unknown)): Promise<Response> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
  throw new Error("expected a Response to be thrown");
}

function args(method: string, url = "http://test/api/x"): ApiArgs {
  return { request: new Request(url, { method }), context: {} as ApiArgs["context"], params: {} };
}

describe("parseJsonBody", () => {
  it("returns the parsed, validated body", async () => {
    expect(await parseJsonBody(jsonRequest(JSON.stringify({ name: "ab", count: 2, extra: true })), schema)).toEqual({ name: "ab", count: 2 });
    expect(await parseJsonBody(jsonRequest(JSON.stringify({ name: "ab", count: 2 }), "application/json; charset=utf-8"), schema)).toEqual({ name: "ab", count: 2 });
  });

  it("names each wrong field in errorStatuses", async () => {
    const res = await caught(parseJsonBody(jsonRequest(JSON.stringify({ name: "toolong", count: "2" })), schema));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      responseCode: "BR025",
      data: null,
      errorStatuses: [
        { responseCode: "BR025", data: { field: "name" } },
        { responseCode: "BR025", data: { field: "count" } },
      ],
    });
  });

  it.each([
    ["malformed JSON", jsonRequest("{\"name\":")],
    ["an empty body", jsonRequest(null)],
    ["bytes that are not UTF-8", jsonRequest(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))],
    ["a form content type", jsonRequest("name=a&count=1", "application/x-www-form-urlencoded")],
    ["no content type", jsonRequest(JSON.stringify({ name: "a", count: 1 }), "")],
    ["a body over 64 kB", jsonRequest(JSON.stringify({ name: "a", count: 1, pad: "x".repeat(MAX_JSON_BYTES) }))],
    ["a JSON array", jsonRequest("[1,2,3]")],
    ["JSON null", jsonRequest("null")],
  ])("refuses %s with 400 BR025", async (_label, request) => {
    const res = await caught(parseJsonBody(request, schema));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.responseCode).toBe("BR025");
    expect(body.errorStatuses.every((s: { responseCode: string }) => s.responseCode === "BR025")).toBe(true);
  });

  it("accepts a body of exactly 64 kB", async () => {
    const pad = "x".repeat(MAX_JSON_BYTES - JSON.stringify({ pad: "" }).length);
    const loose = z.object({ pad: z.string() });
    const body = JSON.stringify({ pad });
    expect(new TextEncoder().encode(body).byteLength).toBe(MAX_JSON_BYTES);
    expect((await parseJsonBody(jsonRequest(body), loose)).pad.length).toBe(pad.length);
  });
});

describe("parseQuery", () => {
  const q = z.object({ type: z.enum(["A", "B"]), limit: z.string().regex(/^\d+$/).transform(Number).optional() });

  it("returns validated query values", () => {
    expect(parseQuery(new Request("http://test/api/x?type=A&limit=4"), q)).toEqual({ type: "A", limit: 4 });
  });

  it("refuses repeated, missing and malformed parameters, naming them", async () => {
    for (const [url, field] of [
      ["http://test/api/x?type=A&type=B", "type"],
      ["http://test/api/x", "type"],
      ["http://test/api/x?type=A&limit=-1", "limit"],
    ]) {
      const res = await caught(() => parseQuery(new Request(url), q));
      expect(res.status).toBe(400);
      expect((await res.json()).errorStatuses).toEqual([{ responseCode: "BR025", data: { field } }]);
    }
  });
});

describe("apiError and badRequest", () => {
  it("build the §8 envelope with the code's own status", async () => {
    const res = apiError("UA003", { attemptsLeft: 2 });
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ responseCode: "UA003", data: { attemptsLeft: 2 }, errorStatuses: [{ responseCode: "UA003", data: { attemptsLeft: 2 } }] });
    expect(apiError("NF001").status).toBe(404);
    expect(apiError("BR025", null, 405).status).toBe(405);
    expect(await badRequest(["a", "a", "b"]).json()).toEqual({
      responseCode: "BR025",
      data: null,
      errorStatuses: [
        { responseCode: "BR025", data: { field: "a" } },
        { responseCode: "BR025", data: { field: "b" } },
      ],
    });
  });
});

describe("apiHandler", () => {
  it("sends plain values as JSON, null as 204 and Responses as they are", async () => {
    const h = apiHandler({ GET: () => ({ total: 3 }), POST: () => null, DELETE: () => new Response("x", { status: 202 }) });
    const got = await h(args("GET"));
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ total: 3 });
    expect((await h(args("HEAD"))).status).toBe(200);
    expect((await h(args("POST"))).status).toBe(204);
    expect((await h(args("DELETE"))).status).toBe(202);
  });

  it("answers other methods with 405 and Allow", async () => {
    const h = apiHandler({ POST: () => null });
    const res = await h(args("GET"));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect((await res.json()).responseCode).toBe("BR025");
    const bare = apiHandler(() => ({ ok: true }));
    expect((await bare(args("PUT"))).headers.get("allow")).toBe("GET, HEAD");
  });

  it("turns an AppError into its envelope, with the field when there is one", async () => {
    const res = await apiHandler(() => {
      throw new AppError("BR012", { needed: 4, remaining: 1 }, { field: "messageText" });
    })(args("GET"));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      responseCode: "BR012",
      data: { needed: 4, remaining: 1 },
      errorStatuses: [{ responseCode: "BR012", data: { needed: 4, remaining: 1, field: "messageText" } }],
    });
    const locked = await apiHandler(() => {
      throw new AppError("UA004", { minutes: 15 });
    })(args("GET"));
    expect(locked.status).toBe(403);
  });

  it("answers an unexpected error with 500 SE001 and logs it, never exposing the message or stack", async () => {
    const log = vi.mocked(console.error);
    log.mockImplementationOnce(() => undefined);
    const res = await apiHandler(() => {
      throw new Error("secret database detail");
    })(args("GET"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ responseCode: "SE001", data: null, errorStatuses: [{ responseCode: "SE001" }] });
    expect(text).not.toContain("secret");
    expect(log).toHaveBeenCalledWith("[api] unexpected error:", expect.any(Error));
  });
});
