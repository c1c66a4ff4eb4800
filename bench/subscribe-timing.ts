// Whether the subscribe form's answer tells who is subscribed (issue 32, item 14): the median
// and mean time of 200 subscriptions for addresses already active against 200 new ones, through
// the subscription service, on SQLite (a file) and PostgreSQL (TEST_POSTGRES_URL, default the
// local test server; a database is made and dropped). Run: `node bench/subscribe-timing.ts`.
import { createServices } from "../server/composition.ts";
import { insertActiveSubscribers } from "../tests/support/subscribers.ts";
import { onScratchDatabases } from "./scratch-databases.ts";

const COUNT = 200;

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms, mean ${mean.toFixed(2)} ms`;
}

await onScratchDatabases("bench-subscribe", async (handle) => {
  const { dialect } = handle;
  await insertActiveSubscribers(handle.db, COUNT);
  const services = createServices({ db: handle.db, dialect, commentIpSalt: "bench salt", emailOn: true });
  const subscribe = async (email: string, client: string) => {
    const started = performance.now();
    await services.subscriptions.subscribe(email, { clientAddress: client });
    return performance.now() - started;
  };
  for (let index = 0; index < 50; index += 1) await subscribe(`warm${index}@example.org`, `10.9.0.${index}`);
  // Alternately, so a slower moment of the machine falls on both kinds alike.
  const active: number[] = [];
  const fresh: number[] = [];
  for (let index = 0; index < COUNT; index += 1) {
    active.push(await subscribe(`reader${index}@example.com`, `10.1.${index % 250}.${index}`));
    fresh.push(await subscribe(`new${index}@example.net`, `10.2.${index % 250}.${index}`));
  }
  console.log(`${dialect}: active ${summary(active)}; new ${summary(fresh)}`);
});
