// Values made on first use rather than at start.

/** `make()` run on the first call, its value kept for the calls after */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** `make()` started on the first call, its promise shared by the calls after; a rejected one is dropped, so the next call tries again */
export function onceAsync<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((e: unknown) => {
      made = undefined;
      throw e;
    }));
}
