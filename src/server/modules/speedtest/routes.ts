// GET /api/speedtest/download?bytes=N, GET /api/speedtest/ping, POST /api/speedtest/upload.
// Not covered by the public-write rate limit (a test makes many requests in a few seconds), but
// by a per-address byte budget, shared by every process: a few full tests a minute pass, a
// script pulling gigabytes does not.
// None of these routes buffer a body in memory, so a test costs about as much memory as a
// few 64 KiB slices.
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, tooManyRequests } from "@/server/lib/errors";
import { clientIp, hit } from "@/server/lib/rate-limit";
import { DEFAULT_DOWNLOAD_BYTES, garbageStream, MAX_DOWNLOAD_BYTES, MAX_UPLOAD_BYTES } from "./service";

const TOO_LARGE = `Uploads are limited to ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB.`;
const tooLarge = () => new AppError(413, "payload_too_large", TOO_LARGE);

// Digits only (no signs, decimals or exponents). A larger size than the maximum is capped rather
// than refused, so a browser asking for "as much as possible" still gets a test.
const downloadQuery = z.object({
  bytes: z
    .string({ error: "bytes must be a whole number" })
    .regex(/^\d{1,16}$/, "bytes must be a whole number")
    .optional()
    .transform((v) => (v === undefined ? DEFAULT_DOWNLOAD_BYTES : Math.min(Number(v), MAX_DOWNLOAD_BYTES))),
});

export const SPEEDTEST_BUDGET_MESSAGE = "Too many speed tests from your connection. Please wait a minute and try again.";

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  /** Spends `bytes` of the caller's budget, or answers 429 when it is spent. */
  const spend = async (ip: string, bytes: number) => {
    // Counted in KiB (the counters are 32-bit): SPEEDTEST_BUDGET_MB a minute, several full tests.
    const budgetKib = app.config.SPEEDTEST_BUDGET_MB * 1024;
    const result = await hit(app.db, `speedtest-bytes:ip:${ip}`, budgetKib, Math.max(1, Math.ceil(bytes / 1024)));
    if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds, SPEEDTEST_BUDGET_MESSAGE);
  };

  // This plugin's routes take any body, counted and thrown away as it arrives. Removing the
  // JSON parser here affects only this plugin (Fastify encapsulation), not the rest of the API.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (request, payload, done) => {
    const declared = Number(request.headers["content-length"]);
    if (declared > MAX_UPLOAD_BYTES) {
      done(tooLarge(), undefined);
      return;
    }
    let received = 0;
    const stop = () => {
      payload.removeListener("data", onData);
      payload.removeListener("end", onEnd);
      payload.removeListener("error", onError);
    };
    const onData = (chunk: Buffer | string) => {
      received += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
      if (received > MAX_UPLOAD_BYTES) {
        stop();
        // Fastify answers with `connection: close`, so the rest of the upload is never read.
        done(tooLarge(), undefined);
      }
    };
    const onEnd = () => {
      stop();
      done(null, received);
    };
    const onError = (error: Error) => {
      stop();
      done(Object.assign(error, { statusCode: 400 }), undefined);
    };
    payload.on("data", onData);
    payload.on("end", onEnd);
    payload.on("error", onError);
    payload.resume();
  });

  app.get(
    "/speedtest/download",
    // compress: false — a compressed body would measure the compressor, not the line.
    { schema: { querystring: downloadQuery }, compress: false },
    async (request, reply) => {
      const bytes = request.query.bytes;
      await spend(clientIp(request), bytes);
      return reply
        .header("cache-control", "no-store")
        .header("content-length", String(bytes))
        .type("application/octet-stream")
        .send(garbageStream(bytes));
    },
  );

  app.get("/speedtest/ping", { schema: { querystring: z.object({}) } }, async (_request, reply) => {
    return reply.header("cache-control", "no-store").type("text/plain; charset=utf-8").send("pong");
  });

  app.post(
    "/speedtest/upload",
    // decompress: false — an encoded body is counted as sent; inflating it could turn a small
    // upload into a very large one (and would measure the wrong thing).
    {
      bodyLimit: MAX_UPLOAD_BYTES,
      decompress: false,
      compress: false,
      // Spent before the body is read: the declared size, or the most an upload may be.
      onRequest: async (request) => {
        const declared = Number(request.headers["content-length"]);
        await spend(
          clientIp(request),
          Number.isFinite(declared) && declared >= 0 ? Math.min(declared, MAX_UPLOAD_BYTES) : MAX_UPLOAD_BYTES,
        );
      },
    },
    async (request, reply): Promise<{ received: number }> => {
      reply.header("cache-control", "no-store");
      return { received: typeof request.body === "number" ? request.body : 0 };
    },
  );
};

export default routes;
