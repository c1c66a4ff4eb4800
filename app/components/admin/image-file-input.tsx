import { type InputHTMLAttributes, useEffect, useState } from "react";
import { fileInputStyles } from "~/components/ui/styles";

/**
 * A file input for one image, styled as a button with the chosen file's name, and (with
 * JavaScript) a preview of the chosen image before it is uploaded. Without JavaScript it is the
 * browser's file input, restyled.
 */
export function ImageFileInput({
  previewAlt,
  previewClassName = "h-24 w-auto rounded-md",
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "className"> & {
  /** What the preview shows, for screen readers: "Chosen logo". */
  previewAlt: string;
  previewClassName?: string;
}) {
  const [preview, setPreview] = useState<string | undefined>(undefined);
  // The object URL holds the file in memory until it is revoked.
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  return (
    <>
      <input
        {...input}
        type="file"
        className={fileInputStyles}
        onChange={(event) => {
          input.onChange?.(event);
          const file = event.currentTarget.files?.[0];
          setPreview(file && file.type.startsWith("image/") ? URL.createObjectURL(file) : undefined);
        }}
      />
      {preview ? <img src={preview} alt={previewAlt} className={`mt-2 ${previewClassName}`} /> : null}
    </>
  );
}
