// The help centre over HTTP: the guide list and a search that works without JavaScript (English and French),
// a guide page with its videos, captions in both languages and transcripts, a 404 for an unknown guide, the
// screens a guide points to drawn only when they exist; and opening the getting-started guide records the
// quick start as seen (helpSectionsViewed) so the home page's quick-start panel is gone, for that user only.
import { describe, expect, it } from "vitest";
import { createAccount, createTeamUser } from "../support/factories";
import { pageText, useTestApp } from "../support/server";

describe("the help centre", () => {
  const t = useTestApp();

  it("lists the guides and searches them by a word of their text, in English and French", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    await client.login(account.email, account.password);

    const list = await client.get("/helpcentre");
    expect(list.status).toBe(200);
    const html = await list.text();
    for (const slug of ["getstarted", "joining-and-leaving", "group-messages", "campaigns", "billing", "team", "api-keys"]) {
      expect(html).toContain(`href="/helpcentre/${slug}"`);
    }
    const form = /<form[^>]*role="search"[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toContain('method="get"');

    const found = pageText(await (await client.get("/helpcentre?q=waitlist")).text());
    expect(found).toContain("1 guide mentions “waitlist”");
    expect(found).toContain("Every campaign type");

    const fr = pageText(await (await client.get("/helpcentre?q=d%C3%A9sabonner&lng=fr")).text());
    expect(fr).toMatch(/guides? mentionnen?t « désabonner »/);
    expect(fr).toContain("S’inscrire et se désinscrire : les règles au Royaume-Uni");

    const none = pageText(await (await client.get(`/helpcentre?lng=en-GB&q=${encodeURIComponent("<b>zzqx</b>")}`)).text());
    expect(none).toContain("No guide matches those words");
    expect((await client.get(`/helpcentre?q=${"x".repeat(5000)}`)).status).toBe(200);
  });

  it("shows a guide with its videos, captions in both languages and a transcript; an unknown guide is a 404", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    await client.login(account.email, account.password);
    const res = await client.get("/helpcentre/getstarted");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/<video /g)).toHaveLength(4);
    expect(html).toContain('src="/help/videos/join-code.webm"');
    expect(html).toMatch(/<track kind="captions" srcLang="en-GB" label="English" src="\/help\/videos\/join-code.en-GB.vtt" default=""/i);
    expect(html).toMatch(/<track kind="captions" srcLang="fr" label="Français" src="\/help\/videos\/join-code.fr.vtt"/i);
    expect(pageText(html)).toContain("Transcript");
    expect(pageText(html)).toContain("Type their name and UK mobile number.");
    expect(html).toContain('href="/invitemember"');

    const frHtml = await (await client.get("/helpcentre/getstarted?lng=fr")).text();
    expect(pageText(frHtml)).toContain("Bien démarrer");
    expect(pageText(frHtml)).toContain("Saisissez son nom et son numéro de mobile britannique.");
    expect(frHtml).toMatch(/srcLang="fr" label="Français" src="\/help\/videos\/join-code.fr.vtt" default=""/i);

    expect((await client.get("/helpcentre/no-such-guide")).status).toBe(404);
    expect((await client.get("/helpcentre/..%2Fbilling")).status).toBe(404);

    // A screen this build may not have yet is never linked.
    const apiKeys = await (await client.get("/helpcentre/api-keys")).text();
    const hasScreen = (await client.get("/manageintegrations/apikeys")).status === 200;
    expect(apiKeys.includes('href="/manageintegrations/apikeys"')).toBe(hasScreen);
  });

  it("records the quick start as seen when the getting-started guide is opened, and the home page drops it", async () => {
    const account = await createAccount(t.app.db);
    const teamUser = await createTeamUser(t.app.db, account.businessId);
    const owner = t.app.client();
    await owner.login(account.email, account.password);
    const team = t.app.client();
    await team.login(teamUser.email, teamUser.password);

    const home = await (await owner.get("/")).text();
    expect(home).toContain('id="quick-start-title"');
    expect(home).toContain('href="/helpcentre/getstarted#video-join-code"');
    expect((await (await owner.get("/api/account/status")).json()) as { helpSectionsViewed: string[] }).toMatchObject({ helpSectionsViewed: [] });

    // Another guide records nothing.
    await owner.get("/helpcentre/billing");
    expect(await (await owner.get("/")).text()).toContain('id="quick-start-title"');

    expect((await owner.get("/helpcentre/getstarted")).status).toBe(200);
    expect(((await (await owner.get("/api/account/status")).json()) as { helpSectionsViewed: string[] }).helpSectionsViewed).toEqual(["quickStart"]);
    expect(await (await owner.get("/")).text()).not.toContain('id="quick-start-title"');
    // Opening it again changes nothing.
    expect((await owner.get("/helpcentre/getstarted")).status).toBe(200);
    const rows = await t.app.db.selectFrom("help_sections_viewed").selectAll().where("user_id", "=", account.id).execute();
    expect(rows).toHaveLength(1);

    // The team member still has theirs, and reads the same guides.
    expect(await (await team.get("/")).text()).toContain('id="quick-start-title"');
    expect((await team.get("/helpcentre/team")).status).toBe(200);
  });
});
