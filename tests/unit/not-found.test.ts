import { describe, expect, it } from "vitest";
import { orNotFound } from "~/lib/not-found.server";
import { AppError } from "~/lib/errors";

describe("orNotFound", () => {
  it("passes the value through", async () => {
    expect(await orNotFound(Promise.resolve(42))).toBe(42);
  });

  it("turns a domain 404 into a 404 response", async () => {
    const thrown = await orNotFound(Promise.reject(new AppError("NF001", undefined, { status: 404 }))).catch((e: unknown) => e);
    expect(thrown).not.toBeInstanceOf(AppError);
    expect((thrown as { init?: { status?: number } }).init?.status).toBe(404);
  });

  it("lets every other error through untouched", async () => {
    const other = new AppError("BR022");
    await expect(orNotFound(Promise.reject(other))).rejects.toBe(other);
    const plain = new Error("boom");
    await expect(orNotFound(Promise.reject(plain))).rejects.toBe(plain);
  });
});
