import { lift, setBlockType, toggleMark, wrapIn } from "prosemirror-commands";
import { redo, undo } from "prosemirror-history";
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from "prosemirror-inputrules";
import type { MarkType, Node, NodeType } from "prosemirror-model";
import { type Command, type EditorState, TextSelection } from "prosemirror-state";
import { liftListItem, sinkListItem, splitListItem, wrapInList } from "prosemirror-schema-list";
import { visualSchema as schema } from "./schema";

const nodes = schema.nodes;
const marks = schema.marks;

/** A block the toolbar and the "/" menu can make: its name, a few words to find it by, and its command. */
export interface BlockAction {
  label: string;
  keywords: string;
  /** "image" and "link" ask the writer first; the editor opens its dialog. */
  run: Command | "image" | "link";
  shortcut?: string;
  active?: (state: EditorState) => boolean;
}

export interface MarkAction {
  label: string;
  symbol: string;
  mark: MarkType;
  shortcut: string;
}

export const MARK_ACTIONS: MarkAction[] = [
  { label: "Bold", symbol: "B", mark: marks.strong!, shortcut: "Mod-b" },
  { label: "Italic", symbol: "I", mark: marks.em!, shortcut: "Mod-i" },
  { label: "Strikethrough", symbol: "S", mark: marks.strike!, shortcut: "Mod-Shift-x" },
  { label: "Inline code", symbol: "`c`", mark: marks.code!, shortcut: "Mod-e" },
];

export function markActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection;
  if (empty) return Boolean(type.isInSet(state.storedMarks ?? $from.marks()));
  return state.doc.rangeHasMark(from, to, type);
}

function parentOfType(state: EditorState, type: NodeType): Node | undefined {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) if ($from.node(depth).type === type) return $from.node(depth);
  return undefined;
}

const blockIs = (type: NodeType, attrs?: Record<string, unknown>) => (state: EditorState) => {
  const parent = state.selection.$from.parent;
  return parent.type === type && Object.entries(attrs ?? {}).every(([key, value]) => parent.attrs[key] === value);
};

/** A list of tasks: a bulleted list whose items have a box. */
const taskList: Command = (state, dispatch) => {
  const list = nodes.bullet_list!;
  if (!wrapInList(list)(state)) return false;
  if (!dispatch) return true;
  return wrapInList(list)(state, (tr) => {
    const { $from } = tr.selection;
    for (let depth = $from.depth; depth > 0; depth--) {
      if ($from.node(depth).type === nodes.list_item) {
        tr.setNodeMarkup($from.before(depth), undefined, { checked: false });
        break;
      }
    }
    dispatch(tr);
  });
};

/**
 * Puts a block in place of the empty paragraph the caret is in (as the "/" menu leaves it), or
 * after the caret's block; the caret goes into it, or into a new paragraph after a leaf (a divider).
 */
function insertBlock(node: Node): Command {
  return (state, dispatch) => {
    const { $from } = state.selection;
    const replaces = $from.parent.isTextblock && $from.parent.content.size === 0;
    const at = replaces ? $from.before() : $from.after();
    if (dispatch) {
      const tr = replaces ? state.tr.replaceWith(at, $from.after(), node) : state.tr.insert(at, node);
      if (node.isLeaf) {
        tr.insert(at + node.nodeSize, nodes.paragraph!.create());
        tr.setSelection(TextSelection.create(tr.doc, at + node.nodeSize + 1));
      } else {
        tr.setSelection(TextSelection.near(tr.doc.resolve(at + 1)));
      }
      dispatch(tr.scrollIntoView());
    }
    return true;
  };
}

/** The first footnote number the post does not use yet, as a reference or as a note. */
function nextFootnoteLabel(doc: Node): string {
  const used = new Set<string>();
  doc.descendants((node) => {
    if (node.type === nodes.footnote_ref) used.add(node.attrs.label as string);
    if (node.type === nodes.markdown)
      for (const [, label] of node.textContent.matchAll(/^\[\^([^\]]+)\]:/gm)) used.add(label!);
  });
  let number = 1;
  while (used.has(String(number))) number += 1;
  return String(number);
}

/**
 * A footnote as Ghost and Google Docs make one: its number at the caret, and its note begun at
 * the end of the post (as Markdown writes it, `[^1]: `), where the caret goes to write it.
 */
const insertFootnote: Command = (state, dispatch) => {
  const { parent } = state.selection.$from;
  if (!parent.inlineContent || parent.type.spec.code) return false;
  if (dispatch) {
    const label = nextFootnoteLabel(state.doc);
    const tr = state.tr.replaceSelectionWith(nodes.footnote_ref!.create({ label }), false);
    const note = nodes.markdown!.create(null, schema.text(`[^${label}]: `));
    const end = tr.doc.content.size;
    tr.insert(end, note);
    tr.setSelection(TextSelection.create(tr.doc, end + note.nodeSize - 1));
    dispatch(tr.scrollIntoView());
  }
  return true;
};

const table = () => {
  const row = (header: boolean) =>
    nodes.table_row!.create(null, [nodes.table_cell!.create({ header }), nodes.table_cell!.create({ header })]);
  return nodes.table!.create(null, [row(true), row(false)]);
};

export const BLOCK_ACTIONS: BlockAction[] = [
  { label: "Text", keywords: "paragraph text", run: setBlockType(nodes.paragraph!), active: blockIs(nodes.paragraph!) },
  {
    label: "Heading 2",
    keywords: "heading title h2",
    run: setBlockType(nodes.heading!, { level: 2 }),
    shortcut: "Mod-Alt-2",
    active: blockIs(nodes.heading!, { level: 2 }),
  },
  {
    label: "Heading 3",
    keywords: "heading subtitle h3",
    run: setBlockType(nodes.heading!, { level: 3 }),
    shortcut: "Mod-Alt-3",
    active: blockIs(nodes.heading!, { level: 3 }),
  },
  { label: "Link", keywords: "link url address", run: "link", shortcut: "Mod-k" },
  {
    label: "Bulleted list",
    keywords: "bullet list unordered",
    run: wrapInList(nodes.bullet_list!),
    shortcut: "Mod-Shift-8",
  },
  {
    label: "Numbered list",
    keywords: "numbered list ordered",
    run: wrapInList(nodes.ordered_list!),
    shortcut: "Mod-Shift-7",
  },
  { label: "Task list", keywords: "task todo checkbox list", run: taskList, shortcut: "Mod-Shift-9" },
  { label: "Quote", keywords: "quote blockquote", run: wrapIn(nodes.blockquote!), shortcut: "Mod-Shift-b" },
  { label: "Code block", keywords: "code block fence", run: setBlockType(nodes.code_block!), shortcut: "Mod-Alt-c" },
  { label: "Table", keywords: "table grid columns", run: (state, dispatch) => insertBlock(table())(state, dispatch) },
  {
    label: "Divider",
    keywords: "divider horizontal rule line separator",
    run: (state, dispatch) => insertBlock(nodes.horizontal_rule!.create())(state, dispatch),
  },
  { label: "Image", keywords: "image picture photo figure", run: "image" },
  { label: "Footnote", keywords: "footnote note reference source", run: insertFootnote },
];

/** In a table: the cell's column set to an alignment, or the caret moved to the next cell. */
function cellPosition(
  state: EditorState,
): { table: Node; tableStart: number; row: number; column: number } | undefined {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    if ($from.node(depth).type === nodes.table) {
      return {
        table: $from.node(depth),
        tableStart: $from.start(depth),
        row: $from.index(depth),
        column: $from.index(depth + 1),
      };
    }
  }
  return undefined;
}

export const inTable = (state: EditorState) => parentOfType(state, nodes.table!) !== undefined;

export function alignColumn(align: "left" | "center" | "right"): Command {
  return (state, dispatch) => {
    const at = cellPosition(state);
    if (!at) return false;
    if (dispatch) {
      const tr = state.tr;
      at.table.forEach((row, rowOffset) => {
        row.forEach((cell, cellOffset, index) => {
          // Alignment changes no sizes, so the positions read before stay right.
          if (index === at.column)
            tr.setNodeMarkup(at.tableStart + rowOffset + 1 + cellOffset, undefined, { ...cell.attrs, align });
        });
      });
      dispatch(tr);
    }
    return true;
  };
}

export const addRow: Command = (state, dispatch) => {
  const at = cellPosition(state);
  if (!at) return false;
  if (dispatch) {
    const last = at.table.child(at.row);
    const cells: Node[] = [];
    last.forEach((cell) =>
      cells.push(nodes.table_cell!.create({ header: false, align: cell.attrs.align as string | null })),
    );
    let rowEnd = at.tableStart;
    for (let index = 0; index <= at.row; index++) rowEnd += at.table.child(index).nodeSize;
    const tr = state.tr.insert(rowEnd, nodes.table_row!.create(null, cells));
    dispatch(tr.setSelection(TextSelection.create(tr.doc, rowEnd + 2)).scrollIntoView());
  }
  return true;
};

export const addColumn: Command = (state, dispatch) => {
  const at = cellPosition(state);
  if (!at) return false;
  if (dispatch) {
    const tr = state.tr;
    // From the last row up, so earlier positions stay valid.
    const rows: { offset: number; row: Node }[] = [];
    at.table.forEach((row, offset) => rows.push({ offset, row }));
    for (const { offset, row } of rows.reverse()) {
      const rowEnd = at.tableStart + offset + row.nodeSize - 1;
      tr.insert(rowEnd, nodes.table_cell!.create({ header: row === at.table.firstChild }));
    }
    dispatch(tr);
  }
  return true;
};

/** Tab in a table: the next cell, a new row after the last. */
const nextCell: Command = (state, dispatch) => {
  const at = cellPosition(state);
  if (!at) return false;
  const { $from } = state.selection;
  const cellEnd = $from.after($from.depth);
  const after = state.doc.resolve(cellEnd);
  const isLastInRow = after.index() >= after.parent.childCount;
  const target = isLastInRow ? cellEnd + 2 : cellEnd + 1;
  if (at.row === at.table.childCount - 1 && isLastInRow) return addRow(state, dispatch);
  if (dispatch) dispatch(state.tr.setSelection(TextSelection.create(state.doc, target)).scrollIntoView());
  return true;
};

/** Markdown typed as in the Markdown view turns into its block: "## ", "> ", "- ", "1. ", "```", "---". */
export function markdownInputRules() {
  return inputRules({
    rules: [
      textblockTypeInputRule(/^(#{1,6})\s$/, nodes.heading!, (match) => ({ level: match[1]!.length })),
      wrappingInputRule(/^\s*>\s$/, nodes.blockquote!),
      wrappingInputRule(/^\s*([-+*])\s$/, nodes.bullet_list!),
      wrappingInputRule(
        /^(\d+)\.\s$/,
        nodes.ordered_list!,
        (match) => ({ order: Number(match[1]) }),
        (match, node) => node.childCount + (node.attrs.order as number) === Number(match[1]),
      ),
      textblockTypeInputRule(/^```([\w+-]*)\s$/, nodes.code_block!, (match) => ({ params: match[1] ?? "" })),
      new InputRule(/^(?:---|\*\*\*|___)$/, (state, _match, start, end) => {
        const $start = state.doc.resolve(start);
        if ($start.parent.type !== nodes.paragraph) return null;
        return state.tr
          .replaceRangeWith($start.before(), $start.after(), nodes.horizontal_rule!.create())
          .delete(start, end);
      }),
    ],
  });
}

/** The view's keys: the marks' shortcuts, the blocks', lists and tables. */
export function visualKeys(openLink: () => void, openImage: () => void): Record<string, Command> {
  const keys: Record<string, Command> = {
    "Mod-z": undo,
    "Shift-Mod-z": redo,
    "Mod-y": redo,
    Enter: splitListItem(nodes.list_item!),
    "Mod-[": liftListItem(nodes.list_item!),
    "Mod-]": sinkListItem(nodes.list_item!),
    Tab: (state, dispatch) => nextCell(state, dispatch) || sinkListItem(nodes.list_item!)(state, dispatch),
    "Shift-Tab": (state, dispatch) => liftListItem(nodes.list_item!)(state, dispatch) || lift(state, dispatch),
    "Shift-Enter": (state, dispatch) => {
      if (dispatch) dispatch(state.tr.replaceSelectionWith(nodes.hard_break!.create()).scrollIntoView());
      return true;
    },
  };
  for (const action of MARK_ACTIONS) keys[action.shortcut] = toggleMark(action.mark);
  for (const action of BLOCK_ACTIONS) {
    if (!action.shortcut) continue;
    const run = action.run;
    keys[action.shortcut] =
      run === "link" ? () => (openLink(), true) : run === "image" ? () => (openImage(), true) : run;
  }
  return keys;
}
