import { describe, expect, it } from "vitest";
import { categoriesInExport, mergeCategoryRows } from "./import-categories.ts";
import { importForm } from "./portability.ts";
import { validateForm } from "./forms.ts";

// As WordPress writes them (tests/fixtures/wordpress-export.xml).
const WORDPRESS_ITEM = `<item><title>Dovetails</title>
  <category domain="category" nicename="woodworking"><![CDATA[Woodworking]]></category>
  <category domain="post_tag" nicename="hand-tools"><![CDATA[Hand tools]]></category>
  <wp:category><wp:cat_name><![CDATA[Elsewhere]]></wp:cat_name></wp:category>
</item><item><category domain="category" nicename="woodworking"><![CDATA[Woodworking]]></category></item>`;

describe("the categories an export file holds", () => {
  it("reads a WordPress export's categories and tags, and a Ghost export's tags without the internal ones", () => {
    expect(categoriesInExport(WORDPRESS_ITEM)).toEqual(["Woodworking", "Hand tools"]);
    expect(
      categoriesInExport(
        JSON.stringify({ db: [{ data: { tags: [{ name: "News" }, { name: "#hidden" }, { name: "news" }] } }] }),
      ),
    ).toEqual(["News"]);
    expect(
      categoriesInExport('<item><category domain="category"><![CDATA[Fish &amp; Chips]]></category></item>'),
    ).toEqual(["Fish &amp; Chips"]);
    expect(categoriesInExport('<category domain="post_tag">Fish &amp; Chips</category>')).toEqual(["Fish & Chips"]);
    expect(categoriesInExport("{ not json")).toEqual([]);
  });
});

describe("the category map's rows", () => {
  it("become the map, over what was typed as JSON; a row left as it is maps nothing", () => {
    expect(mergeCategoryRows("", ["News", "Photos"], ["Business", ""])).toBe('{"News":"Business"}');
    expect(mergeCategoryRows('{"a": "Design", "News": "Design"}', ["News"], ["Business"])).toBe(
      '{"a":"Design","News":"Business"}',
    );
    expect(mergeCategoryRows("news = Business", ["News"], ["Business"])).toBe("news = Business");
    expect(mergeCategoryRows('{"a": "Design"}', [], [])).toBe('{"a": "Design"}');
  });

  it("are read by the import form's one schema", () => {
    const form = new FormData();
    form.set("file", new File(["{}"], "export.json"));
    form.set("defaultCategory", "Design");
    form.set("pages", "pages");
    form.append("mapFrom", "Woodworking");
    form.append("mapTo", "Tutorials");
    const result = validateForm(importForm, importForm.read(form));
    expect(result.success && result.data.categoryMap).toEqual({ Woodworking: "Tutorials" });
  });
});
