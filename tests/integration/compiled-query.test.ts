import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { compiledQuery } from "#db/compiled";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";

describe.each(DIALECTS)("queries compiled once (%s)", (dialect) => {
  const t = useTestDb(dialect);

  const byName = compiledQuery((db, name: string, minCredits: number) =>
    db
      .selectFrom("businesses")
      .select(["name", "trial_credits"])
      .where("name", "=", name)
      .where("trial_credits", ">=", minCredits)
      .where("status", "in", ["TRIAL", "ACTIVE"])
      .orderBy("id")
      .limit(5),
  );

  it("runs each call with its own values, the fixed ones kept", async () => {
    await createBusiness(t.db, { name: "Compiled A", trialCredits: 10 });
    await createBusiness(t.db, { name: "Compiled B", trialCredits: 50 });
    expect(await byName(t.db, "Compiled A", 5)).toEqual([{ name: "Compiled A", trial_credits: 10 }]);
    expect(await byName(t.db, "Compiled B", 5)).toEqual([{ name: "Compiled B", trial_credits: 50 }]);
    expect(await byName(t.db, "Compiled B", 51)).toEqual([]);
  });

  it("takes a value used twice in a sql template", async () => {
    const twice = compiledQuery((db, n: number) => db.selectFrom("businesses").select(sql<number>`cast(${n} as integer) + cast(${n} as integer)`.as("sum")).limit(1));
    expect((await twice(t.db, 2)).map((r) => Number(r.sum))).toEqual([4]);
    expect((await twice(t.db, 20)).map((r) => Number(r.sum))).toEqual([40]);
  });

  it("refuses a value that does not reach the query as a parameter of its own", async () => {
    const reshaped = compiledQuery((db, name: string) => db.selectFrom("businesses").select("name").where("name", "like", `${name}%`));
    await expect(reshaped(t.db, "Compiled")).rejects.toThrow(/changed before it reached the query/);
    const unused = compiledQuery((db, _name: string) => db.selectFrom("businesses").select("name"));
    await expect(unused(t.db, "Compiled")).rejects.toThrow(/every value must be a parameter/);
  });
});
