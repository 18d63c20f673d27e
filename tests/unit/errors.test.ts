import { describe, expect, it } from "vitest";
import { AppError, envelope, errorKey, httpStatusFor } from "~/lib/errors";

describe("§8 error envelope", () => {
  it("carries responseCode, data and errorStatuses with the data", () => {
    expect(envelope("BR012", { needed: 10, remaining: 3 })).toEqual({
      responseCode: "BR012",
      data: { needed: 10, remaining: 3 },
      errorStatuses: [{ responseCode: "BR012", data: { needed: 10, remaining: 3 } }],
    });
    expect(envelope("UA002")).toEqual({ responseCode: "UA002", data: null, errorStatuses: [{ responseCode: "UA002" }] });
  });

  it("maps codes to messages, generic codes and unknown ones to the generic message", () => {
    expect(errorKey("BR021")).toBe("errors.BR021");
    expect(errorKey("BR001")).toBe("errors.generic");
    expect(errorKey("SE001")).toBe("errors.generic");
    expect(errorKey("ZZ999")).toBe("errors.generic");
    expect(errorKey(undefined)).toBe("errors.unknown");
  });

  it("gives each family its HTTP status", () => {
    expect(httpStatusFor("UA003")).toBe(401);
    expect(httpStatusFor("UA004")).toBe(403);
    expect(httpStatusFor("FB001")).toBe(403);
    expect(httpStatusFor("NF002")).toBe(404);
    expect(httpStatusFor("BR021")).toBe(409);
    expect(httpStatusFor("BR012")).toBe(400);
    expect(new AppError("SE001").status).toBe(500);
  });
});
