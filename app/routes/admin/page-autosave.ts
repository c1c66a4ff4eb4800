// Placeholder while the route is being built (issue 27).
export function action() {
  return new Response(null, { status: 404 });
}
