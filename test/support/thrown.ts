/**
 * What `f` throws, as `Name: message` (`TypeError: a request id is a string or an integer`), or
 * `no throw`: for tests that hold an error's class and exact text together.
 */
export function thrown(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
  return "no throw";
}
