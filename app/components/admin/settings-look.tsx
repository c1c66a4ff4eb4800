import { ImageFileInput } from "~/components/admin/image-file-input";
import { useState } from "react";
import { Form } from "react-router";
import { Field } from "~/components/ui/field";
import { buttonStyles, fieldErrorStyles, inputStyles, labelStyles } from "~/components/ui/styles";
import type { FieldState } from "~/lib/forms";
import { BODY_TYPEFACE_NAMES, BODY_TYPEFACES, HEX_COLOR_PATTERN, logoImage } from "#domain/site-look.ts";

/** The product's own accent (Tailwind's indigo-700), shown in the picker while the field is blank. */
const PRODUCT_ACCENT = "#432dd7";

/**
 * The accent and typeface fields of the settings form. The text field is the one submitted, so
 * the form works without JavaScript; the colour picker beside it only fills it in.
 */
export function LookFields({
  accent,
  typeface,
  values,
}: {
  accent: FieldState;
  typeface: FieldState;
  values: { accentColor: string; bodyTypeface: string };
}) {
  const [accentColor, setAccentColor] = useState(values.accentColor);
  return (
    <fieldset className="space-y-5">
      <legend className="text-lg font-semibold">The look</legend>
      <Field
        {...accent}
        label="Accent colour"
        hint="For links and buttons, as #rrggbb. Leave empty for the product's indigo. It must keep 4.5:1 contrast in both themes."
      >
        {(control) => (
          <div className="flex items-center gap-3">
            <input
              {...control}
              name="accentColor"
              value={accentColor}
              onChange={(event) => {
                control.onChange();
                setAccentColor(event.target.value);
              }}
              placeholder={PRODUCT_ACCENT}
              maxLength={7}
              className={inputStyles}
            />
            <input
              type="color"
              aria-label="Pick the accent colour"
              value={HEX_COLOR_PATTERN.test(accentColor) ? accentColor.toLowerCase() : PRODUCT_ACCENT}
              onChange={(event) => {
                control.onChange();
                setAccentColor(event.target.value);
              }}
              className="h-10 w-14 shrink-0 cursor-pointer rounded-lg border border-slate-400 bg-white dark:border-slate-500 dark:bg-slate-900"
            />
          </div>
        )}
      </Field>
      <Field {...typeface} label="Body typeface" hint="System fonts only: nothing is downloaded.">
        {(control) => (
          <select {...control} name="bodyTypeface" defaultValue={values.bodyTypeface} className={inputStyles}>
            {BODY_TYPEFACE_NAMES.map((name) => (
              <option key={name} value={name}>
                {BODY_TYPEFACES[name].label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </fieldset>
  );
}

const IMAGE_FORMS = {
  logo: { label: "Logo", hint: "Shown beside the site title in the header, 48 px high." },
  siteIcon: {
    label: "Site icon",
    hint: "A square image, at least 512 × 512: the favicon, the home-screen icon and the web app icon.",
  },
} as const;

/** The logo and icon forms: each posts to /admin/settings/images (settings-images.tsx). */
export function SiteImageForms({
  logo,
  siteIcon,
  result,
}: {
  logo: string;
  siteIcon: string;
  result: { values: { kind: string }; errors: { file?: string } } | undefined;
}) {
  const current = { logo: logoImage(logo)?.src, siteIcon: siteIcon ? `/media/${siteIcon}/192.png` : undefined };
  return (
    <section aria-labelledby="site-images" className="mt-10 max-w-2xl space-y-6">
      <h2 id="site-images" className="text-lg font-semibold">
        Logo and site icon
      </h2>
      {(["logo", "siteIcon"] as const).map((kind) => {
        const id = `${kind}-file`;
        const error = result?.values.kind === kind ? result.errors.file : undefined;
        const src = current[kind];
        return (
          <div key={kind} className="space-y-2">
            <Form method="post" action="/admin/settings/images" encType="multipart/form-data" className="space-y-2">
              <input type="hidden" name="kind" value={kind} />
              <label htmlFor={id} className={labelStyles}>
                {IMAGE_FORMS[kind].label}
              </label>
              {src ? (
                <img src={src} alt={`Current ${IMAGE_FORMS[kind].label.toLowerCase()}`} className="h-12 w-auto" />
              ) : null}
              <ImageFileInput
                id={id}
                name="file"
                accept="image/png,image/jpeg,image/webp,image/avif,image/gif"
                required
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : `${id}-hint`}
                previewAlt={`Chosen ${IMAGE_FORMS[kind].label.toLowerCase()}`}
                previewClassName="h-12 w-auto"
              />
              <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
                {IMAGE_FORMS[kind].hint}
              </p>
              {error ? (
                <p id={`${id}-error`} className={fieldErrorStyles}>
                  {error}
                </p>
              ) : null}
              <button type="submit" className={buttonStyles.secondary}>
                Upload {IMAGE_FORMS[kind].label.toLowerCase()}
              </button>
            </Form>
            {src ? (
              <Form method="post" action="/admin/settings/images">
                <input type="hidden" name="kind" value={kind} />
                <button type="submit" name="intent" value="remove" className={buttonStyles.secondary}>
                  Remove {IMAGE_FORMS[kind].label.toLowerCase()}
                </button>
              </Form>
            ) : null}
          </div>
        );
      })}
    </section>
  );
}
