// Opening a guide on both databases: the getting-started guide records the quick start as seen once for that user
// (the home feed then leaves out its panel), other guides record nothing, and a look through admin access
// records nothing for the owner.
import { describe, expect, it } from "vitest";
import { recordGuideOpened } from "~/domain/help/guides.server";
import { getFeed } from "~/domain/feed/feed.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness, createUser } from "../support/factories";

const now = new Date("2026-11-24T09:00:00.000Z");

describe.each(DIALECTS)("help sections viewed (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("records the quick start once, on the getting-started guide only, never through admin access", async () => {
    const biz = await createBusiness(t.db);
    const owner = await createUser(t.db, biz);
    const other = await createUser(t.db, biz, { role: "TEAM" });
    const feedTypes = async (userId: number) => (await getFeed(t.db, { userId, businessId: biz }, now)).map((i) => i.type);
    expect(await feedTypes(owner.id)).toContain("HELPCENTRE");

    await recordGuideOpened(t.db, { userId: owner.id, adminAccess: false }, "billing", now);
    await recordGuideOpened(t.db, { userId: owner.id, adminAccess: true }, "getstarted", now);
    expect(await feedTypes(owner.id)).toContain("HELPCENTRE");

    await recordGuideOpened(t.db, { userId: owner.id, adminAccess: false }, "getstarted", now);
    await recordGuideOpened(t.db, { userId: owner.id, adminAccess: false }, "getstarted", new Date(now.getTime() + 60_000));
    const rows = await t.db.selectFrom("help_sections_viewed").selectAll().where("user_id", "=", owner.id).execute();
    expect(rows).toEqual([{ user_id: owner.id, section: "quickStart", viewed_at: now.toISOString() }]);
    expect(await feedTypes(owner.id)).not.toContain("HELPCENTRE");
    expect(await feedTypes(other.id)).toContain("HELPCENTRE");
  });
});
