/**
 * The error-code helpers of the generated `errors.ts`, as functions of the revision's data:
 * its codes, the partition of the integer space it follows, retired codes, codes whose `data`
 * the schema requires, and the resource-not-found rule. The generated module binds them to
 * that data and names the precise types (`ErrorCode`, the response type of each code).
 */

/** Where an error code falls in the partition of the integer space. */
export type ErrorCodeClass = "standard" | "legacy" | "mcp" | "jsonrpc-reserved" | "application";

/**
 * How a revision partitions -32768..-32000: `mcp-partitioned` (-32000..-32019 legacy,
 * -32020..-32099 reserved for codes the specification defines) or `jsonrpc-2.0` (-32000..-32099
 * implementation-defined server errors).
 */
export type ErrorPartition = "mcp-partitioned" | "jsonrpc-2.0";

/** A request id as a JSON-RPC error response carries it. */
export type ErrorResponseId = string | number;

/** What every error response is, as far as this module builds it. */
export interface ErrorResponseShape {
  readonly jsonrpc: "2.0";
  readonly id?: ErrorResponseId;
  readonly error: { readonly code: number; readonly message: string };
}

/** What a revision says about error codes: read from its schema and prose by the generator. */
export interface ErrorCodeRules {
  /** The revision's name, for messages. */
  readonly version: string;
  readonly partition: ErrorPartition;
  /** The five codes JSON-RPC 2.0 defines. */
  readonly standard: readonly number[];
  /** The codes the revision defines. */
  readonly defined: readonly number[];
  /** Codes earlier revisions defined that this one must not send. */
  readonly retired: readonly number[];
  /** `[code, constructor name]` of codes whose `data` the schema requires. */
  readonly withData: readonly (readonly [number, string])[];
}

/** The resource-not-found rule of a revision. */
export interface ResourceNotFoundRule {
  /** The code a resource-not-found error has now. */
  readonly code: number;
  /** Whether, under `code`, the error must carry `data.uri` (a string) to mean "resource not found". */
  readonly uriRequired: boolean;
  /** Other codes that still mean "resource not found" (older revisions'). */
  readonly accepted: readonly number[];
}

/** The test `isErrorCode`: whether a value is one of `codes`. `C` is the generated `ErrorCode` type. */
export function errorCodeTest<C extends number>(codes: readonly number[]): (code: unknown) => code is C {
  const set: ReadonlySet<number> = new Set(codes);
  return (code): code is C => typeof code === "number" && set.has(code);
}

/**
 * `classifyErrorCode` of a revision: `standard` for the five JSON-RPC codes; under
 * `mcp-partitioned`, -32000..-32019 `legacy` and -32020..-32099 `mcp`; under `jsonrpc-2.0`,
 * -32000..-32099 `mcp` when the revision defines the code, else `legacy`; the rest of
 * -32768..-32000 `jsonrpc-reserved`; every other integer `application`. A value that is not an
 * integer is no valid code and is classed `application`.
 */
export function errorCodeClassifier(rules: ErrorCodeRules): (code: number) => ErrorCodeClass {
  const standard: ReadonlySet<number> = new Set(rules.standard);
  const defined: ReadonlySet<number> = new Set(rules.defined);
  const partitioned = rules.partition === "mcp-partitioned";
  return (code) => {
    if (!Number.isInteger(code)) return "application";
    if (standard.has(code)) return "standard";
    if (partitioned) {
      if (code >= -32019 && code <= -32000) return "legacy";
      if (code >= -32099 && code <= -32020) return "mcp";
    } else if (code >= -32099 && code <= -32000) {
      return defined.has(code) ? "mcp" : "legacy";
    }
    if (code >= -32768 && code <= -32000) return "jsonrpc-reserved";
    return "application";
  };
}

/**
 * Whether `code` lies where only defined codes may be sent: -32768..-32100 (JSON-RPC's, for
 * future use), and under `mcp-partitioned` also -32020..-32099 (the specification's).
 */
function reservedRange(partition: ErrorPartition, code: number): boolean {
  if (code >= -32768 && code <= -32100) return true;
  return partition === "mcp-partitioned" && code >= -32099 && code <= -32020;
}

/**
 * The id rule of every error response built here: `undefined` (left out) or a request id, a
 * string or an integer, as the generated validators take it (`RequestId`: an integer past 2^53,
 * which they accept in a request, is taken, so that its error can be built).
 * Anything else (`null`, `1.5`, …) throws a `TypeError`: `validateJSONRPCErrorResponse` would
 * reject the response.
 */
function checkId(id: unknown): void {
  if (id !== undefined && typeof id !== "string" && !Number.isInteger(id)) throw new TypeError("a request id is a string or an integer");
}

/** The response object: `id` omitted when `undefined`, `data` omitted when `undefined`. */
function response(id: ErrorResponseId | undefined, code: number, message: string, data: unknown): ErrorResponseShape {
  const error: { code: number; message: string; data?: unknown } = { code, message };
  if (data !== undefined) error.data = data;
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

/**
 * `errorResponse` of a revision: an error response for a code without a constructor of its
 * own. Throws a `RangeError` when `code` is not a safe integer; is retired; lies in a reserved
 * range and neither the revision nor JSON-RPC defines it; or carries `data` the schema requires
 * (its constructor is named). Throws a `TypeError` when `message` is not a string, or `id`
 * neither a string nor a safe integer. `R` is the generated response type.
 */
export function errorResponder<R extends ErrorResponseShape>(
  rules: ErrorCodeRules,
): (id: ErrorResponseId | undefined, code: number, message: string, data?: unknown) => R {
  const standard: ReadonlySet<number> = new Set(rules.standard);
  const defined: ReadonlySet<number> = new Set(rules.defined);
  const retired: ReadonlySet<number> = new Set(rules.retired);
  const withData: ReadonlyMap<number, string> = new Map(rules.withData);
  return (id, code, message, data) => {
    // A value that is not a number is named by its type: String() of it may throw (a null-prototype object, a Proxy).
    if (!Number.isSafeInteger(code)) throw new RangeError("error code " + (typeof code === "number" ? String(code) : "of type " + typeof code) + " is not an integer");
    if (typeof message !== "string") throw new TypeError("an error message is a string");
    checkId(id);
    if (retired.has(code)) throw new RangeError("error code " + code + " is retired: protocol revision " + rules.version + " must not send it");
    if (reservedRange(rules.partition, code) && !defined.has(code) && !standard.has(code)) {
      throw new RangeError("error code " + code + " is reserved and not defined by protocol revision " + rules.version);
    }
    const constructor = withData.get(code);
    if (constructor !== undefined) throw new RangeError("error code " + code + " carries data the schema requires: use " + constructor + "()");
    // The response is built for the checked code; its shape is `R`'s (the generated type of a response of any code).
    return response(id, code, message, data) as R;
  };
}

/**
 * The constructor of the error response for one code, its `message` defaulting to
 * `defaultMessage`; `data` is sent when it is not `undefined`. Throws a `TypeError` when `id`
 * is neither `undefined`, a string nor a safe integer, or `message` is given and not a string
 * (the rules `errorResponse` applies). `R` is the generated response type of that code, `I` its
 * id type and `D` its data type.
 */
export function errorConstructor<R extends ErrorResponseShape, I extends ErrorResponseId | undefined, D>(
  code: number,
  defaultMessage: string,
): (id: I, data: D, message?: string) => R {
  // The response carries `code` and `data` as given: the generated module types them by code.
  return (id, data, message = defaultMessage) => {
    if (typeof message !== "string") throw new TypeError("an error message is a string");
    checkId(id);
    return response(id, code, message, data) as R;
  };
}

/**
 * `isResourceNotFoundError` of a revision: whether an error (the `error` member, or a whole
 * error response) means "resource not found". Never throws.
 */
export function resourceNotFoundTest(rule: ResourceNotFoundRule): (error: unknown) => boolean {
  const accepted: ReadonlySet<number> = new Set(rule.accepted.filter((c) => c !== rule.code));
  // Own members only, as the validators read data: a code on the prototype is not taken.
  const member = (o: unknown, key: string): unknown =>
    typeof o === "object" && o !== null && Object.prototype.hasOwnProperty.call(o, key) ? (o as { readonly [key: string]: unknown })[key] : undefined;
  return (error) => {
    try {
      const e = typeof member(error, "code") === "number" ? error : member(error, "error");
      const code = member(e, "code");
      if (typeof code !== "number") return false;
      if (code === rule.code && (!rule.uriRequired || typeof member(member(e, "data"), "uri") === "string")) return true;
      return accepted.has(code);
    } catch {
      return false;
    }
  };
}
