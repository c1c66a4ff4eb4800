// What renaming and deleting a category costs: each moves every post filed under it, and the
// published counters (migration 0013) follow row by row (docs/decisions/0020). Prints the time
// of a rename, of renaming back, and of a delete into another category, at BENCH_POSTS posts
// (default 12,000, about a sixth in each of the spec's six categories), on both databases.
//   node bench/category-rename.ts
import { createServices } from "../server/composition.ts";
import { generateBenchData } from "./data.ts";
import { onScratchDatabases } from "./scratch-databases.ts";

const POSTS = Number(process.env.BENCH_POSTS ?? 12_000);
const ACTOR = { label: "bench" };

await onScratchDatabases("category-rename", async (handle) => {
  await generateBenchData(handle.db, { posts: POSTS });
  const services = createServices({ db: handle.db, dialect: handle.dialect, commentIpSalt: "bench" });
  const named = async (name: string) => (await services.categories.list()).find((category) => category.name === name)!;
  const design = await named("Design");
  const inDesign = (await services.posts.listCategoryPosts("Design", 1, 1)).total;
  const timed = async (label: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    console.log(`${handle.dialect}: ${label}: ${(performance.now() - started).toFixed(0)} ms`);
  };
  console.log(`${handle.dialect}: ${POSTS} posts, ${inDesign} in Design`);
  await timed("rename Design", () =>
    services.categories.change({ action: "rename", id: design.id, name: "Visual Design" }, ACTOR),
  );
  await timed("rename it back", () =>
    services.categories.change({ action: "rename", id: design.id, name: "Design" }, ACTOR),
  );
  const business = await named("Business");
  await timed("delete Design into Business", () =>
    services.categories.change({ action: "delete", id: design.id, moveTo: business.id }, ACTOR),
  );
  const counts = await services.posts.summariseCategories();
  console.log(`${handle.dialect}: Business now counts ${counts.find((c) => c.category === "Business")?.postCount}`);
});
