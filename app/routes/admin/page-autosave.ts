import { autosaveAction } from "~/lib/writers-desk.server";
import type { Route } from "./+types/page-autosave";

export function action(args: Route.ActionArgs) {
  return autosaveAction("page", args);
}
