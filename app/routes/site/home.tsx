import { Link } from "react-router";
import { appContext } from "~/context";
import { throwAsRouteError } from "~/lib/route-errors.server";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  try {
    return await context.get(appContext).services.posts.getHomePage();
  } catch (error) {
    throwAsRouteError(error, { READ_FAILED: "Failed to load posts. Please try again." });
  }
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { featured } = loaderData;
  return (
    <>
      <title>Home</title>
      <h1 className="text-3xl font-bold">Home</h1>
      {featured ? (
        <section>
          <h2>Featured Post</h2>
          <Link to={`/blog/${featured.id}`}>{featured.title}</Link>
        </section>
      ) : null}
    </>
  );
}
