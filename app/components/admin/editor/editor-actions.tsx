import { Link, useNavigation } from "react-router";
import { MandatoryMark } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import type { SaveIntent } from "#domain/editor.ts";
import type { EditedItem } from "./edited-item";

interface EditorActionsProps {
  kind: EditedItem["kind"];
  /** The spec's save: "Create Post", "Save Changes", "Create Page". */
  submitLabel: string;
  /** Whether the item is new (its buttons say "Create…") or saved already. */
  creating: boolean;
  /** "Save draft" is offered while the item is not published: it keeps it unpublished. */
  draft: boolean;
  cancelTo: string;
}

/**
 * The editor's submit buttons, each a plain submit that works without JavaScript: the spec's
 * save (back to the list), the same save staying in the editor, and "Save draft" (a title at
 * most, never publishing). The button pressed says "Saving…" while its save runs.
 */
export function EditorActions({ kind, submitLabel, creating, draft, cancelTo }: EditorActionsProps) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formMethod === "POST";
  const pressed: SaveIntent = saving ? ((navigation.formData?.get("intent") as SaveIntent | null) ?? "save") : "save";
  const label = (intent: SaveIntent, text: string) => (saving && pressed === intent ? "Saving…" : text);
  return (
    <div className="space-y-3 border-t border-slate-200 pt-6 dark:border-slate-800">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Fields marked <MandatoryMark />
        <span className="sr-only">with an asterisk</span> are required to {creating ? "create" : "save"} the {kind}.
        {draft ? ` "Save draft" keeps it unpublished with only a title.` : null}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={saving} className={buttonStyles.primary}>
          {label("save", submitLabel)}
        </button>
        <button type="submit" name="intent" value="stay" disabled={saving} className={buttonStyles.secondary}>
          {label("stay", creating ? "Create and keep editing" : "Save and keep editing")}
        </button>
        {draft ? (
          <button type="submit" name="intent" value="draft" disabled={saving} className={buttonStyles.secondary}>
            {label("draft", "Save draft")}
          </button>
        ) : null}
        <Link to={cancelTo} className="text-sm font-medium text-slate-700 hover:underline dark:text-slate-300">
          Cancel
        </Link>
      </div>
    </div>
  );
}
