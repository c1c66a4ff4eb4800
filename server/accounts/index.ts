// The accounts capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { type Actor, type AuditAction, type AuditLog, createAuditLog } from "./audit.ts";
export { type AuthService, createAuthService, type SessionUser } from "./auth.ts";
export { createLoginThrottle } from "./login-throttle.ts";
export { createPasswordResetService, type PasswordResetService } from "./password-reset.ts";
export type { ScryptCost } from "./passwords.ts";
export { deleteExpiredInvitations } from "./repositories/invitations.ts";
export { createSetupService, type SetupLinkState } from "./setup.ts";
export { createTwoFactorService } from "./two-factor.ts";
export { createUserService } from "./users.ts";
