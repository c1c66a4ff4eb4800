import { importUpload } from "~/lib/import-upload.server";
import type { Route } from "./+types/import";

/** The Tools page's upload script posts here: the same import as /admin/tools/import, answered as JSON. */
export async function action({ request, context }: Route.ActionArgs) {
  const result = await importUpload({ request, context });
  return Response.json(result.data, { status: result.init?.status ?? 200, headers: result.init?.headers });
}
