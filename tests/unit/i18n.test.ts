import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "~/lib/errors";

type Tree = { [k: string]: string | Tree };

function load(lng: string): Tree {
  const dir = path.resolve("app/locales", lng);
  const tree: Tree = {};
  for (const f of fs.readdirSync(dir)) if (f.endsWith(".json")) tree[f.replace(/\.json$/, "")] = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
  return tree;
}

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("translations", () => {
  const en = flatten(load("en-GB"));
  const fr = flatten(load("fr"));

  // Plural forms differ by language (French has "many"), so compare keys without their plural suffix.
  const base = (k: string) => k.replace(/_(zero|one|two|few|many|other)$/, "");
  const frBase = new Set([...fr.keys()].map(base));
  const enBase = new Set([...en.keys()].map(base));

  it("French has every English key and no extra ones", () => {
    const missing = [...enBase].filter((k) => !frBase.has(k));
    const extra = [...frBase].filter((k) => !enBase.has(k));
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
  });

  it("no text is empty and placeholders match between languages", () => {
    for (const [k, v] of en) {
      expect(v.trim(), k).not.toBe("");
      const other = fr.get(k) ?? fr.get(`${base(k)}_other`) ?? "";
      expect(placeholders(other), k).toEqual(placeholders(v));
    }
  });

  it("every §8 code has its own message, plus the generic and unknown fallbacks", () => {
    for (const code of ERROR_CODES) {
      expect(en.get(`errors.${code}`), code).toBeTruthy();
      expect(fr.get(`errors.${code}`), code).toBeTruthy();
    }
    expect(en.get("errors.generic")).toMatch(/try again/i);
    expect(en.get("errors.unknown")).toBeTruthy();
  });

  it("uses British spelling in the English texts", () => {
    const american = /\b(color|center|organization|authorize|canceled|favorite|license|analyze)\b/i;
    for (const [k, v] of en) expect(american.test(v), `${k}: ${v}`).toBe(false);
  });
});
