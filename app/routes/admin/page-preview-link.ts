import { previewLinkAction } from "~/lib/writers-desk.server";
import type { Route } from "./+types/page-preview-link";

export function action(args: Route.ActionArgs) {
  return previewLinkAction("page", args);
}
