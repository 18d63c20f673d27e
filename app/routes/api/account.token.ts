// POST /api/account/token {email, password} -> {accessToken, expiresAt}: a bearer token for API
// clients, under the same lockout rules as the login form (UA003/UA004/UA005) and a per-address
// rate limit (429). DELETE revokes the token (or cookie session) the request was made with.
import { z } from "zod";
import { apiError, apiHandler, apiJson, apiNoContent, parseJsonBody, requireApiUser } from "~/lib/api.server";
import { clearSessionCookieHeader, requestToken } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { clientIp } from "~/lib/forms.server";
import { createSession, deleteSession } from "~/domain/accounts/sessions.server";
import { verifyLogin } from "~/domain/accounts/users.server";
import { withinRateLimit } from "~/domain/ratelimit.server";

/** Token requests allowed per client address in each window (shared with nothing else). */
export const TOKEN_RATE_LIMIT = 30;
export const TOKEN_RATE_WINDOW_SECONDS = 300;

const schema = z.object({
  email: z.string().trim().min(3).max(254).email(),
  password: z.string().min(1).max(200),
});

const handler = apiHandler({
  POST: async ({ request, context }) => {
    const { db, config, now } = getDeps(context);
    if (!(await withinRateLimit(db, `apitoken:ip:${clientIp(request)}`, TOKEN_RATE_LIMIT, TOKEN_RATE_WINDOW_SECONDS, now()))) {
      return apiError("UA004", null, 429, { headers: { "Retry-After": String(TOKEN_RATE_WINDOW_SECONDS) } });
    }
    const body = await parseJsonBody(request, schema);
    const userId = await verifyLogin(db, body.email, body.password, { maxFailures: config.loginMaxFailures, lockoutMinutes: config.lockoutMinutes }, now());
    const { token, expiresAt } = await createSession(db, userId, "API", now());
    return apiJson({ accessToken: token, expiresAt: expiresAt.toISOString() });
  },
  DELETE: async ({ request, context }) => {
    await requireApiUser(request, context);
    const { db, config } = getDeps(context);
    const token = requestToken(request);
    if (token) await deleteSession(db, token);
    // When the cookie was the credential, the browser's copy goes too.
    return request.headers.has("Authorization") ? apiNoContent() : apiNoContent({ "Set-Cookie": clearSessionCookieHeader(config.production) });
  },
});

export const loader = handler;
export const action = handler;
