import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// The SSR bundle's entry is our Express app, so the server, its services and the
// route modules share one module graph (one copy of every class, e.g. domain errors).
export default defineConfig({
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
  },
  resolve: {
    alias: { "~": new URL("./app", import.meta.url).pathname },
  },
  plugins: [tailwindcss(), reactRouter()],
});
