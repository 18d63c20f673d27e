// `npm run bench:page`: what the home page (/) costs a signed-in visitor, against the production server.
// - HTML: raw bytes and gzip bytes as sent (Accept-Encoding: gzip).
// - JS: the scripts the page preloads (<link rel="modulepreload">), gzip bytes as sent, summed.
// - Cold = empty cache: HTML + every script. Warm = a repeat visit: scripts whose Cache-Control is
//   immutable with a long max-age are not asked for again (0 bytes); the HTML is always fetched again.
// Prints JSON. Not a test.
import zlib from "node:zlib";
import { machine, request, signIn, startServer } from "./bench-lib.mjs";

const IMMUTABLE_MIN_SECONDS = 30 * 86400;

function cacheable(cacheControl = "") {
  const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0);
  return /immutable/.test(cacheControl) && maxAge >= IMMUTABLE_MIN_SECONDS;
}

async function fetchAsset(base, href, headers) {
  const res = await request(base, href, { headers });
  if (res.status !== 200) throw new Error(`${href} answered ${res.status}`);
  const encoding = res.headers["content-encoding"] ?? "identity";
  const raw = encoding === "gzip" ? zlib.gunzipSync(res.body) : res.body;
  return { href, status: res.status, encoding, sentBytes: res.body.length, rawBytes: raw.length, gzipBytes: zlib.gzipSync(raw).length, cacheControl: res.headers["cache-control"] ?? "", raw };
}

const server = await startServer();
try {
  const cookie = await signIn(server.base);
  const headers = { Cookie: cookie, "Accept-Encoding": "gzip" };
  const page = await request(server.base, "/", { headers });
  if (page.status !== 200) throw new Error(`/ answered ${page.status}`);
  const htmlEncoding = page.headers["content-encoding"] ?? "identity";
  const html = htmlEncoding === "gzip" ? zlib.gunzipSync(page.body) : page.body;
  const text = html.toString("utf8");

  const preloads = [...new Set([...text.matchAll(/<link[^>]+rel="modulepreload"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])?.[1]).filter(Boolean))];
  const styles = [...new Set([...text.matchAll(/<link[^>]+rel="stylesheet"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])?.[1]).filter(Boolean))];
  const scripts = [];
  for (const href of preloads) scripts.push(await fetchAsset(server.base, href, { "Accept-Encoding": "gzip" }));
  const css = [];
  for (const href of styles) css.push(await fetchAsset(server.base, href, { "Accept-Encoding": "gzip" }));

  const sum = (list, key) => list.reduce((n, a) => n + a[key], 0);
  const warm = (list) => list.filter((a) => !cacheable(a.cacheControl)).reduce((n, a) => n + a.sentBytes, 0);
  const result = {
    benchmark: "page",
    page: "/ (signed in as the demo owner)",
    date: new Date().toISOString(),
    machine: machine(),
    html: { rawBytes: html.length, gzipBytesSent: htmlEncoding === "gzip" ? page.body.length : null, gzipBytes: zlib.gzipSync(html).length, cacheControl: page.headers["cache-control"] ?? "" },
    js: {
      files: scripts.length,
      rawBytes: sum(scripts, "rawBytes"),
      gzipBytesCold: sum(scripts, "sentBytes"),
      gzipBytesWarm: warm(scripts),
      allImmutable: scripts.every((a) => cacheable(a.cacheControl)),
      cacheControl: [...new Set(scripts.map((a) => a.cacheControl))],
      largest: [...scripts].sort((a, b) => b.sentBytes - a.sentBytes).slice(0, 5).map((a) => ({ href: a.href, gzipBytes: a.sentBytes })),
    },
    css: { files: css.length, rawBytes: sum(css, "rawBytes"), gzipBytesCold: sum(css, "sentBytes"), gzipBytesWarm: warm(css) },
  };
  result.totalGzipBytesCold = (result.html.gzipBytesSent ?? result.html.gzipBytes) + result.js.gzipBytesCold + result.css.gzipBytesCold;
  result.totalGzipBytesWarm = (result.html.gzipBytesSent ?? result.html.gzipBytes) + result.js.gzipBytesWarm + result.css.gzipBytesWarm;
  console.log(JSON.stringify(result, null, 2));
} finally {
  await server.stop();
}
