import { z } from "./zod.ts";
import { defineForm, formText } from "./forms.ts";

/** The editor asks for the card of a URL the writer pasted alone on a line (issue 36). */
export const linkPreviewForm = defineForm({
  fields: ["url"],
  read: (formData: FormData) => ({ url: formText(formData, "url") }),
  schema: z.object({
    url: z
      .string()
      .max(2000, "The address must be at most 2000 characters")
      .regex(/^https?:\/\/\S+$/, "Please give a web address starting with http:// or https://"),
  }),
});

/** What the link-preview endpoint answers: the card's sanitised HTML, or none (the URL stays a plain link). */
export interface LinkPreviewAnswer {
  html: string | null;
}
