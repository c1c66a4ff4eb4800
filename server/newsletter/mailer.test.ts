import { afterEach, describe, expect, it } from "vitest";
import { type SmtpSink, startSmtpSink } from "../../tests/support/smtp-sink.ts";
import { createMailer } from "./mailer.ts";

describe("the mailer's pool", () => {
  let sink: SmtpSink | undefined;
  afterEach(async () => {
    await sink?.close();
  });

  const message = (to: string) => ({ to, subject: "Hello", html: "<p>Hello</p>", text: "Hello", fromName: "Heron" });

  async function waitForNoConnections(current: SmtpSink): Promise<number> {
    const deadline = Date.now() + 3000;
    while (current.openConnections() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return current.openConnections();
  }

  it("is built once for messages sent at the same moment, so closing it leaves no connection open", async () => {
    sink = await startSmtpSink({ parse: false });
    const mailer = createMailer({ smtpUrl: sink.url, fromAddress: "news@blog.example", rate: 100 });
    await Promise.all(["ada", "bea", "cy", "dee"].map((name) => mailer.send(message(`${name}@example.com`))));
    expect(sink.received).toHaveLength(4);
    mailer.close();
    expect(await waitForNoConnections(sink)).toBe(0);
  });

  it("is built anew when the mail server changes, and the old one's connections close", async () => {
    sink = await startSmtpSink({ parse: false });
    const current = sink;
    let fromAddress = "news@blog.example";
    const mailer = createMailer({
      rate: 100,
      current: async () => ({ key: fromAddress, options: { url: current.url }, fromAddress }),
    });
    await mailer.send(message("ada@example.com"));
    fromAddress = "letters@blog.example";
    await Promise.all([mailer.send(message("bea@example.com")), mailer.send(message("cy@example.com"))]);
    expect(sink.received).toHaveLength(3);
    mailer.close();
    expect(await waitForNoConnections(sink)).toBe(0);
  });
});
