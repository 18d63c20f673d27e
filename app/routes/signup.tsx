// Sign-up step 1 "Info": business name, your name, email and UK mobile (and a referral code when
// coming from /signup-form/{referralCode}). Checks BR018/BR019/BR020, keeps a pending sign-up for an
// hour and texts a 6-digit PIN to the mobile.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, useActionData, useLoaderData } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/signup";
import { clearSignupCookieHeader, InfoForm, infoSchema, SIGNUP_COOKIE, signupCookieHeader } from "./signup.shared";
import { getSessionUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { readCookie } from "~/lib/cookies.server";
import { clientIp, replyWithError } from "~/lib/forms.server";
import { getI18n } from "~/lib/i18n.server";
import { parseUkMobile } from "~/lib/phone";
import { LIMITS, withinLimits } from "~/domain/accounts/codes.server";
import { findReferrer, findSignup, sendSignupPin, startSignup } from "~/domain/accounts/signup.server";

export const handle = { titleKey: "signup.meta.title", descriptionKey: "signup.meta.description" };

const serverSchema = infoSchema.superRefine((v, ctx) => {
  if (!parseUkMobile(v.mobile)) ctx.addIssue({ code: "custom", path: ["mobile"], message: "validation.phone" });
});

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getSessionUser(request, context)) throw redirect("/");
  const { db, config, now } = getDeps(context);
  const token = readCookie(request, SIGNUP_COOKIE);
  const signup = await findSignup(db, token, now());
  if (token && !signup) {
    // The pending sign-up expired: say so once, and forget the cookie.
    setToast(context, { type: "info", message: "signup.info.expired" });
    return data({ defaults: null, referral: null }, { headers: { "Set-Cookie": clearSignupCookieHeader(config.production) } });
  }
  const referral = signup?.referral_code ? await findReferrer(db, signup.referral_code) : null;
  return {
    defaults: signup ? { company: signup.company, name: signup.name, email: signup.email, mobile: signup.mobile.replace(/^\+44/, "0") } : null,
    referral: referral && signup?.referral_code ? { code: signup.referral_code, name: referral.name } : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, config, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema: serverSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const mobile = parseUkMobile(v.mobile)!;
  try {
    if (v.referralCode && !(await findReferrer(db, v.referralCode))) {
      return data({ result: submission.reply({ formErrors: ["errors.referralNotFound"] }) }, { status: 400 });
    }
    const ok = await withinLimits(
      db,
      [
        [`signup:ip:${clientIp(request)}`, LIMITS.signupStartIp],
        [`signup:mobile:${mobile}`, LIMITS.signupStartMobile],
      ],
      now(),
    );
    if (!ok) return data({ result: submission.reply({ formErrors: ["errors.rateLimited"] }) }, { status: 429 });
    const started = await startSignup(
      db,
      { company: v.company, name: v.name, email: v.email, mobile, referralCode: v.referralCode || null },
      readCookie(request, SIGNUP_COOKIE),
      now(),
    );
    const i18n = getI18n(context);
    await sendSignupPin(db, config.systemSender, { id: started.signupId, mobile }, config.pinMaxIssues, (code) => i18n.t("signup.sms.pin", { code }), now());
    return redirect("/signup/verify", { headers: { "Set-Cookie": signupCookieHeader(started.token, started.expiresAt, config.production) } });
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function SignupInfo() {
  const { defaults, referral } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <InfoForm lastResult={actionData?.result} defaults={defaults} referral={referral} />;
}
