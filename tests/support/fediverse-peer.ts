// A second ActivityPub server for the fediverse tests and the benchmark: a small Fedify app in
// the test's process, keys in memory, one or many fake "servers" (each its own port on 127.0.0.1,
// so each its own host to the blog). Any identifier names an actor on any of its servers. It
// counts every POST to an inbox as it arrives, before Fedify's own de-duplication, so a test can
// tell one delivery from two; what passed Fedify's signature check is kept apart.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createFederation, generateCryptoKeyPair, MemoryKvStore, signRequest } from "@fedify/fedify";
import {
  Activity,
  type Actor,
  Create,
  CryptographicKey,
  Delete,
  Endpoints,
  Follow,
  isActor,
  Like,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Tombstone,
  Undo,
} from "@fedify/vocab";

export interface PeerOptions {
  /** How many fake servers, each listening on its own port. */
  servers?: number;
  /** Whether actors advertise their server's shared inbox (Mastodon does). */
  sharedInbox?: boolean;
  /**
   * false: a counting sink that answers 202 to every POST without reading its signature, for the
   * benchmark, where the peer's own work must not slow the blog's figure down.
   */
  verifySignatures?: boolean;
}

/** One POST to one of the peer's inboxes, counted as it arrived. */
export interface Arrival {
  /** The inbox's full URL (a personal inbox or a server's shared inbox). */
  inbox: string;
  activityId: string;
  type: string;
  objectId: string | undefined;
  objectType: string | undefined;
  /** What the peer answered: 2xx when the activity was taken, 401 when its signature failed. */
  status: number;
}

/** An activity that reached the peer's listener, so its signature verified. */
export interface Received {
  /** The inbox's identifier, or null for a shared inbox. */
  recipient: string | null;
  server: string;
  activityId: string;
  type: string;
  actorId: string | undefined;
  objectId: string | undefined;
  objectType: string | undefined;
}

export interface PeerActor {
  identifier: string;
  /** The origin of the actor's server, e.g. http://127.0.0.1:41234. */
  server: string;
  id: URL;
  inbox: URL;
  sharedInbox: URL | null;
  /** "@alice@127.0.0.1:41234" */
  handle: string;
}

export interface FediversePeer {
  /** The origins of the fake servers, in order. */
  servers: string[];
  /** The actor named `identifier` on server number `server`. */
  actor: (identifier: string, server?: number) => PeerActor;
  arrivals: Arrival[];
  received: Received[];
  /** Milliseconds each inbox POST waits before it is read and answered: keeps deliveries in flight. */
  inboxDelayMs: number;
  /** How many accepted POSTs (2xx) each inbox got carrying `activityId`. */
  deliveriesOf: (activityId: string) => Map<string, number>;
  /** Resolves once `predicate` holds for the arrivals so far; fails with them after `timeoutMs`. */
  waitFor: (predicate: (arrivals: Arrival[]) => boolean, timeoutMs?: number, what?: string) => Promise<void>;
  /**
   * Looks an actor up by its handle, "@blog@127.0.0.1:3000": WebFinger, then the actor document.
   * Fedify's own WebFinger client asks `acct:` hosts over HTTPS only, and test servers speak plain
   * HTTP, so the WebFinger request is made here; what it answers is read by Fedify.
   */
  lookup: (handle: string) => Promise<Actor>;
  /** Sends a signed activity from `from` to `to`'s inbox; resolves once it was answered. */
  send: (from: PeerActor, to: Actor, activity: Activity) => Promise<void>;
  follow: (from: PeerActor, to: Actor) => Promise<Follow>;
  unfollow: (from: PeerActor, to: Actor, follow: Follow) => Promise<void>;
  like: (from: PeerActor, to: Actor, objectId: URL) => Promise<Like>;
  /** Replies to `inReplyTo` with a public note of `html`; returns the note's id. */
  reply: (from: PeerActor, to: Actor, inReplyTo: URL, html: string) => Promise<URL>;
  deleteNote: (from: PeerActor, to: Actor, noteId: URL) => Promise<void>;
  /**
   * `activity` POSTed to `inbox` with a signature that claims `actor`'s key but is made with
   * another private key: what a forger without the key can send. With `signer`, the signature is
   * `signer`'s own, genuine one: an account speaking in another's name.
   */
  forge: (actor: PeerActor, inbox: URL, activity: Activity, signer?: PeerActor) => Promise<Response>;
  /**
   * `activity` POSTed to `inbox` signed with a key that server number `host` hosts, whose document
   * says its `owner` is `victim`: a server that speaks for an account on another.
   */
  impersonate: (victim: PeerActor, inbox: URL, activity: Activity, host: number) => Promise<Response>;
  /** `json` as it is, POSTed to `inbox` with `from`'s genuine signature. */
  sendJson: (from: PeerActor, inbox: URL, json: unknown) => Promise<Response>;
  /** Every GET the peer's servers were sent, as full URLs: what the blog fetched from them. */
  gets: string[];
  close: () => Promise<void>;
}

const INBOX_PATH = /^\/(?:users\/[^/]+\/inbox|inbox)$/;
const ROGUE_KEY_PATH = /^\/rogue-keys\/([A-Za-z0-9_-]+)$/;
const IDENTIFIER = /^[A-Za-z0-9_-]{1,64}$/;

interface Summary {
  activityId: string;
  type: string;
  objectId: string | undefined;
  objectType: string | undefined;
}

/** Reads what counting needs from a raw activity, without trusting or expanding it. */
function summarise(body: Buffer): Summary {
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
  } catch {
    // Counted as an activity without an id.
  }
  const object = json.object;
  const objectRecord = typeof object === "object" && object !== null ? (object as Record<string, unknown>) : undefined;
  return {
    activityId: typeof json.id === "string" ? json.id : "",
    type: typeof json.type === "string" ? json.type : "",
    objectId: typeof object === "string" ? object : typeof objectRecord?.id === "string" ? objectRecord.id : undefined,
    objectType: typeof objectRecord?.type === "string" ? objectRecord.type : undefined,
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function toRequest(incoming: IncomingMessage, body: Buffer): Request {
  const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = incoming.method ?? "GET";
  return new Request(url, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body),
  });
}

async function writeResponse(outgoing: ServerResponse, response: Response): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the peer's socket has no port");
  return `http://127.0.0.1:${address.port}`;
}

export async function startFediversePeer(options: PeerOptions = {}): Promise<FediversePeer> {
  const { servers: serverCount = 1, sharedInbox = true, verifySignatures = true } = options;
  // One key pair of each kind for every actor: generating thousands of RSA keys would take minutes.
  const rsa = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const ed25519 = await generateCryptoKeyPair("Ed25519");
  const notes = new Map<string, Note>();
  const arrivals: Arrival[] = [];
  const received: Received[] = [];
  const gets: string[] = [];
  /** Key documents by path, each claiming an owner on another server. */
  const rogueKeys = new Map<string, CryptographicKey>();

  const federation = createFederation<undefined>({
    kv: new MemoryKvStore(),
    // Test servers live on 127.0.0.1, which Fedify refuses by default.
    allowPrivateAddress: true,
  });
  federation
    .setActorDispatcher("/users/{identifier}", async (context, identifier) => {
      if (!IDENTIFIER.test(identifier)) return null;
      const keys = await context.getActorKeyPairs(identifier);
      return new Person({
        id: context.getActorUri(identifier),
        preferredUsername: identifier,
        name: `Reader ${identifier}`,
        url: context.getActorUri(identifier),
        inbox: context.getInboxUri(identifier),
        endpoints: sharedInbox ? new Endpoints({ sharedInbox: context.getInboxUri() }) : null,
        publicKey: keys[0]?.cryptographicKey,
        assertionMethods: keys.map((key) => key.multikey),
      });
    })
    .setKeyPairsDispatcher(() => [rsa, ed25519]);
  federation.setObjectDispatcher(Note, "/notes/{id}", (context, { id }) => notes.get(id) ?? null);
  federation.setInboxListeners("/users/{identifier}/inbox", "/inbox").on(Activity, async (context, activity) => {
    // Read from the activity as sent: dereferencing its object would fetch from the blog.
    const { objectId, objectType } = summarise(Buffer.from(JSON.stringify(await activity.toJsonLd())));
    received.push({
      recipient: context.recipient,
      server: context.origin,
      activityId: activity.id?.href ?? "",
      type: activity.constructor.name,
      actorId: activity.actorId?.href,
      objectId,
      objectType,
    });
  });

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const body = await readBody(incoming);
    const request = toRequest(incoming, body);
    const path = new URL(request.url).pathname;
    if (request.method === "GET") gets.push(request.url);
    const rogueKey = request.method === "GET" && ROGUE_KEY_PATH.test(path) ? rogueKeys.get(path) : undefined;
    if (rogueKey) {
      const document = JSON.stringify(await rogueKey.toJsonLd());
      outgoing.writeHead(200, { "content-type": "application/activity+json" }).end(document);
      return;
    }
    const isInboxPost = request.method === "POST" && INBOX_PATH.test(path);
    if (isInboxPost && peer.inboxDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, peer.inboxDelayMs));
    if (isInboxPost && !verifySignatures) {
      arrivals.push({ inbox: request.url, ...summarise(body), status: 202 });
      outgoing.writeHead(202).end();
      return;
    }
    const response = await federation.fetch(request, { contextData: undefined });
    if (isInboxPost) arrivals.push({ inbox: request.url, ...summarise(body), status: response.status });
    await writeResponse(outgoing, response);
  }

  const httpServers: Server[] = [];
  const origins: string[] = [];
  for (let index = 0; index < serverCount; index += 1) {
    const server = createServer((incoming, outgoing) => {
      handle(incoming, outgoing).catch((error: unknown) => {
        outgoing.writeHead(500).end(String(error));
      });
    });
    // Keep-alive sockets from the blog would hold close() open until they time out.
    server.keepAliveTimeout = 1_000;
    httpServers.push(server);
    origins.push(await listen(server));
  }

  const contextFor = (actor: PeerActor) => federation.createContext(new URL(actor.server), undefined);

  function actor(identifier: string, server = 0): PeerActor {
    const origin = origins[server];
    if (!origin) throw new Error(`the peer has no server ${server}`);
    if (!IDENTIFIER.test(identifier)) throw new Error(`not an identifier: ${identifier}`);
    const context = federation.createContext(new URL(origin), undefined);
    return {
      identifier,
      server: origin,
      id: context.getActorUri(identifier),
      inbox: context.getInboxUri(identifier),
      sharedInbox: sharedInbox ? context.getInboxUri() : null,
      handle: `@${identifier}@${new URL(origin).host}`,
    };
  }

  async function lookup(handle: string): Promise<Actor> {
    const [, user, host] = handle.match(/^@?([^@]+)@([^@]+)$/) ?? [];
    if (!user || !host) throw new Error(`not a handle: ${handle}`);
    const webfinger = new URL(`http://${host}/.well-known/webfinger`);
    webfinger.searchParams.set("resource", `acct:${user}@${host}`);
    const answer = await fetch(webfinger, { headers: { accept: "application/jrd+json" } });
    if (!answer.ok) throw new Error(`WebFinger for ${handle} answered ${answer.status}`);
    const descriptor = (await answer.json()) as { links?: { rel?: string; type?: string; href?: string }[] };
    const self = descriptor.links?.find((link) => link.rel === "self" && link.type === "application/activity+json");
    if (!self?.href) throw new Error(`WebFinger for ${handle} has no ActivityPub self link`);
    const found = await federation.createContext(new URL(origins[0]!), undefined).lookupObject(self.href);
    if (!isActor(found)) throw new Error(`${self.href} is not an actor`);
    return found;
  }

  async function send(from: PeerActor, to: Actor, activity: Activity): Promise<void> {
    await contextFor(from).sendActivity({ identifier: from.identifier }, to, activity);
  }

  const activityId = (from: PeerActor, kind: string) => new URL(`${from.id.href}#${kind}/${randomUUID()}`);

  async function post(inbox: URL, json: unknown, privateKey: CryptoKey, keyId: URL): Promise<Response> {
    const unsigned = new Request(inbox, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: JSON.stringify(json),
    });
    return fetch(await signRequest(unsigned, privateKey, keyId));
  }

  let stranger: CryptoKeyPair | undefined;
  async function forge(claimed: PeerActor, inbox: URL, activity: Activity, signer?: PeerActor): Promise<Response> {
    stranger ??= await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    const key = signer ? rsa : stranger;
    const json = await activity.toJsonLd({ format: "compact" });
    return post(inbox, json, key.privateKey, new URL(`${(signer ?? claimed).id.href}#main-key`));
  }

  async function impersonate(victim: PeerActor, inbox: URL, activity: Activity, host: number): Promise<Response> {
    stranger ??= await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    const path = `/rogue-keys/${victim.identifier}`;
    const keyId = new URL(path, actor(victim.identifier, host).server);
    rogueKeys.set(path, new CryptographicKey({ id: keyId, owner: victim.id, publicKey: stranger.publicKey }));
    return post(inbox, await activity.toJsonLd({ format: "compact" }), stranger.privateKey, keyId);
  }

  const peer: FediversePeer = {
    servers: origins,
    actor,
    arrivals,
    received,
    inboxDelayMs: 0,
    deliveriesOf(id) {
      const counts = new Map<string, number>();
      for (const arrival of arrivals)
        if (arrival.activityId === id && arrival.status < 300)
          counts.set(arrival.inbox, (counts.get(arrival.inbox) ?? 0) + 1);
      return counts;
    },
    async waitFor(predicate, timeoutMs = 15_000, what = "the expected arrivals") {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(arrivals)) {
        if (Date.now() > deadline) {
          const seen = arrivals.map((arrival) => `${arrival.status} ${arrival.type} → ${arrival.inbox}`).slice(-20);
          throw new Error(`waited ${timeoutMs} ms for ${what}; ${arrivals.length} arrivals, last:\n${seen.join("\n")}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    lookup,
    send,
    async follow(from, to) {
      const follow = new Follow({ id: activityId(from, "follow"), actor: from.id, object: to.id });
      await send(from, to, follow);
      return follow;
    },
    async unfollow(from, to, follow) {
      await send(from, to, new Undo({ id: activityId(from, "undo"), actor: from.id, object: follow }));
    },
    async like(from, to, objectId) {
      const like = new Like({ id: activityId(from, "like"), actor: from.id, object: objectId });
      await send(from, to, like);
      return like;
    },
    async reply(from, to, inReplyTo, html) {
      const key = randomUUID();
      const noteId = new URL(`/notes/${key}`, from.server);
      const note = new Note({
        id: noteId,
        attribution: from.id,
        content: html,
        replyTarget: inReplyTo,
        url: noteId,
        to: PUBLIC_COLLECTION,
        cc: to.id,
      });
      notes.set(key, note);
      await send(
        from,
        to,
        new Create({ id: activityId(from, "create"), actor: from.id, object: note, to: PUBLIC_COLLECTION, cc: to.id }),
      );
      return noteId;
    },
    async deleteNote(from, to, noteId) {
      notes.delete(noteId.pathname.split("/").at(-1)!);
      await send(
        from,
        to,
        new Delete({
          id: activityId(from, "delete"),
          actor: from.id,
          object: new Tombstone({ id: noteId }),
          to: PUBLIC_COLLECTION,
          cc: to.id,
        }),
      );
    },
    forge,
    impersonate,
    sendJson: (from, inbox, json) => post(inbox, json, rsa.privateKey, new URL(`${from.id.href}#main-key`)),
    gets,
    async close() {
      await Promise.all(
        httpServers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
  return peer;
}
