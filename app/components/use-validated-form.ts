// One conform setup for every form: the same zod schema validates in the browser and on the server.
// Errors appear when the form is submitted, then update as the user types. (Validating on blur made
// an error line appear under the field as the user reached for the submit button; the button moved
// and the click was lost.)
import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

export function useValidatedForm<S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  schema: S,
  lastResult: SubmissionResult<string[]> | null | undefined,
  options: { id?: string; defaultValue?: Partial<z.input<S>> } = {},
) {
  return useForm<z.input<S> & Record<string, unknown>, z.output<S>>({
    id: options.id,
    defaultValue: options.defaultValue as never,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
}
