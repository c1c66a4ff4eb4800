import { useSite } from "~/lib/use-site";
import { logoImage } from "#domain/site-look.ts";
import { isOutboundLink, type NavigationLink } from "#domain/navigation.ts";
import { Form, Link, NavLink, useLocation } from "react-router";
import { MenuIcon } from "~/components/ui/icons";
import { SearchForm } from "./search-form";
import { ThemeToggle } from "./theme-toggle";

interface SiteHeaderProps {
  signedIn: boolean;
  /** The header menu as the site layout resolved it (domain/navigation.ts). */
  links: NavigationLink[];
}

const navItemStyles =
  "block rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white";
const activeNavItemStyles = "bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-white";

function NavItems({ signedIn, links, className }: SiteHeaderProps & { className: string }) {
  const navLinkClass = ({ isActive }: { isActive: boolean }) =>
    isActive ? `${navItemStyles} ${activeNavItemStyles}` : navItemStyles;
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.id}>
          {isOutboundLink(link) ? (
            <a href={link.href} rel="noopener" className={navItemStyles}>
              {link.label}
            </a>
          ) : (
            <NavLink to={link.href} end={link.kind === "home"} className={navLinkClass}>
              {link.label}
            </NavLink>
          )}
        </li>
      ))}
      {signedIn ? (
        <>
          <li>
            <Link to="/admin" className={navItemStyles}>
              Admin Dashboard
            </Link>
          </li>
          <li>
            <Form method="post" action="/logout">
              <button type="submit" className={`${navItemStyles} w-full text-left`}>
                Logout
              </button>
            </Form>
          </li>
        </>
      ) : null}
    </ul>
  );
}

export function SiteHeader({ signedIn, links }: SiteHeaderProps) {
  const { title, logo: logoValue } = useSite();
  const location = useLocation();
  const logo = logoImage(logoValue);

  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
      <div className="mx-auto flex max-w-6xl items-center gap-2 px-4 py-2 sm:py-3">
        <Link
          to="/"
          className="mr-2 flex items-center gap-2 font-serif text-xl font-bold text-slate-900 dark:text-white"
        >
          {/* The title beside it names the link, so the writer's logo is decoration to a screen reader. */}
          {logo ? (
            <img src={logo.src} width={logo.width} height={logo.height} alt="" className="h-8 w-auto" />
          ) : (
            <span
              aria-hidden="true"
              className="grid size-8 place-items-center rounded-lg bg-indigo-700 font-sans text-base text-white dark:bg-indigo-300 dark:text-slate-950"
            >
              {title.charAt(0).toUpperCase()}
            </span>
          )}
          {title}
        </Link>
        <nav aria-label="Main" className="hidden md:block">
          <NavItems signedIn={signedIn} links={links} className="flex items-center gap-1" />
        </nav>
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <SearchForm id="header-search" label="Search the blog" hideLabel className="hidden w-56 md:block lg:w-64" />
          <ThemeToggle />
          {/* <details> opens and closes without JavaScript (the page script adds Escape); the key closes it after every navigation. */}
          <details key={location.key} data-menu className="group relative md:hidden">
            <summary className="flex h-10 cursor-pointer list-none items-center gap-2 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
              <MenuIcon className="size-5" />
              Menu
            </summary>
            <div className="absolute top-full right-0 mt-2 w-[min(20rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-700 dark:bg-slate-900">
              <nav aria-label="Main">
                <NavItems signedIn={signedIn} links={links} className="flex flex-col gap-1" />
              </nav>
              <SearchForm id="menu-search" label="Search the blog" hideLabel className="mt-3 px-1" />
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
