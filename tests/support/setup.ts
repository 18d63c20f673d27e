// Runs before every test file: an unexpected console.error fails the test that caused it.
import { afterEach, vi } from "vitest";

const errors: unknown[][] = [];
vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
  errors.push(args);
});
afterEach(() => {
  if (errors.length) {
    const first = errors.splice(0).map((a) => a.map(String).join(" ")).join("\n");
    throw new Error(`console.error was called:\n${first}`);
  }
});
