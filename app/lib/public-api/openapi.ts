// The OpenAPI 3.1 document of the public API, generated from the operations' zod schemas with zod's own
// JSON Schema output (draft 2020-12, the dialect OpenAPI 3.1 uses). Nothing here is written by hand but the
// words around the schemas: security, the error envelope and the headers every answer carries.
import { z } from "zod";
import { errorEnvelope, OPERATIONS, type Operation } from "./operations";
import { APP_VERSION_CLIENT } from "~/lib/version";

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json;
  return rest;
}

const rateLimitHeaders: Json = {
  RateLimit: { description: 'What is left of the key\'s limit: `"default";r=<requests left>;t=<seconds until the bucket is full>`', schema: { type: "string" } },
  "RateLimit-Policy": { description: 'The key\'s limit: `"default";q=<burst>;w=<seconds to refill it>`', schema: { type: "string" } },
};

const errorResponse = (description: string, headers: Json = rateLimitHeaders): Json => ({
  description,
  headers,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
});

function parameters(op: Operation): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [["path", op.params], ["query", op.query]] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, "input") as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, s] of Object.entries(json.properties ?? {})) {
      const example = where === "path" ? op.examples.params?.[name] : op.examples.query?.[name];
      out.push({
        name,
        in: where,
        required: where === "path" || (json.required ?? []).includes(name),
        ...(typeof s.description === "string" ? { description: s.description } : {}),
        schema: s,
        ...(example !== undefined ? { example } : {}),
      });
    }
  }
  if (op.idempotent) {
    out.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "Any unique string (a UUID is fine), 1 to 255 printable ASCII characters. A retry with the same key and body answers the first result and does nothing again; the same key with another body is 422 ID001. Kept 24 hours.",
      schema: { type: "string", minLength: 1, maxLength: 255 },
      example: "0f8c7a52-4c1e-4a43-9d0e-6f1f2b3c4d5e",
    });
  }
  return out;
}

function operationObject(op: Operation): Json {
  const success: Json =
    op.response === null
      ? { description: "Done", headers: rateLimitHeaders }
      : {
          description: op.status === 201 ? "Created" : "OK",
          headers: op.status === 201 ? { ...rateLimitHeaders, Location: { description: "The new resource", schema: { type: "string" } } } : rateLimitHeaders,
          content: { "application/json": { schema: schemaOf(op.response, "output"), ...(op.examples.response !== undefined ? { example: op.examples.response } : {}) } },
        };
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    "x-scope": op.scope,
    security: [{ apiKey: [] }],
    parameters: parameters(op),
    ...(op.body
      ? { requestBody: { required: true, content: { "application/json": { schema: schemaOf(op.body, "input"), ...(op.examples.body !== undefined ? { example: op.examples.body } : {}) } } } }
      : {}),
    responses: {
      [String(op.status)]: success,
      "400": errorResponse("UA002: a field unknown, missing or of the wrong type (data.field names it); or a business rule (BR0xx)"),
      "401": errorResponse("UA001: no API key, a malformed one, or one that is unknown, disabled, deleted or past its grace period", {}),
      "403": errorResponse("FB001: the key's permissions do not include this operation's scope"),
      "404": errorResponse("NF001: no such resource in this business"),
      ...(op.idempotent
        ? { "409": errorResponse("ID002: a request with this Idempotency-Key is still being processed"), "422": errorResponse("ID001: this Idempotency-Key was used with a different request") }
        : {}),
      "429": errorResponse("RL001: the key's rate limit is used up; retry after Retry-After seconds", {
        ...rateLimitHeaders,
        "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } },
      }),
    },
  };
}

const SCOPES_TEXT = [
  "`members:read`: member permission Read or Write (view members and groups).",
  "`members:write`: member permission Write (add, edit, opt out).",
  "`messages:read`: messaging permission Read or Write (view direct messages, group messages and campaign results).",
  "`messages:write`: messaging permission Write (send direct messages, create and delete group messages).",
].join("\n- ");

/** The whole document; `serverUrl` is the app's public address. */
export function openApiDocument(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of Object.values(OPERATIONS) as Operation[]) {
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = operationObject(op);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Textcircle public API",
      version: APP_VERSION_CLIENT,
      description:
        "Members, direct messages, groups, group messages and campaign results of one business, for clients holding one of its API keys " +
        "(made by the Administrator at /manageintegrations/apikeys). Send the key as `Authorization: Bearer tc_live_…`. " +
        "Each operation needs a scope, which the key's permissions give:\n\n- " +
        SCOPES_TEXT +
        "\n\nEvery error is the envelope `{responseCode, data, errorStatuses}`. Each key has its own rate limit (a token bucket), " +
        "told in the RateLimit and RateLimit-Policy headers of every answer.",
    },
    servers: [{ url: serverUrl }],
    tags: ["Members", "Messages", "Groups", "Group messages", "Campaigns"].map((name) => ({ name })),
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", bearerFormat: "tc_live_ followed by 38 letters and digits", description: "An API key of the business" } },
      schemas: { ErrorEnvelope: schemaOf(errorEnvelope, "output") },
    },
    paths,
  };
}
