// The "Get my number" form of onboarding: posts to /welcome, shows a form-level error
// (BR007) from the server, and is disabled while the request runs so it is not sent twice.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { useActionData, useNavigation } from "react-router";
import { AppForm, FormErrors } from "~/components/form";
import { Button } from "~/components/ui";

export function RequestNumberForm({ label, action }: { label: string; action?: string }) {
  const { t } = useTranslation();
  const actionData = useActionData() as { result?: SubmissionResult<string[]> } | undefined;
  const navigation = useNavigation();
  const [form] = useForm({ lastResult: actionData?.result });
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} action={action} className="form">
        <Button className="btn--block" disabled={busy} aria-disabled={busy || undefined}>
          {busy ? t("onboarding.welcome.requesting") : label}
        </Button>
      </AppForm>
    </>
  );
}

/** The form's server errors alone (BR007 once the number exists, when the form itself is gone). */
export function RequestNumberFormErrors() {
  const actionData = useActionData() as { result?: SubmissionResult<string[]> } | undefined;
  const [form] = useForm({ lastResult: actionData?.result });
  return <FormErrors errors={form.errors} id={form.errorId} />;
}
