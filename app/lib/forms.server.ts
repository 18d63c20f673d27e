// Helpers for actions: turning a domain AppError into a conform reply that the form shows.
import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { AppError, errorKey } from "./errors";

interface Replyable {
  reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[]; resetForm?: boolean }): SubmissionResult<string[]>;
}

/** An error as a form message; placeholder data travels as "key|{json}" (see translateError). */
export function errorMessage(error: AppError): string {
  const key = errorKey(error.code);
  return error.data ? `${key}|${JSON.stringify(error.data)}` : key;
}

export function replyWithError(submission: Replyable, error: unknown, hideFields?: string[]) {
  if (!(error instanceof AppError)) throw error;
  const message = errorMessage(error);
  const result = error.field
    ? submission.reply({ fieldErrors: { [error.field]: [message] }, hideFields })
    : submission.reply({ formErrors: [message], hideFields });
  return data({ result }, { status: error.status });
}

/** A text field of a posted form; `fallback` when it is missing or is a file. */
export function formText(form: FormData, name: string, fallback = ""): string {
  const value = form.get(name);
  return typeof value === "string" ? value : fallback;
}

export function clientIp(request: Request): string {
  return request.headers.get("X-Client-Ip") ?? "unknown";
}
