// The demo seed as the app runs it: with the app's password hashing and current terms version.
import type { SeedApp } from "#db/seed";
import { hashPassword } from "~/lib/crypto.server";
import { TERMS_VERSION } from "~/lib/config.server";

export const SEED_APP: SeedApp = { hashPassword, termsVersion: TERMS_VERSION };
