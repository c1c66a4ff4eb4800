import { buttonStyles, inputStyles, labelStyles } from "~/components/ui/styles";

const TEAM = [
  {
    name: "Maya Chen",
    role: "Editor and developer",
    bio: "Writes about TypeScript, testing and the tools that keep code honest.",
  },
  {
    name: "Daniel Okafor",
    role: "Infrastructure",
    bio: "Keeps small servers fast, patched and boring, and writes down how.",
  },
  {
    name: "Sofia Lindqvist",
    role: "Design",
    bio: "Cares about type, colour and layouts that hold up on every screen.",
  },
] as const;

function initials(name: string): string {
  return name
    .split(" ")
    .map((part) => part.charAt(0))
    .join("");
}

/**
 * Honest about being a demo: it never sends anything, and says so before and after a try.
 * The page script enables the button and answers a try; without it the button stays disabled,
 * so the form cannot even pretend to submit.
 */
function ContactForm() {
  return (
    <form
      className="space-y-4"
      data-demo-form
      data-demo-message="Nothing was sent: this demo form does not send messages."
    >
      <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
        This demo form does not send messages. Nothing you type here leaves your browser.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="contact-name" className={labelStyles}>
            Name
          </label>
          <input id="contact-name" name="name" autoComplete="name" className={inputStyles} />
        </div>
        <div>
          <label htmlFor="contact-email" className={labelStyles}>
            Email
          </label>
          <input id="contact-email" name="email" type="email" autoComplete="email" className={inputStyles} />
        </div>
      </div>
      <div>
        <label htmlFor="contact-message" className={labelStyles}>
          Message
        </label>
        <textarea id="contact-message" name="message" rows={4} className={inputStyles} />
      </div>
      <button type="submit" disabled className={buttonStyles.primary}>
        Send message
      </button>
      <p role="status" className="text-sm font-medium text-slate-800 dark:text-slate-200" />
    </form>
  );
}

/** The About page as it shipped (docs/spec.md), shown until the writer first saves the page. */
export function OriginalAbout() {
  return (
    <div className="mx-auto max-w-3xl space-y-14">
      <header className="space-y-4">
        <h1 className="font-serif text-4xl font-bold text-slate-900 dark:text-white">About Inkwell</h1>
        <p className="text-lg text-slate-700 dark:text-slate-300">
          Inkwell is a small, self-hosted blog about building for the web. The posts are practical and unhurried: what
          worked, what did not, and why.
        </p>
      </header>

      <section aria-labelledby="team-heading" className="space-y-6">
        <h2 id="team-heading" className="font-serif text-2xl font-bold text-slate-900 dark:text-white">
          The team
        </h2>
        <ul className="grid gap-6 sm:grid-cols-3">
          {TEAM.map((member) => (
            <li
              key={member.name}
              className="rounded-2xl border border-slate-200 bg-white p-5 text-center dark:border-slate-800 dark:bg-slate-900"
            >
              <span
                aria-hidden="true"
                className="mx-auto grid size-16 place-items-center rounded-full bg-indigo-100 text-xl font-bold text-indigo-800 dark:bg-indigo-900 dark:text-indigo-100"
              >
                {initials(member.name)}
              </span>
              <h3 className="mt-3 font-semibold text-slate-900 dark:text-white">{member.name}</h3>
              <p className="text-sm text-indigo-700 dark:text-indigo-300">{member.role}</p>
              <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{member.bio}</p>
            </li>
          ))}
        </ul>
      </section>

      <section id="contact" aria-labelledby="contact-heading" className="scroll-mt-24 space-y-6">
        <h2 id="contact-heading" className="font-serif text-2xl font-bold text-slate-900 dark:text-white">
          Contact
        </h2>
        <ContactForm />
      </section>
    </div>
  );
}
