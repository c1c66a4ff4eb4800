import { type DragEvent, useState } from "react";
import { Form, useNavigation, useSubmit } from "react-router";
import { EmptyList } from "~/components/admin/admin-list";
import { MoveButtons } from "~/components/admin/move-buttons";
import { useHydrated } from "~/lib/use-hydrated";
import { inputStyles } from "~/components/ui/styles";
import { BUILT_IN_PAGES } from "#domain/page.ts";
import {
  moveNavigationItem,
  NAVIGATION_LIMITS,
  type NavigationMenu,
  type NavigationTarget,
} from "#domain/navigation.ts";

const CHANGE_ACTION = "/admin/navigation/change";

const smallButtonStyles =
  "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";

export interface NavigationRow {
  id: string;
  label: string;
  /** Where the link goes, in words. */
  target: string;
}

/** What a page choice shows of a page: its title, and whether readers can see it yet. */
export interface NavigationPageChoice {
  id: string;
  title: string;
  slug: string;
  published: boolean;
}

const BUILT_IN_PAGE_NAMES: Record<(typeof BUILT_IN_PAGES)[number], string> = {
  about: "About",
  privacy: "Privacy",
  terms: "Terms",
};

/** Where a link goes, in words, for the menu editor's rows. */
export function describeNavigationTarget(
  target: NavigationTarget,
  pages: ReadonlyMap<string, NavigationPageChoice>,
  links: { aboutUrl: string; sourceUrl: string },
): string {
  switch (target.kind) {
    case "home":
      return "Home page";
    case "blog":
      return "Blog (all posts)";
    case "categories":
      return "Categories list";
    case "category":
      return `Category: ${target.category}`;
    case "page": {
      const page = pages.get(target.id);
      if (!page) return "Page: deleted (not shown)";
      return page.published ? `Page: ${page.title} (/${page.slug})` : `Page: ${page.title} (draft, not shown yet)`;
    }
    case "built-in-page":
      return `Page: ${BUILT_IN_PAGE_NAMES[target.page]}${target.anchor ? ` #${target.anchor}` : ""}`;
    case "about-link":
      return `About link in Settings (${links.aboutUrl})`;
    case "source-link":
      return `Source code link in Settings (${links.sourceUrl})`;
    case "url":
      return target.url;
  }
}

/**
 * One menu's links, in order. Rename, Move up, Move down and Remove are small forms that work without
 * JavaScript; with it, a row can also be dragged onto another's place, which posts the same
 * move (the buttons stay, for keyboards). While a move is on its way the rows show its result.
 */
export function NavigationMenuRows({
  menu,
  title,
  rows,
  busy,
}: {
  menu: NavigationMenu;
  title: string;
  rows: NavigationRow[];
  busy: boolean;
}) {
  const submit = useSubmit();
  const pending = useNavigation().formData;
  // Rows become draggable only once React runs: without it, a drag could do nothing.
  const hydrated = useHydrated();
  const [dragged, setDragged] = useState<string>();
  const [over, setOver] = useState<string>();

  const shown =
    pending?.get("intent") === "move" && pending.get("menu") === menu
      ? moveNavigationItem(rows, String(pending.get("item")), Number(pending.get("to")))
      : rows;
  if (shown.length === 0) return <EmptyList className="p-4">No links: this menu shows nothing.</EmptyList>;

  const endDrag = () => {
    setDragged(undefined);
    setOver(undefined);
  };
  const dropOn = (event: DragEvent, index: number, id: string) => {
    event.preventDefault();
    if (dragged !== undefined && dragged !== id) {
      submit({ intent: "move", menu, item: dragged, to: String(index) }, { method: "post", action: CHANGE_ACTION });
    }
    endDrag();
  };

  return (
    <ol
      aria-label={`${title} links`}
      className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
    >
      {shown.map((row, index) => (
        <li
          key={row.id}
          data-navigation-row={row.id}
          draggable={hydrated && !busy}
          onDragStart={(event) => {
            event.dataTransfer.effectAllowed = "move";
            event.dataTransfer.setData("text/plain", row.id);
            setDragged(row.id);
          }}
          onDragOver={(event) => {
            if (dragged === undefined) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = "move";
            setOver(row.id);
          }}
          onDrop={(event) => dropOn(event, index, row.id)}
          onDragEnd={endDrag}
          className={`flex flex-wrap items-start gap-3 px-3 py-2 ${hydrated ? "cursor-grab" : ""} ${
            over === row.id && dragged !== row.id ? "bg-indigo-50 dark:bg-indigo-950" : ""
          } ${dragged === row.id ? "opacity-60" : ""}`}
        >
          <div className="min-w-0 grow basis-48">
            <p className="font-medium">{row.label}</p>
            <p className="text-sm break-words text-slate-600 dark:text-slate-400">{row.target}</p>
            <RenameForm menu={menu} row={row} busy={busy} />
          </div>
          <div className="flex gap-1">
            <MoveButtons
              action={CHANGE_ACTION}
              fields={{ intent: "move", menu, item: row.id }}
              index={index}
              count={shown.length}
              name={row.label}
              busy={busy}
              buttonClassName={smallButtonStyles}
            />
            <Form method="post" action={CHANGE_ACTION}>
              <input type="hidden" name="intent" value="remove" />
              <input type="hidden" name="menu" value={menu} />
              <input type="hidden" name="item" value={row.id} />
              <button type="submit" disabled={busy} className={smallButtonStyles}>
                Remove<span className="sr-only"> {row.label}</span>
              </button>
            </Form>
          </div>
        </li>
      ))}
    </ol>
  );
}

/** A new label for one link; a <details>, so it opens without JavaScript too. */
function RenameForm({ menu, row, busy }: { menu: NavigationMenu; row: NavigationRow; busy: boolean }) {
  const inputId = `navigation-${menu}-${row.id}-label`;
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
        Rename<span className="sr-only"> {row.label}</span>
      </summary>
      <Form method="post" action={CHANGE_ACTION} className="mt-2 flex flex-wrap items-center gap-2">
        <input type="hidden" name="intent" value="rename" />
        <input type="hidden" name="menu" value={menu} />
        <input type="hidden" name="item" value={row.id} />
        <label htmlFor={inputId} className="sr-only">
          New label for {row.label}
        </label>
        <input
          id={inputId}
          name="label"
          defaultValue={row.label}
          required
          maxLength={NAVIGATION_LIMITS.label}
          className={`${inputStyles} max-w-xs py-1`}
        />
        <button type="submit" disabled={busy} className={smallButtonStyles}>
          Save label
        </button>
      </Form>
    </details>
  );
}
