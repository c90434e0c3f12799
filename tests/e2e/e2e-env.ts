// What the browser tests share with the server they start: the admin account that
// ADMIN_EMAIL/ADMIN_PASSWORD create on its fresh database, for specs that sign in.
export const e2eAdmin = {
  email: "admin@streamdesk.test",
  password: "e2e-admin-Passw0rd",
} as const;
