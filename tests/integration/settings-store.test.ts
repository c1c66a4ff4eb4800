import { type KyselyPlugin, SelectQueryNode } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { DatabaseUnavailableError, isDomainError } from "#domain/errors.ts";
import { z } from "#domain/zod.ts";
import { createSettingsStore, SETTINGS_CHECK_MS } from "../../server/kernel/settings-store.ts";
import { writeSetting } from "../../server/kernel/repositories/settings.ts";
import { saveSiteSettings } from "../../server/site/repositories/site-settings.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

const greetingSchema = z.object({
  words: z.string().trim().min(1).max(20).default("Hello"),
  loud: z.boolean().default(false),
});
type Greeting = z.infer<typeof greetingSchema>;
const GREETING = { key: "greeting", schema: greetingSchema, defaults: { words: "Hello", loud: false } };

describe.each(testDialects())("the settings store on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  /** An app server's store over the test blog's database; `db` may be that database with a plugin. */
  const serverStore = (db = blog.handle.db) => createSettingsStore({ db, now: blog.clock.now });

  it("serves another server's save within a second, and tells its listeners once", async () => {
    const here = serverStore().define<Greeting>(GREETING);
    const thereStore = serverStore();
    const there = thereStore.define<Greeting>(GREETING);
    expect(await there.read()).toEqual({ words: "Hello", loud: false });
    const heard: Greeting[] = [];
    const keys: string[] = [];
    there.onChange((next) => heard.push(next));
    thereStore.onChange((key) => keys.push(key));

    expect(await here.save({ words: " Good morning ", loud: true })).toEqual({ words: "Good morning", loud: true });
    expect((await there.read()).words).toBe("Hello");
    blog.clock.advance(SETTINGS_CHECK_MS);
    expect(await there.read()).toEqual({ words: "Good morning", loud: true });
    expect(heard).toEqual([{ words: "Good morning", loud: true }]);
    expect(keys).toEqual(["greeting"]);

    blog.clock.advance(SETTINGS_CHECK_MS);
    await there.read();
    await thereStore.checkAll();
    expect(heard).toHaveLength(1);
  });

  it("notices another server's save on its worker's timer, with no read asked", async () => {
    const here = serverStore().define<Greeting>(GREETING);
    const thereStore = serverStore();
    const there = thereStore.define<Greeting>(GREETING);
    await there.read();
    const heard: string[] = [];
    there.onChange((next) => heard.push(next.words));
    const failures: unknown[] = [];
    const worker = thereStore.worker((error) => failures.push(error));
    await worker.start();
    try {
      await here.save({ words: "Bonjour", loud: false });
      await vi.waitFor(() => expect(heard).toEqual(["Bonjour"]), { timeout: 5000, interval: 50 });
    } finally {
      await worker.stop();
    }
    expect(failures).toEqual([]);
  });

  it("tells this server's listeners of each of its saves once, and not of a save that changes nothing", async () => {
    const store = serverStore();
    const greeting = store.define<Greeting>(GREETING);
    const heard: [string, string][] = [];
    greeting.onChange((next, previous) => heard.push([previous.words, next.words]));
    await greeting.save({ words: "Hi", loud: false });
    await greeting.save({ words: "Hey", loud: false });
    await greeting.save({ words: "Hey", loud: false });
    blog.clock.advance(SETTINGS_CHECK_MS);
    await greeting.read();
    await store.checkAll();
    expect(heard).toEqual([
      ["Hello", "Hi"],
      ["Hi", "Hey"],
    ]);
  });

  it("tells listeners only of what the group counts as a change", async () => {
    const greeting = serverStore().define<Greeting>({
      ...GREETING,
      isChange: (next, previous) => next.loud !== previous.loud,
    });
    const heard: boolean[] = [];
    greeting.onChange((next) => heard.push(next.loud));
    await greeting.save({ words: "Hi", loud: false });
    await greeting.save({ words: "Hi", loud: true });
    await greeting.save({ words: "Hey", loud: true });
    expect(heard).toEqual([true]);
    expect(await greeting.read()).toEqual({ words: "Hey", loud: true });
  });

  it("refuses to save what its schema refuses, and keeps what was stored", async () => {
    const greeting = serverStore().define<Greeting>(GREETING);
    await greeting.save({ words: "Hi", loud: false });
    await expect(greeting.save({ words: "x".repeat(21), loud: false })).rejects.toThrow();
    blog.clock.advance(SETTINGS_CHECK_MS);
    expect((await serverStore().define<Greeting>(GREETING).read()).words).toBe("Hi");
  });

  it("reads a stored value its schema refuses, or that is no JSON, as the defaults; a missing field as its default", async () => {
    const greeting = serverStore().define<Greeting>(GREETING);
    await writeSetting(blog.handle.db, "greeting", { words: 42, loud: "yes" });
    expect(await greeting.read()).toEqual({ words: "Hello", loud: false });
    await blog.handle.db.updateTable("settings").set({ value: "{not json" }).where("key", "=", "greeting").execute();
    blog.clock.advance(SETTINGS_CHECK_MS);
    expect(await greeting.read()).toEqual({ words: "Hello", loud: false });
    await writeSetting(blog.handle.db, "greeting", { loud: true });
    blog.clock.advance(SETTINGS_CHECK_MS);
    expect(await greeting.read()).toEqual({ words: "Hello", loud: true });
  });

  it("gives pages the site's defaults, not an error, when the stored site settings are refused", async () => {
    await saveSiteSettings(blog.handle.db, { title: "", postsPerPage: -3 }, blog.clock.now().toISOString());
    const settings = await blog.services.siteSettings.current();
    expect(settings.title).toBe("Inkwell");
    expect(settings.postsPerPage).toBeGreaterThan(0);
  });

  it("refuses a group defined twice, which would be a second cache of the same settings", () => {
    const store = serverStore();
    store.define<Greeting>(GREETING);
    expect(() => store.define<Greeting>(GREETING)).toThrow(/defined twice/);
  });

  it("rides out an outage: a read fails as unavailable, the worker reports nothing, and the next check catches up", async () => {
    let down = false;
    const outage: KyselyPlugin = {
      transformQuery({ node }) {
        if (down && SelectQueryNode.is(node)) throw new DatabaseUnavailableError("Database call failed");
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const here = serverStore().define<Greeting>(GREETING);
    const thereStore = serverStore(blog.handle.db.withPlugin(outage));
    const there = thereStore.define<Greeting>(GREETING);
    await there.read();
    await here.save({ words: "Hi", loud: false });
    down = true;
    blog.clock.advance(SETTINGS_CHECK_MS);
    const failed = await there.read().catch((error: unknown) => error);
    expect(isDomainError(failed, "DATABASE_UNAVAILABLE")).toBe(true);
    expect(there.lastRead().words).toBe("Hello");
    await expect(thereStore.checkAll()).resolves.toBeUndefined();
    down = false;
    expect((await there.read()).words).toBe("Hi");
  });
});
