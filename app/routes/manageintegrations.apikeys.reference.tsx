// /manageintegrations/apikeys/reference: the public API's reference, rendered on the server from the OpenAPI
// document (which is generated from the zod schemas that check requests). No scripts: plain headings, tables and
// examples, readable on a phone.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/manageintegrations.apikeys.reference";
import { PageHeader, Panel } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { openApiDocument } from "~/lib/public-api/openapi";

export const handle = { titleKey: "apikeys.reference.meta.title", descriptionKey: "apikeys.reference.meta.description" } as const;

interface DocParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: { type?: string | string[]; enum?: string[] };
}
interface DocOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  "x-scope": string;
  parameters: DocParameter[];
  requestBody?: { content: { "application/json": { example?: unknown } } };
  responses: Record<string, { description: string; content?: { "application/json": { example?: unknown } } }>;
}

export function loader({ context }: Route.LoaderArgs) {
  const { config } = getDeps(context);
  const doc = openApiDocument(config.publicUrl) as { paths: Record<string, Record<string, DocOperation>>; tags: Array<{ name: string }> };
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const [okStatus, ok] = Object.entries(op.responses)[0];
      return {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        tag: op.tags[0],
        summary: op.summary,
        description: op.description ?? null,
        scope: op["x-scope"],
        parameters: op.parameters.map((p) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          description: p.description ?? (p.schema?.enum ? p.schema.enum.join(", ") : ""),
        })),
        requestExample: op.requestBody?.content["application/json"].example !== undefined ? JSON.stringify(op.requestBody.content["application/json"].example, null, 2) : null,
        okStatus,
        responseExample: ok.content?.["application/json"].example !== undefined ? JSON.stringify(ok.content["application/json"].example, null, 2) : null,
        errors: Object.entries(op.responses)
          .slice(1)
          .map(([status, r]) => ({ status, description: r.description })),
      };
    }),
  );
  return { tags: doc.tags.map((t) => t.name), operations, openApiUrl: "/api/v1/openapi.json" };
}

export default function ApiReference({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { tags, operations } = loaderData;
  return (
    <>
      <PageHeader title={t("apikeys.reference.title")} lead={t("apikeys.reference.lead")} />
      <div className="stack api-ref">
        <p>
          <Link to="/manageintegrations/apikeys">{t("apikeys.reference.back")}</Link> · <a href={loaderData.openApiUrl}>{t("apikeys.docs.openapi")}</a>
        </p>
        <Panel title={t("apikeys.reference.auth")} id="ref-auth">
          <p>{t("apikeys.reference.authBody")}</p>
        </Panel>
        <nav aria-labelledby="ref-contents">
          <h2 id="ref-contents">{t("apikeys.reference.contents")}</h2>
          <ul className="acct-links">
            {operations.map((op) => (
              <li key={op.id}>
                <a href={`#${op.id}`}>
                  <code>{op.method}</code> {op.path}: {op.summary}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {tags.map((tag) => (
          <section key={tag} aria-labelledby={`tag-${tag.replace(/\s+/g, "-")}`} className="stack">
            <h2 id={`tag-${tag.replace(/\s+/g, "-")}`}>{tag}</h2>
            {operations
              .filter((op) => op.tag === tag)
              .map((op) => (
                <article key={op.id} id={op.id} className="panel api-ref__op" aria-labelledby={`${op.id}-title`}>
                  <h3 id={`${op.id}-title`} className="panel__title">
                    <code>{op.method}</code> <span className="api-ref__path">{op.path}</span>
                  </h3>
                  <p>
                    <strong>{op.summary}</strong>
                    {op.description ? ` ${op.description}` : ""}
                  </p>
                  <p>
                    {t("apikeys.reference.scope")}: <code>{op.scope}</code>
                  </p>
                  {op.parameters.length ? (
                    <div className="table-wrap" role="group" aria-label={`${t("apikeys.reference.parameters")}: ${op.method} ${op.path}`} tabIndex={0}>
                      <table>
                        <caption>{t("apikeys.reference.parameters")}</caption>
                        <thead>
                          <tr>
                            <th scope="col">{t("apikeys.reference.name")}</th>
                            <th scope="col">{t("apikeys.reference.in")}</th>
                            <th scope="col">{t("apikeys.reference.required")}</th>
                            <th scope="col">{t("apikeys.reference.description")}</th>
                          </tr>
                        </thead>
                        <tbody>
                          {op.parameters.map((p) => (
                            <tr key={`${p.in}-${p.name}`}>
                              <td>
                                <code>{p.name}</code>
                              </td>
                              <td>{p.in}</td>
                              <td>{p.required ? t("apikeys.reference.yes") : t("apikeys.reference.no")}</td>
                              <td>{p.description}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  ) : null}
                  {op.requestExample ? (
                    <>
                      <h4>{t("apikeys.reference.requestExample")}</h4>
                      <pre className="api-ref__code" tabIndex={0}>
                        <code>{op.requestExample}</code>
                      </pre>
                    </>
                  ) : null}
                  <h4>{t("apikeys.reference.responseExample", { status: op.okStatus })}</h4>
                  {op.responseExample ? (
                    <pre className="api-ref__code" tabIndex={0}>
                      <code>{op.responseExample}</code>
                    </pre>
                  ) : (
                    <p>{t("apikeys.reference.noContent")}</p>
                  )}
                  <h4>{t("apikeys.reference.errors")}</h4>
                  <ul>
                    {op.errors.map((e) => (
                      <li key={e.status}>
                        <code>{e.status}</code> {e.description}
                      </li>
                    ))}
                  </ul>
                </article>
              ))}
          </section>
        ))}
      </div>
    </>
  );
}
