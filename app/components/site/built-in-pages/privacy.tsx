import { Link } from "react-router";
import { PolicyPage } from "~/components/site/policy-page";

/** The page as it shipped (docs/spec.md §2), shown until the writer first saves it; dated today. */
export function OriginalPrivacy({ lastUpdated }: { lastUpdated: string }) {
  return (
    <PolicyPage title="Privacy Policy" lastUpdated={lastUpdated}>
      <p>
        Inkwell is a personal blog. It collects as little as it can, and never sells or shares what it keeps with
        advertisers.
      </p>
      <h2>What we store</h2>
      <ul>
        <li>
          <strong>Comments.</strong> The name and text you enter are stored and shown publicly with the post.
        </li>
        <li>
          <strong>Newsletter.</strong> If you subscribe, only your email address and the state of your subscription
          (waiting for confirmation, subscribed, unsubscribed) are kept. Emails carry no tracking pixel and no rewritten
          links: we do not know whether you open them or what you click. Every email has a link to unsubscribe in one
          click.
        </li>
        <li>
          <strong>Your theme choice.</strong> Light or dark is remembered in your own browser&apos;s storage and never
          sent to us.
        </li>
        <li>
          <strong>Server logs.</strong> Requests, including your IP address, are logged to keep the site running and to
          limit abuse such as comment spam.
        </li>
      </ul>
      <h2>Visitor statistics</h2>
      <p>
        To know which posts are read and where readers come from, this site counts page views itself, in its own
        database. No cookie is set, nothing is written to your browser&apos;s storage, and nothing is sent to anyone
        else.
      </p>
      <ul>
        <li>
          <strong>What is counted.</strong> When a page loads in your browser, a small script sends one request with the
          page&apos;s address, the site that linked to it (only its name, such as google.com, and any <code>utm_</code>{" "}
          campaign tags in the link) and whether your screen is small, medium or large. The server adds the time, your
          browser, operating system and kind of device as your browser names them, and your country if the owner has set
          up a country lookup (made on this server from a file: your address is sent nowhere).
        </li>
        <li>
          <strong>Counting visitors without knowing them.</strong> To count each visitor once a day, the server makes a
          one-way code from your IP address, your browser&apos;s user agent (its name and version), this site&apos;s
          address and a random value that changes every day and is deleted when the day is over. The code cannot be
          turned back into your address, and tomorrow&apos;s code for you is unrelated to today&apos;s, so no one, not
          even the owner, can follow you from one day to the next. Your IP address is never stored with these figures.
        </li>
        <li>
          <strong>What is not counted.</strong> Nothing is counted when your browser sends Do Not Track or Global
          Privacy Control, when JavaScript is off, for crawlers and other bots, or for the site&apos;s signed-in
          writers. Pages that were not found are counted apart, by address only.
        </li>
        <li>
          <strong>Feed readers.</strong> Apps that fetch the RSS, Atom or JSON feed are counted once a day by their name
          and the number of subscribers they state, nothing more.
        </li>
        <li>
          <strong>How long.</strong> Single page views are deleted after 30 days, or the period the owner sets; only
          daily totals (views and visitors per page, source, browser and so on) are kept. The owner can turn counting
          off entirely.
        </li>
      </ul>
      <h2>Children</h2>
      <p>This site is not directed at children. You must be at least 18 years old to leave a comment.</p>
      <h2>Changes to this policy</h2>
      <p>We will give at least 30 days notice on this page before any change to this policy takes effect.</p>
      <h2>Contact</h2>
      <p>
        Questions about your data? See the <Link to="/about#contact">contact section</Link> of the About page.
      </p>
    </PolicyPage>
  );
}
