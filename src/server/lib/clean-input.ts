// Text PostgreSQL cannot store (a NUL character, an unpaired UTF-16 surrogate) is taken out of
// every JSON body field before a route sees it, so such input is an ordinary wrong username or
// a cleaned field, never a 500 (what a customer typed is kept, as the orders' stored payload
// keeps it). Query parameters are each route's schema's to judge (searches refuse a NUL with a
// 400). Bodies the routes read raw (webhooks, whose signatures cover the exact bytes) are
// strings and left alone.
import type { FastifyInstance } from "fastify";
import { cleanText } from "@/server/modules/orders/service";

const MAX_DEPTH = 16;

function clean(value: unknown, depth: number): unknown {
  if (typeof value === "string") return cleanText(value);
  if (!value || typeof value !== "object" || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = clean(value[i], depth + 1);
    return value;
  }
  for (const key of Object.keys(value)) (value as Record<string, unknown>)[key] = clean((value as Record<string, unknown>)[key], depth + 1);
  return value;
}

export function installInputCleaning(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (request.body && typeof request.body === "object" && !Buffer.isBuffer(request.body)) clean(request.body, 0);
  });
}
