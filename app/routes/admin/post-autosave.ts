import { autosaveAction } from "~/lib/writers-desk.server";
import type { Route } from "./+types/post-autosave";

export function action(args: Route.ActionArgs) {
  return autosaveAction("post", args);
}
