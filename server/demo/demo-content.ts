/**
 * Demo content used to seed a fresh installation with realistic posts,
 * comments and cover images (see public/covers/).
 *
 * This module is plain data with no imports so that it can be loaded by
 * Node's native type stripping as well as by the bundler.
 */

export type DemoCategory = "Development" | "Technology" | "Design" | "Business" | "Marketing" | "Tutorials";

export interface DemoComment {
  author: string;
  content: string;
  hoursAfterPost: number;
}

export interface DemoPost {
  title: string;
  /** HTML body. */
  content: string;
  /** 1-2 sentences of plain text. */
  excerpt: string;
  author: string;
  /** File name inside public/covers/. */
  coverFile: string;
  category: DemoCategory;
  tags: string[];
  published: boolean;
  /** Age of the post in days. */
  daysAgo: number;
  comments: DemoComment[];
}

export const demoPosts: readonly DemoPost[] = [
  // ---------------------------------------------------------------- Development
  {
    title: "Keep Your Config Objects Honest with TypeScript's satisfies",
    excerpt:
      "The satisfies operator checks a value against a type without throwing away what TypeScript already knows about it. Here is when to reach for it instead of a type annotation.",
    author: "Maya Chen",
    coverFile: "development-1.svg",
    category: "Development",
    tags: ["typescript", "type safety"],
    published: true,
    daysAgo: 6,
    comments: [
      {
        author: "Priya Raman",
        content:
          "I replaced about thirty Record annotations with satisfies after reading this. Found two typos in route names straight away.",
        hoursAfterPost: 5,
      },
      {
        author: "Jonas Weber",
        content: "Good point about mutable values. That one bit me with a theme object last month.",
        hoursAfterPost: 20,
      },
    ],
    content: `<p>Every codebase has one: a big object literal full of routes, feature flags or theme tokens. You want TypeScript to check it, so you add a type annotation. Then you notice that autocomplete for the keys is gone and every value has been widened to the annotated type. The <code>satisfies</code> operator, added in <a href="https://www.typescriptlang.org/docs/handbook/release-notes/typescript-4-9.html">TypeScript 4.9</a>, fixes exactly this trade-off.</p>
<h2>The problem with annotations</h2>
<p>A type annotation tells the compiler "treat this value as this type from now on". That is exactly right for function parameters, but for configuration it throws information away:</p>
<pre><code>type Route = { path: string; auth?: boolean };

const routes: Record&lt;string, Route&gt; = {
  home: { path: "/" },
  admin: { path: "/admin", auth: true },
};

routes.admni; // no error: any string key is allowed
</code></pre>
<p>The typo compiles because <code>Record&lt;string, Route&gt;</code> says any key is fine. We validated the shape of each entry but lost the actual keys.</p>
<h2>Checking without widening</h2>
<p>With <code>satisfies</code>, the compiler checks that the value is assignable to the type, but the variable keeps its own, more precise inferred type:</p>
<pre><code>const routes = {
  home: { path: "/" },
  admin: { path: "/admin", auth: true },
} satisfies Record&lt;string, Route&gt;;

routes.admni; // error: property 'admni' does not exist
type RouteName = keyof typeof routes; // "home" | "admin"
</code></pre>
<p>You still get an error if a route is missing its <code>path</code> or contains a misspelled property such as <code>auht</code>, because excess property checks apply to the object literal. It is the best of both worlds: validation <em>and</em> precise types.</p>
<h2>Pair it with as const</h2>
<p>For lookup tables where the literal values matter, combine both: <code>as const satisfies ...</code>. The <code>as const</code> keeps <code>"#2563eb"</code> as a literal type instead of <code>string</code>, and <code>satisfies</code> makes sure the table still matches the contract.</p>
<pre><code>const palette = {
  primary: "#2563eb",
  danger: "#dc2626",
} as const satisfies Record&lt;string, string&gt;;

type PaletteColor = (typeof palette)[keyof typeof palette];
// "#2563eb" | "#dc2626"
</code></pre>
<h2>When not to use it</h2>
<ul>
<li><strong>Function parameters and return types.</strong> Annotations are still the right tool; they define a contract for callers.</li>
<li><strong>Values you intend to mutate.</strong> If the target type contains a union of literals, <code>satisfies</code> keeps the narrow literal you wrote, so assigning a different member later fails. Annotate those values instead.</li>
<li><strong>Public library exports.</strong> An explicit type is documentation. Do not make readers reverse-engineer an inferred one.</li>
</ul>
<blockquote><p>Annotations describe what a value is allowed to be. <code>satisfies</code> checks what it is, without forgetting the details.</p></blockquote>
<p>A good rule of thumb: use annotations at the boundaries of your code, and <code>satisfies</code> for the data you define inside them. Your config objects get validated, your editor keeps its autocomplete, and typos in keys become compile errors instead of runtime surprises.</p>`,
  },
  {
    title: "Write Tests That Survive a Refactor",
    excerpt:
      "If every refactor breaks dozens of tests, those tests are checking implementation details rather than behaviour. A few habits turn a test suite into an ally instead of a tax.",
    author: "Maya Chen",
    coverFile: "development-2.svg",
    category: "Development",
    tags: ["testing", "refactoring", "node.js"],
    published: true,
    daysAgo: 27,
    comments: [],
    content: `<p>A good test suite lets you change code with confidence. A bad one punishes you for it: rename a private function, move some state into a hook, and forty tests go red even though the app still works perfectly. The cause is almost always the same. The tests describe <em>how</em> the code works rather than <em>what</em> it does.</p>
<h2>Test through the public surface</h2>
<p>Pick the narrowest boundary that a real caller would use and test there. For a utility module, that is its exported functions. For a React component, it is what the user sees and does, which is why <a href="https://testing-library.com/docs/queries/about/#priority">Testing Library recommends querying by role and label</a> rather than by CSS class or component internals.</p>
<pre><code>// Fragile: knows about internal structure
expect(wrapper.find(".btn-primary").prop("disabled")).toBe(true);

// Sturdy: describes what the user experiences
expect(screen.getByRole("button", { name: "Publish" })).toBeDisabled();
</code></pre>
<h2>Mock less than you think</h2>
<p>Mocks are useful at the edges of your system: the network, the clock, a payment provider. Inside your own code they mostly freeze the current design in place. If a test asserts that <code>formatPrice</code> was called with certain arguments, you can no longer inline or replace <code>formatPrice</code> without rewriting the test. Assert on the output instead.</p>
<p>A useful question whenever you reach for a mock: <strong>would a user notice if this interaction changed?</strong> If not, it probably does not belong in an assertion.</p>
<h2>Use real dependencies when they are cheap</h2>
<p>An in-memory SQLite database starts in milliseconds. A temporary directory costs almost nothing. Using the real thing catches bugs in your queries and file handling that a mock would happily hide. Node's built-in <a href="https://nodejs.org/api/test.html">test runner</a> makes this easy without any extra packages:</p>
<pre><code>import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportPosts } from "./export.ts";

test("exports every published post as markdown", async () =&gt; {
  const dir = await mkdtemp(join(tmpdir(), "export-"));
  await exportPosts([{ slug: "hello", title: "Hello", published: true }], dir);
  const file = await readFile(join(dir, "hello.md"), "utf8");
  assert.match(file, /^# Hello/);
});
</code></pre>
<h2>Name tests after behaviour</h2>
<p>A test called <code>handleSubmit 2</code> tells you nothing when it fails. Compare that with <code>shows an error when the title is empty</code>. Behaviour-focused names survive refactors because behaviour rarely changes when structure does, and they turn your test output into readable documentation of what the system promises.</p>
<h2>A quick checklist</h2>
<ul>
<li>Does the test break if I rename a private function? It should not.</li>
<li>Does it still pass if I delete the feature? Then it is not testing anything.</li>
<li>Can a new teammate tell what broke from the test name alone?</li>
<li>Is every mock standing in for something slow, flaky or external?</li>
</ul>
<blockquote><p>The goal of a test suite is not coverage. It is the confidence to change the code tomorrow.</p></blockquote>
<p>None of this means unit tests are bad or that every test should spin up a browser. It means choosing your boundaries deliberately. Tests written against behaviour take a little more thought up front, and they pay it back every single time you refactor.</p>`,
  },
  {
    title: "SQL Window Functions: The Feature You Keep Reimplementing in JavaScript",
    excerpt:
      "Running totals, rankings and comparisons with the previous row are all one query away. Window functions work in PostgreSQL, MySQL 8 and SQLite, yet many of us still loop in app code.",
    author: "Tom Becker",
    coverFile: "development-3.svg",
    category: "Development",
    tags: ["sql", "databases", "sqlite"],
    published: true,
    daysAgo: 58,
    comments: [],
    content: `<p>Here is a pattern I see constantly: fetch a few thousand rows, loop over them in JavaScript, keep a running total or a "previous value" variable, and build the result by hand. It works, but the database could have done it in a single pass, with less data over the wire and no off-by-one bugs. The tool for this is the <strong>window function</strong>, supported by PostgreSQL, MySQL 8 and <a href="https://www.sqlite.org/windowfunctions.html">SQLite since version 3.25</a>.</p>
<h2>What a window is</h2>
<p>An aggregate like <code>SUM()</code> collapses many rows into one. A window function computes a value across a set of related rows but <em>keeps every row</em>. The <code>OVER</code> clause defines that set: <code>PARTITION BY</code> splits rows into groups, and <code>ORDER BY</code> decides their order inside each group.</p>
<h3>Ranking within a group</h3>
<p>Want the three most-read posts in each category?</p>
<pre><code>SELECT category, title, views
FROM (
  SELECT category, title, views,
         ROW_NUMBER() OVER (PARTITION BY category ORDER BY views DESC) AS rn
  FROM posts
) AS ranked
WHERE rn &lt;= 3;
</code></pre>
<p>Note the subquery: window functions are evaluated after <code>WHERE</code>, so you cannot filter on them directly. Wrap the query or use a CTE. If ties should share a position, swap <code>ROW_NUMBER()</code> for <code>RANK()</code> or <code>DENSE_RANK()</code>.</p>
<h3>Running totals</h3>
<pre><code>SELECT day, signups,
       SUM(signups) OVER (ORDER BY day) AS total_signups
FROM daily_signups
ORDER BY day;
</code></pre>
<p>With an <code>ORDER BY</code> inside <code>OVER</code>, the default frame runs from the first row up to the current one, which is exactly a running total. Strictly speaking the default frame is a <code>RANGE</code>, so rows with identical <code>day</code> values are summed together; write <code>ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW</code> if you need one step per row.</p>
<h3>Comparing with the previous row</h3>
<p><code>LAG()</code> and <code>LEAD()</code> look backwards and forwards. Week-over-week change becomes trivial:</p>
<pre><code>SELECT week, visitors,
       visitors - LAG(visitors) OVER (ORDER BY week) AS delta
FROM weekly_stats;
</code></pre>
<p>The first row gets <code>NULL</code> because there is no previous week, which is usually what you want. Pass a default as the third argument, as in <code>LAG(visitors, 1, 0)</code>, if you prefer zero.</p>
<h2>Moving averages</h2>
<p>Frames can be any size. A seven-day moving average smooths out noisy daily numbers:</p>
<pre><code>SELECT day,
       AVG(views) OVER (
         ORDER BY day
         ROWS BETWEEN 6 PRECEDING AND CURRENT ROW
       ) AS views_7d
FROM daily_views;
</code></pre>
<h2>When to reach for them</h2>
<ul>
<li>You are about to loop over query results while carrying a variable from row to row.</li>
<li>You need the "top N per group" without running N separate queries.</li>
<li>You want the detail rows and an aggregate in the same result, such as each order next to the customer's lifetime total.</li>
</ul>
<blockquote><p>If your application code is walking through rows in order and remembering things, there is probably a window function for it.</p></blockquote>
<p>Window functions take an afternoon to get comfortable with and then replace a surprising amount of application code. The <a href="https://www.postgresql.org/docs/current/tutorial-window.html">PostgreSQL tutorial on window functions</a> is the clearest introduction I know, and almost everything in it applies to SQLite as well.</p>`,
  },
  // ----------------------------------------------------------------- Technology
  {
    title: "Self-Hosting on a Small VPS: What Actually Matters",
    excerpt:
      "Running your own server is less about clever tooling and more about a few dull habits: updates, backups, a firewall and knowing when something breaks. Here is my short list.",
    author: "Tom Becker",
    coverFile: "technology-1.svg",
    category: "Technology",
    tags: ["self-hosting", "linux", "security"],
    published: true,
    daysAgo: 14,
    comments: [
      {
        author: "Elif Demir",
        content:
          "The Docker and ufw gotcha is so important. I found my Postgres port wide open last year for exactly that reason.",
        hoursAfterPost: 9,
      },
    ],
    content: `<p>Self-hosting has a reputation for being a rabbit hole. It can be, if you treat it as a hobby in itself. But if your goal is simply to run a blog, a wiki or a small app on a cheap virtual server, the list of things that genuinely matter is short. Everything else is optional.</p>
<h2>1. Lock down SSH on day one</h2>
<p>Bots begin trying passwords against new servers within minutes of them going online. Use key-based login and turn passwords off in <code>/etc/ssh/sshd_config</code>:</p>
<pre><code>PasswordAuthentication no
PermitRootLogin no
</code></pre>
<p>Create a normal user with <code>sudo</code> rights first, confirm that you can log in with your key from a second terminal, and only then reload the SSH service. Locking yourself out of a fresh VPS is a rite of passage you can safely skip.</p>
<h2>2. A default-deny firewall</h2>
<p>Only the ports you actually serve should be reachable. On Debian and Ubuntu, <code>ufw</code> keeps the rules readable:</p>
<pre><code>sudo ufw default deny incoming
sudo ufw allow OpenSSH
sudo ufw allow 80,443/tcp
sudo ufw enable
</code></pre>
<p>One gotcha: Docker writes its own iptables rules, so a port published with <code>-p 5432:5432</code> can be reachable from the internet even though <code>ufw</code> says otherwise. Bind internal services to the loopback interface instead, for example <code>-p 127.0.0.1:5432:5432</code>.</p>
<h2>3. Automatic security updates</h2>
<p>You will not log in every week to run updates. Nobody does. Install <code>unattended-upgrades</code> and let it apply security patches on its own. Reboots for kernel updates can still be done by hand when it suits you.</p>
<h2>4. Backups you have actually restored</h2>
<p>A backup you have never restored is a hope, not a backup. Keep at least one copy off the server, ideally with a different provider, and rehearse a restore every now and then. For small sites the data is usually one database and an uploads folder, which keeps this cheap. Tools like <a href="https://restic.net/">restic</a> handle encryption and deduplication for you.</p>
<h2>5. Know when it is down</h2>
<p>An external uptime check that emails you is worth more than any dashboard. Plenty of free services will request a URL every few minutes. Point one at a health endpoint that also touches the database, so that "the process is running but broken" counts as down.</p>
<h2>What you can skip</h2>
<ul>
<li><strong>Kubernetes.</strong> One machine, one reverse proxy, a few services. systemd or Docker Compose is plenty.</li>
<li><strong>Complex monitoring stacks.</strong> Start with uptime checks and a disk space alert.</li>
<li><strong>Premature high availability.</strong> A personal site being down for ten minutes while you restore a backup is fine.</li>
</ul>
<blockquote><p>The best self-hosted setup is the one you still understand six months later, when something breaks at an inconvenient time.</p></blockquote>
<p>Finally, write down what you did as you go: which packages you installed, where each config file lives, how to restore from backup. That plain text file will turn out to be the most valuable part of the whole setup.</p>`,
  },
  {
    title: "SQLite in Production Is Fine, Actually",
    excerpt:
      "SQLite can comfortably power a blog, a side-project SaaS or an internal tool. The trick is a handful of settings that the defaults leave switched off for backwards compatibility.",
    author: "Maya Chen",
    coverFile: "technology-2.svg",
    category: "Technology",
    tags: ["sqlite", "databases", "performance"],
    published: true,
    daysAgo: 41,
    comments: [
      {
        author: "Lena Hoffmann",
        content: "The BEGIN IMMEDIATE tip just explained a bug I have been chasing for two weeks. Thank you!",
        hoursAfterPost: 3,
      },
      {
        author: "Aiko Tanaka",
        content: "Does busy_timeout need to be set on every connection too, like foreign_keys?",
        hoursAfterPost: 50,
      },
      {
        author: "Maya Chen",
        content:
          "Yes, busy_timeout is a per-connection setting, so run it whenever you open a connection. Of the four pragmas, only journal_mode is stored in the database file.",
        hoursAfterPost: 53,
      },
    ],
    content: `<p>For years the standard advice was that SQLite is for prototypes and tests, and that "real" apps need a database server. For a large class of applications that advice is out of date. A single-server app with moderate write traffic can run happily on SQLite, with one less service to deploy, secure and monitor. The official <a href="https://www.sqlite.org/whentouse.html">Appropriate Uses page</a> is refreshingly honest about where the limits are.</p>
<h2>Turn on WAL mode</h2>
<p>By default SQLite uses a rollback journal, in which a writer blocks readers. In <a href="https://www.sqlite.org/wal.html">write-ahead logging mode</a>, readers and a writer can work at the same time. The journal mode is persistent, so it only needs to be set once per database file, but running it at startup is harmless:</p>
<pre><code>PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA busy_timeout = 5000;
PRAGMA foreign_keys = ON;
</code></pre>
<ul>
<li><code>synchronous = NORMAL</code> is safe in WAL mode and avoids a disk sync on every commit. A power cut may lose the last few transactions, but it will not corrupt the database.</li>
<li><code>busy_timeout</code> makes a connection wait up to five seconds for a lock instead of failing immediately with <code>SQLITE_BUSY</code>.</li>
<li><code>foreign_keys</code> is off by default for historical reasons and must be enabled on every connection.</li>
</ul>
<h2>Understand the single writer</h2>
<p>SQLite allows exactly one writer at a time. That sounds alarming, but a typical write takes well under a millisecond, so hundreds of writes per second are realistic. The trap is long transactions: a transaction that holds the write lock while it waits for an HTTP call blocks every other writer. Keep transactions short and do slow work outside them.</p>
<p>A subtler issue: a transaction that starts as a reader and later tries to write can fail with <code>SQLITE_BUSY</code> even with a busy timeout, because waiting could deadlock. If you know a transaction will write, start it with <code>BEGIN IMMEDIATE</code> so it takes the write lock up front.</p>
<h2>Back up the right way</h2>
<p>Copying the database with <code>cp</code> while the app is running can produce a broken backup, especially in WAL mode, where recent changes live in a separate <code>-wal</code> file. Use SQLite's own tools instead:</p>
<pre><code>sqlite3 blog.db "VACUUM INTO '/backups/blog-nightly.db'"
</code></pre>
<p><code>VACUUM INTO</code> writes a consistent, compacted copy while other connections keep working. The <code>.backup</code> command in the <code>sqlite3</code> shell is another good option, and for continuous replication to object storage, have a look at <a href="https://litestream.io/">Litestream</a>.</p>
<h2>When to move on</h2>
<p>SQLite stops being the right answer when you need several application servers writing to the same database, or when write volume grows so high that the single writer becomes a queue. If you get there, congratulations: migrating a well-structured schema to PostgreSQL is a solved problem. Until then, enjoy having your entire database in one file that you can copy, inspect and reason about.</p>
<blockquote><p>Choosing SQLite is not about avoiding scale. It is about not paying for scale you do not have yet.</p></blockquote>`,
  },
  {
    title: "A Practical Guide to Core Web Vitals",
    excerpt:
      "LCP, INP and CLS measure how fast a page appears, how quickly it responds and how stable it stays. Here is what each metric means and which fixes move the numbers most.",
    author: "Tom Becker",
    coverFile: "technology-3.svg",
    category: "Technology",
    tags: ["performance", "web vitals", "frontend"],
    published: true,
    daysAgo: 83,
    comments: [],
    content: `<p>Google's <a href="https://web.dev/articles/vitals">Core Web Vitals</a> boil page experience down to three numbers. They are not perfect, but they line up well with what users actually complain about: pages that load slowly, ignore taps, or jump around while you are reading. Here is what each one measures and where the easy wins usually are.</p>
<h2>Largest Contentful Paint (LCP)</h2>
<p>LCP is the time until the biggest visible element, usually a hero image or the first block of text, is rendered. A good score is <strong>2.5 seconds or less</strong> at the 75th percentile of page loads.</p>
<ul>
<li>Make sure the LCP image is discoverable in the initial HTML rather than injected by JavaScript.</li>
<li>Give it <code>fetchpriority="high"</code> and never lazy-load it.</li>
<li>Serve appropriately sized images in a modern format such as AVIF or WebP.</li>
<li>Reduce server response time. No front-end trick can fix a slow first byte.</li>
</ul>
<h2>Interaction to Next Paint (INP)</h2>
<p>INP replaced First Input Delay as a Core Web Vital in March 2024. It observes the clicks, taps and key presses during a visit and reports roughly the slowest one, measured until the next frame is painted. Aim for <strong>200 milliseconds or less</strong>.</p>
<p>Poor INP almost always means long tasks on the main thread. Break big chunks of work into smaller pieces and yield to the browser between them, so it gets a chance to handle input and paint:</p>
<pre><code>async function processInChunks(items, handle) {
  for (let i = 0; i &lt; items.length; i++) {
    handle(items[i]);
    if (i % 50 === 49) {
      await new Promise((resolve) =&gt; setTimeout(resolve, 0));
    }
  }
}
</code></pre>
<p>Also look at what runs on every keystroke. Debouncing a search field or moving expensive filtering into a web worker often makes an interface feel instant.</p>
<h2>Cumulative Layout Shift (CLS)</h2>
<p>CLS measures how much visible content moves unexpectedly. A good score is <strong>0.1 or less</strong>, and the usual culprits are easy to fix:</p>
<ul>
<li>Images and videos without <code>width</code> and <code>height</code> attributes. Set them and let CSS scale the element; the browser uses them to reserve the right amount of space.</li>
<li>Web fonts that swap in with different metrics. Tune a fallback with <code>size-adjust</code> in <code>@font-face</code>, or preload the font.</li>
<li>Banners and embeds inserted above existing content. Reserve their space with <code>min-height</code>.</li>
</ul>
<h2>Measure in the field, debug in the lab</h2>
<p>A standard Lighthouse page-load run cannot measure INP, because nobody is clicking. Field data from real users is what counts. You can still watch LCP candidates directly in the browser console:</p>
<pre><code>new PerformanceObserver((list) =&gt; {
  const entries = list.getEntries();
  const latest = entries[entries.length - 1];
  console.log("LCP:", Math.round(latest.startTime), latest.element);
}).observe({ type: "largest-contentful-paint", buffered: true });
</code></pre>
<p>For production, the small <a href="https://github.com/GoogleChrome/web-vitals">web-vitals library</a> reports all three metrics so you can send them to your own analytics endpoint and look at real percentiles.</p>
<blockquote><p>Fix the metric your real users are failing, not the one that is easiest to improve in Lighthouse.</p></blockquote>`,
  },
  // --------------------------------------------------------------------- Design
  {
    title: "Typography for Long-Form Reading",
    excerpt:
      "Most reading comfort comes from four settings: font size, line length, line height and contrast. Get those right and almost any decent typeface will read beautifully on screen.",
    author: "Sofia Lindqvist",
    coverFile: "design-1.svg",
    category: "Design",
    tags: ["typography", "css", "readability"],
    published: true,
    daysAgo: 11,
    comments: [],
    content: `<p>When people say a blog "looks nice", they are usually reacting to its typography, even if they would not describe it that way. The good news is that comfortable reading does not depend on an expensive typeface. It depends on a handful of measurements, and CSS gives us precise control over every one of them.</p>
<h2>Start with a generous size</h2>
<p>Browsers default to 16 pixels, and for body text on a desktop screen that is a minimum rather than a target. Something between 17 and 20 pixels reads more comfortably at typical viewing distances. Use <code>clamp()</code> to scale smoothly between small and large screens without any breakpoints:</p>
<pre><code>:root {
  font-size: clamp(1rem, 0.95rem + 0.3vw, 1.1875rem);
}
</code></pre>
<p>Because the preferred value mixes <code>rem</code> and <code>vw</code>, the text still responds to the reader's zoom level and font size preference. Never set body text in pure viewport units.</p>
<h2>Control the line length</h2>
<p>Long lines make it hard to find the start of the next one; very short lines break the rhythm of reading. The classic guideline is 45 to 75 characters per line. The <code>ch</code> unit, roughly the width of the digit zero, makes this easy to express:</p>
<pre><code>.article {
  max-width: 68ch;
  margin-inline: auto;
  padding-inline: 1.25rem;
}
</code></pre>
<h2>Give lines room to breathe</h2>
<p>Body text generally wants a <code>line-height</code> of around 1.5 to 1.7. Headings, being larger and shorter, look better set tighter, around 1.1 to 1.25. Use unitless values so that line height scales with the font size of each element instead of being computed once and inherited as a fixed length.</p>
<h2>Headings and hierarchy</h2>
<ul>
<li>Use a modest type scale. A ratio of about 1.25 between levels is plenty for an article; dramatic scales belong on landing pages.</li>
<li>Put more space <em>above</em> a heading than below it, so it clearly belongs to the text that follows.</li>
<li>Limit yourself to two weights. Bold is for emphasis, not decoration.</li>
</ul>
<h2>Small details that add up</h2>
<p>Modern CSS has a few properties that quietly improve text. <code>text-wrap: balance</code> evens out the lines of a multi-line heading, and <code>text-wrap: pretty</code> avoids a lonely orphaned word at the end of a paragraph. Both are progressive enhancements: browsers that do not support them simply ignore them. <a href="https://developer.mozilla.org/en-US/docs/Web/CSS/text-wrap">MDN's text-wrap reference</a> lists current support.</p>
<pre><code>h1, h2, h3 { text-wrap: balance; }
p { text-wrap: pretty; }
table { font-variant-numeric: tabular-nums; }
</code></pre>
<p>Tabular numbers give every digit the same width, so figures line up in columns. Tables, prices and statistics become far easier to scan.</p>
<blockquote><p>Good body text should be invisible. The reader sees the words, not the type.</p></blockquote>
<p>Finally, resist the urge to use light grey text for a "clean" look. Thin, low-contrast type is the single most common readability problem on the web, and no amount of careful spacing will save it.</p>`,
  },
  {
    title: "Colour Contrast Without Guesswork",
    excerpt:
      "WCAG contrast ratios are not a matter of taste. Learn how the numbers are calculated, what the 4.5:1 and 3:1 thresholds apply to, and how to build a palette that passes by design.",
    author: "Sofia Lindqvist",
    coverFile: "design-2.svg",
    category: "Design",
    tags: ["accessibility", "colour", "css"],
    published: true,
    daysAgo: 36,
    comments: [
      {
        author: "Ravi Patel",
        content: "The #767676 fact is one I wish I had learned years ago. Bookmarking the contrast function too.",
        hoursAfterPost: 8,
      },
    ],
    content: `<p>Low-contrast text is the most widespread accessibility problem on the web, and it affects far more people than we tend to imagine: anyone with low vision, most people over a certain age, anyone reading a phone in bright sunlight. The fix is measurable, which makes contrast one of the few design decisions you can get objectively right.</p>
<h2>The thresholds</h2>
<p>The <a href="https://www.w3.org/WAI/WCAG22/Understanding/contrast-minimum.html">WCAG contrast criteria</a> define a ratio between two colours, ranging from 1:1 (identical) to 21:1 (black on white). For level AA you need:</p>
<ul>
<li><strong>4.5:1</strong> for normal body text.</li>
<li><strong>3:1</strong> for large text, meaning at least 24 CSS pixels, or about 18.7 pixels when bold.</li>
<li><strong>3:1</strong> for meaningful non-text elements such as input borders, focus indicators and icons that carry information.</li>
</ul>
<p>Level AAA raises the body text requirement to 7:1. Placeholders, captions and timestamps are all still text, and they are the usual offenders.</p>
<h2>How the ratio is calculated</h2>
<p>The ratio compares the <em>relative luminance</em> of the two colours. Each sRGB channel is linearised, the channels are weighted by how sensitive our eyes are to them (green counts most, blue least), and the two results are compared. The whole thing is short enough to keep in your toolbox:</p>
<pre><code>function channel(value) {
  const c = value / 255;
  return c &lt;= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function luminance([r, g, b]) {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function contrast(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) =&gt; y - x);
  return (light + 0.05) / (dark + 0.05);
}

contrast([118, 118, 118], [255, 255, 255]); // about 4.54
</code></pre>
<p>That last line is worth remembering: <code>#767676</code> is roughly the lightest grey that passes AA for body text on a pure white background.</p>
<h2>Build contrast into the palette</h2>
<p>Checking colours one pair at a time is tedious and easy to forget. Instead, define a palette in which each step has a known contrast against your backgrounds. A common approach is a scale from 50 to 900 where, say, every step from 600 upwards passes 4.5:1 on white. The rule for the team then becomes simple: body text uses 600 or darker, and nobody has to open a contrast checker.</p>
<h3>Do not forget dark mode</h3>
<p>Dark themes need their own checks. Pure white text on pure black has excellent contrast on paper but can cause halation, a glowing blur around letters, for some readers. A slightly off-white on a dark grey is often more comfortable and still passes easily.</p>
<h2>Beyond the numbers</h2>
<p>Contrast is necessary but not sufficient. Never use colour alone to convey meaning: an invalid form field needs an icon or a message, not just a red border. Links inside paragraphs should be underlined, or at least distinguishable by more than hue. And keep in mind that the WCAG 2 formula is known to misjudge some colour pairs, particularly light text on dark backgrounds; newer models such as APCA are being explored for future guidelines.</p>
<blockquote><p>If you are debating whether a grey is "dark enough", it is not. Measure it.</p></blockquote>`,
  },
  {
    title: "Let the Content Decide: Responsive Layouts with CSS Grid",
    excerpt:
      "Intrinsic layouts adapt to their content instead of a list of breakpoints. A few CSS Grid patterns cover card lists, article pages and sidebars with remarkably little code.",
    author: "Sofia Lindqvist",
    coverFile: "design-3.svg",
    category: "Design",
    tags: ["css", "layout", "responsive design"],
    published: true,
    daysAgo: 69,
    comments: [],
    content: `<p>For a long time, responsive design meant a set of media queries: one layout for phones, one for tablets, one for desktops. The trouble is that components rarely care about the width of the viewport. A card in a sidebar and the same card in the main column live in very different spaces. Modern CSS lets us write layouts that respond to the space they actually have.</p>
<h2>The auto-filling card grid</h2>
<p>This rule creates as many columns as will fit, each at least 18rem wide, without a single media query:</p>
<pre><code>.cards {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 18rem), 1fr));
  gap: 1.5rem;
}
</code></pre>
<p>The <code>min(100%, 18rem)</code> wrapper stops the grid from overflowing on screens narrower than 18rem. The difference between <code>auto-fill</code> and <code>auto-fit</code> only shows when there are fewer items than columns: <code>auto-fill</code> keeps the empty tracks, while <code>auto-fit</code> collapses them so the existing items stretch across the row.</p>
<h2>An article layout with breakout elements</h2>
<p>Blog posts often want a readable text column, with code blocks or figures that break out a little wider. Named grid lines make this elegant:</p>
<pre><code>.post {
  display: grid;
  grid-template-columns:
    [full-start] minmax(1rem, 1fr)
    [wide-start] minmax(0, 8rem)
    [content-start] min(100% - 2rem, 68ch) [content-end]
    minmax(0, 8rem) [wide-end]
    minmax(1rem, 1fr) [full-end];
}
.post &gt; * { grid-column: content; }
.post &gt; pre, .post &gt; figure { grid-column: wide; }
</code></pre>
<p>Every child sits in the content column by default, and specific elements opt into the wider track. On a narrow screen the content track takes the full width minus the padding, the breakout tracks shrink to nothing, and everything falls back to a single padded column.</p>
<h2>The minmax(0, 1fr) trap</h2>
<p>A plain <code>1fr</code> track has an automatic minimum size, which means it will not shrink below its widest unbreakable content. A long URL or a wide code block can push a whole page off the side of a phone. If a column mysteriously refuses to shrink, write <code>minmax(0, 1fr)</code> instead, and let code blocks scroll inside their track:</p>
<pre><code>.layout {
  display: grid;
  grid-template-columns: minmax(0, 1fr) 16rem;
  gap: 2rem;
}
pre { overflow-x: auto; }
</code></pre>
<h2>Container queries for components</h2>
<p>When a component really must change its internal arrangement, query its container rather than the viewport. <a href="https://developer.mozilla.org/en-US/docs/Web/CSS/CSS_containment/Container_queries">Container queries</a> are supported in all modern browsers:</p>
<pre><code>.card-wrapper { container-type: inline-size; }
.card { display: grid; gap: 1rem; }

@container (min-width: 30rem) {
  .card { grid-template-columns: 10rem 1fr; }
}
</code></pre>
<p>The same card now shows its image beside the text in a wide column and above it in a narrow sidebar, wherever it is placed.</p>
<ul>
<li>Start with intrinsic sizing: <code>min()</code>, <code>max()</code>, <code>clamp()</code> and <code>minmax()</code>.</li>
<li>Reach for container queries when a component's structure needs to change.</li>
<li>Keep media queries for truly page-level decisions, such as collapsing the main navigation.</li>
</ul>
<blockquote><p>Design each component for every width it might get, and let the layout work out which one that is.</p></blockquote>`,
  },
  // ------------------------------------------------------------------- Business
  {
    title: "Notes From Five Years of Freelancing",
    excerpt:
      "Five years of working for myself taught me more about contracts, cash flow and saying no than about code. These are the lessons I wish someone had handed me on day one.",
    author: "Daniel Okafor",
    coverFile: "business-1.svg",
    category: "Business",
    tags: ["freelancing", "career"],
    published: true,
    daysAgo: 104,
    comments: [],
    content: `<p>Five years ago I left a comfortable agency job with one client lined up and a vague plan to "see how it goes". It went better than I feared and differently than I expected. Most of what I learned has nothing to do with technical skill, which turned out to be the easy part.</p>
<h2>Cash flow is the job</h2>
<p>Revenue is what you invoice; cash flow is what actually lands in your account, and the gap between the two is where freelancers get into trouble. Clients pay late. Large companies have 60-day payment terms that nobody mentions until your first invoice. Some habits that help:</p>
<ul>
<li>Build a buffer of at least three months of expenses before you quit, and rebuild it after every lean period.</li>
<li>Ask for a deposit, typically 30 to 50 percent, before starting a fixed-price project.</li>
<li>Invoice on a fixed schedule, not "when the project is done". Bill long projects in milestones.</li>
<li>Move tax money into a separate account the day a payment arrives, and pretend it does not exist.</li>
</ul>
<h2>Contracts protect both sides</h2>
<p>A contract is not a sign of distrust. It is a shared description of what will happen, written while everyone is still friendly. At a minimum mine cover scope and deliverables, payment terms, what counts as a change request, who owns the work and when, and how either side can end the engagement. For larger projects, a separate <a href="https://en.wikipedia.org/wiki/Statement_of_work">statement of work</a> keeps the legal terms stable while the scope changes. If a client refuses to sign anything at all, that tells you something useful early.</p>
<h2>Say no more often</h2>
<p>In my first year I accepted everything. That is understandable, but it filled my calendar with work I was not good at and clients who were not a good fit. The projects that went badly almost always showed warning signs in the first call: unclear decision makers, a budget that "depends", an urgent deadline with no reason behind it.</p>
<blockquote><p>The most profitable thing I ever did was turn down a project I knew I would hate.</p></blockquote>
<h2>Specialise, at least a little</h2>
<p>"I build websites" competes with everyone on earth. "I help independent bookshops sell online" competes with almost nobody. A niche does not have to be permanent, and it does not stop you from taking other work, but it makes your marketing easier, your referrals more targeted and your rates easier to justify.</p>
<h2>Protect the non-billable time</h2>
<p>Not every hour is billable. Sales calls, proposals, bookkeeping, learning and the occasional dry spell all eat into the week. Early on I planned as if I would bill forty hours every week, and I was perpetually behind and exhausted. Now I plan for about 25 billable hours and treat anything above that as a bonus. My rates reflect that, which is a topic for another post.</p>
<h2>Keep the system simple</h2>
<p>You do not need a stack of productivity apps. A calendar, a spreadsheet of leads, an invoicing tool and a folder per client carried me for years. The system only has to be good enough that nothing falls through the cracks when you are busy, because busy is exactly when things fall through.</p>
<p>Freelancing is not for everyone, and that is fine. But if you value autonomy and can live with some uncertainty, it can be a deeply satisfying way to work. Just start with a <strong>buffer</strong>.</p>`,
  },
  {
    title: "How to Price a Project Without Undercharging",
    excerpt:
      "Most independent professionals undercharge because they price from their old salary instead of their real costs. A simple calculation and a few negotiation habits fix most of it.",
    author: "Daniel Okafor",
    coverFile: "business-2.svg",
    category: "Business",
    tags: ["pricing", "freelancing", "consulting"],
    published: true,
    daysAgo: 22,
    comments: [
      {
        author: "Chloe Martin",
        content: "The billable days calculation was a wake-up call. I had been assuming 220 days a year.",
        hoursAfterPost: 4,
      },
      {
        author: "Sam Greene",
        content:
          "Reducing scope instead of rate is such a simple idea, and it works. Used it on a proposal this week and the client said yes.",
        hoursAfterPost: 30,
      },
    ],
    content: `<p>Ask a new freelancer how they set their rate and you will often hear: "I took my old salary and divided it by the hours in a year." It feels logical, and it almost guarantees you will undercharge. An employer pays for far more than your salary, and as a freelancer you now pay for all of it yourself.</p>
<h2>Start from the floor</h2>
<p>Before thinking about value or competitors, calculate the minimum day rate that keeps your business alive:</p>
<ol>
<li><strong>Target income.</strong> What you want to pay yourself before tax. Say 70,000.</li>
<li><strong>Business costs.</strong> Equipment, software, insurance, accounting, pension contributions, a co-working desk. Say 10,000.</li>
<li><strong>Billable days.</strong> Start with 52 weeks of 5 days, then subtract holidays, public holidays, sick days, and time spent on sales and admin. Realistically that leaves 130 to 150 days, not 230.</li>
<li><strong>Divide.</strong> 80,000 across 140 billable days is about 570 per day.</li>
</ol>
<p>That number is your floor, not your price. Quoting below it means working for less than your old job while carrying far more risk.</p>
<h2>Then think about value</h2>
<p>Clients do not buy hours; they buy outcomes. A checkout redesign that lifts conversion by two percent can be worth far more to a busy shop than the days it takes to build. You do not need elaborate value-based pricing to benefit from this. Just ask, early in the conversation, what success looks like and what the problem is costing them today. The answer anchors the discussion around their results rather than your time.</p>
<h2>Fixed price or time and materials?</h2>
<ul>
<li><strong>Fixed price</strong> works when the scope is clear. You carry the risk of overruns, so add a margin for uncertainty, often 15 to 25 percent.</li>
<li><strong>Time and materials</strong> suits exploratory work where nobody can honestly define the scope yet.</li>
<li><strong>A paid discovery phase</strong> is a great bridge: a small fixed-price project whose deliverable is the scope of the big one.</li>
</ul>
<h2>Present options</h2>
<p>Instead of a single number, offer two or three packages at different levels of scope. This changes the client's question from "should we hire them?" to "which option suits us?", and many will choose the middle one. Make sure every option is something you would genuinely be happy to deliver.</p>
<blockquote><p>If nobody ever pushes back on your price, you are too cheap.</p></blockquote>
<h2>Handling "that's more than we expected"</h2>
<p>Do not discount on the spot. Ask what budget they had in mind, then reduce the scope to fit it rather than reducing your rate. A lower rate teaches the client that your first number was not serious; a smaller scope keeps your rate intact and often produces a better-focused project anyway.</p>
<p>Finally, raise your rates regularly, at least in line with inflation, and always for new clients first. For a sharper take on talking about the value you create, Patrick McKenzie's essay <a href="https://www.kalzumeus.com/2011/10/28/dont-call-yourself-a-programmer/">Don't Call Yourself a Programmer</a> is still worth reading more than a decade on.</p>`,
  },
  {
    title: "Running a Remote Team Across Time Zones",
    excerpt:
      "When your team spans eight time zones, meetings stop scaling. Writing things down, protecting a small overlap window and making handoffs explicit keep distributed work moving.",
    author: "Daniel Okafor",
    coverFile: "business-3.svg",
    category: "Business",
    tags: ["remote work", "management", "communication"],
    published: true,
    daysAgo: 52,
    comments: [],
    content: `<p>Remote work within a single time zone is mostly an office without a commute. Spread the same team from Lisbon to Singapore and everything changes. There is no moment when everyone is awake, a quick question can take a day to answer, and the habits that worked in a shared office quietly stop working.</p>
<h2>Default to asynchronous</h2>
<p>The biggest shift is treating written communication as the primary channel and meetings as the exception. That means writing messages that can be acted on without a follow-up conversation:</p>
<ul>
<li>State the context, the question, and what you need by when.</li>
<li>Link to the relevant document or ticket instead of summarising it from memory.</li>
<li>If you are blocked, say so explicitly, and say what you will work on in the meantime.</li>
</ul>
<p>Compare "Can we chat about the API?" with "The pagination API returns duplicates when posts share a timestamp (ticket linked). I would like to switch to cursor-based pagination. Any objections before Thursday?" The second can be answered from any time zone, without a meeting.</p>
<h2>Protect a small overlap</h2>
<p>Asynchronous does not mean never talking. Find the two or three hours when most of the team is awake and guard them for the things that really benefit from conversation: unblocking, difficult feedback and some social time. Rotate meetings that cannot fit into the overlap so that the same people are not always taking calls at ten in the evening.</p>
<h2>Write decisions down</h2>
<p>In an office, decisions spread by osmosis. Remotely, a decision made on a call is invisible to everyone who was asleep. Keep a lightweight decision log: one short entry per decision with the date, the choice, the alternatives considered and who made the call. It stops the same debate from restarting every few weeks. GitLab's public <a href="https://handbook.gitlab.com/handbook/company/culture/all-remote/">all-remote handbook</a> is an excellent example of this habit taken seriously.</p>
<h2>Make handoffs explicit</h2>
<p>Time zones can be an advantage, because work can move around the clock. That only happens when handoffs are deliberate. A short end-of-day note helps whoever picks things up next:</p>
<pre><code>Done: migrated comments table, tests passing
In progress: RSS feed pagination (branch feed-cursor)
Blocked: need production credentials for the mail provider
Next: review Ana's pull request on image resizing
</code></pre>
<h2>Look after people</h2>
<p>Distributed teams can drift into loneliness and overwork, because the laptop is always there and someone is always online. Managers set the tone. Do not send messages that imply urgency late in someone's evening; schedule them instead. Make it normal to set your status to away. Hold regular one-to-ones and ask how people are doing, not only what they are doing.</p>
<blockquote><p>A remote team is only as good as its writing. Invest in it like any other core skill.</p></blockquote>
<p>None of this is glamorous. It is a set of small habits, repeated consistently. But teams that get them right often find that they work <em>better</em> than they ever did in the same room.</p>`,
  },
  // ------------------------------------------------------------------ Marketing
  {
    title: "Starting a Newsletter That People Actually Open",
    excerpt:
      "A newsletter is the most direct line you have to your readers. Here is how to start one that respects their inbox, gets past spam filters and keeps growing without tricks.",
    author: "Daniel Okafor",
    coverFile: "marketing-1.svg",
    category: "Marketing",
    tags: ["newsletter", "email"],
    published: true,
    daysAgo: 18,
    comments: [
      {
        author: "Hannah Price",
        content:
          "Replies as a signal is underrated. I started ending each issue with a question and went from zero replies to a dozen per send.",
        hoursAfterPost: 12,
      },
    ],
    content: `<p>Social platforms change their algorithms on a whim, and search traffic comes and goes. An email list is different: it is a direct line to people who explicitly asked to hear from you. For a personal blog it is often the most valuable asset you have, and it is much simpler to start than most people think.</p>
<h2>Decide what you are promising</h2>
<p>"Subscribe to my newsletter" is a weak offer. "One practical CSS tip every other Tuesday" is a strong one. Before you set anything up, write a single sentence describing what subscribers will get and how often. Put that sentence right next to the signup form. It sets expectations, and expectations that are met are what keep people subscribed.</p>
<h2>Pick a schedule you can sustain</h2>
<p>Consistency beats frequency. A monthly letter that always arrives is better than a weekly one that sputters out after six issues. Choose the slowest schedule you would be happy with, and only speed up once you have a backlog of ideas.</p>
<h2>Get the technical basics right</h2>
<p>Deliverability is a real concern. The large mailbox providers have tightened their rules for bulk senders, so whichever service you use, make sure that:</p>
<ul>
<li>Your sending domain has valid <strong>SPF</strong>, <strong>DKIM</strong> and <strong>DMARC</strong> records.</li>
<li>You use <strong>double opt-in</strong>, so only real, confirmed addresses end up on the list.</li>
<li>Every email includes a working <strong>one-click unsubscribe</strong>, as defined in <a href="https://www.rfc-editor.org/rfc/rfc8058">RFC 8058</a>.</li>
</ul>
<p>If you send through your own code rather than a newsletter service, the unsubscribe headers look like this:</p>
<pre><code>List-Unsubscribe: &lt;https://example.com/unsubscribe?token=abc123&gt;
List-Unsubscribe-Post: List-Unsubscribe=One-Click
</code></pre>
<p>The unsubscribe URL must accept a <code>POST</code> request and remove the subscriber without asking them to log in or confirm anything.</p>
<h2>Write like a person</h2>
<p>The best newsletters read like a letter from someone you know. Use a real name in the <em>From</em> field, write in the first person, and keep the design simple. Heavy templates full of images look like marketing and are more likely to land in a promotions tab. One clear topic per issue beats a digest of ten links.</p>
<h2>Measure what matters</h2>
<p>Open rates have become unreliable since Apple's Mail Privacy Protection started pre-loading tracking pixels for many readers. Pay more attention to clicks, replies and unsubscribes after specific issues. Replies are especially valuable: they tell you what resonated, and mailbox providers treat a conversation as a strong signal that your email is wanted.</p>
<blockquote><p>Treat every subscriber's inbox as a place you have been invited into, and behave accordingly.</p></blockquote>
<h2>Growing the list</h2>
<p>Put the signup form at the end of every post, where a reader who just enjoyed your writing is most likely to want more. Offer an RSS feed as well; some readers prefer it, and that is fine. Growth from genuinely interested readers is slower than buying lists or running giveaways, but those subscribers stay.</p>`,
  },
  {
    title: "SEO for Personal Blogs: The Boring Parts That Work",
    excerpt:
      "You do not need an SEO agency to be found. Clear titles, honest descriptions, stable URLs, a sitemap and genuinely useful writing cover nearly everything a personal blog needs.",
    author: "Sofia Lindqvist",
    coverFile: "marketing-2.svg",
    category: "Marketing",
    tags: ["seo", "blogging", "html"],
    published: true,
    daysAgo: 47,
    comments: [],
    content: `<p>Search engine optimisation has a reputation for dark arts and endless checklists. For a personal blog, almost none of that applies. Search engines want to send people to pages that answer their question. Your job is to write those pages and make it easy for crawlers to understand them. The rest is mostly noise.</p>
<h2>Titles and descriptions</h2>
<p>Every page needs a unique <code>&lt;title&gt;</code> that describes its content, ideally with the most important words first. The meta description does not directly affect ranking, but it is often shown as the snippet in results, so it influences whether people click:</p>
<pre><code>&lt;title&gt;Colour Contrast Without Guesswork | Sofia's Notes&lt;/title&gt;
&lt;meta name="description" content="How WCAG contrast ratios are calculated and how to build a palette that passes by default."&gt;
&lt;link rel="canonical" href="https://example.com/posts/colour-contrast"&gt;
</code></pre>
<p>The canonical link tells search engines which URL is the "real" one when the same post is reachable in several ways, for example with and without tracking parameters.</p>
<h2>Clean, stable URLs</h2>
<p>Use short, readable slugs like <code>/posts/colour-contrast</code> rather than <code>/p?id=4817</code>. More importantly, never change a URL once it is published. If you must, set up a permanent <code>301</code> redirect from the old address so that existing links and rankings carry over.</p>
<h2>Help crawlers find everything</h2>
<ul>
<li>Publish an XML <strong>sitemap</strong> listing every post, with accurate last-modified dates, and reference it from <code>robots.txt</code>.</li>
<li>Link between related posts. Internal links help readers and show search engines how your content fits together.</li>
<li>Keep drafts and admin pages out of the index, either by requiring a login or with a <code>noindex</code> robots meta tag.</li>
</ul>
<pre><code>User-agent: *
Disallow: /admin/
Sitemap: https://example.com/sitemap.xml
</code></pre>
<h2>Structure your content</h2>
<p>Use one <code>h1</code> for the post title and a logical hierarchy of <code>h2</code> and <code>h3</code> headings beneath it. Headings make long posts skimmable for people and give search engines a clear outline. Add descriptive <code>alt</code> text to meaningful images, and consider structured data such as <a href="https://developers.google.com/search/docs/appearance/structured-data/article">Article markup</a> if you want richer results.</p>
<h2>Performance is part of SEO</h2>
<p>Page experience, including Core Web Vitals, is one of the many signals search engines consider. A lightweight blog with server-rendered HTML already has a head start here, so do not throw it away with a pile of heavy tracking scripts.</p>
<blockquote><p>The best SEO strategy for a personal blog is to write the post you wished existed when you searched for the answer yourself.</p></blockquote>
<p>Google's own <a href="https://developers.google.com/search/docs/fundamentals/seo-starter-guide">SEO starter guide</a> is short, practical and free of hype. Read it once, fix the basics, and then spend your time on writing. Content that genuinely helps people is what earns links, and links are still what move the needle.</p>`,
  },
  {
    title: "Writing Headlines Readers Click (and Don't Regret Clicking)",
    excerpt:
      "A good headline makes a specific promise and the article keeps it. Here is a practical process for writing titles that earn the click without resorting to clickbait.",
    author: "Sofia Lindqvist",
    coverFile: "marketing-3.svg",
    category: "Marketing",
    tags: ["writing", "headlines", "content strategy"],
    published: true,
    daysAgo: 91,
    comments: [],
    content: `<p>Most readers decide whether to read a post in the second it takes to scan its title. That makes the headline the most-read sentence you will ever write for an article, and yet it is often the one written last, in a hurry, just before hitting publish. A little process goes a long way.</p>
<h2>Make a specific promise</h2>
<p>Vague headlines are easy to ignore. "Thoughts on Testing" could be anything. "Write Tests That Survive a Refactor" tells the reader exactly what they will get and who it is for. Specificity comes from concrete nouns, real numbers and a clear outcome:</p>
<ul>
<li><em>Weak:</em> "Improving Your Website's Speed"</li>
<li><em>Better:</em> "Cut Your Page Load Time in Half with Three Image Fixes"</li>
<li><em>Weak:</em> "Some Thoughts on Pricing"</li>
<li><em>Better:</em> "How to Price a Project Without Undercharging"</li>
</ul>
<h2>Keep the promise</h2>
<p>This is the difference between a good headline and clickbait. Clickbait promises something the article does not deliver, or withholds key information purely to force a click. It works once. Then readers learn to distrust you. A good headline sets an expectation that the article meets or exceeds, and that builds the kind of trust that brings people back.</p>
<blockquote><p>A headline is a contract with the reader. Write one you can honour.</p></blockquote>
<h2>Write ten, pick one</h2>
<p>Copywriters have long recommended writing many headlines for every piece. It sounds excessive, but the first two or three ideas are usually the obvious ones. By the eighth, you are finding angles you would not otherwise have considered. A simple routine:</p>
<ol>
<li>Write down the one thing a reader should take away from the article.</li>
<li>Draft ten headlines quickly, without judging them.</li>
<li>Cross out any that are vague, misleading, or would fit a hundred other articles.</li>
<li>Read the survivors aloud and pick the one that sounds most like something a friend would say.</li>
</ol>
<h2>Mind the context</h2>
<p>Your headline appears in many places: search results, social previews, feed readers, newsletters. Search results usually truncate long titles, so put the important words first. Around 60 characters is a reasonable guide for the <code>&lt;title&gt;</code> tag, but the on-page heading can be longer if it needs to be. Many platforms let you set the two separately, and there is nothing wrong with a shorter SEO title and a more expressive headline on the page.</p>
<h2>Patterns that work</h2>
<ul>
<li><strong>How to [outcome]:</strong> direct and search-friendly.</li>
<li><strong>[Number] [things] for [audience]:</strong> sets the scope, and works best when the number is honest rather than padded.</li>
<li><strong>Why [common belief] is wrong:</strong> intriguing, but only if you actually make the case.</li>
<li><strong>[Outcome] without [pain]:</strong> speaks directly to a specific frustration.</li>
</ul>
<p>If you want data rather than intuition, test two versions on your newsletter audience; many email tools can A/B test subject lines, and the results are often surprising. For more on clear, reader-first writing in general, the <a href="https://developers.google.com/style">Google developer documentation style guide</a> is full of practical advice that applies well beyond technical docs.</p>`,
  },
  // ------------------------------------------------------------------ Tutorials
  {
    title: "How to Set Up Automatic HTTPS with Caddy",
    excerpt:
      "Put your Node app behind Caddy and get free, automatically renewed TLS certificates, HTTP/2, compression and sensible security headers in about ten lines of configuration.",
    author: "Tom Becker",
    coverFile: "tutorials-1.svg",
    category: "Tutorials",
    tags: ["caddy", "https", "self-hosting"],
    published: true,
    daysAgo: 31,
    comments: [],
    content: `<p>Caddy is a web server that obtains and renews TLS certificates on its own. Point a domain at your server, write a few lines of configuration, and you have HTTPS with no cron jobs and no certificate files to manage. In this tutorial we will put Caddy in front of a Node.js app running on port 3000 on a Debian or Ubuntu server.</p>
<h2>Prerequisites</h2>
<ul>
<li>A server with a public IP address and ports 80 and 443 open in the firewall.</li>
<li>A domain or subdomain with an <code>A</code> record (and an <code>AAAA</code> record for IPv6) pointing to that server.</li>
<li>Your app listening on <code>localhost:3000</code>.</li>
</ul>
<p>DNS must be working before you start: the certificate authority needs to reach your server by name to confirm that you control the domain.</p>
<h2>Step 1: Install Caddy</h2>
<p>Caddy publishes official packages for Debian-based systems. Follow the commands on the <a href="https://caddyserver.com/docs/install">install page</a>, which add the package repository and its signing key. Installing the package also creates a <code>caddy</code> system user and a systemd service that starts automatically. Check that it is running:</p>
<pre><code>systemctl status caddy
</code></pre>
<h2>Step 2: Write the Caddyfile</h2>
<p>Replace the contents of <code>/etc/caddy/Caddyfile</code> with:</p>
<pre><code>blog.example.com {
  encode zstd gzip
  reverse_proxy localhost:3000

  header {
    Strict-Transport-Security "max-age=31536000"
    X-Content-Type-Options "nosniff"
    Referrer-Policy "strict-origin-when-cross-origin"
  }
}
</code></pre>
<p>That is the entire configuration. Because the site address is a domain name, Caddy automatically enables HTTPS: it requests a certificate, redirects HTTP to HTTPS and serves over HTTP/2 and HTTP/3. The <code>encode</code> line compresses responses, and <code>reverse_proxy</code> forwards requests to your app along with the usual <code>X-Forwarded-*</code> headers.</p>
<h2>Step 3: Validate and reload</h2>
<pre><code>sudo caddy fmt --overwrite /etc/caddy/Caddyfile
caddy validate --config /etc/caddy/Caddyfile
sudo systemctl reload caddy
</code></pre>
<p>Reloading applies the new configuration without dropping connections. Watch the logs while the certificate is issued:</p>
<pre><code>journalctl -u caddy -f
</code></pre>
<p>Within a few seconds you should see messages about obtaining a certificate. Visit <code>https://blog.example.com</code> and you are done.</p>
<h2>Step 4: Tell your app it is behind a proxy</h2>
<p>Your app now sees every request arriving from <code>127.0.0.1</code>. If it logs client IP addresses, enforces rate limits or builds absolute URLs, configure it to trust forwarded headers from the local proxy only. In Express, for example, that is <code>app.set("trust proxy", "loopback")</code>. Also make sure the app itself listens only on localhost, so that nobody can bypass Caddy by connecting to port 3000 directly.</p>
<h2>Troubleshooting</h2>
<ul>
<li><strong>Certificate errors in the logs:</strong> check that DNS points to this server and that ports 80 and 443 are reachable from the internet.</li>
<li><strong>502 Bad Gateway:</strong> Caddy is fine, but your app is not running or is listening on a different port.</li>
<li><strong>Rate limited:</strong> certificate authorities limit repeated failures. Fix the underlying problem before retrying, rather than restarting in a loop.</li>
</ul>
<blockquote><p>Once you have used automatic HTTPS, manual certificate management starts to feel like a relic.</p></blockquote>`,
  },
  {
    title: "Build a Tiny Command-Line Tool with Node.js and Zero Dependencies",
    excerpt:
      "Node ships with everything a small CLI needs: argument parsing, file access and Unicode-aware word splitting. Build a word-count tool step by step and install it as a command.",
    author: "Tom Becker",
    coverFile: "tutorials-2.svg",
    category: "Tutorials",
    tags: ["node.js", "cli", "javascript"],
    published: true,
    daysAgo: 2,
    comments: [
      {
        author: "Marcus Bell",
        content: "I had no idea Intl.Segmenter existed. Much better than splitting on spaces for non-English posts.",
        hoursAfterPost: 6,
      },
    ],
    content: `<p>Small command-line tools are a great way to automate the chores around a blog: counting words, checking links, resizing images. You might assume you need a framework for argument parsing, but modern Node.js covers the basics out of the box. In this tutorial we will build <code>wordcount</code>, a tool that reports the number of words and the estimated reading time for a set of Markdown files.</p>
<h2>Step 1: Set up the project</h2>
<pre><code>mkdir wordcount &amp;&amp; cd wordcount
npm init -y
npm pkg set type=module
</code></pre>
<p>Setting <code>"type": "module"</code> lets us use <code>import</code> syntax and top-level <code>await</code> in plain <code>.js</code> files.</p>
<h2>Step 2: Parse the arguments</h2>
<p>Node's built-in <a href="https://nodejs.org/api/util.html#utilparseargsconfig">util.parseArgs</a> handles flags, short aliases, defaults and positional arguments. Create <code>cli.js</code>:</p>
<pre><code>#!/usr/bin/env node
import { parseArgs } from "node:util";
import { readFile } from "node:fs/promises";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    wpm: { type: "string", short: "w", default: "220" },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help || positionals.length === 0) {
  console.log("Usage: wordcount [--wpm 220] &lt;file...&gt;");
  process.exit(values.help ? 0 : 1);
}
</code></pre>
<p>Unknown flags make <code>parseArgs</code> throw an error with a helpful message, which is exactly what you want from a command-line tool.</p>
<h2>Step 3: Count the words</h2>
<p>Splitting on spaces breaks down quickly with punctuation and with languages that do not separate words with spaces. <a href="https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/Segmenter">Intl.Segmenter</a> does it properly. Append this to <code>cli.js</code>:</p>
<pre><code>const segmenter = new Intl.Segmenter("en", { granularity: "word" });

function countWords(text) {
  let count = 0;
  for (const segment of segmenter.segment(text)) {
    if (segment.isWordLike) count++;
  }
  return count;
}

const wpm = Number(values.wpm);

for (const file of positionals) {
  try {
    const words = countWords(await readFile(file, "utf8"));
    const minutes = Math.max(1, Math.round(words / wpm));
    console.log(file + ": " + words + " words, ~" + minutes + " min read");
  } catch (error) {
    console.error(file + ": " + error.message);
    process.exitCode = 1;
  }
}
</code></pre>
<p>Two details make this a well-behaved tool. Errors go to <em>stderr</em> via <code>console.error</code>, so they do not pollute output that another program might be reading. And we set <code>process.exitCode</code> instead of calling <code>process.exit()</code>, so the remaining files are still processed and all output is flushed before Node exits with a failure status.</p>
<h2>Step 4: Install it as a command</h2>
<p>Add a <code>bin</code> entry to <code>package.json</code>, make the file executable and link it:</p>
<pre><code>npm pkg set bin.wordcount=./cli.js
chmod +x cli.js
npm link
</code></pre>
<p><code>npm link</code> creates a global symlink, so you can now run the tool from anywhere:</p>
<pre><code>$ wordcount posts/*.md
posts/hello-world.md: 612 words, ~3 min read
posts/sqlite.md: 1480 words, ~7 min read
</code></pre>
<h2>Where to go next</h2>
<ul>
<li>Read from standard input when no files are given, using <code>for await (const chunk of process.stdin)</code>.</li>
<li>Add a <code>--json</code> flag for machine-readable output.</li>
<li>Add colour with <code>util.styleText</code>, which in recent Node versions respects <code>NO_COLOR</code> and skips colours when output is not a terminal.</li>
</ul>
<blockquote><p>The best internal tools are small, boring and dependency-free. They still work in three years, when you have long forgotten how they were built.</p></blockquote>
<p>Zero dependencies means nothing to audit, nothing to update and near-instant startup. When a tool genuinely outgrows the standard library, that is the moment to reach for a package, and not before.</p>`,
  },
  {
    title: "Back Up a SQLite Database Every Night with systemd Timers",
    excerpt:
      "A step-by-step guide to consistent, rotating SQLite backups using VACUUM INTO, a short shell script and a systemd timer, including how to check that the backups actually work.",
    author: "Tom Becker",
    coverFile: "tutorials-3.svg",
    category: "Tutorials",
    tags: ["sqlite", "linux", "backups"],
    published: true,
    daysAgo: 63,
    comments: [
      {
        author: "Oliver Grant",
        content:
          "Persistent=true is the bit I always forget. My backups on a machine that sleeps at night finally make sense.",
        hoursAfterPost: 7,
      },
      {
        author: "Nadia Rahman",
        content:
          "Small suggestion: add OnFailure= to the service so you get notified when a backup fails instead of finding out weeks later.",
        hoursAfterPost: 40,
      },
    ],
    content: `<p>If your blog runs on SQLite, backing it up is refreshingly simple: there is exactly one file that matters. Simple is not the same as automatic, though. In this tutorial we will set up nightly backups that are consistent, rotate themselves and log their results, using nothing but the <code>sqlite3</code> shell and systemd.</p>
<h2>Step 1: Install the SQLite shell</h2>
<pre><code>sudo apt install sqlite3
sudo mkdir -p /var/backups/blog
</code></pre>
<h2>Step 2: Write the backup script</h2>
<p>Save this as <code>/usr/local/bin/blog-backup</code>, adjusting the database path to match your installation:</p>
<pre><code>#!/bin/sh
set -eu

db="/srv/blog/data/blog.db"
dir="/var/backups/blog"
dest="$dir/blog-$(date +%Y-%m-%d).db"

rm -f "$dest"
sqlite3 "$db" "VACUUM INTO '$dest'"
sqlite3 "$dest" "PRAGMA integrity_check" | grep -qx ok
gzip -f "$dest"

find "$dir" -name 'blog-*.db.gz' -mtime +14 -delete
</code></pre>
<p>What it does:</p>
<ul>
<li><code>VACUUM INTO</code> produces a consistent snapshot even while the app is writing, unlike copying the file with <code>cp</code>. It refuses to write over an existing file, which is why we remove any earlier backup from the same day first.</li>
<li>The integrity check makes the script fail loudly if the copy is damaged, instead of silently keeping a useless backup.</li>
<li>Compressed backups older than 14 days are deleted, so the disk does not slowly fill up.</li>
</ul>
<p>Make it executable and run it once by hand:</p>
<pre><code>sudo chmod +x /usr/local/bin/blog-backup
sudo /usr/local/bin/blog-backup
ls -lh /var/backups/blog
</code></pre>
<h2>Step 3: Create the service</h2>
<p>Save as <code>/etc/systemd/system/blog-backup.service</code>:</p>
<pre><code>[Unit]
Description=Nightly backup of the blog database

[Service]
Type=oneshot
ExecStart=/usr/local/bin/blog-backup
</code></pre>
<h2>Step 4: Create the timer</h2>
<p>Save as <code>/etc/systemd/system/blog-backup.timer</code>:</p>
<pre><code>[Unit]
Description=Run the blog backup every night

[Timer]
OnCalendar=*-*-* 03:15:00
RandomizedDelaySec=10min
Persistent=true

[Install]
WantedBy=timers.target
</code></pre>
<p><code>Persistent=true</code> means that if the server was off at 03:15, the backup runs as soon as it boots again. You can check what a calendar expression means with <code>systemd-analyze calendar "*-*-* 03:15:00"</code>.</p>
<h2>Step 5: Enable and verify</h2>
<pre><code>sudo systemctl daemon-reload
sudo systemctl enable --now blog-backup.timer
systemctl list-timers blog-backup.timer
</code></pre>
<p>Trigger a run manually and read the log, to make sure everything works under systemd and not just in your own shell:</p>
<pre><code>sudo systemctl start blog-backup.service
journalctl -u blog-backup.service --since today
</code></pre>
<h2>Step 6: Get the backups off the server</h2>
<p>A backup on the same disk protects you from mistakes, not from losing the server. Sync the backup directory somewhere else, for example with <a href="https://rclone.org/">rclone</a> to object storage, or let a machine at home pull it with <code>rsync</code> over SSH.</p>
<blockquote><p>Once a month, restore a backup into a scratch directory and open it. It takes two minutes, and it is the only way to know your backups are real.</p></blockquote>
<p>For other approaches, such as the online backup API, see the <a href="https://www.sqlite.org/backup.html">SQLite backup documentation</a>.</p>`,
  },
  // --------------------------------------------------------------------- Drafts
  {
    title: "Why I Stopped Using ORMs (Mostly)",
    excerpt:
      "After years of reaching for an ORM by default, I have been writing plain SQL with a thin typed layer. Here is what improved, what got harder, and where I would still use one.",
    author: "Maya Chen",
    coverFile: "development-4.svg",
    category: "Development",
    tags: ["sql", "orm"],
    published: false,
    daysAgo: 4,
    comments: [],
    content: `<p>For years my first step in any new project was to install an ORM. It felt like the responsible choice: type safety, migrations, no hand-written SQL strings. On my last two projects I went the other way, writing plain SQL with a thin typed wrapper, and I miss the ORM far less than I expected.</p>
<h2>What I gained</h2>
<p>The queries I write are the queries that run. There is no guessing what a chain of method calls will turn into, no N+1 surprises hidden behind lazy loading, and no fighting the abstraction when I need a window function or a recursive CTE. Slow queries are easier to debug because the SQL in the log matches the SQL in the code.</p>
<h2>What I still miss</h2>
<p>Migrations and loading nested relations were genuinely convenient. <em>TODO: compare query builders such as Kysely as a middle ground, and add a section on keeping result types in sync with the schema.</em></p>`,
  },
  {
    title: "Dark Mode Is a Design Problem, Not a Toggle",
    excerpt:
      "Inverting colours is not a dark theme. A proper dark mode needs its own palette, a different approach to elevation, and extra care with images, brand colours and contrast.",
    author: "Sofia Lindqvist",
    coverFile: "design-4.svg",
    category: "Design",
    tags: ["dark mode", "colour"],
    published: false,
    daysAgo: 9,
    comments: [],
    content: `<p>Adding dark mode is often treated as a weekend task: invert the background, flip the text colour, ship it. The result is usually a theme that technically works and feels slightly wrong everywhere. Shadows disappear, saturated brand colours vibrate against dark backgrounds, and photos glare.</p>
<p>A good dark theme is a palette in its own right. Elevation is expressed with lighter surfaces rather than shadows, accent colours are desaturated, and body text uses an off-white to reduce halation. Respecting <code>prefers-color-scheme</code> by default, while letting readers override it, is the baseline.</p>
<p><em>Notes to expand: the <code>color-scheme</code> property for form controls and scrollbars, the <code>light-dark()</code> CSS function, and checking contrast in both themes.</em></p>`,
  },
];
