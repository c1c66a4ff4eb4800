import type { NewAppKey } from "#domain/apps.ts";
import { inputStyles } from "~/components/ui/styles";

/** A new key's credentials, shown once with where each goes. */
export function NewAppKeyPanel({ created, siteUrl }: { created: NewAppKey; siteUrl: string }) {
  const rows = [
    { id: "app-api-url", label: "API URL (the blog's address)", value: siteUrl },
    { id: "app-admin-key", label: "Admin API key (for writing apps)", value: created.adminKey },
    { id: "app-content-key", label: "Content API key (for headless front ends)", value: created.contentKey },
    { id: "app-token", label: "Token (for Micropub and XML-RPC apps, once they are supported)", value: created.token },
  ];
  return (
    <div role="status" className="space-y-3">
      <p className="text-sm">
        Key for <strong>{created.name}</strong> created. Copy what the app asks for now; the secrets are not shown
        again:
      </p>
      {rows.map((row) => (
        <div key={row.id} className="space-y-1">
          <label htmlFor={row.id} className="block text-sm font-medium">
            {row.label}
          </label>
          <input id={row.id} readOnly value={row.value} className={`${inputStyles} font-mono text-sm`} />
        </div>
      ))}
    </div>
  );
}
