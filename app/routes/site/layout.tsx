import { Link, Outlet } from "react-router";

export default function SiteLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 dark:border-slate-800">
        <nav aria-label="Main" className="mx-auto flex max-w-6xl gap-4 px-4 py-3">
          <Link to="/">Home</Link>
          <Link to="/categories">Categories</Link>
        </nav>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        <Outlet />
      </main>
    </div>
  );
}
