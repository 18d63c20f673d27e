/** Reads one cookie's value from a request, or null. Malformed encodings read as null. */
export function readCookie(request: Request, name: string): string | null {
  return readCookieHeader(request.headers.get("Cookie") ?? "", name);
}

/** Reads one cookie's value from a Cookie header, or null. Malformed encodings read as null. */
export function readCookieHeader(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) {
      try {
        return decodeURIComponent(v.join("="));
      } catch {
        return null;
      }
    }
  }
  return null;
}
