import { data, Form, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { Notice, Panel } from "~/components/admin/panel";
import { NewAppKeyPanel } from "~/components/admin/app-keys";
import { FormError, SelectField, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { requireAdmin } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { formatDate } from "~/lib/format";
import { useValidatedForm } from "~/lib/forms";
import { withRouteErrors } from "~/lib/route-errors.server";
import { APP_KEY_SCOPE_LABELS, APP_KEY_SCOPES, APP_NAME_MAX, appKeyForm } from "#domain/apps.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/apps";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load the app keys. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    const user = requireAdmin({ request, context });
    const { services, site } = context.get(appContext);
    const holder = { id: user.id, label: user.username, role: user.role };
    const [keys, signedIn] = await Promise.all([
      services.apps.keys.listKeys(holder),
      services.micropub.indieAuth.listSignedInApps(holder),
    ]);
    const flash = await takeFlash(request);
    return data(
      { keys, signedIn, siteUrl: site.siteUrl, isOwner: user.role === "owner", notice: flash.message },
      { headers: flash.headers },
    );
  },
);

const SCOPE_OPTIONS = APP_KEY_SCOPES.map((scope) => ({ value: scope, label: APP_KEY_SCOPE_LABELS[scope] }));

/**
 * Settings → Apps: a key per writing app or headless site. The form posts to apps-create.tsx,
 * whose answer (the key, shown once) renders this page; Revoke posts to apps-revoke.tsx.
 */
export default function Apps({ loaderData }: Route.ComponentProps) {
  const { keys, signedIn, siteUrl, isOwner, notice } = loaderData;
  const busy = useNavigation().state === "submitting";
  const createResult = useRoute("routes/admin/apps-create")?.actionData;
  const revokeResult = useRoute("routes/admin/apps-revoke")?.actionData;
  const signOutResult = useRoute("routes/admin/apps-sign-out")?.actionData;
  const form = useValidatedForm(appKeyForm, { id: "app-key", result: createResult });
  const created = createResult?.created;
  return (
    <>
      <title>Apps · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Apps</h1>
      <div className="mt-6 space-y-6">
        <Notice message={createResult || revokeResult || signOutResult ? undefined : notice} />
        <FormError message={revokeResult?.formError ?? signOutResult?.formError} />
        <Panel id="new-app-heading" title="Connect an app">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Writing apps such as iA Writer, Ulysses or Obsidian publish here as if this blog were Ghost; a headless
            front end reads it the same way. Each app gets its own key and acts as you. Its secrets are shown once.
          </p>
          <Form method="post" action="/admin/settings/apps/create" {...form.props} className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                {...form.field("name")}
                label="App name"
                autoComplete="off"
                maxLength={APP_NAME_MAX}
                defaultValue={createResult?.values.name ?? ""}
              />
              <SelectField
                {...form.field("scope")}
                label="It may write"
                options={SCOPE_OPTIONS}
                defaultValue={createResult?.values.scope ?? "drafts"}
              />
            </div>
            <button type="submit" disabled={busy} className={buttonStyles.primary}>
              Create key
            </button>
          </Form>
          {created ? <NewAppKeyPanel created={created} siteUrl={siteUrl} /> : null}
        </Panel>

        <Panel id="app-keys-heading" title={isOwner ? "Every account's app keys" : "Your app keys"}>
          {keys.length === 0 ? (
            <p className="text-sm">No app has a key yet.</p>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {keys.map((key) => (
                <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div>
                    <p className="font-medium">
                      {key.name} <span className="text-sm font-normal">({APP_KEY_SCOPE_LABELS[key.scope]})</span>
                    </p>
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      Acts as {key.userName} · made {formatDate(key.createdAt)} ·{" "}
                      {key.lastUsedAt
                        ? `last used ${formatDate(key.lastUsedAt)} from ${key.lastUsedAddress ?? "an unknown network"}`
                        : "never used"}
                    </p>
                  </div>
                  <Form method="post" action="/admin/settings/apps/revoke">
                    <input type="hidden" name="id" value={key.id} />
                    <button
                      type="submit"
                      disabled={busy}
                      className={buttonStyles.secondary}
                      aria-label={`Revoke the key of ${key.name}`}
                    >
                      Revoke
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
        </Panel>

        {signedIn.length > 0 ? (
          <Panel id="signed-in-apps-heading" title="Apps signed in with IndieAuth">
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {signedIn.map((app) => (
                <li key={app.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div>
                    <p className="font-medium break-all">{app.clientId}</p>
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      Acts as {app.userName} · may {app.scope || "nothing but sign in"} · signed in{" "}
                      {formatDate(app.createdAt)}
                    </p>
                  </div>
                  <Form method="post" action="/admin/settings/apps/sign-out">
                    <input type="hidden" name="id" value={app.id} />
                    <button
                      type="submit"
                      disabled={busy}
                      className={buttonStyles.secondary}
                      aria-label={`Sign out ${app.clientId}`}
                    >
                      Sign out
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          </Panel>
        ) : null}
      </div>
    </>
  );
}
