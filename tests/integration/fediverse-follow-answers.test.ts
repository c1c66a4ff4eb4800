import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testDialects } from "../support/databases.ts";
import { useFederatedBlog } from "../support/federated-blog.ts";

interface Delivery {
  path: string;
  signed: boolean;
  activity: { type: string; actor: string; object: { id: string; type: string; actor: string } };
}

describe.each(testDialects())("answering followers from the admin on $dialect", (target) => {
  const blog = useFederatedBlog(target);
  let inbox: Server;
  let inboxUrl: string;
  let deliveries: Delivery[];

  beforeEach(async () => {
    deliveries = [];
    inbox = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        deliveries.push({
          path: req.url ?? "",
          signed: Boolean(req.headers.signature ?? req.headers["signature-input"]),
          activity: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Delivery["activity"],
        });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => inbox.listen(0, "127.0.0.1", resolve));
    inboxUrl = `http://127.0.0.1:${(inbox.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    inbox.closeAllConnections();
    await new Promise((resolve) => inbox.close(resolve));
  });

  async function follow(name: string) {
    const settings = await blog.services.fediverse.settings();
    await blog.services.fediverse.saveSettings({ ...settings, approveFollowsByHand: true }, { label: "owner" });
    const follower = await blog.services.fediverse.followFrom({
      actorUrl: `${inboxUrl}/users/${name}`,
      handle: `@${name}@127.0.0.1`,
      inboxUrl: `${inboxUrl}/users/${name}/inbox`,
      sharedInboxUrl: null,
      followActivityId: `${inboxUrl}/follows/${name}`,
    });
    return follower!.id;
  }

  it("accepts a pending follower: they are counted, and their server gets a signed Accept of their Follow", async () => {
    const id = await follow("alice");
    expect(await blog.services.fediverse.countFollowers()).toMatchObject({ accepted: 0, pending: 1 });
    await blog.fediverse.start();
    const handle = blog.fediverse.requestHandle;
    await handle.acceptFollower(id);
    expect(await blog.services.fediverse.countFollowers()).toMatchObject({ accepted: 1, pending: 0 });
    await vi.waitFor(() => expect(deliveries).toHaveLength(1), { timeout: 10_000, interval: 25 });
    expect(deliveries[0]).toMatchObject({
      path: "/users/alice/inbox",
      signed: true,
      activity: {
        type: "Accept",
        actor: `${blog.siteUrl}/ap/users/blog`,
        object: { type: "Follow", id: `${inboxUrl}/follows/alice`, actor: `${inboxUrl}/users/alice` },
      },
    });
  });

  it("rejects a follower, pending or accepted: they are removed and their server gets a Reject", async () => {
    const id = await follow("bob");
    await blog.fediverse.start();
    const handle = blog.fediverse.requestHandle;
    await handle.rejectFollower(id);
    expect(await blog.services.fediverse.countFollowers()).toMatchObject({ accepted: 0, pending: 0 });
    await vi.waitFor(() => expect(deliveries).toHaveLength(1), { timeout: 10_000, interval: 25 });
    expect(deliveries[0]?.activity).toMatchObject({ type: "Reject", object: { id: `${inboxUrl}/follows/bob` } });
  });

  it("gives the handle to follow the blog by, as the settings say it now", async () => {
    const host = new URL(blog.siteUrl).host;
    expect(blog.fediverse.requestHandle.handleUrl()).toBe(`@blog@${host}`);
    const settings = await blog.services.fediverse.settings();
    await blog.services.fediverse.saveSettings({ ...settings, handle: "heron" }, { label: "owner" });
    expect(blog.fediverse.requestHandle.handleUrl()).toBe(`@heron@${host}`);
  });
});
