import type { NewAppKey } from "#domain/apps.ts";
import { SecretsShownOnce } from "./secrets-shown-once";

/** A new key's credentials, shown once with where each goes. */
export function NewAppKeyPanel({ created, siteUrl }: { created: NewAppKey; siteUrl: string }) {
  return (
    <SecretsShownOnce
      intro={
        <>
          Key for <strong>{created.name}</strong> created. Copy what the app asks for now; the secrets are not shown
          again:
        </>
      }
      rows={[
        { id: "app-api-url", label: "API URL (the blog's address)", value: siteUrl },
        { id: "app-admin-key", label: "Admin API key (for writing apps)", value: created.adminKey },
        { id: "app-content-key", label: "Content API key (for headless front ends)", value: created.contentKey },
        { id: "app-token", label: "Token (for Micropub and XML-RPC apps)", value: created.token },
      ]}
    />
  );
}
