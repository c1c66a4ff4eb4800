import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMailer, type Mailer } from "../../server/newsletter/mailer.ts";
import { composePostEmail } from "../../server/newsletter/email.ts";
import { UNSUBSCRIBE_PLACEHOLDER } from "../../server/newsletter/outbox.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, createPosts } from "../support/factories.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { useTestBlog } from "../support/test-blog.ts";

const SITE = { title: "Field Notes", url: "https://notes.example/journal" };
const UNSUBSCRIBE_URL = "https://notes.example/journal/unsubscribe?token=u.abc.sig";

const BODY = `An [older post](/blog/older-post), a [relative page](notes) and <https://elsewhere.example/x>.

![A cat on a mat](/media/cat.jpg "The cat")

\`\`\`ts
const answer = 42; // a line long enough that a phone would have to scroll it sideways without wrapping
\`\`\`
`;

describe.each(testDialects())("a stored post emailed through SMTP on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  let sink: SmtpSink;
  let mailer: Mailer;

  beforeEach(async (context) => {
    if (skip) context.skip();
    sink = await startSmtpSink();
    mailer = await createMailer({
      smtpUrl: sink.url,
      fromAddress: "news@notes.example",
      rate: 100,
    });
  });
  afterEach(async () => {
    mailer?.close();
    await sink?.close();
  });

  /** The post saved as the editor saves it, composed, sent with its placeholder filled, and parsed as received. */
  async function sendPost(title: string) {
    const [post] = await createPosts(blog.services, blog.clock, [
      buildPostInput({ title, format: "markdown", content: BODY, coverImage: "/media/cover.jpg" }),
    ]);
    const email = composePostEmail(post!, SITE);
    const fill = (text: string) => text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, UNSUBSCRIBE_URL);
    await mailer.send({
      fromName: SITE.title,
      to: "reader@example.com",
      subject: email.subject,
      html: fill(email.html),
      text: fill(email.text),
    });
    await sink.waitFor(1);
    return { post: post!, mail: sink.received[0]!.parsed! };
  }

  it("arrives with the title as subject, escaped in the HTML, and a text part with the links in brackets", async () => {
    const title = `</title><img src=x onerror=alert(1)> "Bread" & butter`;
    const { post, mail } = await sendPost(title);
    expect(mail.subject).toBe(title);
    const html = String(mail.html);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&#60;/title&#62;&#60;img src=x onerror=alert(1)&#62; &#34;Bread&#34; &#38; butter");

    const postUrl = `https://notes.example/journal/blog/${post.slug}`;
    expect(mail.text).toContain(`View in browser: ${postUrl}`);
    expect(mail.text).toContain("An older post [https://notes.example/journal/blog/older-post]");
    expect(mail.text).toContain(`a relative page [https://notes.example/journal/blog/notes]`);
    expect(mail.text).toContain("const answer = 42;");
    expect(mail.text).toContain(`Unsubscribe: ${UNSUBSCRIBE_URL}`);
  });

  it("carries only absolute addresses, the post's own links unchanged, and no tracking pixel", async () => {
    const { post, mail } = await sendPost("A plain title");
    const html = String(mail.html);
    const values = (name: string) => [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, "g"))].map((m) => m[1]!);
    for (const address of [...values("href"), ...values("src")]) expect(address).toMatch(/^https:\/\//);
    expect(values("href")).toEqual(
      expect.arrayContaining([
        `https://notes.example/journal/blog/${post.slug}`,
        "https://notes.example/journal/blog/older-post",
        "https://elsewhere.example/x",
        UNSUBSCRIBE_URL,
      ]),
    );
    expect(values("src")).toEqual([
      "https://notes.example/journal/media/cover.jpg",
      "https://notes.example/journal/media/cat.jpg",
    ]);
    expect(html).toMatch(/<pre style="[^"]*white-space:pre-wrap/);
    expect(mail.attachments).toEqual([]);
  });
});
