// Work that several loaders of one request need (the signed-in layout and the page run side by side) is done once
// per request: the first caller starts it, the others share its promise. Keyed by the request's router context.
import type { RouterContextProvider } from "react-router";

const perRequest = new WeakMap<object, Map<string, Promise<unknown>>>();

export function oncePerRequest<T>(context: Readonly<RouterContextProvider>, key: string, work: () => Promise<T>): Promise<T> {
  let memo = perRequest.get(context);
  if (!memo) {
    memo = new Map();
    perRequest.set(context, memo);
  }
  let p = memo.get(key) as Promise<T> | undefined;
  if (!p) {
    p = work();
    memo.set(key, p);
  }
  return p;
}
