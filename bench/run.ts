// `npm run bench`: every benchmark, one after the other, each printing its own figures.
import { spawnSync } from "node:child_process";

for (const benchmark of ["bench/search.ts", "bench/pages.ts"]) {
  console.log(`\n=== ${benchmark}`);
  const result = spawnSync(process.execPath, [benchmark], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
