import type { Kysely } from "kysely";
import { type Dialect, pingDatabase } from "../db/connect.ts";
import type { Database } from "../db/schema.ts";
import { createAuditLog } from "./audit.ts";
import { createAuthService } from "./auth.ts";
import { createCommentService } from "./comments.ts";
import { createContentChanges } from "./content-changes.ts";
import { createHousekeeping } from "./housekeeping.ts";
import { createLoginThrottle } from "./login-throttle.ts";
import { createMediaService } from "./media.ts";
import type { MediaStore } from "../media/store.ts";
import { createDatabaseMediaStore } from "../repositories/media-store.ts";
import type { ScryptCost } from "./passwords.ts";
import { createPortabilityService } from "./portability.ts";
import { createPostService } from "./posts.ts";
import { createSetupService } from "./setup.ts";
import { createSiteSettingsService, defaultSiteSettings } from "./site-settings.ts";
import { createTwoFactorService } from "./two-factor.ts";
import { createUserService } from "./users.ts";

export interface ServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  now?: () => Date;
  passwordCost?: ScryptCost;
  /** ABOUT_URL and SOURCE_URL: what the site links to until the owner saves settings of their own. */
  siteLinks?: { aboutUrl: string; sourceUrl: string };
  /** Salts comment address hashes (server/config.ts resolveCommentIpSalt). */
  commentIpSalt: string;
  /** Where image files live; the database unless another store is given. */
  mediaStore?: MediaStore;
}

const EXAMPLE_LINKS = { aboutUrl: "https://example.com/about", sourceUrl: "https://example.com/source" };

export function createServices({
  db,
  dialect,
  now = () => new Date(),
  passwordCost,
  siteLinks = EXAMPLE_LINKS,
  commentIpSalt,
  mediaStore,
}: ServiceDeps) {
  const audit = createAuditLog({ db, now });
  const twoFactor = createTwoFactorService({ db, now, audit });
  const auth = createAuthService({ db, now, passwordCost, audit, twoFactor });
  const changes = createContentChanges();
  const store = mediaStore ?? createDatabaseMediaStore(db);
  return {
    changes,
    posts: createPostService({ db, dialect, now, audit, changes }),
    comments: createCommentService({ db, now, ipSalt: commentIpSalt, changes }),
    auth,
    twoFactor,
    users: createUserService({ db, now, audit, passwordCost }),
    siteSettings: createSiteSettingsService({ db, now, audit, defaults: defaultSiteSettings(siteLinks) }),
    audit,
    housekeeping: createHousekeeping({ db, now, auth, audit }),
    loginThrottle: createLoginThrottle({ db, now }),
    setup: createSetupService({ db, now, passwordCost }),
    portability: createPortabilityService({ db, now, changes, mediaStore: store }),
    media: createMediaService({ db, store, now }),
    health: { check: () => pingDatabase(db) },
  };
}

export type Services = ReturnType<typeof createServices>;
