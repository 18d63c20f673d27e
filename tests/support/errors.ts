import { AppError } from "~/lib/errors";

/** The AppError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function appError(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected an AppError");
}
