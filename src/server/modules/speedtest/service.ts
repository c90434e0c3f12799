// The speed test's server side, after LibreSpeed: the browser times how long it takes to
// fetch N bytes of garbage, to upload a body we throw away, and to get tiny replies.
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";

const MiB = 1024 * 1024;
export const DEFAULT_DOWNLOAD_BYTES = 10 * MiB;
export const MAX_DOWNLOAD_BYTES = 50 * MiB;
export const MAX_UPLOAD_BYTES = 50 * MiB;
/** slice size pushed per read: small enough to keep memory flat, big enough to be cheap */
const SLICE = 64 * 1024;

// Why one 1 MiB random buffer, made once and streamed in slices:
// - Random bytes don't compress, so a compressing proxy or carrier "optimiser" can't make a
//   slow line look fast. The body repeats every 1 MiB, but gzip/deflate only look back 32 KiB,
//   so they can't see the repeat. (Brotli and zstd with very large windows could, but
//   proxies that recompress on the fly use gzip.) We don't compress this route ourselves.
// - Making fresh random bytes for every response would burn CPU on a 2-core server (50 MiB
//   per test) without changing what the browser measures. LibreSpeed does the same thing
//   (one 1 MiB random chunk, sent again and again).
// - Sending views into the same buffer copies nothing, and at most a few slices are in
//   flight per response however large N is.
const GARBAGE = randomBytes(MiB);

/** A stream of exactly `bytes` incompressible bytes that pushes only as fast as the socket takes them. */
export function garbageStream(bytes: number): Readable {
  let sent = 0;
  return new Readable({
    highWaterMark: SLICE,
    read() {
      while (sent < bytes) {
        const offset = sent % GARBAGE.length;
        const length = Math.min(SLICE, bytes - sent, GARBAGE.length - offset);
        sent += length;
        // push() returning false means the buffer is full: stop until the next read().
        if (!this.push(GARBAGE.subarray(offset, offset + length))) return;
      }
      this.push(null);
    },
  });
}
