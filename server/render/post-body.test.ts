import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { renderPostBody, slugifyHeading } from "./post-body.ts";

const render = (source: string) => renderPostBody("markdown", source).html;

describe("renderPostBody: Markdown", () => {
  it("renders the CommonMark constructs writers use", () => {
    expect(render("# Title\n\nSome *emphasis*, **strong** and `code`.")).toBe(
      '<h1 id="h-title">Title</h1>\n<p>Some <em>emphasis</em>, <strong>strong</strong> and <code>code</code>.</p>\n',
    );
    expect(render("> quoted\n\n- one\n- two\n\n1. first\n2. second")).toBe(
      "<blockquote>\n<p>quoted</p>\n</blockquote>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>first</li>\n<li>second</li>\n</ol>\n",
    );
    expect(render('[a link](https://example.com "Example")')).toBe(
      '<p><a href="https://example.com" title="Example">a link</a></p>\n',
    );
    expect(render("![a cat](https://example.com/cat.png)")).toBe(
      '<p><img loading="lazy" src="https://example.com/cat.png" alt="a cat" /></p>\n',
    );
    // A backslash escape and an entity stay text.
    expect(render("\\*not emphasis\\* &amp; more")).toBe("<p>*not emphasis* &amp; more</p>\n");
    expect(render("line one  \nline two")).toBe("<p>line one<br />\nline two</p>\n");
  });

  it("renders GFM tables, strikethrough, task lists, footnotes and autolinks", () => {
    expect(render("| a | b |\n|---|--:|\n| 1 | 2 |")).toContain("<table>\n<thead>\n<tr>\n<th>a</th>");
    expect(render("~~gone~~")).toBe("<p><s>gone</s></p>\n");
    const tasks = render("- [x] done\n- [ ] to do");
    expect(tasks).toContain('<ul class="contains-task-list">');
    expect(tasks).toContain(
      '<li class="task-list-item"><input type="checkbox" disabled checked aria-label="Done" /> done</li>',
    );
    expect(tasks).toContain(
      '<li class="task-list-item"><input type="checkbox" disabled aria-label="To do" /> to do</li>',
    );
    const footnotes = render("Claim.[^1]\n\n[^1]: Source.");
    expect(footnotes).toContain('<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>');
    expect(footnotes).toContain('<li id="fn1" class="footnote-item">');
    expect(render("see https://example.com/page")).toBe(
      '<p>see <a href="https://example.com/page">https://example.com/page</a></p>\n',
    );
  });

  it("keeps a table column's alignment, and only that", () => {
    const table = render("| left | centre | right | none |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |");
    expect(table).toContain('<th style="text-align:left">left</th>');
    expect(table).toContain('<th style="text-align:center">centre</th>');
    expect(table).toContain('<th style="text-align:right">right</th>');
    expect(table).toContain("<th>none</th>");
    expect(table).toContain('<td style="text-align:left">1</td>');
    expect(table).toContain('<td style="text-align:center">2</td>');
    expect(table).toContain('<td style="text-align:right">3</td>');
    expect(table).toContain("<td>4</td>");
    // Written by hand, any other style or class on a cell goes.
    expect(
      renderPostBody(
        "html",
        '<table><tr><th style="text-align:right;color:red" class="wide">a</th>' +
          '<td style="text-align:justify;position:fixed" class="align-left">b</td>' +
          '<td style="text-align:url(javascript:alert(1))">c</td></tr></table>',
      ).html,
    ).toBe('<table><tr><th style="text-align:right">a</th><td>b</td><td>c</td></tr></table>');
  });

  it("links www. addresses and strikes through with one or two tildes, as GFM does", () => {
    expect(render("see www.example.com/page.")).toBe(
      '<p>see <a href="http://www.example.com/page">www.example.com/page</a>.</p>\n',
    );
    expect(render("(www.example.com)")).toBe('<p>(<a href="http://www.example.com">www.example.com</a>)</p>\n');
    // Only at a word's start: not inside another word or address.
    expect(render("swww.example.com and foo.www.example.com")).not.toContain("<a");
    expect(render("write to me@example.com")).toBe(
      '<p>write to <a href="mailto:me@example.com">me@example.com</a></p>\n',
    );
    expect(render("~one~ and ~~two~~")).toBe("<p><s>one</s> and <s>two</s></p>\n");
    expect(render("a~b~c")).toBe("<p>a<s>b</s>c</p>\n");
    // Three or more tildes, unmatched runs and runs of different lengths are text.
    expect(render("a ~~~three~~~ b")).toBe("<p>a ~~~three~~~ b</p>\n");
    expect(render("~one~~ two")).toBe("<p>~one~~ two</p>\n");
    expect(render("~~one~ two")).toBe("<p>~~one~ two</p>\n");
    expect(render("~one~~ two~")).toBe("<p><s>one~~ two</s></p>\n");
    expect(render("cd ~/path, a ~ b, about ~5 or ~6 people")).toBe("<p>cd ~/path, a ~ b, about ~5 or ~6 people</p>\n");
    expect(render("`~code~` and ~struck `code`~")).toBe(
      "<p><code>~code~</code> and <s>struck <code>code</code></s></p>\n",
    );
  });

  it("turns a link that goes nowhere into its text", () => {
    expect(render("[empty]() and [angle](<>) and []()")).toBe("<p>empty and angle and </p>\n");
    expect(render("[ftp](ftp://example.com/file) and <irc://example.com/chat>")).toBe(
      "<p>ftp and irc://example.com/chat</p>\n",
    );
    expect(render('<a href="javascript:alert(1)">click <em>here</em></a>')).toBe("<p>click <em>here</em></p>\n");
    expect(renderPostBody("html", '<p><a name="top">Top</a> <a href="/about">About</a></p>').html).toBe(
      '<p>Top <a href="/about">About</a></p>',
    );
    // A footnote's own target stays, though it links nowhere itself.
    expect(renderPostBody("html", '<p><a id="fn1"></a>Note.</p>').html).toBe('<p><a id="fn1"></a>Note.</p>');
  });

  it("gives headings stable ids and long posts a table of contents", () => {
    expect(slugifyHeading("Héllo, World!")).toBe("h-hello-world");
    const short = renderPostBody("markdown", "## One\n\n## Two\n\n## Three").html;
    expect(short).not.toContain("<nav");
    const long = renderPostBody("markdown", "## One\n\n### Two\n\n## Three\n\n## Three").html;
    expect(long).toMatch(/^<nav class="toc" aria-label="Contents">/);
    expect(long).toContain('<li class="toc-level-3"><a href="#h-two">Two</a></li>');
    // Two headings with the same text still get ids of their own.
    expect(long).toContain('id="h-three"');
    expect(long).toContain('id="h-three-1"');
  });

  it("highlights code with both themes' colours as CSS variables, and keeps unknown languages plain", () => {
    const html = render("```ts\nconst answer: number = 42;\n```");
    expect(html).toContain('<pre class="shiki shiki-themes github-light github-dark"');
    expect(html).toMatch(/<span style="--shiki-light:#[0-9A-F]{6};--shiki-dark:#[0-9A-F]{6}">const<\/span>/i);
    expect(html).not.toMatch(/style="[^"]*(?<!-)color:/);
    expect(render("```klingon\n<b>qapla'</b>\n```")).toBe(
      '<pre><code class="language-klingon">&lt;b&gt;qapla\'&lt;/b&gt;\n</code></pre>\n',
    );
  });

  it("computes reading time from the rendered words", () => {
    expect(renderPostBody("markdown", "word ".repeat(10)).readingMinutes).toBe(1);
    expect(renderPostBody("markdown", "word ".repeat(230 * 5)).readingMinutes).toBe(5);
  });
});

describe("renderPostBody: nothing executable survives Markdown", () => {
  const attacks = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](&#106;avascript:alert(1))",
    "![img](javascript:alert(1))",
    "<javascript:alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    '<div style="background:url(javascript:alert(1))" onclick="alert(1)">x</div>',
    '<span style="--shiki-light:#fff;color:red;position:fixed">x</span>',
    '<input type="text" name="password" autofocus onfocus="alert(1)">',
    '<h2 id="comment-form">hijack</h2>',
    "```js\n</code></pre><script>alert(1)</script>\n```",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "<svg><script>alert(1)</script></svg>",
    '<table><tr><td style="text-align:right;background:url(javascript:alert(1))" onclick="x">x</td></tr></table>',
    '| a |\n|--:|\n| <span style="text-align:right;position:fixed">x</span> |',
  ];

  /** Every element and attribute the browser would build from the HTML: text that merely reads "javascript:" is harmless. */
  function elements(html: string): { name: string; attributes: Record<string, string> }[] {
    const found: { name: string; attributes: Record<string, string> }[] = [];
    const parser = new Parser({ onopentag: (name, attributes) => found.push({ name, attributes }) });
    parser.write(html);
    parser.end();
    return found;
  }

  it.each(attacks)("%s", (attack) => {
    for (const { name, attributes } of elements(render(attack))) {
      expect(["script", "iframe", "svg", "object", "embed", "style", "form", "textarea"]).not.toContain(name);
      for (const [attribute, value] of Object.entries(attributes)) {
        expect(attribute).not.toMatch(/^on|^autofocus$|^name$/);
        // Relative addresses are harmless; any scheme but these is not.
        if (attribute === "href" || attribute === "src") expect(value).toMatch(/^(https?:|mailto:|[^:]*$)/i);
        if (attribute === "style") {
          expect(value).toMatch(/^((--shiki-(light|dark)(-bg)?:#[0-9a-f]+|text-align:(left|right|center));?)+$/i);
        }
        if (attribute === "id") expect(value).not.toBe("comment-form");
      }
      if (name === "input") expect(attributes).toMatchObject({ type: "checkbox", disabled: "" });
      // A link whose address was dropped is no link at all.
      if (name === "a") expect(attributes.href ?? attributes.id).toBeDefined();
    }
  });

  it("keeps raw HTML that is harmless, as CommonMark allows", () => {
    expect(render("<p>Hello from the editor.</p>")).toBe("<p>Hello from the editor.</p>");
  });

  it("keeps the editor's captioned image as a figure, and the paragraph after it", () => {
    const figure = [
      "<figure>",
      '<img src="https://example.com/boat.png" alt="A boat at dawn">',
      "<figcaption>The harbour &#38; its boats</figcaption>",
      "</figure>",
    ].join("\n");
    expect(render(`${figure}\n\nAfter the picture.`)).toBe(
      '<figure>\n<img loading="lazy" src="https://example.com/boat.png" alt="A boat at dawn" />\n' +
        "<figcaption>The harbour &amp; its boats</figcaption>\n</figure>\n<p>After the picture.</p>\n",
    );
  });
});

describe("renderPostBody: HTML", () => {
  it("sanitises an HTML body exactly as before, without Markdown", () => {
    expect(renderPostBody("html", "<p>*not markdown*</p><script>x</script>").html).toBe("<p>*not markdown*</p>");
  });
});
