import { type DOMOutputSpec, type Mark, Schema } from "prosemirror-model";

const alignStyle = (align: string | null) => (align ? `text-align: ${align}` : null);

/**
 * What the visual view can show and edit: the Markdown the site renders (CommonMark, GFM tables,
 * strikethrough and task lists, footnote references, figures with captions). Anything else keeps
 * its own text in a `markdown` block or an inline `html` chip, so nothing is ever lost.
 */
export const visualSchema = new Schema({
  nodes: {
    doc: { content: "block+" },
    paragraph: {
      content: "inline*",
      group: "block",
      parseDOM: [{ tag: "p" }],
      toDOM: () => ["p", 0],
    },
    heading: {
      attrs: { level: { default: 2 } },
      content: "inline*",
      group: "block",
      defining: true,
      parseDOM: [1, 2, 3, 4, 5, 6].map((level) => ({ tag: `h${level}`, attrs: { level } })),
      toDOM: (node) => [`h${node.attrs.level as number}`, 0],
    },
    blockquote: {
      content: "block+",
      group: "block",
      defining: true,
      parseDOM: [{ tag: "blockquote" }],
      toDOM: () => ["blockquote", 0],
    },
    horizontal_rule: {
      group: "block",
      attrs: { markup: { default: "---" } },
      parseDOM: [{ tag: "hr" }],
      toDOM: () => ["hr"],
    },
    code_block: {
      content: "text*",
      group: "block",
      code: true,
      defining: true,
      marks: "",
      attrs: { params: { default: "" } },
      parseDOM: [
        {
          tag: "pre",
          preserveWhitespace: "full",
          getAttrs: (dom) => ({ params: (dom as HTMLElement).getAttribute("data-params") ?? "" }),
        },
      ],
      toDOM: (node) => [
        "pre",
        { "data-params": node.attrs.params as string, "data-language": (node.attrs.params as string) || null },
        ["code", 0],
      ],
    },
    /** Markdown the visual view does not draw (raw HTML, definitions): its source, edited as text. */
    markdown: {
      content: "text*",
      group: "block",
      code: true,
      marks: "",
      parseDOM: [{ tag: "pre.markdown-source", preserveWhitespace: "full" }],
      toDOM: () => ["pre", { class: "markdown-source", "data-label": "Markdown" }, ["code", 0]],
    },
    figure: {
      group: "block",
      attrs: { src: {}, alt: { default: "" }, caption: { default: "" } },
      draggable: true,
      parseDOM: [
        {
          tag: "figure",
          getAttrs: (dom) => {
            const image = (dom as HTMLElement).querySelector("img");
            if (!image) return false;
            return {
              src: image.getAttribute("src") ?? "",
              alt: image.getAttribute("alt") ?? "",
              caption: (dom as HTMLElement).querySelector("figcaption")?.textContent ?? "",
            };
          },
        },
      ],
      toDOM: (node): DOMOutputSpec => [
        "figure",
        ["img", { src: node.attrs.src as string, alt: node.attrs.alt as string }],
        ["figcaption", (node.attrs.caption as string) || ""],
      ],
    },
    ordered_list: {
      content: "list_item+",
      group: "block",
      attrs: { order: { default: 1 }, tight: { default: true } },
      parseDOM: [
        {
          tag: "ol",
          getAttrs: (dom) => ({ order: Number((dom as HTMLElement).getAttribute("start") ?? 1) }),
        },
      ],
      toDOM: (node) => ["ol", { start: node.attrs.order === 1 ? null : (node.attrs.order as number) }, 0],
    },
    bullet_list: {
      content: "list_item+",
      group: "block",
      attrs: { tight: { default: true }, bullet: { default: "-" } },
      parseDOM: [{ tag: "ul" }],
      toDOM: () => ["ul", 0],
    },
    list_item: {
      content: "block+",
      attrs: { checked: { default: null } },
      defining: true,
      parseDOM: [{ tag: "li" }],
      toDOM: (node) =>
        node.attrs.checked === null
          ? ["li", 0]
          : ["li", { "data-checked": String(node.attrs.checked), class: "task" }, 0],
    },
    table: {
      content: "table_row+",
      group: "block",
      isolating: true,
      parseDOM: [{ tag: "table" }],
      toDOM: () => ["table", ["tbody", 0]],
    },
    table_row: { content: "table_cell+", parseDOM: [{ tag: "tr" }], toDOM: () => ["tr", 0] },
    table_cell: {
      content: "inline*",
      attrs: { header: { default: false }, align: { default: null } },
      isolating: true,
      parseDOM: [
        { tag: "th", getAttrs: (dom) => ({ header: true, align: (dom as HTMLElement).style.textAlign || null }) },
        { tag: "td", getAttrs: (dom) => ({ header: false, align: (dom as HTMLElement).style.textAlign || null }) },
      ],
      toDOM: (node) => [node.attrs.header ? "th" : "td", { style: alignStyle(node.attrs.align as string | null) }, 0],
    },
    text: { group: "inline" },
    image: {
      inline: true,
      attrs: { src: {}, alt: { default: "" }, title: { default: null } },
      group: "inline",
      draggable: true,
      parseDOM: [
        {
          tag: "img[src]",
          getAttrs: (dom) => ({
            src: (dom as HTMLElement).getAttribute("src"),
            alt: (dom as HTMLElement).getAttribute("alt") ?? "",
            title: (dom as HTMLElement).getAttribute("title"),
          }),
        },
      ],
      toDOM: (node) => ["img", { src: node.attrs.src as string, alt: node.attrs.alt as string }],
    },
    hard_break: {
      inline: true,
      group: "inline",
      selectable: false,
      parseDOM: [{ tag: "br" }],
      toDOM: () => ["br"],
    },
    footnote_ref: {
      inline: true,
      group: "inline",
      atom: true,
      attrs: { label: {} },
      toDOM: (node) => [
        "sup",
        { class: "footnote-ref", "data-label": node.attrs.label as string },
        `[${node.attrs.label as string}]`,
      ],
    },
    /** Inline HTML the writer typed in Markdown, kept as written. */
    html: {
      inline: true,
      group: "inline",
      atom: true,
      attrs: { source: {} },
      toDOM: (node) => ["code", { class: "html-source" }, node.attrs.source as string],
    },
  },
  marks: {
    link: {
      attrs: { href: {}, title: { default: null } },
      inclusive: false,
      parseDOM: [
        {
          tag: "a[href]",
          getAttrs: (dom) => ({
            href: (dom as HTMLElement).getAttribute("href"),
            title: (dom as HTMLElement).getAttribute("title"),
          }),
        },
      ],
      toDOM: (mark: Mark) => ["a", { href: mark.attrs.href as string, title: mark.attrs.title as string | null }, 0],
    },
    em: {
      parseDOM: [{ tag: "i" }, { tag: "em" }, { style: "font-style=italic" }],
      toDOM: () => ["em", 0],
    },
    strong: {
      parseDOM: [
        { tag: "strong" },
        // Google Docs wraps a whole paste in <b style="font-weight:normal">.
        { tag: "b", getAttrs: (node) => (node as HTMLElement).style.fontWeight !== "normal" && null },
        { style: "font-weight=400", clearMark: (mark) => mark.type.name === "strong" },
        { style: "font-weight", getAttrs: (value) => /^(bold(er)?|[5-9]\d{2,})$/.test(value as string) && null },
      ],
      toDOM: () => ["strong", 0],
    },
    strike: {
      parseDOM: [{ tag: "s" }, { tag: "del" }, { tag: "strike" }, { style: "text-decoration=line-through" }],
      toDOM: () => ["s", 0],
    },
    code: { parseDOM: [{ tag: "code" }], toDOM: () => ["code", 0] },
  },
});
