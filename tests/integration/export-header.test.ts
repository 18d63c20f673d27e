// The member CSV's fixed headings follow the business's language, and only that business's.
import { describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { exportHeader } from "~/domain/import/export.server";
import en from "~/locales/en-GB/import.json";
import fr from "~/locales/fr/import.json";

describe.each(DIALECTS)("member export headings (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("uses the business's own language", async () => {
    const english = await createBusiness(t.db);
    const french = await createBusiness(t.db);
    await t.db.updateTable("businesses").set({ locale: "fr" }).where("id", "=", french).execute();
    const enHeader = await exportHeader(t.db, Number(english));
    const frHeader = await exportHeader(t.db, Number(french));
    expect(enHeader).toEqual([en.exportHeader.phone, en.exportHeader.firstName, en.exportHeader.fullName, en.exportHeader.status, en.exportHeader.joined, en.exportHeader.birthday, en.exportHeader.note]);
    expect(frHeader[0]).toBe("Numéro de mobile");
    expect(frHeader).toEqual(Object.values(fr.exportHeader));
    expect(frHeader).not.toEqual(enHeader);
  });
});
