import { Link } from "react-router";
import { PolicyPage } from "~/components/site/policy-page";

/** The page as it shipped (docs/spec.md §2), shown until the writer first saves it; dated today. */
export function OriginalTerms({ lastUpdated }: { lastUpdated: string }) {
  return (
    <PolicyPage title="Terms of Service" lastUpdated={lastUpdated}>
      <p>By reading or commenting on Inkwell you agree to these terms.</p>
      <h2>Who may comment</h2>
      <p>You must be at least 18 years old to post a comment.</p>
      <h2>Your comments</h2>
      <ul>
        <li>You keep the rights to what you write; you allow us to show it next to the post.</li>
        <li>Be civil. Spam, harassment and anything unlawful will be removed.</li>
        <li>Comments are limited in length and in how often they can be posted, to keep the discussion readable.</li>
      </ul>
      <h2>Content</h2>
      <p>
        Posts are personal opinions, offered as they are, without warranty. Code samples may be reused under the terms
        stated in the post.
      </p>
      <h2>Changes to these terms</h2>
      <p>We will give at least 30 days notice on this page before any change to these terms takes effect.</p>
      <p>
        See also the <Link to="/privacy">Privacy Policy</Link>.
      </p>
    </PolicyPage>
  );
}
