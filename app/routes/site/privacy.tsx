import { Link } from "react-router";
import { PolicyPage } from "~/components/site/policy-page";
import { seoMeta, withSite } from "~/lib/meta";
import type { Route } from "./+types/privacy";
import { staticPage } from "~/lib/static-page";

/** docs/spec.md §2: the policy pages show today's date as the last-updated date. */
export function loader() {
  return { lastUpdated: new Date().toISOString() };
}

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ matches, location }) =>
  seoMeta({
    title: "Privacy Policy",
    description: "What Inkwell stores about visitors, and why.",
    matches,
    location,
  }),
);

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return (
    <PolicyPage title="Privacy Policy" lastUpdated={loaderData.lastUpdated}>
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
