// Placeholder while the route is being built (issue 27).
export default function Placeholder() {
  return null;
}
