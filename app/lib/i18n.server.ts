import { createCookie } from "react-router";
import { createI18nextMiddleware } from "remix-i18next/middleware";
import { i18nOptions, SUPPORTED_LOCALES, DEFAULT_LOCALE } from "./i18n";
import { resources } from "./i18n-resources.server";

export const localeCookie = createCookie("lng", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 365 * 86400 });

export const [i18nextMiddleware, getLocale, getI18n] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    cookie: localeCookie,
    order: ["searchParams", "cookie", "header"],
  },
  i18next: {
    ...i18nOptions,
    supportedLngs: [...SUPPORTED_LOCALES],
    resources: Object.fromEntries(Object.entries(resources).map(([lng, r]) => [lng, { translation: r }])),
  },
});
