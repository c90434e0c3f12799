// Shapes the dashboard reads that src/shared does not describe: the admin session. Everything
// else (leads, clients, payments, stats) comes from src/shared/business-schemas.ts.

export interface AdminIdentity {
  id: string;
  email: string;
  name: string;
}

/** GET /api/admin/session and POST /api/admin/login */
export interface AdminSessionResponse {
  success: true;
  admin: AdminIdentity;
  expiresAt: string;
}
