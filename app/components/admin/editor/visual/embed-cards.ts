import type { Node } from "prosemirror-model";
import { Plugin, PluginKey } from "prosemirror-state";
import { Decoration, DecorationSet, type EditorView } from "prosemirror-view";
import type { LinkPreviewAnswer } from "#domain/embeds.ts";

const BARE_URL = /^https?:\/\/\S+$/;
const embedCardsKey = new PluginKey<DecorationSet>("embed-cards");

/** The URL a top-level paragraph holds alone, as the server's renderer sees one (server/render/embeds.ts). */
function bareUrl(node: Node): string | undefined {
  const text = node.textContent;
  return node.type.name === "paragraph" && node.childCount === 1 && BARE_URL.test(text) ? text : undefined;
}

/**
 * A URL pasted alone on a line shows, under it, the card readers will get: the server's own
 * sanitised HTML from /admin/link-preview, which fetches and stores the page's Open Graph data.
 * A decoration, not a node: the Markdown stays the bare URL. Only pasted URLs (and those already
 * in the text when the view opens) are asked for, so typing a URL does not fetch each prefix.
 */
export function embedCards(): Plugin<DecorationSet> {
  const cards = new Map<string, string>();
  const asked = new Set<string>();
  let current: EditorView | undefined;
  const ask = (url: string) => {
    if (asked.has(url)) return;
    asked.add(url);
    void fetch("/admin/link-preview", {
      method: "POST",
      body: new URLSearchParams({ url }),
      headers: { Accept: "application/json" },
    })
      .then(async (response) => (response.ok ? ((await response.json()) as LinkPreviewAnswer) : { html: null }))
      .then((answer) => {
        if (!answer.html) return;
        cards.set(url, answer.html);
        current?.dispatch(current.state.tr.setMeta(embedCardsKey, true));
      })
      // No card is the fallback the reader gets too: the URL stays a link.
      .catch(() => {});
  };
  const decorate = (doc: Node, askNew: boolean) => {
    const decorations: Decoration[] = [];
    doc.forEach((node, offset) => {
      const url = bareUrl(node);
      if (url === undefined) return;
      if (askNew) ask(url);
      const html = cards.get(url);
      if (html === undefined) return;
      const render = () => {
        const card = document.createElement("div");
        card.className = "embed-preview";
        card.contentEditable = "false";
        card.setAttribute("data-embed-url", url);
        card.innerHTML = html;
        return card;
      };
      decorations.push(Decoration.widget(offset + node.nodeSize, render, { key: url, side: -1 }));
    });
    return DecorationSet.create(doc, decorations);
  };
  return new Plugin({
    key: embedCardsKey,
    state: {
      init: (_config, state) => decorate(state.doc, true),
      apply: (transaction, old) =>
        transaction.docChanged || transaction.getMeta(embedCardsKey)
          ? decorate(transaction.doc, transaction.getMeta("uiEvent") === "paste")
          : old,
    },
    props: { decorations: (state) => embedCardsKey.getState(state) },
    view: (view) => {
      current = view;
      return { destroy: () => (current = undefined) };
    },
  });
}
