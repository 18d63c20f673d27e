// CSRF protection for every state-changing form post: a random token in an HttpOnly cookie, echoed
// in a hidden field that <AppForm> adds; a post whose field does not match is refused (403).
// JSON API routes, webhooks and the simulator's JSON are exempt: they are not form posts from pages
// (API clients use bearer tokens; cookies are SameSite=Lax so no other site can post with them).
import { createContext, data, type MiddlewareFunction } from "react-router";
import { randomToken, safeEqual } from "./crypto.server";
import { readCookie } from "./cookies.server";

export const CSRF_FIELD = "_csrf";
const COOKIE = "tc_csrf";
export const csrfContext = createContext<string>("");

const EXEMPT = [/^\/api(\/|$)/, /^\/webhooks\//, /^\/simulator\/api\//];
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function csrfMiddleware(secure: () => boolean): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    const url = new URL(request.url);
    let token = readCookie(request, COOKIE);
    const fresh = !token || !/^[A-Za-z0-9_-]{32,64}$/.test(token);
    if (fresh) token = randomToken(24);
    context.set(csrfContext, token!);

    if (UNSAFE.has(request.method) && !EXEMPT.some((re) => re.test(url.pathname))) {
      let field: FormDataEntryValue | null = null;
      const type = request.headers.get("Content-Type") ?? "";
      if (type.includes("form")) {
        try {
          field = (await request.clone().formData()).get(CSRF_FIELD);
        } catch {
          field = null;
        }
      }
      if (fresh || typeof field !== "string" || !safeEqual(field, token!)) {
        // Shown by the error boundary as "this form has expired, please try again".
        throw data({ code: "CSRF" }, { status: 403 });
      }
    }

    const response = await next();
    if (fresh) {
      response.headers.append(
        "Set-Cookie",
        `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${secure() ? "; Secure" : ""}; Max-Age=${60 * 60 * 24 * 30}`,
      );
    }
    return response;
  };
}
