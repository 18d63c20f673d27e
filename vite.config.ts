import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import path from "node:path";
import { reactRouterReuse } from "./server/react-router-reuse";

export default defineConfig(({ isSsrBuild, command }) => ({
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "#db": path.resolve(import.meta.dirname, "db"),
      "#migrations": path.resolve(import.meta.dirname, "migrations"),
    },
  },
  build: {
    rollupOptions: {
      // The server bundle is built from our Express app, which embeds the React Router handler.
      ...(isSsrBuild ? { input: "./server/app.ts" } : {}),
      onwarn(warning, warn) {
        // Resource routes (the API, webhooks, exports) have no browser code, so their client chunks are empty by design.
        if (warning.code === "EMPTY_BUNDLE") return;
        // A dependency's comment Rollup cannot place (zod's PURE notes) is not ours to fix and changes nothing.
        if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("/node_modules/")) return;
        warn(warning);
      },
    },
    // Keep the client bundle lean for low-end phones.
    cssCodeSplit: true,
  },
  ssr: {
    // Native and Node-only packages stay external to the server bundle.
    external: ["better-sqlite3", "pg", "twilio"],
    // The production server bundle carries React Router itself (patched by reactRouterReuse), and with it
    // every package that imports React Router, so that all of them share that one copy.
    ...(isSsrBuild && command === "build" ? { noExternal: ["react-router", "@react-router/express", "@react-router/node", "remix-toast", "remix-i18next"] } : {}),
  },
  plugins: [reactRouter(), ...(isSsrBuild && command === "build" ? [reactRouterReuse()] : [])],
}));
