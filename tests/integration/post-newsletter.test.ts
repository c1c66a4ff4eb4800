import { Parser } from "htmlparser2";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PostInput } from "#domain/post.ts";
import { type DatabaseHandle, type Dialect } from "../../server/kernel/db/connect.ts";
import { createMailer, type Mailer } from "../../server/newsletter/mailer.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { UNSUBSCRIBE_PLACEHOLDER } from "../../server/newsletter/outbox.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { buildPostInput, createManualClock, TEST_PASSWORD_COST, TEST_WRITER } from "../support/factories.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";

const FROM = { fromAddress: "news@blog.example" };
const HOUR = 3_600_000;

/** Every tag of a name with its attributes, as a mail client reads them (entities decoded). */
function tagsOf(html: string, tag: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const parser = new Parser(
    {
      onopentag(opened, attribs) {
        if (opened === tag) found.push(attribs);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

const attributeValues = (html: string, tag: string, name: string) =>
  tagsOf(html, tag).flatMap((attribs) => (attribs[name] === undefined ? [] : [attribs[name]]));

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#2a6f97" } })
    .jpeg()
    .toBuffer();

/** Long enough for the worker (polling every 10 ms) to have sent anything it was going to. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe.each(testDialects())("emailing a post on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let clock: ReturnType<typeof createManualClock>;
  let services: Services;
  let sink: SmtpSink;
  let mailer: Mailer;
  const errors: unknown[] = [];

  function makeServices(emailOn: boolean, batchSize = 50) {
    return createServices({
      db: handle.db,
      dialect: dialect as Dialect,
      now: clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      siteUrl: "https://blog.example",
      emailOn,
      outboxTuning: { pollMs: 10, batchSize },
    });
  }
  /** Starts the worker as server.ts does, with the tick that queues scheduled posts. */
  const startWorker = () =>
    services.outbox.start(mailer, (error) => errors.push(error), services.postNewsletter.sendDuePosts);

  async function addActiveSubscribers(count: number, extra: { email: string; state: "pending" }[] = []) {
    const at = clock.now().toISOString();
    const rows = [
      ...Array.from({ length: count }, (_, index) => ({
        email: `reader${index}@example.com`,
        state: "active" as const,
      })),
      ...extra,
    ].map((subscriber, index) => ({
      id: `sub-${index}`,
      ...subscriber,
      source: "admin" as const,
      created_at: at,
      confirmed_at: subscriber.state === "active" ? at : null,
      unsubscribed_at: null,
    }));
    await handle.db.insertInto("subscribers").values(rows).execute();
  }

  const save = (id: string, changes: Partial<PostInput>) =>
    services.posts.getPostForEditing(id).then((post) =>
      services.posts.updatePost(
        id,
        {
          ...buildPostInput(),
          ...post,
          category: buildPostInput().category,
          publishAt: "",
          publishAtOffset: "",
          emailSubscribers: false,
          ...changes,
        },
        TEST_WRITER,
      ),
    );
  const sendOf = async (postId: string) => (await services.postNewsletter.findSends([postId])).get(postId);

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    clock = createManualClock();
    services = makeServices(true);
    sink = await startSmtpSink();
    mailer = await createMailer({ smtpUrl: sink.url, ...FROM, rate: 100 });
    errors.length = 0;
  });
  afterEach(async () => {
    await services?.outbox.stop();
    mailer?.close();
    await sink?.close();
    await handle?.close();
    expect(errors).toEqual([]);
  });

  it("emails a post published with the box ticked once to each active subscriber, and never again", async () => {
    await addActiveSubscribers(3, [{ email: "pending@example.com", state: "pending" }]);
    startWorker();
    const post = await services.posts.createPost(
      buildPostInput({ title: "A heron at dawn", emailSubscribers: true }),
      TEST_WRITER,
    );
    expect(post.newsletter).toBe("sent");
    await sink.waitFor(3);
    expect(sink.received.map((email) => email.to).toSorted()).toEqual([
      "reader0@example.com",
      "reader1@example.com",
      "reader2@example.com",
    ]);
    expect(sink.received.map((email) => email.parsed!.subject)).toEqual(Array(3).fill("A heron at dawn"));
    await expect.poll(async () => (await sendOf(post.id))?.state).toBe("done");
    expect(await sendOf(post.id)).toMatchObject({ total: 3, sent: 3, failed: 0 });

    // Edited, unpublished, republished with the box ticked again: nothing more goes out.
    clock.advance(HOUR);
    await save(post.id, { title: "A heron at dusk", emailSubscribers: true });
    await save(post.id, { published: false, emailSubscribers: true });
    const republished = await save(post.id, { published: true, emailSubscribers: true });
    expect(republished.newsletter).toBe("sent");
    await settle();
    expect(sink.received).toHaveLength(3);
    expect(await services.postNewsletter.sendDuePosts()).toBe(0);
  });

  it("emails a scheduled post at its time, not before", async () => {
    await addActiveSubscribers(2);
    startWorker();
    const publishAt = new Date(clock.now().getTime() + HOUR).toISOString().slice(0, 16);
    const post = await services.posts.createPost(
      buildPostInput({ publishAt, publishAtOffset: "0", emailSubscribers: true }),
      TEST_WRITER,
    );
    expect(post.newsletter).toBe("wanted");
    await settle();
    expect(sink.received).toHaveLength(0);
    expect(await sendOf(post.id)).toBeUndefined();

    // Rescheduled and edited before its time: still wanted, still waiting.
    await save(post.id, { title: "Rescheduled", publishAt, publishAtOffset: "0", emailSubscribers: true });
    clock.advance(HOUR - 60_000);
    await settle();
    expect(sink.received).toHaveLength(0);

    clock.advance(60_000);
    await sink.waitFor(2);
    expect(sink.received.map((email) => email.parsed!.subject)).toEqual(["Rescheduled", "Rescheduled"]);
    expect((await services.posts.getPostForEditing(post.id)).newsletter).toBe("sent");
    await settle();
    expect(sink.received).toHaveLength(2);
  });

  it("sends nothing for a post published without the box, even when republished later with it", async () => {
    await addActiveSubscribers(2);
    startWorker();
    const plain = await services.posts.createPost(buildPostInput(), TEST_WRITER);
    expect(plain.newsletter).toBe("closed");
    await save(plain.id, { published: false });
    const republished = await save(plain.id, { published: true, emailSubscribers: true });
    expect(republished.newsletter).toBe("closed");

    // A scheduled post without the box, whose time came, is closed by its next save.
    const publishAt = new Date(clock.now().getTime() + HOUR).toISOString().slice(0, 16);
    const scheduled = await services.posts.createPost(buildPostInput({ publishAt, publishAtOffset: "0" }), TEST_WRITER);
    expect(scheduled.newsletter).toBe("off");
    clock.advance(2 * HOUR);
    await save(scheduled.id, { published: false });
    expect((await save(scheduled.id, { published: true, emailSubscribers: true })).newsletter).toBe("closed");

    await settle();
    expect(sink.received).toHaveLength(0);
    expect(await services.postNewsletter.findSends([plain.id, scheduled.id])).toEqual(new Map());
  });

  it("ignores the box where email is not set up", async () => {
    await addActiveSubscribers(2);
    services = makeServices(false);
    const post = await services.posts.createPost(buildPostInput({ emailSubscribers: true }), TEST_WRITER);
    expect(post.newsletter).toBe("closed");
    expect(services.postNewsletter.emailOn).toBe(false);
    expect(await sendOf(post.id)).toBeUndefined();
  });

  it("stops the remaining deliveries when the send is cancelled", async () => {
    await addActiveSubscribers(12);
    services = makeServices(true, 4);
    let answer = () => {};
    sink.hold = new Promise((resolve) => (answer = resolve));
    startWorker();
    const post = await services.posts.createPost(buildPostInput({ emailSubscribers: true }), TEST_WRITER);
    // The first batch of four is with the SMTP server, unanswered, when the writer cancels.
    await sink.waitFor(4);
    expect(await services.postNewsletter.cancel(post.id)).toBe(true);
    expect(await services.postNewsletter.cancel(post.id)).toBe(false);
    answer();
    await expect.poll(async () => (await sendOf(post.id))?.sent).toBe(4);
    await settle();
    expect(await sendOf(post.id)).toMatchObject({ state: "cancelled", total: 12, sent: 4, failed: 0 });
    expect(sink.received).toHaveLength(4);
  });
  it("fills the reader's unsubscribe link only in the footer, never in an address or text of the post", async () => {
    await addActiveSubscribers(2);
    startWorker();
    const pixel = `https://tracker.example/pixel.gif?who=${UNSUBSCRIBE_PLACEHOLDER}`;
    await services.posts.createPost(
      buildPostInput({
        title: `Herons ${UNSUBSCRIBE_PLACEHOLDER}`,
        excerpt: `Seen ${UNSUBSCRIBE_PLACEHOLDER}`,
        coverImage: `https://tracker.example/cover.jpg?who=${UNSUBSCRIBE_PLACEHOLDER}`,
        content: `<p>A heron <img src="${pixel}" alt="heron"> and <a href="https://tracker.example/go?who=${UNSUBSCRIBE_PLACEHOLDER}">a link</a>, typed: ${UNSUBSCRIBE_PLACEHOLDER}</p>`,
        emailSubscribers: true,
      }),
      TEST_WRITER,
    );
    await sink.waitFor(2);
    for (const { to, parsed } of sink.received) {
      const html = String(parsed!.html);
      const sources = attributeValues(html, "img", "src");
      expect(sources).toEqual([`https://tracker.example/cover.jpg?who=${UNSUBSCRIBE_PLACEHOLDER}`, pixel]);
      const links = attributeValues(html, "a", "href");
      expect(links).toContain(`https://tracker.example/go?who=${UNSUBSCRIBE_PLACEHOLDER}`);
      const unsubscribeLinks = links.filter((href) => href.includes("token="));
      expect(unsubscribeLinks).toHaveLength(1);
      const [unsubscribeUrl] = unsubscribeLinks as [string];
      expect(unsubscribeUrl).toMatch(/^https:\/\/blog\.example\/unsubscribe\?token=u\./);
      expect(parsed!.text!.split("token=")).toHaveLength(2);
      expect(parsed!.text).toContain(`Unsubscribe: ${unsubscribeUrl}`);

      // The footer's link is the reader's own and still works.
      await services.subscriptions.unsubscribe(new URL(unsubscribeUrl).searchParams.get("token")!);
      const row = await handle.db.selectFrom("subscribers").select("state").where("email", "=", to).executeTakeFirst();
      expect(row?.state).toBe("unsubscribed");
    }
  });
  it("sends an uploaded image at a width that fits the email, with its size, not the 2,400 px original", async () => {
    await addActiveSubscribers(1);
    startWorker();
    const upload = async (width: number, height: number) =>
      services.media.upload({
        bytes: await photo(width, height),
        name: "harbour.jpg",
        declaredType: "image/jpeg",
        uploadedBy: "admin-1",
      });
    const [wide, small] = [await upload(3000, 2000), await upload(400, 300)];
    expect(wide.url).toBe(`/media/${wide.hash}/2400.jpeg`);
    await services.posts.createPost(
      buildPostInput({
        coverImage: small.url,
        content: `<p>The harbour:</p><p><img src="${wide.url}" alt="A harbour"></p>`,
        emailSubscribers: true,
      }),
      TEST_WRITER,
    );
    await sink.waitFor(1);
    const [cover, body] = tagsOf(String(sink.received[0]!.parsed!.html), "img");
    // The body is 552 px wide inside the 600 px card: the widest variant up to twice that, for sharp screens.
    expect(body).toMatchObject({
      src: `https://blog.example/media/${wide.hash}/960.jpeg`,
      width: "552",
      height: "368",
      alt: "A harbour",
    });
    expect(body!.style).toContain("max-width:100%");
    expect(cover).toMatchObject({
      src: `https://blog.example/media/${small.hash}/400.jpeg`,
      width: "400",
      height: "300",
    });
    // Files the media store made, so the addresses answer.
    expect(await services.media.getFile(wide.hash, 960, "jpeg")).toBeDefined();
    expect(await services.media.getFile(small.hash, 400, "jpeg")).toBeDefined();
  });
});
