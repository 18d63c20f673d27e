import { describe, expect, it } from "vitest";
import { truncateText } from "~/domain/home/format";

describe("§9 feed text", () => {
  it("keeps text of 70 characters or fewer as it is", () => {
    const seventy = "a".repeat(70);
    expect(truncateText(seventy)).toBe(seventy);
    expect(truncateText("Hello")).toBe("Hello");
  });

  it("cuts longer text at 70 characters and adds an ellipsis", () => {
    const text = "b".repeat(71);
    expect(truncateText(text)).toBe(`${"b".repeat(70)}…`);
  });

  it("never splits an emoji in half", () => {
    const text = `${"c".repeat(69)}😀😀`;
    expect(truncateText(text)).toBe(`${"c".repeat(69)}😀…`);
  });

  it("folds line breaks into spaces", () => {
    expect(truncateText("Line one\n\nline two")).toBe("Line one line two");
  });
});
