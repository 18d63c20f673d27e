import { describe, expect, it } from "vitest";
import { readBodyLimited } from "~/lib/body.server";

function streamed(chunks: Uint8Array[], pulled: { count: number; cancelled: boolean }): Request {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled.count++;
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
    cancel() {
      pulled.cancelled = true;
    },
  });
  return new Request("http://x/", { method: "POST", body, duplex: "half" } as RequestInit);
}

const bytes = (n: number, v = 97) => new Uint8Array(n).fill(v);

describe("readBodyLimited", () => {
  it("joins the chunks of a body within the limit", async () => {
    const got = await readBodyLimited(streamed([bytes(3, 97), bytes(2, 98)], { count: 0, cancelled: false }), 5);
    expect(new TextDecoder().decode(got!)).toBe("aaabb");
  });

  it("answers an empty body for a request without one", async () => {
    expect((await readBodyLimited(new Request("http://x/"), 5))!.byteLength).toBe(0);
  });

  it("answers null past the limit and cancels at once without a drain allowance", async () => {
    const state = { count: 0, cancelled: false };
    expect(await readBodyLimited(streamed([bytes(4), bytes(4), bytes(4), bytes(4)], state), 5)).toBeNull();
    expect(state.cancelled).toBe(true);
    expect(state.count).toBeLessThan(4);
  });

  it("reads the rest away up to the drain allowance, then gives up", async () => {
    const drained = { count: 0, cancelled: false };
    expect(await readBodyLimited(streamed([bytes(4), bytes(4), bytes(4)], drained), 5, 1000)).toBeNull();
    expect(drained.cancelled).toBe(false); // read to the end
    const bounded = { count: 0, cancelled: false };
    expect(await readBodyLimited(streamed(Array.from({ length: 50 }, () => bytes(4)), bounded), 5, 20)).toBeNull();
    expect(bounded.cancelled).toBe(true);
    expect(bounded.count).toBeLessThan(50);
  });
});
