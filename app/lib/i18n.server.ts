import { createInstance, type i18n as I18n } from "i18next";
import { createContext, createCookie, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { LanguageDetector } from "remix-i18next/server";
import { i18nOptions, SUPPORTED_LOCALES, DEFAULT_LOCALE, type Locale } from "./i18n";
import { resources } from "./i18n-resources.server";

export const localeCookie = createCookie("lng", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 365 * 86400 });

// The language is chosen as remix-i18next's middleware chooses it (?lng=, then the cookie, then
// Accept-Language; en-GB by default). Unlike that middleware, which builds and initialises a new i18next
// instance (every resource, plural rules, formatters) for each request, one instance per language is
// made on first use and shared: nothing on the server changes an instance's language or resources.
const detector = new LanguageDetector({
  supportedLanguages: [...SUPPORTED_LOCALES],
  fallbackLanguage: DEFAULT_LOCALE,
  cookie: localeCookie,
  order: ["searchParams", "cookie", "header"],
});

const instances = new Map<string, Promise<I18n>>();

function instanceFor(lng: string): Promise<I18n> {
  let made = instances.get(lng);
  if (!made) {
    const instance = createInstance({
      ...i18nOptions,
      supportedLngs: [...SUPPORTED_LOCALES],
      resources: Object.fromEntries(Object.entries(resources).map(([l, r]) => [l, { translation: r }])),
      lng,
    });
    // Handed out as an object whose prototype is the instance, with no properties of its own: React
    // i18next copies every own property of the instance it is given (about forty) for each component that
    // calls useTranslation, and on the server every render is a first render. Reads reach the instance,
    // whose methods are bound to it.
    made = instance.init().then(() => Object.create(withRememberedTranslations(instance)) as I18n);
    instances.set(lng, made);
  }
  return made;
}

/** Remembered translations per instance are capped so keys made from input cannot grow them without limit. */
const MAX_REMEMBERED = 5000;

type FixedT = (key: unknown, opts?: unknown, ...rest: unknown[]) => unknown;

/**
 * A map key for a translation with options whose values are all strings, numbers or booleans (each with its
 * type: a count of 3 and a name "3" translate differently); null when any value is something else.
 */
function optionsKey(key: string, opts: object): string | null {
  let out = `${key}\u0000`;
  for (const [name, value] of Object.entries(opts)) {
    const type = typeof value;
    if (type !== "string" && type !== "number" && type !== "boolean") return null;
    out += `${name}\u0001${type[0]}${String(value)}\u0002`;
  }
  return out;
}

/**
 * The instance behind an object whose `getFixedT` (which React i18next calls for every component that
 * translates) gives a cheaper `t`. On the server a language's resources never change, so a key asked
 * for without options always gives the same text: it is remembered after the first time. A key with
 * options (interpolation, plurals) goes to the instance's own `t` with the language and namespace set,
 * as i18next's fixed `t` does, without copying all of i18next's options for each call. Anything else
 * (a key prefix, a selector function, several keys) takes i18next's own fixed `t`.
 */
function withRememberedTranslations(instance: I18n): I18n {
  const byNamespace = new Map<string, Map<string, string>>();
  const front = Object.create(instance) as I18n;
  const getFixedT = ((lng: unknown, ns: unknown, keyPrefix: unknown, fixedOpts: unknown) => {
    const own = (instance.getFixedT as unknown as (...a: unknown[]) => FixedT)(lng, ns, keyPrefix, fixedOpts);
    if (keyPrefix || typeof lng !== "string" || lng !== instance.language) return own;
    const nsKey = String(ns);
    let remembered = byNamespace.get(nsKey);
    if (!remembered) byNamespace.set(nsKey, (remembered = new Map<string, string>()));
    const known = remembered;
    const t: FixedT & { lng?: string; ns?: unknown; keyPrefix?: unknown } = (key, opts, ...rest) => {
      if (typeof key !== "string" || rest.length > 0) return own(key, opts, ...rest);
      if (opts === undefined) {
        let text = known.get(key);
        if (text === undefined) {
          const made = own(key);
          if (typeof made !== "string") return made;
          if (known.size >= MAX_REMEMBERED) known.clear();
          known.set(key, (text = made));
        }
        return text;
      }
      if (typeof opts === "object" && opts !== null && (opts as { keyPrefix?: unknown }).keyPrefix === undefined) {
        // The same key with the same plain values (a count, a name) gives the same text too.
        const memo = optionsKey(key, opts);
        let text = memo === null ? undefined : known.get(memo);
        if (text === undefined) {
          const o = opts as { lng?: unknown; ns?: unknown };
          const made = instance.t(key, { ...opts, lng: o.lng || lng, ns: o.ns || ns } as never) as unknown;
          if (memo === null || typeof made !== "string") return made;
          if (known.size >= MAX_REMEMBERED) known.clear();
          known.set(memo, (text = made));
        }
        return text;
      }
      return own(key, opts);
    };
    t.lng = lng;
    t.ns = ns;
    t.keyPrefix = keyPrefix;
    return t;
  }) as unknown as I18n["getFixedT"];
  Object.defineProperty(front, "getFixedT", { value: getFixedT, enumerable: false });
  return front;
}

const localeContext = createContext<Locale>(DEFAULT_LOCALE);
const i18nContext = createContext<I18n | null>(null);

export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const lng = (await detector.detect(request)) as Locale;
  context.set(localeContext, lng);
  context.set(i18nContext, await instanceFor(lng));
  return next();
};

/** The request's language (set by the middleware). */
export function getLocale(context: Readonly<RouterContextProvider>): Locale {
  return context.get(localeContext);
}

/** The i18next instance for the request's language (set by the middleware). */
export function getI18n(context: Readonly<RouterContextProvider>): I18n {
  const instance = context.get(i18nContext);
  if (!instance) throw new Error("i18next middleware did not run for this request");
  return instance;
}
