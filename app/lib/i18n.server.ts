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
    made = instance.init().then(() => Object.create(instance) as I18n);
    instances.set(lng, made);
  }
  return made;
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
