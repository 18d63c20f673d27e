import { describe, expect, it } from "vitest";
import { CHECKED_SCREENS, isCurrent, NAV_ITEMS } from "~/lib/nav";
import { routePaths } from "~/lib/shell.server";

const item = (id: string) => NAV_ITEMS.find((i) => i.id === id)!;

describe("the navigation list", () => {
  it("marks an entry current on its page and its section's pages only", () => {
    expect(isCurrent(item("home"), "/")).toBe(true);
    expect(isCurrent(item("home"), "/groups")).toBe(false);
    expect(isCurrent(item("messages"), "/member/messages")).toBe(true);
    expect(isCurrent(item("members"), "/mycommunity/import")).toBe(true);
    expect(isCurrent(item("members"), "/memberinfo/12")).toBe(true);
    expect(isCurrent(item("members"), "/memberinfoo")).toBe(false);
    expect(isCurrent(item("groups"), "/contactgroup/3")).toBe(true);
    expect(isCurrent(item("groups"), "/groupmessages")).toBe(false);
    expect(isCurrent(item("groups"), "/groupmessage")).toBe(true);
  });

  it("has unique ids and every entry's path among the checked screens", () => {
    expect(new Set(NAV_ITEMS.map((i) => i.id)).size).toBe(NAV_ITEMS.length);
    for (const i of NAV_ITEMS) expect(CHECKED_SCREENS).toContain(i.to);
  });
});

describe("routePaths", () => {
  it("joins layout paths, keeps index routes as their parent's path and skips pathless layouts", () => {
    const routes = {
      root: { id: "root", path: "", module: {} },
      "routes/_app": { id: "routes/_app", parentId: "root", module: {} },
      "routes/home": { id: "routes/home", parentId: "routes/_app", index: true, module: {} },
      "routes/groups": { id: "routes/groups", parentId: "routes/_app", path: "groups", module: {} },
      "routes/memberinfo-id": { id: "routes/memberinfo-id", parentId: "routes/_app", path: "memberinfo/:id", module: {} },
    } as unknown as Parameters<typeof routePaths>[0];
    expect([...routePaths(routes)].sort()).toEqual(["/", "/groups", "/memberinfo/:id"]);
  });
});
