import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import {
  buttonStyles,
  checkboxStyles,
  fieldErrorStyles,
  fieldHintStyles,
  fileInputStyles,
  inputStyles,
  labelStyles,
} from "~/components/ui/styles";
import { ACCEPTED_IMAGE_FILES, useImageUpload } from "~/components/admin/image-upload";
import { isOwnMediaPath } from "#domain/media.ts";
import type { ImageDetails } from "./markdown-commands";

interface ImageDialogProps {
  open: boolean;
  onInsert: (image: ImageDetails) => void;
  onClose: () => void;
}

const ALT_MISSING = "Describe the image, or tick that it is decorative.";
const ADDRESS_INVALID = "Enter the image's address, starting with https://.";

/**
 * The toolbar's "Image": asks for the address (or uploads a file for it), the text alternative (required unless the image
 * is decorative) and an optional caption. A modal <dialog> (focus kept inside, Escape closes),
 * its controls unnamed so the post form never sends them, and Enter inserts rather than saving
 * the post.
 */
export function ImageDialog({ open, onInsert, onClose }: ImageDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [url, setUrl] = useState("");
  const [alt, setAlt] = useState("");
  const [decorative, setDecorative] = useState(false);
  const [caption, setCaption] = useState("");
  const [errors, setErrors] = useState<{ url?: string; alt?: string }>({});
  const { upload, progress, error: uploadError, busy } = useImageUpload();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setUrl("");
      setAlt("");
      setDecorative(false);
      setCaption("");
      setErrors({});
      element.showModal();
    } else if (!open && element.open) element.close();
  }, [open]);

  const insert = () => {
    const address = url.trim();
    const found = {
      url: /^https?:\/\/\S/.test(address) || isOwnMediaPath(address) ? undefined : ADDRESS_INVALID,
      alt: decorative || alt.trim() !== "" ? undefined : ALT_MISSING,
    };
    setErrors(found);
    if (found.url || found.alt) {
      document.getElementById(found.url ? `${id}-url` : `${id}-alt`)?.focus();
      return;
    }
    // Closed first: while the modal is open, the textarea behind it cannot take the text.
    dialog.current?.close();
    onInsert({ url: address, alt: decorative ? "" : alt, caption });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Inside the post's form, Enter would save the post.
    if (event.key === "Enter" && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      insert();
    }
  };

  const describedBy = (field: "url" | "alt", hint?: boolean) =>
    [hint ? `${id}-${field}-hint` : undefined, errors[field] ? `${id}-${field}-error` : undefined]
      .filter(Boolean)
      .join(" ") || undefined;

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-heading`}
      onClose={onClose}
      className="m-auto w-full max-w-lg rounded-lg border border-slate-300 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="space-y-4" onKeyDown={onKeyDown}>
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          Insert an image
        </h2>
        <div>
          <label htmlFor={`${id}-url`} className={labelStyles}>
            Image address
          </label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://…"
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={describedBy("url")}
            className={inputStyles}
          />
          {errors.url ? (
            <p id={`${id}-url-error`} className={fieldErrorStyles}>
              {errors.url}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={`${id}-file`} className={labelStyles}>
            Or upload an image
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept={ACCEPTED_IMAGE_FILES}
            disabled={busy}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = "";
              if (file)
                void upload(file).then((media) => {
                  if (media) setUrl(media.url);
                });
            }}
            className={fileInputStyles}
          />
          <p aria-live="polite" className={uploadError ? fieldErrorStyles : fieldHintStyles}>
            {uploadError ?? (progress === null ? "" : `Uploading… ${Math.round(progress * 100)}%`)}
          </p>
        </div>
        <div>
          <label htmlFor={`${id}-alt`} className={labelStyles}>
            Alt text
          </label>
          <input
            id={`${id}-alt`}
            type="text"
            value={alt}
            disabled={decorative}
            onChange={(event) => setAlt(event.currentTarget.value)}
            aria-invalid={errors.alt ? true : undefined}
            aria-describedby={describedBy("alt", true)}
            className={inputStyles}
          />
          <p id={`${id}-alt-hint`} className={fieldHintStyles}>
            What the image shows, for readers who cannot see it.
          </p>
          {errors.alt ? (
            <p id={`${id}-alt-error`} className={fieldErrorStyles}>
              {errors.alt}
            </p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          <input
            id={`${id}-decorative`}
            type="checkbox"
            checked={decorative}
            onChange={(event) => setDecorative(event.currentTarget.checked)}
            className={checkboxStyles}
          />
          <label htmlFor={`${id}-decorative`} className="text-sm font-medium">
            Decorative image: it needs no description
          </label>
        </div>
        <div>
          <label htmlFor={`${id}-caption`} className={labelStyles}>
            Caption (optional)
          </label>
          <input
            id={`${id}-caption`}
            type="text"
            value={caption}
            onChange={(event) => setCaption(event.currentTarget.value)}
            aria-describedby={`${id}-caption-hint`}
            className={inputStyles}
          />
          <p id={`${id}-caption-hint`} className={fieldHintStyles}>
            Shown under the image, on the page, in feeds and in emails.
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <button type="button" onClick={insert} className={buttonStyles.primary}>
            Insert
          </button>
          <button type="button" onClick={() => dialog.current?.close()} className={buttonStyles.secondary}>
            Cancel
          </button>
        </div>
      </div>
    </dialog>
  );
}
