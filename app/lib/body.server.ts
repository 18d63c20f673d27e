// Reading a request body with a size limit (JSON API and provider webhooks): never buffers more
// than `limit` bytes.

/** Discards the rest of a body up to `max` bytes in all, so the client gets the answer instead of a reset, then gives up on it. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, already: number, max: number): Promise<void> {
  let size = already;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > max) break;
    }
  } catch {
    // The client went away: nothing left to answer.
  }
  await reader.cancel().catch(() => undefined);
}

/**
 * Reads at most `limit` bytes of a body; null when it is longer. The rest is then read and thrown
 * away up to `drainUpTo` bytes in all (0: the stream is cancelled at once).
 */
export async function readBodyLimited(request: Request, limit: number, drainUpTo = 0): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      if (drainUpTo > 0) await drain(reader, size, drainUpTo);
      else await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
