import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { type ComposedEmail, composeConfirmationEmail, composePostEmail, type EmailPost } from "./email.ts";
import { htmlToText } from "./email-text.ts";

const SITE = { title: "Field <Notes> & Co", url: "https://notes.example/journal" };

const POST: EmailPost = {
  title: `<script>alert("x")</script> Tom's & Jerry's <b>notes</b>`,
  slug: "hello-world",
  excerpt: "What the week taught me <i>about</i> bread",
  author: "Ada Writer",
  coverImage: "/media/cover.jpg",
  contentHtml: [
    `<h2 id="h-intro">Intro</h2>`,
    `<p>See <a href="/blog/older-post">the older post</a>, <a href="notes">a relative page</a> and <a href="https://elsewhere.example/x">https://elsewhere.example/x</a>.</p>`,
    `<picture><source type="image/avif" srcset="/media/cat-800.avif 800w" sizes="100vw" />`,
    `<img src="/media/cat-1600.jpg" srcset="/media/cat-800.jpg 800w" width="1600" height="900" alt="A cat" loading="lazy" /></picture>`,
    `<pre class="shiki" style="--shiki-light:#24292e" tabindex="0"><code><span class="line"><span style="--shiki-light:#d73a49">const</span> answer = 42;</span>\n<span class="line">  return answer;</span></code></pre>`,
  ].join(""),
};

/** What a mail client receives: the message sent through nodemailer and parsed back. */
async function deliver(email: ComposedEmail) {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail({
    from: "Field Notes <news@notes.example>",
    to: "reader@example.com",
    ...email,
  });
  return simpleParser(info.message as Buffer);
}

const attributeValues = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, "g"))].map((match) => match[1]!);

describe("a post as an email", () => {
  it("has the title as subject, escaped in the HTML, and a text part", async () => {
    const mail = await deliver(composePostEmail(POST, SITE));
    expect(mail.subject).toBe(POST.title);
    const html = String(mail.html);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>notes</b>");
    expect(html).toContain("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; Tom&#39;s &#38; Jerry&#39;s");
    expect(html).toContain("Field &#60;Notes&#62; &#38; Co");
    expect(html).not.toContain("<i>about</i>");

    expect(mail.text).toContain(POST.title);
    expect(mail.text).toContain("View in browser: https://notes.example/journal/blog/hello-world");
    expect(mail.text).toContain("See the older post [https://notes.example/journal/blog/older-post]");
    expect(mail.text).toContain("and https://elsewhere.example/x.");
    expect(mail.text).toContain("const answer = 42;\n  return answer;");
    expect(mail.text).toContain("Field <Notes> & Co · https://notes.example/journal/");
    expect(mail.text).toContain("Unsubscribe: {{unsubscribe_url}}");
  });

  it("carries only absolute addresses, the post's own, and no tracking pixel", async () => {
    const html = String((await deliver(composePostEmail(POST, SITE))).html);
    expect(attributeValues(html, "href").sort()).toEqual(
      [
        "https://notes.example/journal/blog/hello-world",
        "https://notes.example/journal/blog/older-post",
        "https://notes.example/journal/blog/notes",
        "https://elsewhere.example/x",
        "https://notes.example/journal/",
        "{{unsubscribe_url}}",
      ].sort(),
    );
    expect(attributeValues(html, "src")).toEqual([
      "https://notes.example/journal/media/cover.jpg",
      "https://notes.example/journal/media/cat-1600.jpg",
    ]);
    expect(html).not.toMatch(/srcset|<source/);
  });

  it("lays out 600 px with inline styles: images no wider than the body, code wrapped", () => {
    const { html } = composePostEmail(POST, SITE);
    expect(html).toContain(`<table role="presentation" width="600"`);
    expect(html).toContain("max-width:600px");
    expect(html).toContain(`<img src="https://notes.example/journal/media/cat-1600.jpg" width="552" height="311"`);
    expect(html).toMatch(/<pre style="[^"]*white-space:pre-wrap[^"]*"><code/);
    expect(html).not.toContain("--shiki");
    expect(html).toContain(`<meta name="color-scheme" content="light dark">`);
    expect(html).toContain("prefers-color-scheme: dark");
  });

  it("carries a captioned image as a figure, its caption styled and in the text part", () => {
    const contentHtml = `<figure>\n<img src="/media/boat.png" alt="A boat" loading="lazy" />\n<figcaption>The harbour at dawn</figcaption>\n</figure>`;
    const { html, text } = composePostEmail({ ...POST, contentHtml }, SITE);
    expect(html).toMatch(/<figure style="[^"]*">\n<img src="https:\/\/notes\.example\/journal\/media\/boat\.png"/);
    expect(html).toMatch(/<figcaption style="[^"]*font-size:14px[^"]*">The harbour at dawn<\/figcaption>/);
    expect(text).toContain("[A boat]\n\nThe harbour at dawn");
  });
});

describe("the plain-text part", () => {
  it("puts blocks on lines of their own, marks list items and keeps a link's address in brackets", () => {
    expect(
      htmlToText(
        `<p>One <strong>two</strong></p><ul><li>a <a href="https://x.example/">link</a></li><li>b<ol><li>c</li></ol></li></ul><blockquote><p>said</p></blockquote><p>line<br>break &amp; more</p>`,
      ),
    ).toBe("One two\n\n- a link [https://x.example/]\n- b\n  1. c\n\nsaid\n\nline\nbreak & more");
  });
});

describe("the confirmation email", () => {
  it("carries the link in both parts and says what happens if it is not followed", async () => {
    const url = "https://notes.example/journal/subscribe/confirm?token=c.abc.def.ghi";
    const mail = await deliver(composeConfirmationEmail(SITE, url));
    expect(mail.subject).toBe("Confirm your subscription to Field <Notes> & Co");
    expect(attributeValues(String(mail.html), "href")).toContain(url);
    expect(mail.text).toContain(`Confirm: ${url}`);
    expect(mail.text).toContain("The link works for 7 days.");
    expect(String(mail.html)).not.toContain("{{unsubscribe_url}}");
  });
});
