import type { ComponentProps, ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { FormError } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { FlashNotice } from "./flash-notice";

/**
 * A settings page under a screen (Comments → settings, Analytics → settings): the way back, the
 * heading, the notice after a save and one form with its fields and a Save button.
 */
export function SettingsSubpage({
  title,
  back,
  savedNotice,
  stored,
  form,
  children,
}: {
  title: string;
  back: { to: string; label: string };
  /** Shown after the redirect that follows a save; undefined while there is nothing to say. */
  savedNotice: string | undefined;
  /** What is saved: the form is keyed by it, so its fields show the saved values after each save. */
  stored: unknown;
  form: { props: Omit<ComponentProps<typeof Form>, "method" | "className">; formError: string | undefined };
  children: ReactNode;
}) {
  const navigation = useNavigation();
  return (
    <>
      <title>{`${title} · Admin`}</title>
      <p className="text-sm">
        <Link to={back.to} className="font-medium text-indigo-700 underline dark:text-indigo-300">
          {back.label}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      <FlashNotice message={savedNotice} className="mt-6" />
      <Form
        key={JSON.stringify(stored)}
        method="post"
        {...form.props}
        className="mt-6 max-w-2xl space-y-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <FormError message={form.formError} />
        {children}
        <button type="submit" disabled={navigation.state === "submitting"} className={buttonStyles.primary}>
          Save settings
        </button>
      </Form>
    </>
  );
}
