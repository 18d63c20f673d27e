import { describe, expect, it } from "vitest";
import { addToast, TOAST_MAX } from "~/components/toaster";

describe("§8 notification rules", () => {
  const t = (id: number, message: string, type: "success" | "error" = "success") => ({ id, type, message });

  it("does not stack an identical notification while it is shown", () => {
    const list = addToast([t(1, "a")], t(2, "a"));
    expect(list.map((x) => x.id)).toEqual([1]);
    expect(addToast(list, t(3, "a", "error")).map((x) => x.id)).toEqual([1, 3]);
  });

  it("keeps at most 20, dropping the oldest", () => {
    let list: ReturnType<typeof t>[] = [];
    for (let i = 1; i <= 25; i++) list = addToast(list, t(i, `m${i}`));
    expect(list).toHaveLength(TOAST_MAX);
    expect(list[0].id).toBe(6);
    expect(list.at(-1)?.id).toBe(25);
  });
});
