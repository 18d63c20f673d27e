// After login the browser only ever goes to a path on this site; anything else goes home.
import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/lib/safe-redirect";

const ORIGIN = "https://app.textcircle.test";

describe("safeRedirect", () => {
  it.each([
    ["/", "/"],
    ["/groups", "/groups"],
    ["/mycommunity?page=2&q=a%20b", "/mycommunity?page=2&q=a%20b"],
    ["/memberinfo/12#notes", "/memberinfo/12#notes"],
    ["/a/../groups", "/groups"],
  ])("follows the same-site path %j", (value, expected) => {
    expect(safeRedirect(value, ORIGIN)).toBe(expected);
  });

  it.each([
    ["protocol-relative", "//evil.example/x"],
    ["backslash", "/\\evil.example"],
    ["two backslashes", "/\\\\evil.example"],
    ["a TAB between the slashes", "/\t/evil.example"],
    ["a newline between the slashes", "/\n/evil.example"],
    ["a carriage return between the slashes", "/\r/evil.example"],
    ["an encoded newline", "/%0a"],
    ["a raw newline in the path", "/groups\nSet-Cookie: x=1"],
    ["header injection", "/\r\nLocation: https://evil.example"],
    ["a NUL byte", "/groups\u0000"],
    ["a line separator", "/groups\u2028"],
    ["javascript:", "javascript:alert(1)"],
    ["javascript: after a slash", "/javascript:alert(1)//\n"],
    ["an absolute URL", "https://evil.example"],
    ["an absolute URL of this site", `${ORIGIN}/groups`],
    ["a scheme-relative URL with credentials", "//user@evil.example"],
    ["a backslash reached through dot segments", "/a/..\\/evil.example"],
    ["no leading slash", "groups"],
    ["a data: URL", "data:text/html,<script>alert(1)</script>"],
    ["a leading space", " /groups"],
    ["empty", ""],
    ["not a string", 42],
    ["undefined", undefined],
    ["very long", "/" + "a".repeat(5000)],
  ])("goes home for %s", (_why, value) => {
    expect(safeRedirect(value, ORIGIN)).toBe("/");
  });

  it("never returns a value with a control character or that leaves the origin", () => {
    const nasty = ["/\t/h", "/\u000b/h", "/\u000c/h", "//h", "/\\h", "/%09/h", "/%5C/h", "/%2F/h", "/.//h", "/./\\h"];
    for (const value of nasty) {
      const out = safeRedirect(value, ORIGIN);
      expect(out).not.toMatch(/[\u0000-\u001f]/);
      expect(new URL(out, ORIGIN).origin).toBe(ORIGIN);
      expect(out.startsWith("//") || out.startsWith("/\\")).toBe(false);
    }
  });
});
