// Route helper: a domain "not found" (AppError with status 404, e.g. another business's id) is the
// plain 404 page; any other error passes through untouched.
import { data } from "react-router";
import { AppError } from "./errors";

export async function orNotFound<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof AppError && e.status === 404) throw data(null, { status: 404 });
    throw e;
  }
}
