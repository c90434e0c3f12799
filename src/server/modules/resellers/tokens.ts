// A partner's set-password link holds 32 random bytes; only their SHA-256 is kept
// (reseller_password_tokens), as for a client's reset link.
import { createHash } from "node:crypto";

export const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
