/* A schema that depends on other files. */
import type { JSONValue } from "./json.js";
import * as base from "./base.js";
export * from "./more.js";
export { Extra } from "./extra.js";

export interface Tool {
  input: JSONValue;
  meta: import("./meta.js").Meta;
}
