declare module "commonmark-spec" {
  /** One example of the CommonMark spec: its Markdown, the HTML it must give, and where it stands. */
  export interface SpecExample {
    markdown: string;
    html: string;
    section: string;
    number: number;
  }
  export const tests: SpecExample[];
}
