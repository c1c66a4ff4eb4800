import { previewLinkAction } from "~/lib/writers-desk.server";
import type { Route } from "./+types/post-preview-link";

export function action(args: Route.ActionArgs) {
  return previewLinkAction("post", args);
}
