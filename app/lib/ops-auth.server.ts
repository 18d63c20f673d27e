// Authentication for the operator console (/ops). Operators have their own cookie (tc_ops) and their own
// sessions table; a business's session grants nothing here, and only the console reads tc_ops (its path is /
// because the console's own data requests, such as /ops.data for its index, fall outside a /ops path). A
// request under /ops:
//   - with an operator's session: goes on (to the password page first while the one-time password is
//     unchanged);
//   - with a business user's session and no operator's: 404, as if the console did not exist;
//   - with neither: the console's sign-in page.
// A session opened through admin access (an operator looking at a customer's account) counts as neither,
// so an operator using both in one browser can still sign in to the console.
import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { getDeps } from "./context.server";
import { readCookie } from "./cookies.server";
import { getSessionUser } from "./auth.server";
import { createOperatorSession, deleteOperatorSession, findOperatorSession, type Operator } from "~/domain/ops/operators.server";

export const OPS_COOKIE = "tc_ops";
export const operatorContext = createContext<Operator | null>(null);

/** Pages of the console that need no operator session. */
const OPEN_PATHS = ["/ops/login"];
/** Pages an operator who still has the one-time password may use. */
const PASSWORD_PATHS = ["/ops/password", "/ops/logout"];

function cookie(token: string, maxAge: number, secure: boolean): string {
  return `${OPS_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}; Max-Age=${maxAge}`;
}

export async function getOperator(request: Request, context: Readonly<RouterContextProvider>): Promise<Operator | null> {
  const token = readCookie(request, OPS_COOKIE);
  if (!token) return null;
  const { db, now } = getDeps(context);
  return findOperatorSession(db, token, now());
}

/** Starts an operator session (a new one at every sign-in); returns the Set-Cookie header. */
export async function startOperatorSession(context: Readonly<RouterContextProvider>, request: Request, operatorId: number): Promise<string> {
  const { db, now, config } = getDeps(context);
  const old = readCookie(request, OPS_COOKIE);
  if (old) await deleteOperatorSession(db, old);
  const { token, expiresAt } = await createOperatorSession(db, operatorId, now());
  return cookie(token, Math.floor((expiresAt.getTime() - now().getTime()) / 1000), config.production);
}

export async function endOperatorSession(context: Readonly<RouterContextProvider>, request: Request): Promise<string> {
  const { db, config } = getDeps(context);
  const token = readCookie(request, OPS_COOKIE);
  if (token) await deleteOperatorSession(db, token);
  return cookie("", 0, config.production);
}

export const opsMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const url = new URL(request.url);
  const operator = await getOperator(request, context);
  if (!operator) {
    const user = await getSessionUser(request, context);
    if (user && !user.adminAccess) throw data({ code: "NF001" }, { status: 404 });
    if (!OPEN_PATHS.includes(url.pathname)) {
      const back = url.pathname === "/ops" ? "" : `?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
      throw redirect(`/ops/login${back}`);
    }
  } else if (operator.mustChangePassword && !PASSWORD_PATHS.includes(url.pathname)) {
    throw redirect("/ops/password");
  }
  context.set(operatorContext, operator);
  return next();
};

export function requireOperator(context: Readonly<RouterContextProvider>): Operator {
  const operator = context.get(operatorContext);
  if (!operator) throw redirect("/ops/login");
  return operator;
}

/** A console page's redirect target from ?redirectTo=, only ever a console path. */
export function opsRedirectTarget(value: string | null | undefined): string {
  return value && /^\/ops(\/[A-Za-z0-9/_?=&%.-]*)?$/.test(value) && !value.startsWith("//") ? value : "/ops";
}
