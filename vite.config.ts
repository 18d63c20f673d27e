import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import path from "node:path";

export default defineConfig(({ isSsrBuild }) => ({
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "#db": path.resolve(import.meta.dirname, "db"),
      "#migrations": path.resolve(import.meta.dirname, "migrations"),
    },
  },
  build: {
    // The server bundle is built from our Express app, which embeds the React Router handler.
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
    // Keep the client bundle lean for low-end phones.
    cssCodeSplit: true,
  },
  ssr: {
    // Native and Node-only packages stay external to the server bundle.
    external: ["better-sqlite3", "pg", "twilio"],
  },
  plugins: [reactRouter()],
}));
