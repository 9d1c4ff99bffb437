/**
 * The spec's prose rules, one table row per protocol revision.
 *
 * `schema.ts` states types; some rules the generated code must follow are stated only in
 * the specification's prose. They live here and nowhere else, each with the section that
 * states it. Everything the schema does state (error-code constants, the `*MetaObject`
 * interfaces and their required keys, the request/notification unions, `*ResultResponse`
 * result types) is read from the schema by `analyze/protocol.ts`, never from this table.
 *
 * The row is chosen by the schema's `LATEST_PROTOCOL_VERSION` (see {@link selectRules});
 * `--protocol-rules <version>` overrides the choice.
 */

/** How `_meta` key prefixes are reserved for MCP. */
export type ReservedPrefixRule =
  /** No rule on key names (`_meta` as a whole is described as reserved by the protocol). */
  | "none"
  /** A prefix is reserved when some label is `modelcontextprotocol` or `mcp` and at least one label follows it (`mcp.dev/`, `tools.mcp.com/`). */
  | "label-followed-by-label"
  /** A prefix is reserved when its second label is `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/`, `com.mcp.tools/`; not `com.example.mcp/`). */
  | "second-label";

/**
 * How JSON-RPC error codes are partitioned.
 * - `jsonrpc-2.0`: the five standard codes; -32000..-32099 are implementation-defined server
 *   errors, so a code there is `"mcp"` only when this revision defines it, else `"legacy"`;
 *   the rest of -32768..-32000 is reserved by JSON-RPC.
 * - `mcp-partitioned`: -32000..-32019 legacy, -32020..-32099 reserved for codes the
 *   specification defines, the rest of -32768..-32000 reserved by JSON-RPC.
 */
export type ErrorPartition = "jsonrpc-2.0" | "mcp-partitioned";

/** An error code the prose defines but `schema.ts` has no constant for. */
export interface ProseErrorCode {
  /** Constant-style name, as the schema would spell it (`RESOURCE_NOT_FOUND`). */
  readonly constant: string;
  readonly code: number;
  /** TypeScript type of the error's `data` member (the prose's example). */
  readonly dataType: string;
  readonly dataRequired: boolean;
  readonly cite: string;
}

/** A `_meta` key stated in prose (a doc comment), with the schema type of its value. */
export interface ProseMetaKey {
  readonly key: string;
  readonly typeName: string;
  readonly shapes: readonly ("request" | "notification" | "result")[];
  readonly cite: string;
}

/** A capability that must be advertised before a method may be used. */
export interface CapabilityGate {
  readonly method: string;
  /** Whose capabilities: the server's (`ServerCapabilities`) or the client's (`ClientCapabilities`). */
  readonly side: "server" | "client";
  /** Path in the capabilities object, e.g. `["resources", "subscribe"]`. */
  readonly path: readonly string[];
  readonly cite: string;
}

/** One revision's prose rules. */
export interface ProtocolRules {
  /** The protocol revision these rules are taken from. */
  readonly version: string;
  readonly errorPartition: { readonly rule: ErrorPartition; readonly cite: string };
  /** Codes earlier revisions defined that this one forbids sending. */
  readonly retiredCodes: { readonly codes: readonly number[]; readonly cite: string };
  /** Codes defined in prose only, added to `ErrorCode`. */
  readonly proseErrorCodes: readonly ProseErrorCode[];
  /**
   * Resource not found: the code a server sends, whether `data.uri` is required, and codes
   * a client still accepts as the same error.
   */
  readonly resourceNotFound: {
    readonly code: number;
    readonly uriRequired: boolean;
    readonly acceptedCodes: readonly number[];
    readonly cite: string;
  };
  /**
   * Task augmentation: a request whose params have this property (typed by `metadataType`) may
   * also be answered with `result` instead of its own result.
   */
  readonly taskAugmentation?: { readonly property: string; readonly metadataType: string; readonly result: string; readonly cite: string };
  /** `_meta` keys the schema names only in doc comments: added to the shapes they are used in, with their type. */
  readonly proseMetaKeys: readonly ProseMetaKey[];
  /** Whether `_meta` keys follow the prefix/name grammar. */
  readonly metaKeyGrammar: { readonly applies: boolean; readonly cite: string };
  readonly reservedPrefix: { readonly rule: ReservedPrefixRule; readonly cite: string };
  /** Unprefixed `_meta` keys reserved for OpenTelemetry trace context. */
  readonly openTelemetryKeys: { readonly keys: readonly string[]; readonly cite: string };
  /**
   * The `resultType` value of an `InputRequiredResult`, and whether it must carry
   * `inputRequests` or `requestState` (or both).
   */
  readonly inputRequiredNeedsContent: { readonly resultType: string; readonly applies: boolean; readonly cite: string };
  /** A result without `resultType` is read as this value. */
  readonly absentResultType: { readonly value: string; readonly cite: string };
  /**
   * Capability gates. A gate applies to a schema only when the schema has both the method
   * and the capability path; the others are skipped.
   */
  readonly capabilityGates: readonly CapabilityGate[];
  /**
   * `subscriptions/listen`: the request, its acknowledgement, and which filter field asks for
   * which change notification (each sent only when its server capability is advertised).
   */
  readonly subscriptions?: SubscriptionRule;
  /**
   * A modern-only server's answer to the legacy handshake: the method a legacy client opens with,
   * answered with the unsupported-protocol-version error naming the versions served (the legacy
   * client has no fall-forward: this message may be all it can show its user).
   */
  readonly legacyHandshake?: { readonly method: string; readonly cite: string };
}

/** How a `subscriptions/listen` stream is opened and filtered. */
export interface SubscriptionRule {
  readonly method: string;
  readonly acknowledgement: string;
  /** The `_meta` key every message of the stream carries, holding the listen request's id. */
  readonly idMetaKey: string;
  readonly filters: readonly {
    readonly field: string;
    readonly notification: string;
    /** Whether the field lists resource URIs (`resourceSubscriptions`) rather than being a `true` flag. */
    readonly list: boolean;
    readonly capability: readonly string[];
  }[];
  readonly cite: string;
}

const RESOURCE_NOT_FOUND_2002: ProseErrorCode = {
  constant: "RESOURCE_NOT_FOUND",
  code: -32002,
  dataType: "{ uri: string }",
  dataRequired: false,
  cite: "server/resources § Error Handling (resource not found: -32002)",
};

/** Gates stated in each server feature's "Capabilities" section and the client features' sections. */
function gates(version: string, completions: boolean): CapabilityGate[] {
  const s = (method: string, path: string[], section: string): CapabilityGate => ({
    method,
    side: "server",
    path,
    cite: `${version} ${section} § Capabilities`,
  });
  const c = (method: string, path: string[], section: string): CapabilityGate => ({
    method,
    side: "client",
    path,
    cite: `${version} ${section} § Capabilities`,
  });
  const out = [
    s("prompts/list", ["prompts"], "server/prompts"),
    s("prompts/get", ["prompts"], "server/prompts"),
    s("notifications/prompts/list_changed", ["prompts", "listChanged"], "server/prompts"),
    s("resources/list", ["resources"], "server/resources"),
    s("resources/templates/list", ["resources"], "server/resources"),
    s("resources/read", ["resources"], "server/resources"),
    s("resources/subscribe", ["resources", "subscribe"], "server/resources"),
    s("resources/unsubscribe", ["resources", "subscribe"], "server/resources"),
    s("notifications/resources/updated", ["resources", "subscribe"], "server/resources"),
    s("notifications/resources/list_changed", ["resources", "listChanged"], "server/resources"),
    s("tools/list", ["tools"], "server/tools"),
    s("tools/call", ["tools"], "server/tools"),
    s("notifications/tools/list_changed", ["tools", "listChanged"], "server/tools"),
    s("logging/setLevel", ["logging"], "server/utilities/logging"),
    s("notifications/message", ["logging"], "server/utilities/logging"),
    c("sampling/createMessage", ["sampling"], "client/sampling"),
    c("roots/list", ["roots"], "client/roots"),
    c("notifications/roots/list_changed", ["roots", "listChanged"], "client/roots"),
    c("elicitation/create", ["elicitation"], "client/elicitation"),
  ];
  if (completions) out.push(s("completion/complete", ["completions"], "server/utilities/completion"));
  return out;
}

const NONE_RETIRED = { codes: [], cite: "no code retired" };
const NO_META_GRAMMAR = { applies: false, cite: "basic/index § _meta states no key grammar before 2025-06-18" };
const META_GRAMMAR = (v: string) => ({ applies: true, cite: `${v} basic/index § General fields › _meta (key name format)` });
const NO_OTEL = { keys: [], cite: "OpenTelemetry keys are first reserved in 2026-07-28 (SEP-414)" };
const ABSENT_COMPLETE = (v: string) => ({ value: "complete", cite: `${v}: results carry no resultType; every result is complete` });
const JSONRPC_PARTITION = (v: string) => ({
  rule: "jsonrpc-2.0" as const,
  cite: `${v} basic/index § Responses (JSON-RPC 2.0 § 5.1 error codes)`,
});

/**
 * A revision before 2026-07-28: JSON-RPC's error partition, `-32002` for resource not found,
 * no OpenTelemetry keys, no `resultType`. The row states the rest.
 */
function before20260728(
  version: string,
  rest: Pick<ProtocolRules, "metaKeyGrammar" | "reservedPrefix"> & Partial<Pick<ProtocolRules, "taskAugmentation" | "proseMetaKeys">> & { completions: boolean },
): ProtocolRules {
  const { completions, ...rules } = rest;
  return {
    version,
    errorPartition: JSONRPC_PARTITION(version),
    retiredCodes: NONE_RETIRED,
    proseErrorCodes: [RESOURCE_NOT_FOUND_2002],
    resourceNotFound: { code: -32002, uriRequired: false, acceptedCodes: [-32002], cite: RESOURCE_NOT_FOUND_2002.cite },
    proseMetaKeys: [],
    openTelemetryKeys: NO_OTEL,
    inputRequiredNeedsContent: { resultType: "input_required", applies: false, cite: "no InputRequiredResult before 2026-07-28" },
    absentResultType: ABSENT_COMPLETE(version),
    capabilityGates: gates(version, completions),
    ...rules,
  };
}

/** The table: one row per protocol revision, oldest first. */
export const RULES: readonly ProtocolRules[] = [
  before20260728("2024-11-05", {
    completions: false,
    metaKeyGrammar: NO_META_GRAMMAR,
    reservedPrefix: { rule: "none", cite: "2024-11-05 schema.ts: `_meta` is reserved by the protocol as a whole; no key rule" },
  }),
  before20260728("2025-03-26", {
    completions: true,
    metaKeyGrammar: NO_META_GRAMMAR,
    reservedPrefix: { rule: "none", cite: "2025-03-26 schema.ts: `_meta` is reserved by the protocol as a whole; no key rule" },
  }),
  before20260728("2025-06-18", {
    completions: true,
    metaKeyGrammar: META_GRAMMAR("2025-06-18"),
    reservedPrefix: {
      rule: "label-followed-by-label",
      cite: "2025-06-18 basic/index § General fields › _meta: labels, then `modelcontextprotocol` or `mcp`, then any label",
    },
  }),
  before20260728("2025-11-25", {
    completions: true,
    metaKeyGrammar: META_GRAMMAR("2025-11-25"),
    reservedPrefix: { rule: "second-label", cite: "2025-11-25 basic/index § General fields › _meta: the second label" },
    taskAugmentation: {
      property: "task",
      metadataType: "TaskMetadata",
      result: "CreateTaskResult",
      cite: "2025-11-25 schema.ts TaskAugmentedRequestParams.task: the request returns a CreateTaskResult immediately",
    },
    proseMetaKeys: [
      {
        key: "io.modelcontextprotocol/related-task",
        typeName: "RelatedTaskMetadata",
        shapes: ["request", "notification", "result"],
        cite: "2025-11-25 schema.ts RelatedTaskMetadata: sent in `_meta` under io.modelcontextprotocol/related-task",
      },
    ],
  }),
  {
    version: "2026-07-28",
    errorPartition: { rule: "mcp-partitioned", cite: "2026-07-28 basic/index § Error Codes (the -32000..-32099 partition)" },
    retiredCodes: {
      codes: [-32002, -32042],
      cite: "2026-07-28 basic/index § Error Codes: implementations of this version MUST NOT emit -32002 or -32042",
    },
    proseErrorCodes: [],
    resourceNotFound: {
      code: -32602,
      uriRequired: true,
      acceptedCodes: [-32002],
      cite: "2026-07-28 server/resources § Error Handling (-32602 with data.uri; clients SHOULD still accept -32002)",
    },
    proseMetaKeys: [],
    metaKeyGrammar: META_GRAMMAR("2026-07-28"),
    reservedPrefix: { rule: "second-label", cite: "2026-07-28 basic/index § General fields › _meta: the second label" },
    openTelemetryKeys: {
      keys: ["traceparent", "tracestate", "baggage"],
      cite: "2026-07-28 basic/index § General fields › _meta › OpenTelemetry trace context",
    },
    inputRequiredNeedsContent: {
      resultType: "input_required",
      applies: true,
      cite: "2026-07-28 basic/patterns/mrtr and schema.ts InputRequiredResult: at least one of inputRequests or requestState",
    },
    absentResultType: {
      value: "complete",
      cite: "2026-07-28 schema.ts Result.resultType: a client treats an absent resultType as \"complete\"",
    },
    capabilityGates: gates("2026-07-28", true),
    subscriptions: {
      method: "subscriptions/listen",
      acknowledgement: "notifications/subscriptions/acknowledged",
      idMetaKey: "io.modelcontextprotocol/subscriptionId",
      filters: [
        { field: "toolsListChanged", notification: "notifications/tools/list_changed", list: false, capability: ["tools", "listChanged"] },
        { field: "promptsListChanged", notification: "notifications/prompts/list_changed", list: false, capability: ["prompts", "listChanged"] },
        { field: "resourcesListChanged", notification: "notifications/resources/list_changed", list: false, capability: ["resources", "listChanged"] },
        { field: "resourceSubscriptions", notification: "notifications/resources/updated", list: true, capability: ["resources", "subscribe"] },
      ],
      cite: "2026-07-28 basic/patterns/subscriptions § Notification Filter and § Acknowledgment",
    },
    legacyHandshake: {
      method: "initialize",
      cite: "draft basic/versioning § Backward Compatibility with Initialization-Based Versions: a modern-only server SHOULD name the versions it supports in any error it returns to an initialize request",
    },
  },
];

/** Revisions the table has rules for, oldest first: the choices of `--protocol-rules`. */
export const RULE_VERSIONS: readonly string[] = RULES.map((r) => r.version);

/**
 * Why the rules were chosen when not an exact match: the sentence, and `overridable`, whether `generate`'s warning adds
 * that `--protocol-rules` chooses others: when they were guessed from a version the table lacks (a schema with no
 * version gets the newest, which the note names, and the flag applies there too, unsaid as before).
 */
export interface RulesNote {
  readonly message: string;
  readonly overridable: boolean;
}

/** What {@link selectRules} chose, and why. */
export interface RuleSelection {
  readonly rules: ProtocolRules;
  /** Set when the choice is not an exact match for the schema's version (for a warning). */
  readonly note?: RulesNote;
}

/**
 * Chooses the rules for a schema.
 *
 * @param latestProtocolVersion the schema's `LATEST_PROTOCOL_VERSION`, if it has one
 * @param override a revision from {@link RULE_VERSIONS}, or `"auto"`
 * @returns an exact match; else the newest revision not after the schema's (dates compare
 *   as strings); else the oldest; with a note saying which was used
 */
export function selectRules(latestProtocolVersion: string | undefined, override: string): RuleSelection {
  if (override !== "auto") {
    const chosen = RULES.find((r) => r.version === override);
    if (!chosen) throw new RangeError(`no rules for protocol version ${override}`);
    return { rules: chosen };
  }
  const newest = RULES[RULES.length - 1]!;
  if (latestProtocolVersion === undefined) {
    return { rules: newest, note: { message: `the schema has no LATEST_PROTOCOL_VERSION; using the rules of ${newest.version}`, overridable: false } };
  }
  const exact = RULES.find((r) => r.version === latestProtocolVersion);
  if (exact) return { rules: exact };
  const before = RULES.filter((r) => r.version <= latestProtocolVersion);
  const chosen = before.length > 0 ? before[before.length - 1]! : RULES[0]!;
  return {
    rules: chosen,
    note: { message: `no rules for protocol version ${latestProtocolVersion}; using those of ${chosen.version}`, overridable: true },
  };
}

/** The codes JSON-RPC 2.0 itself defines (JSON-RPC 2.0 § 5.1): parse error, invalid request, method not found, invalid params, internal error. */
export const STANDARD_JSONRPC_CODES: readonly number[] = [-32700, -32600, -32601, -32602, -32603];
