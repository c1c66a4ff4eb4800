import { useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { buttonStyles, fieldHintStyles, inputStyles, labelStyles } from "~/components/ui/styles";

/**
 * The handle people type into their fediverse app to find the blog. Without JavaScript the
 * read-only field is there to select and copy by hand; the Copy button appears only where a
 * script can copy, so nobody sees a button that does nothing.
 */
export function FediverseAddress({ address }: { address: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  // The clipboard exists only in a secure context (https, or localhost).
  const canCopy = hydrated && Boolean(navigator.clipboard);
  return (
    <div>
      <label htmlFor="fediverse-address" className={labelStyles}>
        The blog&apos;s handle
      </label>
      <div className="flex max-w-xl gap-2">
        <input
          id="fediverse-address"
          readOnly
          value={address}
          onFocus={(event) => event.currentTarget.select()}
          aria-describedby="fediverse-address-hint"
          className={`${inputStyles} font-mono text-sm`}
        />
        {canCopy ? (
          <button
            type="button"
            className={buttonStyles.secondary}
            onClick={() => {
              void navigator.clipboard.writeText(address).then(() => setCopied(true));
            }}
          >
            Copy<span className="sr-only"> the handle</span>
          </button>
        ) : null}
      </div>
      <p id="fediverse-address-hint" className={fieldHintStyles}>
        Share it: people search for it in Mastodon or any other fediverse app and follow the blog. New posts then appear
        in their home timeline, and their replies come back here as comments to approve.
      </p>
      <p role="status" className="mt-1 text-sm font-medium text-emerald-800 dark:text-emerald-200">
        {copied ? "Handle copied." : ""}
      </p>
    </div>
  );
}
