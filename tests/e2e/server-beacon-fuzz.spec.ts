import { randomInt } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  createRandom,
  describeRequest,
  type FuzzRequest,
  hostileText,
  looseUtf8,
  type Random,
  sendRaw,
  urlComponent,
} from "./fuzz-support.ts";
import { findFreePort, startServer, waitForOutput, withScratchPostgresDatabase } from "./server-support.ts";

// Hostile beacons against the analytics endpoint of a real production server, on SQLite and on
// PostgreSQL: whatever a client sends to /hit, the answer is a 204 or a 4xx, never a 5xx or a
// hang, and the server stays healthy. FUZZ_SEED=<seed> replays a run.
const REQUEST_COUNT = 1_500;
const CONCURRENCY = 4;
const REQUEST_TIMEOUT_MS = 20_000;

const BROWSER = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";
const CONTENT_TYPES = [
  "text/plain;charset=UTF-8",
  "text/plain",
  "application/json",
  "application/json; charset=latin1",
  "text/plain; charset=nonsense",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "",
  "text/plain;;;=",
];

/** A JSON value of any shape, sometimes deep, sometimes hostile text. */
function anyJson(random: Random, depth = 0): unknown {
  const roll = random.below(depth > 3 ? 4 : 7);
  if (roll === 0) return hostileText(random);
  if (roll === 1) return random.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER]);
  if (roll === 2) return random.pick([null, true, false]);
  if (roll === 3) return `/${hostileText(random)}`;
  if (roll < 6) return Array.from({ length: random.below(4) }, () => anyJson(random, depth + 1));
  return Object.fromEntries(
    Array.from({ length: random.below(5) }, () => [
      random.pick(["p", "r", "w", "k", "__proto__", hostileText(random)]),
      anyJson(random, depth + 1),
    ]),
  );
}

function beaconBody(random: Random): Buffer {
  const roll = random.below(8);
  if (roll === 0) return looseUtf8(hostileText(random));
  if (roll === 1) return Buffer.from(Array.from({ length: random.below(3000) }, () => random.below(256)));
  if (roll === 2) return Buffer.from(JSON.stringify({ p: `/${"x".repeat(2100 + random.below(5000))}` }));
  if (roll === 3) return looseUtf8(JSON.stringify(anyJson(random)));
  // Mostly the right shape with hostile values, which must pass or fail validation cleanly.
  return looseUtf8(
    JSON.stringify({
      p: random.chance(0.7) ? `/${hostileText(random)}` : anyJson(random),
      r: random.chance(0.5) ? `https://${hostileText(random)}/` : anyJson(random),
      w: random.chance(0.5) ? random.below(5000) : anyJson(random),
      ...(random.chance(0.2) ? { k: random.chance(0.5) ? "nf" : anyJson(random) } : {}),
    }),
  );
}

function generateRequests(seed: number, origin: string): FuzzRequest[] {
  const random = createRandom(seed);
  return Array.from({ length: REQUEST_COUNT }, (_, index) => {
    const headers: [string, string][] = [
      ["X-Forwarded-For", `10.${random.below(256)}.${random.below(256)}.${index % 250}`],
      ["User-Agent", random.chance(0.7) ? BROWSER : Buffer.from(looseUtf8(hostileText(random))).toString("latin1")],
    ];
    if (random.chance(0.9)) headers.push(["Origin", random.chance(0.95) ? origin : "https://elsewhere.example"]);
    const type = random.pick(CONTENT_TYPES);
    if (type) headers.push(["Content-Type", type]);
    if (random.chance(0.1)) headers.push(["DNT", random.pick(["1", "0", hostileText(random).slice(0, 20)])]);
    if (random.chance(0.1)) headers.push(["Sec-GPC", "1"]);
    if (random.chance(0.1)) headers.push(["Cookie", `blog_session=${urlComponent(random).slice(0, 300)}`]);
    const body = beaconBody(random);
    const request: FuzzRequest = {
      kind: "beacon",
      method: random.chance(0.95) ? "POST" : random.pick(["PUT", "GET", "DELETE"]),
      target: random.chance(0.95) ? "/hit" : `/hit?${urlComponent(random)}`,
      headers,
      body,
    };
    if (random.chance(0.05) && body.length > 2) request.truncatedTo = body.length + 10;
    return request;
  });
}

async function fuzz(databaseUrl: string, label: string, seed: number): Promise<void> {
  const port = await findFreePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: origin,
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: "1",
  });
  try {
    await waitForOutput(server, /Blog ready at/);
    const requests = generateRequests(seed, origin);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < requests.length; index = next++) {
        const request = requests[index]!;
        try {
          const { status } = await sendRaw(port, request, REQUEST_TIMEOUT_MS);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 500) failures.push(`#${index} got ${status}: ${describeRequest(request)}`);
        } catch (error) {
          failures.push(`#${index} ${(error as Error).message}: ${describeRequest(request)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.log(
      `beacon fuzz on ${label}: seed ${seed}, statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")}`,
    );
    expect.soft(failures.slice(0, 5), `${label}, seed ${seed}: ${failures.length} failures`).toEqual([]);
    expect(statuses.get(204) ?? 0, "some beacons were well formed and answered 204").toBeGreaterThan(0);
    expect((await fetch(`${origin}/healthz`)).status, "the server is healthy afterwards").toBe(200);
  } finally {
    server.child.kill("SIGTERM");
    await server.exit;
  }
  // The stop writes what the buffer holds: the views that passed validation are all storable.
  expect(server.output(), "every counted beacon could be written").not.toMatch(/writing analytics (events )?failed/);
}

const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);

test.describe("hostile beacons never get a server error, a hang or an unhealthy server", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });

  test("on SQLite", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "blog-beacon-fuzz-"));
    try {
      await fuzz(`file:${directory}/blog.sqlite`, "SQLite", seed);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test("on PostgreSQL", async () => {
    await withScratchPostgresDatabase("blog_beacon_fuzz", (url) => fuzz(url, "PostgreSQL", seed));
  });
});
