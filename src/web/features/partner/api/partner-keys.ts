// Query keys of the partner portal: everything under ["partner"], so signing in or out drops it all.
export const partnerKeys = {
  all: ["partner"],
  me: ["partner", "me"],
  ledger: ["partner", "ledger"],
  lines: ["partner", "lines"],
  packages: ["partner", "packages"],
  offer: ["partner", "credits", "offer"],
  orders: ["partner", "credits", "orders"],
} as const;
