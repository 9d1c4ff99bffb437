/* Types TypeScript knows from its library, but which have no JSON form. */
export interface Event {
  when: Date;
  pattern: RegExp;
  pending: Promise<string>;
  bytes: ArrayBuffer;
}
