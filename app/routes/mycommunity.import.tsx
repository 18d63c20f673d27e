// Member import, step 1: upload a CSV (UTF-8, up to 10 MB). The next page maps its columns,
// shows the first rows and asks for the consent confirmation. Works without JavaScript.
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useSearchParams } from "react-router";
import type { Route } from "./+types/mycommunity.import";
import { AppForm } from "~/components/form";
import { Button, PageHeader, Panel } from "~/components/ui";
import { MAX_IMPORT_BYTES } from "~/domain/import/csv";
import { createImportJob } from "~/domain/import/import.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";

export const handle = { titleKey: "import.meta.title", descriptionKey: "import.meta.description" };

const KNOWN_ERRORS = new Set(["tooBig", "encoding", "malformed", "noHeader", "noRows", "tooManyRows", "tooManyColumns", "noFile"]);

export async function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data({ error: "malformed" }, { status: 400 });
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return data({ error: "noFile" }, { status: 400 });
  if (file.size > MAX_IMPORT_BYTES) return data({ error: "tooBig" }, { status: 400 });
  try {
    const jobId = await createImportJob(db, { businessId: user.businessId, userId: user.userId, filename: file.name, bytes: new Uint8Array(await file.arrayBuffer()), now: now() });
    return redirect(`/mycommunity/import/${jobId}`);
  } catch (error) {
    if (error instanceof AppError && error.data?.reason) return data({ error: String(error.data.reason).replace("import.errors.", "") }, { status: 400 });
    throw error;
  }
}

export default function ImportUpload() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const code = actionData?.error ?? params.get("error");
  const error = code && KNOWN_ERRORS.has(code) ? code : null;
  return (
    <>
      <PageHeader title={t("import.title")} lead={t("import.lead")} actions={<Link to="/mycommunity">{t("import.back")}</Link>} />
      <Panel title={t("import.upload.title")} id="upload">
        {error ? (
          <div className="banner banner--error" role="alert" id="file-error">
            {t(`import.errors.${error}`)}
          </div>
        ) : null}
        <AppForm className="form" encType="multipart/form-data">
          <div className={`field${error ? " field--invalid" : ""}`}>
            <label htmlFor="import-file">{t("import.upload.file")}</label>
            <p className="field__hint" id="import-file-hint">
              {t("import.upload.hint")}
            </p>
            <input id="import-file" name="file" type="file" accept=".csv,text/csv" required aria-describedby={error ? "import-file-hint file-error" : "import-file-hint"} aria-invalid={error ? true : undefined} />
          </div>
          <Button>{t("import.upload.submit")}</Button>
        </AppForm>
        <p className="muted">
          <a href="/mycommunity/export">{t("import.exportLink")}</a>
        </p>
      </Panel>
    </>
  );
}
