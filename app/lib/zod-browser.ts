// In the browser, zod would probe whether it may compile validators with `new Function`, which the page's
// Content-Security-Policy forbids: the probe fails safely but is reported as a violation on every page.
// Imported first by root.tsx, so it runs before any route module builds a schema.
import { z } from "zod";

if (typeof document !== "undefined") z.config({ jitless: true });
