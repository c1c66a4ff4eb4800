import { expect, test } from "@playwright/test";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { composePostEmail } from "../../server/newsletter/email.ts";

// A post's email as a phone shows it (issue 32): the message is written by nodemailer and parsed
// back as a mail client would, then drawn by Chromium at a phone's width. Nothing may make the
// reader scroll sideways.

const PHONE = { width: 375, height: 812 };
/** One unbroken word as long as a tracking-laden address: what used to widen the email to 800 px. */
const LONG_URL = `https://example.com/${"a".repeat(80)}`;

async function receivedHtml(contentHtml: string): Promise<string> {
  const email = composePostEmail(
    {
      title: `A title with ${"x".repeat(60)} in it`,
      slug: "a-long-word",
      excerpt: "An excerpt.",
      author: "Ada Writer",
      coverImage: "https://images.example.com/cover.jpg",
      contentHtml,
    },
    { title: "Field Notes", url: "https://notes.example" },
  );
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail({ from: "news@notes.example", to: "reader@example.com", ...email });
  return String((await simpleParser(info.message as Buffer)).html);
}

test("a long unbroken word or address wraps on a 375 px phone instead of widening the email", async ({ page }) => {
  await page.setViewportSize(PHONE);
  // Images and fonts from the network are not what is measured.
  await page.route("**/*", (route) => route.abort());
  await page.setContent(
    await receivedHtml(`<p>Read <a href="${LONG_URL}">${LONG_URL}</a> and then ${LONG_URL} again.</p>`),
  );
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
  }));
  expect(widths.document).toBeLessThanOrEqual(PHONE.width);
  expect(widths.body).toBeLessThanOrEqual(PHONE.width);
});
