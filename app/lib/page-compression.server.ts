// Pages are compressed where they are made, in one call, rather than by the compression middleware's
// stream: a page is complete before it is sent (entry.server.tsx), and a zlib stream (its set-up, a
// hop through the thread pool for each piece, the stream's own events) cost about twice the CPU of
// compressing the same bytes at once. The choices are the middleware's, so a page is sent as before:
// Brotli (quality 4) when the browser takes it, else gzip (level 3, smaller state: see server.js) or
// deflate; nothing under 1 kB, nothing the client did not ask for, nothing marked no-transform. The
// middleware then leaves the page alone (it never encodes an answer that already has an encoding).
import zlib from "node:zlib";
import Negotiator from "negotiator";

const SUPPORTED = ["br", "gzip", "deflate", "identity"];
const PREFERRED = ["br", "gzip"];
/** The compression middleware's default threshold. */
const THRESHOLD = 1024;
const GZIP: zlib.ZlibOptions = { level: 3, memLevel: 6 };
const BROTLI: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

export interface CompressedPage {
  body: Buffer<ArrayBuffer>;
  /** The Content-Encoding to send, or null when the body is sent as it is. */
  encoding: "br" | "gzip" | "deflate" | null;
}

export function compressPage(body: Buffer<ArrayBuffer>, acceptEncoding: string | null, cacheControl: string | null, method: string): CompressedPage {
  if (!acceptEncoding || method === "HEAD" || body.length < THRESHOLD || (cacheControl && /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl))) {
    return { body, encoding: null };
  }
  // The second argument (the server's preference among equally acceptable encodings) is in negotiator
  // 0.6.4 and what the compression middleware passes; its type declarations predate it.
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }) as unknown as { encoding(available: string[], preferred: string[]): string | undefined };
  const chosen = negotiator.encoding(SUPPORTED, PREFERRED);
  switch (chosen) {
    case "br":
      return { body: zlib.brotliCompressSync(body, BROTLI) as Buffer<ArrayBuffer>, encoding: "br" };
    case "gzip":
      return { body: zlib.gzipSync(body, GZIP) as Buffer<ArrayBuffer>, encoding: "gzip" };
    case "deflate":
      return { body: zlib.deflateSync(body, GZIP) as Buffer<ArrayBuffer>, encoding: "deflate" };
    default:
      return { body, encoding: null };
  }
}
