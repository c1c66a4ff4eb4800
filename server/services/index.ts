import type { Kysely } from "kysely";
import { type Dialect, pingDatabase } from "../db/connect.ts";
import type { Database } from "../db/schema.ts";
import { createAuthService } from "./auth.ts";
import { createCommentService } from "./comments.ts";
import { createHousekeeping } from "./housekeeping.ts";
import { createLoginThrottle } from "./login-throttle.ts";
import type { ScryptCost } from "./passwords.ts";
import { createPostService } from "./posts.ts";
import { createSetupService } from "./setup.ts";

export interface ServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  now?: () => Date;
  passwordCost?: ScryptCost;
}

export function createServices({ db, dialect, now = () => new Date(), passwordCost }: ServiceDeps) {
  const auth = createAuthService({ db, now, passwordCost });
  return {
    posts: createPostService({ db, dialect, now }),
    comments: createCommentService({ db, now }),
    auth,
    housekeeping: createHousekeeping({ db, now, auth }),
    loginThrottle: createLoginThrottle({ db, now }),
    setup: createSetupService({ db, now, passwordCost }),
    health: { check: () => pingDatabase(db) },
  };
}

export type Services = ReturnType<typeof createServices>;
