import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressPage } from "~/lib/page-compression.server";

const page = Buffer.from(`<!DOCTYPE html><html><body>${"<p>Hello, community</p>".repeat(200)}</body></html>`);

describe("page compression", () => {
  it("chooses as the compression middleware does: Brotli when the browser takes it, else gzip, else deflate", () => {
    const br = compressPage(page, "gzip, deflate, br, zstd", null, "GET");
    expect(br.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).equals(page)).toBe(true);
    const gzip = compressPage(page, "gzip", "private, no-store", "GET");
    expect(gzip.encoding).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).equals(page)).toBe(true);
    expect(gzip.body.length).toBeLessThan(page.length / 10);
    const deflate = compressPage(page, "deflate", null, "GET");
    expect(deflate.encoding).toBe("deflate");
    expect(zlib.inflateSync(deflate.body).equals(page)).toBe(true);
  });

  it("sends the page as it is when the client asks for no encoding we have, refuses one, or the page must not be transformed", () => {
    for (const [accept, cacheControl, method] of [
      [null, null, "GET"],
      ["identity", null, "GET"],
      ["gzip;q=0, br;q=0", null, "GET"],
      ["zstd", null, "GET"],
      ["gzip", "no-transform", "GET"],
      ["gzip", "private, no-transform", "GET"],
      ["gzip", null, "HEAD"],
    ] as const) {
      const out = compressPage(page, accept, cacheControl, method);
      expect(out.encoding, `${accept} ${cacheControl} ${method}`).toBeNull();
      expect(out.body).toBe(page);
    }
  });

  it("leaves a body under 1 kB alone", () => {
    const small = Buffer.from("<p>short</p>");
    expect(compressPage(small, "gzip", null, "GET")).toEqual({ body: small, encoding: null });
  });
});
