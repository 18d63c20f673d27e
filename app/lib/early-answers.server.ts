// Answers the Express app gives before React Router, for requests no route can take: a method the
// router does not handle, or a path holding control characters. Pages get a small translated HTML
// page, JSON paths the error envelope; never a 500.
import { readCookieHeader } from "./cookies.server";
import { DEFAULT_LOCALE, isLocale, SUPPORTED_LOCALES, type Locale } from "./i18n";
import { resources } from "./i18n-resources.server";

/** The methods React Router's handlers serve; anything else is answered 405 before it gets there. */
export const ROUTER_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);
/** What a page answers. */
export const PAGE_METHODS = "GET, HEAD, POST";
/** What the JSON paths may answer (each /api/ route narrows this in its own 405). */
export const JSON_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";

const JSON_PATHS = /^\/(api|simulator\/api)(\/|$)/;
const WEBHOOK_PATHS = /^\/webhooks(\/|$)/;
const CONTROL = /[\u0000-\u001F\u007F]/;

/** The JSON and webhook paths: their route modules answer PUT, PATCH and DELETE themselves (405 with Allow). */
export function isMachinePath(path: string): boolean {
  return kindOf(path) !== "page";
}

type Kind = "json" | "webhook" | "page";

function kindOf(path: string): Kind {
  return JSON_PATHS.test(path) ? "json" : WEBHOOK_PATHS.test(path) ? "webhook" : "page";
}

/** True when the raw path, or the path once decoded, holds a control character, or cannot be decoded. */
export function hasBadPath(rawPath: string): boolean {
  if (CONTROL.test(rawPath)) return true;
  try {
    return CONTROL.test(decodeURIComponent(rawPath));
  } catch {
    return true;
  }
}

/** The visitor's language for a page answered without the router: ?lng=, the lng cookie, then Accept-Language. */
export function pickLocale(query: string | null, cookieHeader: string | undefined, acceptLanguage: string | undefined): Locale {
  if (isLocale(query)) return query;
  const fromCookie = readCookieHeader(cookieHeader ?? "", "lng");
  if (fromCookie) {
    // React Router's cookies hold a base64 JSON value; tolerate a plain one too.
    for (const candidate of [fromCookie, decodeCookieValue(fromCookie)]) if (isLocale(candidate)) return candidate;
  }
  for (const part of (acceptLanguage ?? "").split(",")) {
    const tag = part.split(";")[0].trim().toLowerCase();
    const match = SUPPORTED_LOCALES.find((l) => l.toLowerCase() === tag || l.toLowerCase().split("-")[0] === tag.split("-")[0]);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}

function decodeCookieValue(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  } catch {
    return null;
  }
}

function translate(lng: Locale, key: string): string {
  const walk = (root: unknown) => key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), root);
  const value = walk(resources[lng]) ?? walk(resources[DEFAULT_LOCALE]);
  return typeof value === "string" ? value : key;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function page(lng: Locale, status: number, titleKey: string, bodyKey: string, headers: Record<string, string> = {}): EarlyAnswer {
  const title = escapeHtml(translate(lng, titleKey));
  const body = escapeHtml(translate(lng, bodyKey));
  const home = escapeHtml(translate(lng, "common.goHome"));
  return {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...headers },
    body: `<!DOCTYPE html><html lang="${lng}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Textcircle</title></head><body><main id="main"><h1>${title}</h1><p>${body}</p><p><a href="/">${home}</a></p></main></body></html>`,
  };
}

function json(status: number, code: string, headers: Record<string, string> = {}): EarlyAnswer {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
    body: JSON.stringify({ responseCode: code, data: null, errorStatuses: [{ responseCode: code }] }),
  };
}

function text(status: number, body: string, headers: Record<string, string> = {}): EarlyAnswer {
  return { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers }, body };
}

/** 404 for a path no route can match. */
export function notFoundAnswer(path: string, lng: Locale): EarlyAnswer {
  const kind = kindOf(path);
  if (kind === "json") return json(404, "NF001");
  if (kind === "webhook") return text(404, "Not found");
  return page(lng, 404, "notFound.title", "notFound.body");
}

/** 405 with an Allow header for a method the app does not serve. */
export function methodNotAllowedAnswer(path: string, lng: Locale): EarlyAnswer {
  const kind = kindOf(path);
  if (kind === "json") return json(405, "BR025", { Allow: JSON_METHODS });
  // Provider webhooks only take POST.
  if (kind === "webhook") return text(405, "Method not allowed", { Allow: "POST" });
  return page(lng, 405, "errors.methodNotAllowedTitle", "errors.methodNotAllowed", { Allow: PAGE_METHODS });
}
