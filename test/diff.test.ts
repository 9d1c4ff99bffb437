/**
 * `diff` (issue 12, part 3) and `generate --check` explaining drift (part 4). A fixture pair of
 * our own (`test/diff-fixtures/before.ts` → `after.ts`, one known change of every kind) gives
 * exact JSON and text; the real 2025-11-25 → draft pair is spot-checked against facts read from
 * the two schema.ts files themselves.
 */
import { createHash } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./support/cli.js";
import { ROOT, SPEC_DIR, scratchDir } from "./support/corpus.js";

const BEFORE = join(ROOT, "test", "diff-fixtures", "before.ts");
const AFTER = join(ROOT, "test", "diff-fixtures", "after.ts");

const EXPECTED_JSON = {
  "methods": {
    "added": [
      {
        "method": "resources/read",
        "kind": "request",
        "direction": "client-to-server",
        "params": "ReadResourceRequestParams",
        "results": [
          "ReadResourceResult"
        ],
        "paramsMembers": {
          "_meta": {
            "optional": true,
            "type": "RequestMetaObject"
          },
          "uri": {
            "optional": false,
            "type": "string",
            "checked": "string /*@ @format \"uri\" @*/",
            "constraints": {
              "format": "uri"
            }
          }
        }
      }
    ],
    "removed": [
      {
        "method": "ping",
        "kind": "request",
        "direction": "client-to-server",
        "params": "RequestParams?",
        "results": [],
        "paramsMembers": {
          "_meta": {
            "optional": true,
            "type": "RequestMetaObject"
          }
        }
      }
    ],
    "changed": [
      {
        "method": "tools/list",
        "changes": [
          {
            "field": "params",
            "from": "RequestParams?",
            "to": "RequestParams",
            "members": []
          }
        ]
      }
    ]
  },
  "types": {
    "added": [
      {
        "name": "ReadResourceRequest",
        "kind": "interface"
      },
      {
        "name": "ReadResourceRequestParams",
        "kind": "interface"
      },
      {
        "name": "ReadResourceResult",
        "kind": "interface"
      },
      {
        "name": "ToolName",
        "kind": "alias"
      }
    ],
    "removed": [
      {
        "name": "Legacy",
        "kind": "interface"
      },
      {
        "name": "PingRequest",
        "kind": "interface"
      }
    ],
    "changed": [
      {
        "name": "ClientCapabilities",
        "changes": [
          {
            "change": "property-removed",
            "property": "roots.listChanged"
          }
        ]
      },
      {
        "name": "ClientRequest",
        "changes": [
          {
            "change": "alias-type",
            "from": "ListToolsRequest | CallToolRequest | PingRequest",
            "to": "ListToolsRequest | CallToolRequest | ReadResourceRequest"
          }
        ]
      },
      {
        "name": "ListToolsRequest",
        "changes": [
          {
            "change": "required",
            "property": "params",
            "from": "optional",
            "to": "required"
          }
        ]
      },
      {
        "name": "Percent",
        "changes": [
          {
            "change": "alias-constraint",
            "tag": "maximum",
            "from": 100,
            "to": 1000
          }
        ]
      },
      {
        "name": "RequestMetaObject",
        "changes": [
          {
            "change": "required",
            "property": "\"io.modelcontextprotocol/clientInfo\"",
            "from": "optional",
            "to": "required"
          },
          {
            "change": "property-removed",
            "property": "progressToken"
          },
          {
            "change": "property-added",
            "property": "traceparent",
            "optional": true,
            "type": "string"
          }
        ]
      },
      {
        "name": "ResultType",
        "changes": [
          {
            "change": "alias-type",
            "from": "\"complete\"",
            "to": "\"complete\" | \"input_required\""
          }
        ]
      },
      {
        "name": "ServerCapabilities",
        "changes": [
          {
            "change": "property-added",
            "property": "resources",
            "optional": true,
            "type": "{ subscribe?: boolean; }"
          }
        ]
      },
      {
        "name": "Tool",
        "changes": [
          {
            "change": "constraint",
            "property": "annotations.weight",
            "tag": "maximum",
            "from": 1,
            "to": 5
          },
          {
            "change": "property-added",
            "property": "description",
            "optional": true,
            "type": "string"
          },
          {
            "change": "constraint",
            "property": "icon",
            "tag": "format",
            "from": "uri",
            "to": "uri-reference"
          },
          {
            "change": "property-type",
            "property": "name",
            "from": "string",
            "to": "ToolName"
          },
          {
            "change": "constraint",
            "property": "priority",
            "tag": "maximum",
            "from": 10,
            "to": 100
          },
          {
            "change": "constraint",
            "property": "score",
            "tag": "TJS-type",
            "from": null,
            "to": "number"
          },
          {
            "change": "required",
            "property": "title",
            "from": "optional",
            "to": "required"
          }
        ]
      }
    ]
  },
  "errorCodes": {
    "added": [
      {
        "constant": "RESOURCE_GONE",
        "code": -32031
      }
    ],
    "removed": [
      {
        "constant": "OLD_CODE",
        "code": -32001
      }
    ],
    "changed": [
      {
        "constant": "HEADER_MISMATCH",
        "from": -32020,
        "to": -32030
      }
    ]
  },
  "metaKeys": {
    "added": [
      {
        "key": "traceparent",
        "required": false
      }
    ],
    "removed": [
      {
        "key": "progressToken",
        "required": false
      }
    ],
    "changed": [
      {
        "key": "io.modelcontextprotocol/clientInfo",
        "from": "optional",
        "to": "required"
      }
    ]
  },
  "capabilities": {
    "added": [
      {
        "path": "server.resources",
        "type": "{…}"
      },
      {
        "path": "server.resources.subscribe",
        "type": "boolean"
      }
    ],
    "removed": [
      {
        "path": "client.roots.listChanged",
        "type": "boolean"
      }
    ],
    "changed": [
      {
        "path": "client.roots",
        "from": "{…}",
        "to": "{}"
      }
    ]
  },
  "resultTypes": {
    "added": [
      "input_required"
    ],
    "removed": [],
    "changed": []
  },
  "protocolVersion": {
    "added": [],
    "removed": [],
    "changed": [
      {
        "from": "2026-07-28",
        "to": "2026-09-01"
      }
    ]
  },
  "constants": {
    "added": [
      {
        "constant": "DEFAULT_TTL",
        "value": 60
      }
    ],
    "removed": [],
    "changed": [
      {
        "constant": "TOOL_PREFIX",
        "from": "t_",
        "to": "tool_"
      }
    ]
  },
  "deprecated": {
    "added": [
      "CallToolResult",
      "ClientCapabilities.sampling"
    ],
    "removed": [
      "Legacy"
    ],
    "changed": []
  }
};

const EXPECTED_TEXT = [
  "protocol version: 1 changed",
  "  ~ 2026-07-28 → 2026-09-01",
  "methods: 1 added, 1 removed, 1 changed",
  "  + resources/read (request, client-to-server): params ReadResourceRequestParams; results ReadResourceResult",
  "  - ping (request, client-to-server)",
  "  ~ tools/list: params RequestParams? → RequestParams (the same members)",
  "types: 4 added, 2 removed, 8 changed",
  "  + ReadResourceRequest (interface)",
  "  + ReadResourceRequestParams (interface)",
  "  + ReadResourceResult (interface)",
  "  + ToolName (alias)",
  "  - Legacy (interface)",
  "  - PingRequest (interface)",
  "  ~ ClientCapabilities",
  "      - roots.listChanged",
  "  ~ ClientRequest",
  "      type: ListToolsRequest | CallToolRequest | PingRequest → ListToolsRequest | CallToolRequest | ReadResourceRequest",
  "  ~ ListToolsRequest",
  "      ~ params: optional → required",
  "  ~ Percent",
  "      ~ @maximum 100 → 1000",
  "  ~ RequestMetaObject",
  '      ~ "io.modelcontextprotocol/clientInfo": optional → required',
  "      - progressToken",
  "      + traceparent?: string",
  "  ~ ResultType",
  '      type: "complete" → "complete" | "input_required"',
  "  ~ ServerCapabilities",
  "      + resources?: { subscribe?: boolean; }",
  "  ~ Tool",
  "      ~ annotations.weight: @maximum 1 → 5",
  "      + description?: string",
  "      ~ icon: @format uri → uri-reference",
  "      ~ name: string → ToolName",
  "      ~ priority: @maximum 10 → 100",
  "      ~ score: @TJS-type (none) → number",
  "      ~ title: optional → required",
  "error codes: 1 added, 1 removed, 1 changed",
  "  + RESOURCE_GONE -32031",
  "  - OLD_CODE -32001",
  "  ~ HEADER_MISMATCH: -32020 → -32030",
  "_meta keys: 1 added, 1 removed, 1 changed",
  "  + traceparent",
  "  - progressToken",
  "  ~ io.modelcontextprotocol/clientInfo: optional → required",
  "capabilities: 2 added, 1 removed, 1 changed",
  "  + server.resources: {…}",
  "  + server.resources.subscribe: boolean",
  "  - client.roots.listChanged: boolean",
  "  ~ client.roots: {…} → {}",
  "resultType values: 1 added",
  "  + input_required",
  "constants: 1 added, 1 changed",
  "  + DEFAULT_TTL 60",
  '  ~ TOOL_PREFIX: "t_" → "tool_"',
  "deprecated: 2 added, 1 removed",
  "  + CallToolResult",
  "  + ClientCapabilities.sampling",
  "  - Legacy",
];

describe("diff on a fixture pair", () => {
  it("--json gives every known change, in the documented shape, and exits 1", async () => {
    const result = await cli("diff", BEFORE, AFTER, "--json");
    // after.ts names a version the prose rules do not know (helper-133: diff did not say so, as generate does).
    expect(result.stderr).toBe(
      `${AFTER}:13:14 - warning MCG260: no rules for protocol version 2026-09-01; using those of 2026-07-28: the error codes, _meta keys and results those rules name are compared as that revision's\n`,
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED_JSON);
  });

  it("prints the same for people, grouped and sorted", async () => {
    const result = await cli("diff", BEFORE, AFTER);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`${EXPECTED_TEXT.join("\n")}\n`);
  });

  it("reversed, swaps added and removed", async () => {
    const result = await cli("diff", AFTER, BEFORE, "--json");
    const reversed = JSON.parse(result.stdout) as typeof EXPECTED_JSON;
    expect(reversed.errorCodes).toEqual({
      added: [{ constant: "OLD_CODE", code: -32001 }],
      removed: [{ constant: "RESOURCE_GONE", code: -32031 }],
      changed: [{ constant: "HEADER_MISMATCH", from: -32030, to: -32020 }],
    });
    expect(reversed.methods.added.map((m) => m.method)).toEqual(["ping"]);
    expect(reversed.protocolVersion.changed).toEqual([{ from: "2026-09-01", to: "2026-07-28" }]);
  });

  it("exits 0 with nothing changed, and 2 on an error", async () => {
    expect(await cli("diff", BEFORE, BEFORE)).toEqual({
      code: 0,
      stdout: "no protocol changes\n",
      stderr: `note: both sides are ${realpathSync(BEFORE)}, so nothing can differ (compare two versions or two files)\n`,
    });
    // Two files with the same schema: no note; a hard link is the same file (helper-138).
    const copy = join(scratchDir("diff-same-schema"), "copy.ts");
    writeFileSync(copy, readFileSync(BEFORE));
    expect(await cli("diff", BEFORE, copy)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    const linked = join(dirname(copy), "linked.ts");
    rmSync(linked, { force: true });
    linkSync(copy, linked);
    expect((await cli("diff", copy, linked)).stderr).toBe(`note: both sides are ${realpathSync(copy)}, so nothing can differ (compare two versions or two files)\n`);
    const missing = await cli("diff", BEFORE, join(ROOT, "test", "diff-fixtures", "none.ts"));
    expect(missing).toEqual({
      code: 2,
      stdout: "",
      stderr: `error MCG101: schema file not found: ${join(ROOT, "test", "diff-fixtures", "none.ts")}\n1 error; nothing was compared\n`,
    });
    // The errors name diff's own arguments and flags, not generate's.
    const noVersion = await cli("diff", "2025-11-25", "drafty", "--spec", SPEC_DIR);
    expect(noVersion.code).toBe(2);
    expect(noVersion.stderr).toMatch(new RegExp(`^error MCG001: drafty is neither a file nor a version folder under ${join(SPEC_DIR, "schema")}; versions there: 2024-11-05, .*draft\n`));
    const noLock = await cli("diff", "2025-11-25", "draft", "--lock", join(scratchDir("diff-no-lock"), "none.json"));
    expect(noLock.code).toBe(2);
    expect(noLock.stderr).toContain(" --from <clone>` pins a local clone), or name versions of a local clone with --spec <clone>, or give two schema.ts files\n");
    expect(noLock.stderr).not.toContain("--spec-version");
    expect((await cli("diff", "--help")).stdout).not.toContain("--spec-version");
  });
});

describe("diff when params move from an inline type into a named one", () => {
  const INLINE_BEFORE = join(ROOT, "test", "diff-fixtures", "inline-before.ts");
  const INLINE_AFTER = join(ROOT, "test", "diff-fixtures", "inline-after.ts");

  it("compares the members: the same members say so, changed ones are listed (inherited ones included)", async () => {
    const text = await cli("diff", INLINE_BEFORE, INLINE_AFTER);
    expect(text.code).toBe(1);
    expect(text.stdout.split("\n")).toEqual([
      "methods: 2 changed",
      "  ~ resources/read: params {…} → ReadResourceRequestParams (the same members)",
      "  ~ tools/call: params {…} → CallToolRequestParams",
      "      + _meta?: { [key: string]: unknown; }",
      "      ~ arguments: optional → required",
      "      + task?: { ttl?: number; }",
      "types: 3 added, 3 changed",
      "  + CallToolRequestParams (interface)",
      "  + ReadResourceRequestParams (interface)",
      "  + RequestParams (interface)",
      // The same comparison for a property (helper-57): the same members are said, other members listed by path.
      "  ~ CallToolRequest",
      "      ~ params: {…} → CallToolRequestParams",
      "      + params._meta?: { [key: string]: unknown; }",
      "      ~ params.arguments: optional → required",
      "      + params.task?: { ttl?: number; }",
      "  ~ ReadResourceRequest",
      "      ~ params: {…} → ReadResourceRequestParams (the same members)",
      "  ~ Request",
      "      ~ params: {…} → RequestParams",
      "      ~ params: index signature: unknown → (none)",
      "",
    ]);
    const json = JSON.parse((await cli("diff", INLINE_BEFORE, INLINE_AFTER, "--json")).stdout) as typeof EXPECTED_JSON;
    expect(json.methods.changed).toEqual([
      { method: "resources/read", changes: [{ field: "params", from: "{ _meta?: { [key: string]: unknown; }; uri: string; }", to: "ReadResourceRequestParams", members: [] }] },
      {
        method: "tools/call",
        changes: [
          {
            field: "params",
            from: "{ name: string; arguments?: { [key: string]: unknown; }; }",
            to: "CallToolRequestParams",
            members: [
              { change: "property-added", property: "_meta", optional: true, type: "{ [key: string]: unknown; }" },
              { change: "required", property: "arguments", from: "optional", to: "required" },
              { change: "property-added", property: "task", optional: true, type: "{ ttl?: number; }" },
            ],
          },
        ],
      },
    ]);
  });

  it("reads a params index signature as one: 2025-06-18 → 2025-11-25 names every params type, and only real member changes are listed", async () => {
    const result = await cli("diff", "--spec", SPEC_DIR, "2025-06-18", "2025-11-25");
    const lines = result.stdout.split("\n");
    const block = (method: string) => {
      const at = lines.findIndex((l) => l.startsWith(`  ~ ${method}: params `));
      const end = lines.findIndex((l, i) => i > at && !l.startsWith("      "));
      return lines.slice(at, end);
    };
    // 2025-06-18's ping takes Request's params, with an index signature; 2025-11-25's RequestParams has none.
    expect(block("ping")).toEqual(["  ~ ping: params {…}? → RequestParams?", "      index signature: unknown → (none)"]);
    // 2025-11-25 made CancelledNotification's requestId optional and declares _meta on it.
    expect(block("notifications/cancelled")).toEqual([
      "  ~ notifications/cancelled: params {…} → CancelledNotificationParams",
      "      + _meta?: { [key: string]: unknown; }",
      "      ~ requestId: required → optional",
    ]);
    expect(readFileSync(join(SPEC_DIR, "schema", "2025-11-25", "schema.ts"), "utf8")).toMatch(/interface CancelledNotificationParams extends NotificationParams \{[^}]*requestId\?: RequestId;/);
    // Sampling gained tools and tasks.
    expect(block("sampling/createMessage")).toContain("      + tools?: Tool[]");
    // A params union (elicitation's two modes): each alternative against the one shape before.
    const elicit = block("elicitation/create");
    expect(elicit[0]).toBe("  ~ elicitation/create: params {…} → ElicitRequestParams");
    expect(elicit.slice(1, 3)).toEqual(["      alternative ElicitRequestFormParams:", "        + _meta?: { progressToken?: ProgressToken; [key: string]: unknown; }"]);
    expect(elicit).toContain("        + mode?: \"form\"");
    const url = elicit.slice(elicit.indexOf("      alternative ElicitRequestURLParams:"));
    expect(url).toEqual(expect.arrayContaining(["        + mode: \"url\"", '        + url: string /*@ @format "uri" @*/', "        + elicitationId: string", "        - requestedSchema"]));
    expect(readFileSync(join(SPEC_DIR, "schema", "2025-11-25", "schema.ts"), "utf8")).toMatch(/export type ElicitRequestParams =\s*\|?\s*ElicitRequestFormParams\s*\|\s*ElicitRequestURLParams;/);
  });
});

describe("diff of a params union, alternative by alternative", () => {
  const write = (dir: string, name: string, params: string, extra = "") => {
    const file = join(dir, name);
    writeFileSync(
      file,
      `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Request { method: string; params?: { [key: string]: unknown } }\n${extra}export interface AskRequest extends Request { method: "ask"; params: ${params} }\nexport type ClientRequest = AskRequest;\n`,
    );
    return file;
  };
  // Aliases, not interfaces: an object type alias is assignable to Request's params index signature.
  const A = 'export type ByText = { text: string; mode?: "text" };\n';
  const B = 'export type ByUrl = { url: string; mode: "url" };\n';

  it("one shape becoming a union: each alternative against it; a union becoming one shape: each alternative before against it", async () => {
    const dir = scratchDir("diff-alternatives-one");
    const one = write(dir, "one.ts", "{ text: string }");
    const union = write(dir, "union.ts", "ByText | ByUrl", A + B);
    const forward = await cli("diff", one, union);
    const forwardLines = forward.stdout.split("\n");
    expect(forwardLines.slice(forwardLines.indexOf("methods: 1 changed"), forwardLines.indexOf("methods: 1 changed") + 8)).toEqual([
      "methods: 1 changed",
      "  ~ ask: params {…} → ByText | ByUrl",
      "      alternative ByText:",
      '        + mode?: "text"',
      "      alternative ByUrl:",
      '        + mode: "url"',
      "        - text",
      "        + url: string",
    ]);
    const json = JSON.parse((await cli("diff", one, union, "--json")).stdout) as { methods: { changed: { changes: { alternatives?: unknown }[] }[] } };
    expect(json.methods.changed[0]!.changes[0]!.alternatives).toEqual([
      { alternative: "ByText", change: "compared", members: [{ change: "property-added", property: "mode", optional: true, type: '"text"' }] },
      {
        alternative: "ByUrl",
        change: "compared",
        members: [
          { change: "property-added", property: "mode", optional: false, type: '"url"' },
          { change: "property-removed", property: "text" },
          { change: "property-added", property: "url", optional: false, type: "string" },
        ],
      },
    ]);
    const back = (await cli("diff", union, one)).stdout.split("\n");
    expect(back.slice(back.indexOf("  ~ ask: params ByText | ByUrl → {…}"), back.indexOf("  ~ ask: params ByText | ByUrl → {…}") + 3)).toEqual([
      "  ~ ask: params ByText | ByUrl → {…}",
      "      alternative ByText:",
      "        - mode",
    ]);
  });

  it("shows a union of inline objects as written, optional union params as (A | B)? with their alternatives, and no change for readonly (helper-66)", async () => {
    const dir = scratchDir("diff-alternatives-inline");
    const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Request { method: string; params?: { [key: string]: unknown } }\n';
    const before = join(dir, "before.ts");
    const after = join(dir, "after.ts");
    writeFileSync(
      before,
      head +
        'export interface AskRequest extends Request { method: "ask"; params: { text: string } }\nexport interface TellRequest extends Request { method: "tell"; params?: { text: string } }\nexport interface ListRequest extends Request { method: "list"; params: { tags: string[]; pair: [string, number] } }\nexport type ClientRequest = AskRequest | TellRequest | ListRequest;\n',
    );
    writeFileSync(
      after,
      head +
        'export type ByText = { text: string };\nexport type ByUrl = { url: string };\nexport interface AskRequest extends Request { method: "ask"; params: { text: string; mode?: "t" } | { url: string; mode: "u" } }\nexport interface TellRequest extends Request { method: "tell"; params?: ByText | ByUrl | undefined }\nexport interface ListRequest extends Request { method: "list"; params: { tags: readonly string[]; pair: readonly [string, number] } }\nexport type ClientRequest = AskRequest | TellRequest | ListRequest;\n',
    );
    const result = await cli("diff", before, after);
    expect(result.code).toBe(1);
    const lines = result.stdout.split("\n");
    expect(lines.slice(0, 12)).toEqual([
      "methods: 2 changed",
      '  ~ ask: params {…} → { text: string; mode?: "t"; } | { url: string; mode: "u"; }',
      '      alternative { text: string; mode?: "t"; }:',
      '        + mode?: "t"',
      '      alternative { url: string; mode: "u"; }:',
      '        + mode: "u"',
      "        - text",
      "        + url: string",
      "  ~ tell: params {…}? → (ByText | ByUrl | undefined)?",
      "      alternative ByText: the same members",
      "      alternative ByUrl:",
      "        - text",
    ]);
    // readonly is the same JSON: list's params and ListRequest are not changed.
    expect(result.stdout).not.toContain("list");
    expect(result.stdout).not.toContain("readonly");
  });

  it("writes optional intersection params in parentheses too (helper-67)", async () => {
    const dir = scratchDir("diff-optional-intersection");
    const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Request { method: string; params?: { [key: string]: unknown } }\n';
    const [before, after] = [join(dir, "before.ts"), join(dir, "after.ts")];
    writeFileSync(before, head + 'export interface AskRequest extends Request { method: "ask"; params?: { a: string } }\nexport type ClientRequest = AskRequest;\n');
    writeFileSync(after, head + 'export interface AskRequest extends Request { method: "ask"; params?: { a: string } & { b: string } }\nexport type ClientRequest = AskRequest;\n');
    const lines = (await cli("diff", before, after)).stdout.split("\n");
    expect(lines.slice(0, 3)).toEqual(["methods: 1 changed", "  ~ ask: params {…}? → ({ a: string; } & { b: string; })?", "      + b: string"]);
  });

  it("params whose type keeps its name while a base's members change: the method lists them, as where the name changed (helper-133: 2026-07-28's required _meta showed at the */list methods, not at tools/call)", async () => {
    const dir = scratchDir("diff-params-base");
    const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Request { method: string; params?: object }\n';
    const call = 'export interface CallParams extends BaseParams { name: string }\nexport interface CallRequest extends Request { method: "call"; params: CallParams }\nexport type ClientRequest = CallRequest;\n';
    const [before, after, same] = [join(dir, "before.ts"), join(dir, "after.ts"), join(dir, "same.ts")];
    writeFileSync(before, head + "export interface BaseParams { trace?: string }\n" + call);
    writeFileSync(after, head + "export interface BaseParams { trace: string; span?: number }\n" + call);
    const lines = (await cli("diff", before, after)).stdout.split("\n");
    expect(lines.slice(0, 4)).toEqual(["methods: 1 changed", "  ~ call: params CallParams, its members", "      + span?: number", "      ~ trace: optional → required"]);
    // Under types, the base alone: its change is not repeated at CallParams.
    expect(lines.slice(lines.indexOf("types: 1 changed"))).toEqual(["types: 1 changed", "  ~ BaseParams", "      + span?: number", "      ~ trace: optional → required", ""]);
    // The members in another order, a doc comment: no change.
    writeFileSync(same, head + "/** The base. */\nexport interface BaseParams {\n  trace?: string;\n}\n" + call);
    expect(await cli("diff", before, same)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    const json = JSON.parse((await cli("diff", "--json", before, after)).stdout) as { methods: { changed: unknown[] } };
    expect(json.methods.changed).toEqual([
      {
        method: "call",
        changes: [
          {
            field: "params",
            from: "CallParams",
            to: "CallParams",
            members: [
              { property: "span", change: "property-added", optional: true, type: "number" },
              { property: "trace", change: "required", from: "optional", to: "required" },
            ],
          },
        ],
      },
    ]);
  });

  it("a params union whose name stays while its alternatives change through a base, or that an interface of that name became: the method compares the alternatives, as where the name changed", async () => {
    const dir = scratchDir("diff-params-union-base");
    const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Request { method: string; params?: object }\n';
    const ask = 'export interface AskRequest extends Request { method: "ask"; params: AskParams }\nexport type ClientRequest = AskRequest;\n';
    const union = "export interface FormParams extends BaseParams { message: string }\nexport interface UrlParams extends BaseParams { url: string }\nexport type AskParams = FormParams | UrlParams;\n" + ask;
    const [shape, before, after] = [join(dir, "shape.ts"), join(dir, "before.ts"), join(dir, "after.ts")];
    writeFileSync(shape, head + "export interface BaseParams { trace?: string }\nexport interface AskParams extends BaseParams { message: string }\n" + ask);
    writeFileSync(before, head + "export interface BaseParams { trace?: string }\n" + union);
    writeFileSync(after, head + "export interface BaseParams { trace: string; span?: number }\n" + union);
    const lines = (await cli("diff", before, after)).stdout.split("\n");
    expect(lines.slice(0, 8)).toEqual([
      "methods: 1 changed",
      "  ~ ask: params AskParams, its alternatives",
      "      alternative FormParams:",
      "        + span?: number",
      "        ~ trace: optional → required",
      "      alternative UrlParams:",
      "        + span?: number",
      "        ~ trace: optional → required",
    ]);
    const json = JSON.parse((await cli("diff", "--json", before, after)).stdout) as { methods: { changed: { changes: { from: string; to: string; alternatives?: unknown[] }[] }[] } };
    const change = json.methods.changed[0]!.changes[0]!;
    expect([change.from, change.to, change.alternatives?.length]).toEqual(["AskParams", "AskParams", 2]);
    // An interface of that name made a union: each alternative against the one shape before.
    expect((await cli("diff", shape, before)).stdout.split("\n").slice(0, 6)).toEqual([
      "methods: 1 changed",
      "  ~ ask: params AskParams, its alternatives",
      "      alternative FormParams: the same members",
      "      alternative UrlParams:",
      "        - message",
      "        + url: string",
    ]);
    // On the corpus: elicitation/create's alternatives lost _meta and task with TaskAugmentedRequestParams.
    const corpus = (await cli("diff", "--spec", SPEC_DIR, "2025-11-25", "2026-07-28")).stdout;
    expect(corpus).toContain("  ~ elicitation/create: params ElicitRequestParams, its alternatives\n      alternative ElicitRequestFormParams:\n        - _meta\n        - task\n");
  });

  it("a union against a union: alternatives added and removed by name, the others compared", async () => {
    const dir = scratchDir("diff-alternatives-both");
    const C = "export type ByFile = { path: string };\n";
    const before = write(dir, "before.ts", "ByText | ByFile", A + C);
    const after = write(dir, "after.ts", "ByText | ByUrl", "export type ByText = { text: string };\n" + B);
    const lines = (await cli("diff", before, after)).stdout.split("\n");
    const at = lines.indexOf("  ~ ask: params ByText | ByFile → ByText | ByUrl");
    expect(lines.slice(at, at + 5)).toEqual(["  ~ ask: params ByText | ByFile → ByText | ByUrl", "      - alternative ByFile", "      alternative ByText:", "        - mode", "      + alternative ByUrl"]);
    // The same union in another order is no change (helper-91: it was reported, each alternative "the same members").
    const same = write(dir, "same.ts", "ByFile | ByText", A + C);
    expect(await cli("diff", before, same)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
  });
});

describe("diff through extends (helper-57)", () => {
  it("a new base reached through a base the type keeps is said at that base only: 2025-11-25's PaginatedRequest → JSONRPCRequest, not again at ListToolsRequest (helper-133)", async () => {
    const dir = scratchDir("diff-kept-base");
    const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Request { method: string }\nexport interface Envelope extends Request { id: string }\n';
    const list = "export interface ListRequest extends Paged { kind: string }\nexport interface Other extends Request { name: string }\n";
    const [a, b] = [join(dir, "a.ts"), join(dir, "b.ts")];
    writeFileSync(a, head + "export interface Paged extends Request { cursor?: string }\n" + list);
    writeFileSync(b, head + "export interface Paged extends Envelope { cursor?: string }\n" + list.replace("Other extends Request", "Other extends Envelope"));
    expect((await cli("diff", a, b)).stdout).toBe(
      [
        "types: 2 changed",
        "  ~ Other",
        "      extends: Request → Envelope",
        "      + id: string (inherited from Envelope)",
        "  ~ Paged",
        "      extends: Request → Envelope",
        "      + id: string (inherited from Envelope)",
        "",
      ].join("\n"),
    );
  });

  it("compares inherited properties: a new base's properties are named, a property moved into it is not removed", async () => {
    const dir = scratchDir("diff-inherited");
    const [a, b] = [join(dir, "a.ts"), join(dir, "b.ts")];
    writeFileSync(a, 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Implementation {\n  name: string;\n  version: string;\n}\n');
    writeFileSync(
      b,
      'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface BaseMetadata {\n  name?: string;\n  title?: string;\n}\nexport interface Implementation extends BaseMetadata {\n  version: string;\n}\n',
    );
    const result = await cli("diff", a, b);
    expect(result.stdout).toBe(
      [
        "types: 1 added, 1 changed",
        "  + BaseMetadata (interface)",
        "  ~ Implementation",
        "      extends: (nothing) → BaseMetadata",
        "      ~ name: required → optional (inherited from BaseMetadata)",
        "      + title?: string (inherited from BaseMetadata)",
        "",
      ].join("\n"),
    );
    const json = JSON.parse((await cli("diff", a, b, "--json")).stdout) as typeof EXPECTED_JSON;
    expect(json.types.changed[0]!.changes).toContainEqual({ change: "required", property: "name", from: "required", to: "optional", inheritedFrom: "BaseMetadata" });
  });

  it("compares extends as the protocol reads it: line breaks, an Omit's keys or the bases in another order are no change; a key or a base added is, named by the base type", async () => {
    const dir = scratchDir("diff-extends-written");
    const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Base {\n  jsonrpc: string;\n  id?: string;\n  error: string;\n}\nexport interface Coded {\n  code: number;\n}\n';
    const write = (name: string, heritage: string) => {
      writeFileSync(join(dir, name), `${head}export interface Mismatch extends ${heritage} {\n  error: number;\n}\n`);
      return join(dir, name);
    };
    const before = write("before.ts", 'Omit<\n  Base,\n  "error" | "id"\n>, Coded');
    // Comments inside the clause are no part of it (helper-116: their words were read as union members).
    const same = write("same.ts", "Coded, Omit<\n  Base, // what is dropped:\n  'id' | /* and */ \"error\"\n>");
    expect(await cli("diff", before, same)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    expect(JSON.parse((await cli("diff", before, same, "--json")).stdout).types.changed).toEqual([]);
    const keyed = write("keyed.ts", 'Omit<Base, "error">, Coded');
    const result = await cli("diff", before, keyed);
    expect(result).toEqual({
      code: 1,
      stdout: [
        "types: 1 changed",
        "  ~ Mismatch",
        '      extends: Omit<Base, "error" | "id">, Coded → Omit<Base, "error">, Coded',
        "      + id?: string (inherited from Base)",
        "",
      ].join("\n"),
      stderr: "",
    });
    const unbased = write("unbased.ts", 'Omit<Base, "error" | "id">');
    expect((await cli("diff", before, unbased)).stdout).toContain('      extends: Omit<Base, "error" | "id">, Coded → Omit<Base, "error" | "id">\n      - code (inherited from Coded)\n');
    // generate --check names no protocol change either.
    const out = join(dir, "out");
    expect((await cli("generate", "--schema", before, "--out", out, "--targets", "types")).code).toBe(0);
    const check = await cli("generate", "--schema", same, "--out", out, "--targets", "types", "--check");
    expect(check.stdout.split("\n")[1]).toBe("protocol changes: none");
  });

  it("an interface that only extends one base and its alias are one type: no change; a member or a tag of its own is a kind change (helper-112)", async () => {
    const dir = scratchDir("diff-kind-written");
    // As upstream's Result: an index signature the interface inherits (helper-116: that was a kind change still).
    const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Result {\n  _meta?: { [key: string]: unknown };\n  [key: string]: unknown;\n}\n';
    const write = (name: string, declaration: string) => {
      writeFileSync(join(dir, name), head + declaration + "\n");
      return join(dir, name);
    };
    const iface = write("iface.ts", "export interface EmptyResult extends Result {}");
    const alias = write("alias.ts", "export type EmptyResult = Result;");
    expect(await cli("diff", iface, alias)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    expect(await cli("diff", alias, iface)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    const member = write("member.ts", "export interface EmptyResult extends Result {\n  note?: string;\n}");
    // The member of its own is listed under the kind (helper-124: the kind alone was said).
    expect((await cli("diff", alias, member)).stdout).toBe("types: 1 changed\n  ~ EmptyResult\n      kind: alias → interface\n      + note?: string\n");
  });

  it("an alias of an object type and an interface with the same members are one type; other members are listed under the kind change", async () => {
    const dir = scratchDir("diff-kind-members");
    const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Z {\n  a: string;\n  b: number;\n}\n';
    const write = (name: string, declaration: string) => {
      writeFileSync(join(dir, name), head + declaration + "\n");
      return join(dir, name);
    };
    const alias = write("alias.ts", 'export type V = Omit<Z, "a">;');
    const iface = write("iface.ts", 'export interface V extends Omit<Z, "a"> {}');
    const inline = write("inline.ts", "export type V = { b: number };");
    const more = write("more.ts", 'export interface V extends Omit<Z, "a"> {\n  c?: string;\n}');
    for (const [a, b] of [[alias, iface], [iface, alias], [inline, iface]] as const) {
      expect(await cli("diff", a, b)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    }
    expect((await cli("diff", alias, more)).stdout).toBe("types: 1 changed\n  ~ V\n      kind: alias → interface\n      + c?: string\n");
    const json = JSON.parse((await cli("diff", more, alias, "--json")).stdout);
    expect(json.types.changed).toEqual([{ name: "V", changes: [{ change: "kind", from: "interface", to: "alias" }, { change: "property-removed", property: "c" }] }]);
  });

  it("an interface made an alias of a union or a primitive, or back: the types are written out under the kind change (helper-133)", async () => {
    const dir = scratchDir("diff-kind-union");
    const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Single {\n  type: "string";\n  enum: string[];\n}\nexport interface Multi {\n  type: "array";\n}\n';
    const write = (name: string, declaration: string) => {
      writeFileSync(join(dir, name), head + declaration + "\n");
      return join(dir, name);
    };
    const iface = write("iface.ts", 'export interface EnumSchema {\n  type: "string";\n  enum: string[];\n  title?: string;\n}');
    const union = write("union.ts", "export type EnumSchema = Single | Multi;");
    const text = write("text.ts", "export type EnumSchema = string;");
    // Upstream's EnumSchema (2025-06-18 → 2025-11-25) and JSONRPCResponse became unions: the kind alone was said.
    expect((await cli("diff", iface, union)).stdout).toBe(
      'types: 1 changed\n  ~ EnumSchema\n      kind: interface → alias\n      type: { enum: string[]; title?: string; type: "string"; } → Single | Multi\n',
    );
    expect((await cli("diff", text, iface)).stdout).toBe('types: 1 changed\n  ~ EnumSchema\n      kind: alias → interface\n      type: string → { enum: string[]; title?: string; type: "string"; }\n');
    expect(JSON.parse((await cli("diff", iface, text, "--json")).stdout).types.changed).toEqual([
      { name: "EnumSchema", changes: [{ change: "kind", from: "interface", to: "alias" }, { change: "alias-type", from: '{ enum: string[]; title?: string; type: "string"; }', to: "string" }] },
    ]);
    // A key that is no identifier is quoted, as TypeScript writes it (helper-136: `{ a-b: string; }`).
    const dashed = write("dashed.ts", 'export interface EnumSchema {\n  "x-kind": string;\n  type: "string";\n}');
    expect((await cli("diff", dashed, union)).stdout).toContain('      type: { type: "string"; "x-kind": string; } → Single | Multi\n');
    const corpus = (await cli("diff", "--spec", SPEC_DIR, "2025-06-18", "2025-11-25")).stdout;
    expect(corpus).toContain("  ~ JSONRPCResponse\n      kind: interface → alias\n      type: { id: RequestId; jsonrpc: typeof JSONRPC_VERSION; result: Result; } → JSONRPCResultResponse | JSONRPCErrorResponse\n");
  });

  it("a side whose protocol version has no prose rules says which revision's rules it is read with, as generate does (MCG260, helper-133)", async () => {
    const dir = scratchDir("diff-rules-note");
    const write = (name: string, version: string) => {
      writeFileSync(join(dir, name), `export const LATEST_PROTOCOL_VERSION = "${version}";\nexport interface A {\n  a: string;\n}\n`);
      return join(dir, name);
    };
    const known = write("known.ts", "2025-11-25");
    const unknown = write("unknown.ts", "2025-12-01");
    const result = await cli("diff", known, unknown);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `${unknown}:1:14 - warning MCG260: no rules for protocol version 2025-12-01; using those of 2025-11-25: the error codes, _meta keys and results those rules name are compared as that revision's\n`,
    );
    expect((await cli("diff", known, join(dirname(known), ".", basename(known)))).stderr).toBe(`note: both sides are ${realpathSync(known)}, so nothing can differ (compare two versions or two files)\n`);
  });

  it("an inline object type that changed: each member's change, named by its path, not the whole type written twice", async () => {
    const dir = scratchDir("diff-inline-members");
    const write = (name: string, members: string) => {
      writeFileSync(join(dir, name), `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Tool {\n  inputSchema: { type: "object"; ${members} };\n}\n`);
      return join(dir, name);
    };
    const before = write("before.ts", "required?: string[]; properties?: { [key: string]: object } ");
    const after = write("after.ts", "required: string[]; $schema?: string; properties?: { [key: string]: object; title: object } ");
    expect((await cli("diff", before, after)).stdout).toBe(
      ["types: 1 changed", "  ~ Tool", "      + inputSchema.$schema?: string", "      + inputSchema.properties.title: object", "      ~ inputSchema.required: optional → required", ""].join("\n"),
    );
    // On the corpus: 2025-06-18 → 2025-11-25 gives Tool's inputSchema and outputSchema a $schema.
    const corpus = (await cli("diff", "--spec", SPEC_DIR, "2025-06-18", "2025-11-25")).stdout.split("\n");
    const tool = corpus.slice(corpus.indexOf("  ~ Tool"));
    expect(tool.slice(0, tool.findIndex((l, i) => i > 0 && !l.startsWith("      ")))).toEqual(expect.arrayContaining(["      + inputSchema.$schema?: string", "      + outputSchema.$schema?: string"]));
  });

  it("an inline object against a named one: an index signature's tag counts, and an alias of an object type has members too (helper-121)", async () => {
    const dir = scratchDir("diff-named-index-tag");
    const write = (name: string, x: string) => {
      const head = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface N {\n  /** @maximum 3 */\n  [key: string]: number;\n}\nexport type M = Record<string, number>;\n';
      writeFileSync(join(dir, name), `${head}export interface V {\n  x: ${x};\n}\n`);
      return join(dir, name);
    };
    const [named, inline, alias] = [write("named.ts", "N"), write("inline.ts", "{ [key: string]: number }"), write("alias.ts", "M")];
    // N's values are at most 3, the inline type's are not: not the same members.
    const tagged = await cli("diff", named, inline);
    expect(tagged.stdout).toBe("types: 1 changed\n  ~ V\n      ~ x: N → {…}\n      ~ x: index signature: number /*@ @maximum 3 @*/ → number\n");
    expect(JSON.parse((await cli("diff", named, inline, "--json")).stdout).types.changed[0].changes).toEqual([
      { change: "property-type", property: "x", from: "N", to: "{ [key: string]: number; }", membersListed: true },
      { change: "index-signature", property: "x", from: "number /*@ @maximum 3 @*/", to: "number" },
    ]);
    // M is an alias of the inline type: only written another way.
    expect((await cli("diff", inline, alias)).stdout).toBe("types: 1 changed\n  ~ V\n      ~ x: {…} → M (the same members)\n");
  });

  it("a member added says its tags: one added to an interface, and each member of an inline object type listed by path (helper-121)", async () => {
    const dir = scratchDir("diff-added-tags");
    const write = (name: string, body: string) => {
      writeFileSync(join(dir, name), `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface V {\n${body}\n}\n`);
      return join(dir, name);
    };
    const before = write("before.ts", "  x: { a: string };");
    const after = write("after.ts", "  x: {\n    a: string;\n    /** @maximum 3 */\n    n: number;\n    /** @format uri */\n    u?: string;\n  };\n  /** @TJS-type number */\n  f: number;");
    expect((await cli("diff", before, after)).stdout).toBe(
      ["types: 1 changed", "  ~ V", "      + f: number /*@ @TJS-type number @*/", "      + x.n: number /*@ @maximum 3 @*/", '      + x.u?: string /*@ @format "uri" @*/', ""].join("\n"),
    );
    const added = JSON.parse((await cli("diff", before, after, "--json")).stdout).types.changed[0].changes;
    expect(added[1]).toEqual({ change: "property-added", property: "x.n", optional: false, type: "number /*@ @maximum 3 @*/" });
  });

  it("a property named [key: string] is not the index signature: against an alias of an object type, or inside an inline object type (helper-121)", async () => {
    const dir = scratchDir("diff-index-named-property");
    const write = (name: string, body: string) => {
      writeFileSync(join(dir, name), `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\n${body}\n`);
      return join(dir, name);
    };
    const property = write("property.ts", 'export interface V {\n  "[key: string]": string;\n}');
    const index = write("index.ts", "export type V = { [key: string]: string };");
    expect((await cli("diff", property, index)).stdout).toBe('types: 1 changed\n  ~ V\n      kind: interface → alias\n      - "[key: string]"\n      index signature: (none) → string\n');
    const inline = (name: string, x: string) => write(name, `export interface W {\n  x: ${x};\n}`);
    const lines = (await cli("diff", inline("p.ts", '{ "[key: string]": string }'), inline("i.ts", "{ [key: string]: string }"))).stdout;
    expect(lines).toBe('types: 1 changed\n  ~ W\n      - x."[key: string]"\n      ~ x: index signature: (none) → string\n');
  });

  it("an inline object type's members in another order are no change; an alias of an inline object type that changed is listed member by member (helper-121)", async () => {
    const dir = scratchDir("diff-inline-order");
    const write = (name: string, x: string, alias: string, params: string) => {
      const body = [
        'export const LATEST_PROTOCOL_VERSION = "2025-03-26";',
        "export interface Request {\n  method: string;\n  params?: { [key: string]: unknown };\n}",
        "export interface Result {\n  [key: string]: unknown;\n}",
        `export interface FooRequest extends Request {\n  method: "foo";\n  params: ${params};\n}`,
        "export interface FooResult extends Result {}",
        "export type ClientRequest = FooRequest;",
        "export type ServerResult = FooResult;",
        `export interface V {\n  x: ${x};\n}`,
        `export type A = ${alias};`,
      ];
      writeFileSync(join(dir, name), body.join("\n") + "\n");
      return join(dir, name);
    };
    const before = write("before.ts", "{ a: string; b: { c: number; d: string } }", "{ a: string; b: { c: string } }", "{ a: string; b: number }");
    const reordered = write("reordered.ts", "{ b: { d: string; c: number }; a: string }", "{ b: { c: string }; a: string }", "{ b: number; a: string }");
    expect(await cli("diff", before, reordered)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    const changed = write("changed.ts", "{ b: { d: string; c: number }; a: string }", "{ b: { c: number }; a: string }", "{ b: number; a: string }");
    expect((await cli("diff", before, changed)).stdout).toBe("types: 1 changed\n  ~ A\n      ~ b.c: string → number\n");
  });

  it("a member of an inline object type is attributed to its own property, not to an inherited one whose name holds a dot (helper-121)", async () => {
    const dir = scratchDir("diff-dotted-origin");
    const write = (name: string, body: string) => {
      writeFileSync(join(dir, name), `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\n${body}\n`);
      return join(dir, name);
    };
    const before = write("before.ts", 'export interface V {\n  "a.b"?: string;\n  a: { b: string };\n}');
    const after = write("after.ts", 'export interface B {\n  "a.b"?: string;\n}\nexport interface V extends B {\n  a: { b: number };\n}');
    expect((await cli("diff", before, after)).stdout).toBe("types: 1 added, 1 changed\n  + B (interface)\n  ~ V\n      extends: (nothing) → B\n      ~ a.b: string → number\n");
  });

  it("a string literal or a pattern holding \"{ }\" is not the same as one holding \"{}\" (helper-124)", async () => {
    const dir = scratchDir("diff-literal-braces");
    const write = (name: string, braces: string) => {
      const body = `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport type A = "${braces}";\nexport interface B {\n  /** @TJS-pattern ^[${braces}]$ */\n  [key: string]: string;\n}\n`;
      writeFileSync(join(dir, name), body);
      return join(dir, name);
    };
    const result = await cli("diff", write("spaced.ts", "{ }"), write("tight.ts", "{}"));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('types: 2 changed\n  ~ A\n      type: "{ }" → "{}"\n  ~ B\n      index signature: string /*@ @pattern "^[{ }]$" @*/ → string /*@ @pattern "^[{}]$" @*/\n');
  });

  it("a union inside a union is its members: (A | B) | C against A | (B | C) is no change (helper-124)", async () => {
    const dir = scratchDir("diff-union-nested");
    const write = (name: string, type: string) => {
      writeFileSync(join(dir, name), `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface W {\n  x: ${type};\n}\n`);
      return join(dir, name);
    };
    const left = write("left.ts", "(boolean | string) | number");
    expect(await cli("diff", left, write("right.ts", "boolean | (string | number)"))).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    expect(await cli("diff", left, write("repeat.ts", "string | (number | boolean | string)"))).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
  });

  it("an inline object type's members in another order are no change at any depth: in an array, a union, an index signature (helper-124)", async () => {
    const dir = scratchDir("diff-inline-order-deep");
    const write = (name: string, inner: string) => {
      const body = `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface W {\n  x: ${inner}[];\n  y: string | ${inner};\n}\nexport interface I {\n  [key: string]: ${inner} | string | { a: string; b: number; }[];\n}\n`;
      writeFileSync(join(dir, name), body);
      return join(dir, name);
    };
    const before = write("before.ts", "{ a: string; b: { c: number; d: string } }");
    expect(await cli("diff", before, write("after.ts", "{ b: { d: string; c: number }; a: string }"))).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    // Reordered with a real change: still said.
    const changed = await cli("diff", before, write("changed.ts", "{ b: { d: string; c: string }; a: string }"));
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain("~ x: { a: string; b: { c: number; d: string; }; }[] → { b: { d: string; c: string; }; a: string; }[]");
  });

  it("a constraint line names a pattern as the schema writes it, @TJS-pattern (helper-124: @pattern, which the generator refuses)", async () => {
    const dir = scratchDir("diff-pattern-tag");
    const write = (name: string, pattern: string) => {
      writeFileSync(join(dir, name), `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface P {\n  /** @TJS-pattern ${pattern} */\n  s: string;\n}\n`);
      return join(dir, name);
    };
    const [a, b] = [write("a.ts", "^a$"), write("b.ts", "^b$")];
    expect((await cli("diff", a, b)).stdout).toBe("types: 1 changed\n  ~ P\n      ~ s: @TJS-pattern ^a$ → ^b$\n");
    expect(JSON.parse((await cli("diff", a, b, "--json")).stdout).types.changed[0].changes).toEqual([{ change: "constraint", property: "s", tag: "pattern", from: "^a$", to: "^b$" }]);
  });

  it("a union member written twice is no change, at the top and inside", async () => {
    const dir = scratchDir("diff-union-repeat");
    const write = (name: string, type: string) => {
      writeFileSync(join(dir, name), `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface W {\n  x: ${type};\n}\n`);
      return join(dir, name);
    };
    const once = write("once.ts", "string | number");
    expect(await cli("diff", once, write("twice.ts", "string | number | string"))).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    expect(await cli("diff", write("inner.ts", "{ y: (string | number)[] }"), write("inner2.ts", "{ y: (number | string | number)[] }"))).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    const other = await cli("diff", once, write("other.ts", "string | boolean | string"));
    expect(other.stdout).toBe("types: 1 changed\n  ~ W\n      ~ x: string | number → string | boolean | string\n");
  });

  it("a type added with the same declaration as one removed is named a likely rename: on the corpus, 2025-06-18's ResourceTemplateReference", async () => {
    const dir = scratchDir("diff-rename");
    const write = (name: string, body: string) => {
      writeFileSync(join(dir, name), `export const LATEST_PROTOCOL_VERSION = "2025-03-26";\n${body}\n`);
      return join(dir, name);
    };
    const before = write("before.ts", "export interface Q {\n  name: string;\n}\nexport interface E {}");
    const renamed = write("renamed.ts", "export interface R {\n  name: string;\n}\nexport interface E {}");
    expect((await cli("diff", before, renamed)).stdout).toBe("types: 1 added, 1 removed\n  + R (interface, the same as removed Q: a rename?)\n  - Q (interface)\n");
    expect(JSON.parse((await cli("diff", before, renamed, "--json")).stdout).types.added).toEqual([{ name: "R", kind: "interface", sameAs: "Q" }]);
    // Two added types like the one removed: no pairing is guessed; nor for a member that differs.
    const two = write("two.ts", "export interface R {\n  name: string;\n}\nexport interface S {\n  name: string;\n}\nexport interface E {}");
    expect((await cli("diff", before, two)).stdout).toBe("types: 2 added, 1 removed\n  + R (interface)\n  + S (interface)\n  - Q (interface)\n");
    const optional = write("optional.ts", "export interface R {\n  name?: string;\n}\nexport interface E {}");
    expect((await cli("diff", before, optional)).stdout).toContain("  + R (interface)\n");
    const corpus = await cli("diff", "--spec", SPEC_DIR, "2025-03-26", "2025-06-18");
    expect(corpus.stdout).toContain("  + ResourceTemplateReference (interface, the same as removed ResourceReference: a rename?)\n");
  });

  it("on the draft: HeaderMismatchError's four-line extends written on one line is no change", async () => {
    const dir = scratchDir("diff-extends-draft");
    const draft = readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), "utf8");
    const written = 'export interface HeaderMismatchError extends Omit<\n  JSONRPCErrorResponse,\n  "error"\n> {';
    expect(draft).toContain(written);
    writeFileSync(join(dir, "a.ts"), draft);
    writeFileSync(join(dir, "b.ts"), draft.replace(written, 'export interface HeaderMismatchError extends Omit<JSONRPCErrorResponse, "error"> {'));
    expect(await cli("diff", join(dir, "a.ts"), join(dir, "b.ts"))).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
  });

  it("on the corpus: 2025-06-18's BaseMetadata gives title and keeps name; 2025-11-25's Icons gives icons; a base's own change is not repeated below it", async () => {
    const [older, newer] = [await cli("diff", "--spec", SPEC_DIR, "2025-03-26", "2025-06-18"), await cli("diff", "--spec", SPEC_DIR, "2025-06-18", "2025-11-25")];
    const lines = older.stdout.split("\n");
    expect(lines.filter((l) => l === "      - name")).toEqual([]);
    const tool = lines.slice(lines.indexOf("  ~ Tool"));
    expect(tool.slice(0, tool.findIndex((l, i) => i > 0 && !l.startsWith("      ")))).toContain("      + title?: string (inherited from BaseMetadata)");
    // ResourceContents gained _meta: said once, at ResourceContents, not again at the two types that extend it.
    expect(lines.filter((l) => l.includes("(inherited from ResourceContents)"))).toEqual([]);
    expect(lines[lines.indexOf("  ~ ResourceContents") + 1]).toBe("      + _meta?: { [key: string]: unknown; }");
    expect(newer.stdout).toContain("      + icons?: Icon[] (inherited from Icons)");
  });

  it("on the corpus: 2026-07-28's required request _meta and inputResponses are listed at tools/call, whose params type kept its name (helper-133)", async () => {
    const lines = (await cli("diff", "--spec", SPEC_DIR, "2025-11-25", "2026-07-28")).stdout.split("\n");
    const at = lines.indexOf("  ~ tools/call: params CallToolRequestParams, its members");
    expect(at).toBeGreaterThan(0);
    const block = lines.slice(at + 1, lines.findIndex((l, i) => i > at && !l.startsWith("      ")));
    expect(block).toContain("      ~ _meta: optional → required");
    expect(block).toContain('      + _meta."io.modelcontextprotocol/protocolVersion": string');
    expect(block).toContain("      + inputResponses?: InputResponses");
    expect(lines).toContain("  ~ notifications/cancelled: params CancelledNotificationParams, its members");
  });
});

describe("diff's member paths (helper-145)", () => {
  it("writes a member whose name holds a dot as a JSON string, so that a path names one member: \"a.b\" is not a's b", async () => {
    const dir = scratchDir("diff-dotted-names");
    const before = join(dir, "before.ts");
    const after = join(dir, "after.ts");
    writeFileSync(
      before,
      'export interface X {\n  a: { x: string };\n  "a.b": string;\n  _meta?: { "io.modelcontextprotocol/k"?: string };\n  /** @deprecated */\n  "c.d"?: string;\n}\n',
    );
    writeFileSync(after, 'export interface X {\n  a: { x: string; b: string };\n  _meta?: { "io.modelcontextprotocol/k": string };\n  /** @deprecated */\n  "c.d"?: string;\n}\n');
    const text = await cli("diff", before, after);
    expect(text.stdout.split("\n")).toEqual([
      "types: 1 changed",
      "  ~ X",
      '      ~ _meta."io.modelcontextprotocol/k": optional → required',
      "      + a.b: string",
      '      - "a.b"',
      "",
    ]);
    const json = JSON.parse((await cli("diff", before, after, "--json")).stdout) as typeof EXPECTED_JSON;
    expect(json.types.changed[0]!.changes.map((c) => ("property" in c ? c.property : undefined))).toEqual(['_meta."io.modelcontextprotocol/k"', "a.b", '"a.b"']);
    const deprecated = JSON.parse((await cli("diff", join(ROOT, "test", "diff-fixtures", "before.ts"), after, "--json")).stdout) as typeof EXPECTED_JSON;
    expect(deprecated.deprecated.added).toContain('X."c.d"');
  });

  it("keys a type's own members as an inline type's: a name that starts with a quote, or is \"[key: string]\", as a JSON string (helper-146: \"x.y\" named a property x.y and a property \"x.y\" alike)", async () => {
    const dir = scratchDir("diff-quoted-names");
    const [before, after, other] = [join(dir, "before.ts"), join(dir, "after.ts"), join(dir, "other.ts")];
    const type = (quoted: string, dotted: string) =>
      `export interface X {\n  "x.y": ${dotted};\n  '"x.y"': ${quoted};\n  "[key: string]"?: ${quoted};\n  [key: string]: unknown;\n  n?: { '"x.y"': ${quoted}; "[key: string]"?: ${quoted} };\n}\n`;
    writeFileSync(before, type("string", "string"));
    writeFileSync(after, type("number", "string"));
    writeFileSync(other, type("string", "number"));
    expect((await cli("diff", before, after)).stdout.split("\n")).toEqual([
      "types: 1 changed",
      "  ~ X",
      '      ~ "[key: string]": string → number',
      '      ~ "\\"x.y\\"": string → number',
      '      ~ n."[key: string]": string → number',
      '      ~ n."\\"x.y\\"": string → number',
      "",
    ]);
    const properties = async (to: string) =>
      (JSON.parse((await cli("diff", before, to, "--json")).stdout) as typeof EXPECTED_JSON).types.changed[0]!.changes.map((c) => ("property" in c ? c.property : undefined));
    expect(await properties(after)).toEqual(['"[key: string]"', '"\\"x.y\\""', 'n."[key: string]"', 'n."\\"x.y\\""']);
    expect(await properties(other)).toEqual(['"x.y"']);
  });
});

describe("diff's inputs (helper-57)", () => {
  it("names the problems of both sides in one run", async () => {
    const dir = scratchDir("diff-both-errors");
    const [a, b] = [join(dir, "unsupported.ts"), join(dir, "typo.ts")];
    writeFileSync(a, "export type X<T> = { a: T };\n");
    writeFileSync(b, "export interface Y {\n  name: strng;\n}\n");
    const result = await cli("diff", a, b);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^${a.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1:1 - error MCG201: `));
    expect(result.stderr).toContain(`${b}:2:9 - error MCG110: TypeScript TS2552: Cannot find name 'strng'.`);
    expect(result.stderr.endsWith("2 errors; nothing was compared\n")).toBe(true);
  });

  it("a folder given for a schema file says what inside it to give: its schema.ts, or --spec for a clone; a bare folder name is not taken for a missing lock's version (helper-133)", async () => {
    const dir = scratchDir("diff-folder-side");
    const schema = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Implementation { name: string }\n';
    writeFileSync(join(dir, "a.ts"), schema);
    mkdirSync(join(dir, "fx"), { recursive: true });
    writeFileSync(join(dir, "fx", "schema.ts"), schema);
    mkdirSync(join(dir, "clone", "schema"), { recursive: true });
    mkdirSync(join(dir, "empty"), { recursive: true });
    const was = process.cwd();
    process.chdir(dir);
    try {
      const nothing = "1 error; nothing was compared\n";
      expect(await cli("diff", "a.ts", "./fx")).toEqual({
        code: 2,
        stdout: "",
        stderr: `error MCG102: schema path is a directory, not a file: ./fx; give the schema file inside it: ${join("fx", "schema.ts")}\n${nothing}`,
      });
      expect(await cli("diff", "a.ts", "fx")).toEqual({
        code: 2,
        stdout: "",
        stderr: `error MCG001: fx is a folder here, not a schema file (nor a version a lock file names); give the schema file inside it: ${join("fx", "schema.ts")}\n${nothing}`,
      });
      expect((await cli("diff", "a.ts", "clone")).stderr).toBe(
        `error MCG001: clone is a folder here, not a schema file (nor a version a lock file names); it holds schema/, as a clone of the spec repository does: name one of its versions with --spec clone\n${nothing}`,
      );
      // A folder with neither may share a version's name by chance: the lock is looked for, as before.
      expect((await cli("diff", "a.ts", "empty")).stderr).toMatch(/^error MCG504: no lock file /);
      expect(await cli("diff", "a.ts", "fx/schema.ts")).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    } finally {
      process.chdir(was);
    }
  });

  it("the --spec a folder's hint offers is quoted for a shell where its path needs it", async () => {
    const dir = scratchDir("diff-folder-side-quoted");
    const schema = 'export const LATEST_PROTOCOL_VERSION = "2025-03-26";\nexport interface Implementation { name: string }\n';
    writeFileSync(join(dir, "a.ts"), schema);
    const clone = join(dir, "my clone");
    mkdirSync(join(clone, "schema"), { recursive: true });
    expect((await cli("diff", join(dir, "a.ts"), clone)).stderr).toBe(
      `error MCG102: schema path is a directory, not a file: ${clone}; it holds schema/, as a clone of the spec repository does: name one of its versions with --spec '${clone}'\n1 error; nothing was compared\n`,
    );
  });

  it("with --spec, a bare version name is the version even where a file has that name (said in a warning); ./name is the file", async () => {
    const dir = scratchDir("diff-version-or-file");
    const draft = readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), "utf8");
    writeFileSync(join(dir, "draft"), `${draft}\nexport interface Traced {\n  level: string;\n}\n`);
    /** `cli` run from `dir` (the test pool runs each file in its own process). */
    const inDir = async (...argv: string[]) => {
      const was = process.cwd();
      process.chdir(dir);
      try {
        return await cli(...argv);
      } finally {
        process.chdir(was);
      }
    };
    const asVersion = await inDir("diff", "--spec", SPEC_DIR, "draft", "draft");
    expect(asVersion).toEqual({
      code: 0,
      stdout: "no protocol changes\n",
      stderr:
        `warning MCG256: draft is the version under ${join(SPEC_DIR, "schema")}; the file draft here is not read (write ./draft to compare it)\n`.repeat(2) +
        `note: both sides are ${realpathSync(join(SPEC_DIR, "schema", "draft", "schema.ts"))}, so nothing can differ (compare two versions or two files)\n`,
    });
    const asFile = await inDir("diff", "--spec", SPEC_DIR, "draft", "./draft");
    expect(asFile.code).toBe(1);
    expect(asFile.stdout).toContain("  + Traced (interface)");
  });

  it("without --spec, a bare name the lock names is the locked version even where a file has that name (said in a warning); ./name is the file", async () => {
    const dir = scratchDir("diff-locked-version-or-file");
    const draft = readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), "utf8");
    writeFileSync(join(dir, "draft"), `${draft}\nexport interface Traced {\n  level: string;\n}\n`);
    // The lock's first pin, the one the corpus holds, filled into a cache of this test's own.
    const lock = JSON.parse(readFileSync(join(ROOT, "mcp-spec.lock.json"), "utf8")) as { pins: unknown[] };
    writeFileSync(join(dir, "mcp-spec.lock.json"), `${JSON.stringify({ ...lock, pins: lock.pins.slice(0, 1) }, null, 2)}\n`);
    const was = { cwd: process.cwd(), cache: process.env.MCP_SPEC_CACHE_DIR };
    process.chdir(dir);
    process.env.MCP_SPEC_CACHE_DIR = join(dir, "cache");
    try {
      expect((await cli("spec", "fetch", "--from", SPEC_DIR)).code).toBe(0);
      const asVersion = await cli("diff", "2025-11-25", "draft", "--offline");
      expect(asVersion.code).toBe(1);
      expect(asVersion.stdout).not.toContain("Traced");
      expect(asVersion.stderr.split("\n")).toContain(
        "warning MCG256: draft is the version of the locked spec revision (mcp-spec.lock.json); the file draft here is not read (write ./draft to compare it)",
      );
      const asFile = await cli("diff", "draft", "./draft", "--offline");
      expect(asFile.code).toBe(1);
      expect(asFile.stdout).toBe("types: 1 added\n  + Traced (interface)\n");
      expect(asFile.stderr).toContain("warning MCG256: draft is the version of the locked spec revision");
      // A name the lock does not name is the file, as before.
      writeFileSync(join(dir, "mine"), draft);
      expect(await cli("diff", "mine", "./draft", "--offline")).toEqual({ code: 1, stdout: "types: 1 added\n  + Traced (interface)\n", stderr: "" });
    } finally {
      process.chdir(was.cwd);
      if (was.cache === undefined) delete process.env.MCP_SPEC_CACHE_DIR;
      else process.env.MCP_SPEC_CACHE_DIR = was.cache;
    }
  });
});

describe("diff on the real 2025-11-25 → draft pair", () => {
  const older = readFileSync(join(SPEC_DIR, "schema", "2025-11-25", "schema.ts"), "utf8");
  const newer = readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), "utf8");
  /** The value of `export const NAME = …` in a schema's text. */
  const value = (text: string, name: string) => {
    const m = new RegExp(`export const ${name} = (-?\\d+|"[^"]*")`).exec(text);
    if (!m) throw new Error(`${name} not found`);
    return JSON.parse(m[1]!) as string | number;
  };

  it("names what the two schema.ts files show", async () => {
    const result = await cli("diff", "--spec", SPEC_DIR, "2025-11-25", "draft", "--json");
    expect(result.code).toBe(1);
    const diff = JSON.parse(result.stdout) as typeof EXPECTED_JSON;
    // LATEST_PROTOCOL_VERSION of each file.
    expect(diff.protocolVersion.changed).toEqual([{ from: value(older, "LATEST_PROTOCOL_VERSION"), to: value(newer, "LATEST_PROTOCOL_VERSION") }]);
    // initialize is a method of 2025-11-25 only; server/discover of the draft only.
    expect(older).toContain('method: "initialize";');
    expect(newer).not.toContain('method: "initialize";');
    expect(newer).toContain('method: "server/discover";');
    expect(diff.methods.removed.map((m) => m.method)).toContain("initialize");
    expect(diff.methods.added.find((m) => m.method === "server/discover")).toEqual({
      method: "server/discover",
      kind: "request",
      direction: "client-to-server",
      params: "RequestParams",
      results: ["DiscoverResult"],
      paramsMembers: { _meta: { optional: false, type: "RequestMetaObject" } },
    });
    // The draft's error codes -32020..-32022 are new; 2025-11-25's URL_ELICITATION_REQUIRED is gone.
    expect(diff.errorCodes.added).toEqual([
      { constant: "HEADER_MISMATCH", code: value(newer, "HEADER_MISMATCH") },
      { constant: "MISSING_REQUIRED_CLIENT_CAPABILITY", code: value(newer, "MISSING_REQUIRED_CLIENT_CAPABILITY") },
      { constant: "UNSUPPORTED_PROTOCOL_VERSION", code: value(newer, "UNSUPPORTED_PROTOCOL_VERSION") },
    ]);
    expect(diff.errorCodes.removed).toContainEqual({ constant: "URL_ELICITATION_REQUIRED", code: value(older, "URL_ELICITATION_REQUIRED") });
    // The draft's RequestMetaObject requires the protocol version (no `?`).
    expect(newer).toMatch(/"io\.modelcontextprotocol\/protocolVersion": /);
    expect(diff.metaKeys.added).toContainEqual({ key: "io.modelcontextprotocol/protocolVersion", required: true });
    // ResultType gains input_required; Tool loses execution (2025-11-25 has `execution?: ToolExecution`).
    expect(diff.resultTypes).toEqual({ added: ["input_required"], removed: [], changed: [] });
    expect(older).toContain("execution?: ToolExecution;");
    expect(newer).not.toContain("execution?: ToolExecution;");
    expect(diff.types.changed.find((t) => t.name === "Tool")!.changes).toContainEqual({ change: "property-removed", property: "execution" });
    expect(diff.types.removed).toContainEqual({ name: "InitializeRequest", kind: "interface" });
  });

  it("names what the draft deprecates: each declaration listed has @deprecated in the draft's doc comment and not in 2025-11-25's (helper-89: deprecations were not compared)", async () => {
    /** The doc comment right before `export interface|type|const NAME`, or "" (none), or undefined (no such declaration). */
    const docBefore = (text: string, name: string): string | undefined => {
      const at = new RegExp(`\\n(export )?(interface|type|const) ${name}\\b`).exec(text);
      if (!at) return undefined;
      const before = text.slice(0, at.index);
      const end = before.lastIndexOf("*/");
      return end < 0 || before.slice(end + 2).trim() !== "" ? "" : before.slice(before.lastIndexOf("/**", end), end);
    };
    const diff = JSON.parse((await cli("diff", "--spec", SPEC_DIR, "2025-11-25", "draft", "--json")).stdout) as typeof EXPECTED_JSON;
    const declarations = diff.deprecated.added.filter((name) => !name.includes("."));
    expect(declarations).toContain("LoggingLevel");
    expect(declarations).toContain("CreateMessageRequest");
    for (const name of declarations) {
      expect([name, docBefore(newer, name)?.includes("@deprecated")]).toEqual([name, true]);
      expect([name, docBefore(older, name)?.includes("@deprecated") ?? false]).toEqual([name, false]);
    }
    expect(diff.deprecated.added).toContain("ServerCapabilities.logging");
    expect(diff.deprecated.removed).toEqual([]);
    // JSONRPC_VERSION is the same in both.
    expect(value(older, "JSONRPC_VERSION")).toBe(value(newer, "JSONRPC_VERSION"));
    expect(diff.constants).toEqual({ added: [], removed: [], changed: [] });
  });

  it("a union whose members only changed order is no change: 2024-11-05 → 2025-03-26's ServerResult (helper-89)", async () => {
    /** The members of `export type NAME = | A | B …;` in a schema's text, as written. */
    const members = (version: string, name: string) => {
      const text = readFileSync(join(SPEC_DIR, "schema", version, "schema.ts"), "utf8");
      const body = new RegExp(`export type ${name} =([^;]*);`).exec(text)![1]!;
      return body.split("|").map((m) => m.trim()).filter(Boolean);
    };
    const [before, after] = [members("2024-11-05", "ServerResult"), members("2025-03-26", "ServerResult")];
    expect(after).not.toEqual(before);
    expect([...after].sort()).toEqual([...before].sort());
    const result = await cli("diff", "--spec", SPEC_DIR, "2024-11-05", "2025-03-26", "--json");
    const diff = JSON.parse(result.stdout) as typeof EXPECTED_JSON;
    expect(diff.types.changed.map((t) => t.name)).not.toContain("ServerResult");
    // A member added is still a change, named with the texts as written.
    const dir = scratchDir("diff-union-order");
    const [a, b, c] = [join(dir, "a.ts"), join(dir, "b.ts"), join(dir, "c.ts")];
    writeFileSync(a, 'export type U = "x" | { k: "p | q"; } | number[];\n');
    writeFileSync(b, 'export type U = number[] | "x" | { k: "p | q"; };\n');
    writeFileSync(c, 'export type U = number[] | "x" | { k: "p | q"; } | "y";\n');
    expect(await cli("diff", a, b)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    expect((await cli("diff", a, c)).stdout).toBe('types: 1 changed\n  ~ U\n      type: "x" | { k: "p | q"; } | number[] → number[] | "x" | { k: "p | q"; } | "y"\n');
    // Optional params written as a union in another order: no change either (helper-92).
    const request = (params: string) =>
      `export const LATEST_PROTOCOL_VERSION = "2026-07-28";\nexport interface A1 { a: string }\nexport interface B1 { b: string }\nexport interface MRequest {\n  method: "m/z";\n  params?: ${params};\n}\nexport type ClientRequest = MRequest;\n`;
    writeFileSync(a, request("A1 | B1"));
    writeFileSync(b, request("B1 | A1"));
    expect(await cli("diff", a, b)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    // Nor inside inline params (helper-92: "params {…} → {…} (the same members)").
    writeFileSync(a, request("{ x: A1 | B1; y?: (A1 | B1)[] }"));
    writeFileSync(b, request("{ x: B1 | A1; y?: (B1 | A1)[] }"));
    expect(await cli("diff", a, b)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    // An inline alternative of params that changed, its own union reordered too: compared member by member, as one alternative
    // (helper-92: it read as one alternative removed and another added).
    writeFileSync(a, request("{ x: string; y?: A1 | B1 } | B1"));
    writeFileSync(b, request("{ x: number; y?: B1 | A1 } | B1"));
    expect((await cli("diff", a, b)).stdout.split("\n").slice(0, 5)).toEqual([
      "methods: 1 changed",
      "  ~ m/z: params ({ x: string; y?: A1 | B1; } | B1)? → ({ x: number; y?: B1 | A1; } | B1)?",
      "      alternative B1: the same members",
      "      alternative { x: string; y?: A1 | B1; } → { x: number; y?: A1 | B1; }:",
      "        ~ x: string → number",
    ]);
  });

  it("every tag the validators check is compared wherever it is, and a union's order is no change at any depth (helper-91)", async () => {
    const dir = scratchDir("diff-hidden-tags");
    const [a, b] = [join(dir, "a.ts"), join(dir, "b.ts")];
    const schema = (n: number, x: string, order: [string, string]) =>
      [
        "export interface A1 { a: string }",
        "export interface B1 { b: string }",
        // TypeScript attaches a doc comment to the declaration on the lines below it.
        "export interface H1 {",
        `  o: {\n    x: ${x};\n    /** @maximum ${n} */\n    y: number;\n  };`,
        `  objs?: {\n    /** @maximum ${n} */\n    w: number;\n  }[];`,
        `  u?: {\n    /** @maximum ${n} */\n    w: number;\n  } | null;`,
        `  m: {\n    /** @maximum ${n} */\n    [key: string]: number;\n  };`,
        `  same: { x: ${order.join(" | ")} };`,
        `  list: (${order.join(" | ")})[];`,
        "}",
        "export interface H2 {",
        `  /** @minimum ${n} */`,
        "  [key: string]: number;",
        "}",
        `export type U1 = { a: ${order.join(" | ")} };`,
        "",
      ].join("\n");
    writeFileSync(a, schema(3, "string", ["A1", "B1"]));
    writeFileSync(b, schema(4, "number", ["B1", "A1"]));
    expect((await cli("diff", a, b)).stdout.split("\n")).toEqual([
      "types: 2 changed",
      "  ~ H1",
      "      ~ m: index signature: number /*@ @maximum 3 @*/ → number /*@ @maximum 4 @*/",
      "      ~ o.x: string → number",
      "      ~ o.y: @maximum 3 → 4",
      "      ~ objs: { w: number /*@ @maximum 3 @*/; }[] → { w: number /*@ @maximum 4 @*/; }[]",
      "      ~ u: null | { w: number /*@ @maximum 3 @*/; } → null | { w: number /*@ @maximum 4 @*/; }",
      "  ~ H2",
      "      index signature: number /*@ @minimum 3 @*/ → number /*@ @minimum 4 @*/",
      "",
    ]);
    // The same schema with its unions in another order, and nothing else: no change.
    writeFileSync(b, schema(3, "string", ["B1", "A1"]));
    expect(await cli("diff", a, b)).toEqual({ code: 0, stdout: "no protocol changes\n", stderr: "" });
    // A string literal holding the tags' mark is a literal: a member added beside it is still a change (helper-92: it was hidden).
    writeFileSync(a, 'export interface T {\n  /** @maximum 3 */\n  n: "a /*@" | number;\n}\n');
    writeFileSync(b, 'export interface T {\n  /** @maximum 4 */\n  n: "a /*@" | boolean | number;\n}\n');
    expect((await cli("diff", a, b)).stdout.split("\n")).toEqual([
      "types: 1 changed",
      "  ~ T",
      '      ~ n: "a /*@" | number /*@ @maximum 3 @*/ → "a /*@" | boolean | number /*@ @maximum 4 @*/',
      "      ~ n: @maximum 3 → 4",
      "",
    ]);
    // A union's own tag (lowering puts it on the union's members) that changes alone is named once (helper-96: also as a type change).
    writeFileSync(a, "export interface T {\n  /** @minimum 1 */\n  v: number | string;\n  /** @maxItems 2 */\n  q: string[] | null;\n}\n/** @format uri */\nexport type A = string | { b: number };\n");
    writeFileSync(b, "export interface T {\n  /** @minimum 2 */\n  v: number | string;\n  /** @maxItems 3 */\n  q: string[] | null;\n}\n/** @format email */\nexport type A = string | { b: number };\n");
    expect((await cli("diff", a, b)).stdout.split("\n")).toEqual([
      "types: 2 changed",
      "  ~ A",
      "      ~ @format uri → email",
      "  ~ T",
      "      ~ q: @maxItems 2 → 3",
      "      ~ v: @minimum 1 → 2",
      "",
    ]);
    // A tag added inside a union's member keeps the member where it was: both texts list the members in one order (helper-92).
    writeFileSync(a, "export interface T {\n  u: { a: number } | { a: number; b: string };\n}\n");
    writeFileSync(b, "export interface T {\n  u:\n    | {\n        /** @maximum 3 */\n        a: number;\n      }\n    | { a: number; b: string };\n}\n");
    expect((await cli("diff", a, b)).stdout.split("\n")).toEqual([
      "types: 1 changed",
      "  ~ T",
      "      ~ u: { a: number; b: string; } | { a: number; } → { a: number; b: string; } | { a: number /*@ @maximum 3 @*/; }",
      "",
    ]);
    // A property's or an alias's own tag and a tag inside its type changing at once: both are named (only the own one was).
    const both = (max: number, format: string, inner: string) =>
      [
        "export interface T {",
        `  /** @maxItems ${max} */`,
        `  tags: {\n    /** @format ${format} */\n    u: string;\n  }[];`,
        `  /** @maxItems ${max} */`,
        `  own: {\n    /** @format ${inner} */\n    u: string;\n  }[];`,
        "}",
        `/** @maxItems ${max} */`,
        `export type L = {\n  /** @format ${format} */\n  u: string;\n}[];`,
        "",
      ].join("\n");
    writeFileSync(a, both(3, "uri", "uri"));
    writeFileSync(b, both(4, "email", "uri"));
    expect((await cli("diff", a, b)).stdout.split("\n")).toEqual([
      "types: 2 changed",
      "  ~ L",
      "      ~ @maxItems 3 → 4",
      '      type: { u: string /*@ @format "uri" @*/; }[] /*@ @maxItems 3 @*/ → { u: string /*@ @format "email" @*/; }[] /*@ @maxItems 4 @*/',
      "  ~ T",
      "      ~ own: @maxItems 3 → 4",
      "      ~ tags: @maxItems 3 → 4",
      '      ~ tags: { u: string /*@ @format "uri" @*/; }[] /*@ @maxItems 3 @*/ → { u: string /*@ @format "email" @*/; }[] /*@ @maxItems 4 @*/',
      "",
    ]);
  });

  it("a snapshot without what this generator records since (constants, deprecations, checked texts, alias tags, @TJS-type): nothing of it is read as a change, on every upstream revision (helper-91)", async () => {
    const { schemaSnapshot, diffSnapshots, hasChanges } = await import("../generator/diff/index.js");
    /** `value` as a manifest written before those were recorded has it (`dropped`: also constants and deprecations, as before `a1fc8ec`). */
    let dropped: string[] = [];
    const older = (value: unknown, key = ""): unknown => {
      if (Array.isArray(value)) return value.map((v) => older(v));
      if (typeof value !== "object" || value === null) return value;
      const entries = Object.entries(value).flatMap(([k, v]): [string, unknown][] => {
        if ([...dropped, "checked", "indexChecked", "paramsChecked", "checkedTexts"].includes(k) || (key === "constraints" && k === "TJS-type")) return [];
        if ((k === "constraints" || k === "members") && (value as { kind?: string }).kind === "alias") return [];
        return [[k, older(v, k)]];
      });
      const kept = entries.filter(([k, v]) => !(k === "constraints" && typeof v === "object" && v !== null && Object.keys(v).length === 0));
      return Object.fromEntries(kept);
    };
    for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"]) {
      const snapshot = schemaSnapshot({ specDir: SPEC_DIR, version }).snapshot;
      // Before a1fc8ec (no constants, no deprecations), and between it and the checked texts (helper-92: constants alone were taken as the mark).
      for (const before of [["constants", "deprecated"], []]) {
        dropped = before;
        const old = older(snapshot) as typeof snapshot;
        expect(JSON.stringify(old)).not.toContain("TJS-type");
        expect([version, before, hasChanges(diffSnapshots(old, snapshot)), hasChanges(diffSnapshots(snapshot, old))]).toEqual([version, before, false, false]);
      }
    }
    // Written with checked texts but before snapshots said so (helper-93): a tag inside an array's element is still compared.
    const tagged = (n: number) => schemaSnapshot({ text: `export interface H {\n  objs?: {\n    /** @maximum ${n} */\n    w: number;\n  }[];\n}\n`, fileName: "s.ts" }).snapshot;
    const { checkedTexts: _flag, ...unflagged } = tagged(3);
    expect(diffSnapshots(unflagged, tagged(4)).types.changed).toEqual([
      { name: "H", changes: [{ change: "property-type", property: "objs", from: "{ w: number /*@ @maximum 3 @*/; }[]", to: "{ w: number /*@ @maximum 4 @*/; }[]" }] },
    ]);
  });

  it("a manifest written before constants and deprecations were recorded: those two sections are not compared", async () => {
    const { schemaSnapshot, diffSnapshots } = await import("../generator/diff/index.js");
    const [a, b] = [schemaSnapshot({ path: BEFORE }).snapshot, schemaSnapshot({ path: AFTER }).snapshot];
    const { constants: _c, deprecated: _d, ...old } = a;
    expect(diffSnapshots(a, b).constants.changed).toEqual([{ constant: "TOOL_PREFIX", from: "t_", to: "tool_" }]);
    expect(diffSnapshots(old, b).constants).toEqual({ added: [], removed: [], changed: [] });
    expect(diffSnapshots(old, b).deprecated).toEqual({ added: [], removed: [], changed: [] });
    expect(diffSnapshots(b, old).deprecated).toEqual({ added: [], removed: [], changed: [] });
  });
});

describe("generate --check explains drift in the protocol's terms", () => {
  it("a changed input: the protocol changes, then the file diffs", async () => {
    const out = join(scratchDir("check-input"), "out");
    expect((await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types")).code).toBe(0);
    const check = await cli("generate", "--schema", AFTER, "--out", out, "--targets", "types", "--check");
    expect(check.code).toBe(1);
    const lines = check.stdout.split("\n");
    const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 12);
    expect(lines.slice(0, EXPECTED_TEXT.length + 2)).toEqual([
      `the input changed since ${out} was generated: before.ts sha256 ${sha(BEFORE)}… → after.ts sha256 ${sha(AFTER)}…`,
      "protocol changes:",
      ...EXPECTED_TEXT.map((line) => `  ${line}`),
    ]);
    expect(lines[EXPECTED_TEXT.length + 2]).toBe(`changed: ${out}/types.ts`);
    expect(lines.at(-2)).toBe("1 file differs; run without --check to regenerate");
  });

  it("a field added: the places that changed, not the doc comments' moved source lines nor the files whose header alone changed (helper-75: one field was '… and 311 more places changed' and a header diff per file)", async () => {
    const dir = scratchDir("check-moved-lines");
    const out = join(dir, "out");
    const types = Array.from({ length: 30 }, (_, i) => `/** T${i}. */\nexport interface T${i} {\n  a${i}: string;\n}\n`);
    const before = join(dir, "before", "schema.ts");
    const after = join(dir, "after", "schema.ts");
    mkdirSync(dirname(before));
    mkdirSync(dirname(after));
    writeFileSync(before, types.join("\n"));
    writeFileSync(after, types.join("\n").replace("a0: string;", "a0: string;\n  added?: number;"));
    expect((await cli("generate", "--schema", before, "--out", out, "--targets", "types,validators,errors")).code).toBe(0);
    const check = await cli("generate", "--schema", after, "--out", out, "--targets", "types,validators,errors", "--check");
    expect(check.code).toBe(1);
    const lines = check.stdout.split("\n");
    const validators = lines.slice(lines.indexOf(`changed: ${out}/validators.ts`));
    // Each moved `schema.ts:N` of T1…T29 is counted, not shown; the added property's checks are shown.
    expect(validators.filter((l) => /^[-+] .*schema\.ts:\d/.test(l))).toEqual([]);
    expect(validators.filter((l) => l.startsWith("+ ") && l.includes('v["added"]')).length).toBeGreaterThan(0);
    expect(validators.find((l) => l.startsWith("… and"))).toMatch(/^… and \d\d places where only the source line a doc comment names changed$/);
    expect(lines).toContain(`changed in their header only (the input's sha256): ${out}/errors.ts`);
    expect(lines).not.toContain(`changed: ${out}/errors.ts`);
    // The runtime's header names no input: its files did not change.
    expect(lines.filter((l) => l.includes(`${out}/runtime/`))).toEqual([]);
    expect(lines.at(-2)).toBe("3 files differ; run without --check to regenerate");
    // With an option changed as well, that is said too: no header diff shows it any more (helper-76).
    const both = await cli("generate", "--schema", after, "--out", out, "--targets", "types,validators,errors", "--number-type", "number", "--check");
    expect(both.stdout.split("\n")).toContain("the options changed too: --number-type integer → number");
  });

  it("the draft with lines added above everything: every file's moved `schema.ts:LINE` doc comments are counted, none shown (helper-113: errors.ts and types.ts showed them)", async () => {
    const dir = scratchDir("check-moved-lines-draft");
    const out = join(dir, "out");
    const draft = readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), "utf8");
    const [before, after] = [join(dir, "before", "schema.ts"), join(dir, "after", "schema.ts")];
    mkdirSync(dirname(before));
    mkdirSync(dirname(after));
    writeFileSync(before, draft);
    writeFileSync(after, draft.replace("\n", "\n\n\n\n\n"));
    expect((await cli("generate", "--schema", before, "--out", out, "--docs", "tags")).code).toBe(0);
    const check = await cli("generate", "--schema", after, "--out", out, "--docs", "tags", "--check");
    expect(check.code).toBe(1);
    const lines = check.stdout.split("\n");
    expect(lines[1]).toBe("protocol changes: none");
    // Each changed file is followed by its count alone: no hunk.
    const changed = lines.filter((l) => l.startsWith("changed: "));
    expect(changed).toEqual(["types.ts", "validators.ts", "errors.ts"].map((f) => `changed: ${out}/${f}`));
    expect(lines.filter((l) => l.startsWith("@@ ") || /^[-+] /.test(l))).toEqual([]);
    for (const file of changed) expect(lines[lines.indexOf(file) + 1]).toMatch(/^… and \d+ places where only the source line a doc comment names changed$/);
    expect(lines).toContain(`changed in their header only (the input's sha256): ${["meta.ts", "methods.ts", "dispatch.ts", "index.ts"].map((f) => `${out}/${f}`).join(", ")}`);
  });

  it("only changed options: which ones, and the files, without every diff", async () => {
    const out = join(scratchDir("check-options"), "out");
    expect((await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types,validators")).code).toBe(0);
    const check = await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types,validators", "--docs", "none", "--number-type", "number", "--check");
    expect(check).toEqual({
      code: 1,
      stdout:
        `only the options changed since ${out} was generated: --docs full → none, --number-type integer → number\n` +
        `changed: ${out}/types.ts\nchanged: ${out}/validators.ts\n2 files differ; run without --check to regenerate\n`,
      stderr: "",
    });
  });

  it("an output whose manifest is damaged: says it cannot be read and why (exit 1, drift), and never reads a field it lacks", async () => {
    const out = join(scratchDir("check-bad-manifest"), "out");
    expect((await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types")).code).toBe(0);
    const path = join(out, "codegen-manifest.json");
    const manifest = JSON.parse(readFileSync(path, "utf8")) as { protocol: Record<string, unknown> };
    const damaged: [string, string][] = [
      [JSON.stringify({ ...manifest, protocol: { ...manifest.protocol, capabilities: undefined } }), "manifest.protocol.capabilities is not an object"],
      [JSON.stringify({ ...manifest, protocol: { ...manifest.protocol, resultTypes: "x" } }), "manifest.protocol.resultTypes is not a list"],
      ["[1]", "manifest is not an object"],
      ["", "Unexpected end of JSON input"],
    ];
    for (const [text, reason] of damaged) {
      writeFileSync(path, text);
      const check = await cli("generate", "--schema", AFTER, "--out", out, "--targets", "types", "--check");
      expect(check.code).toBe(1);
      expect(check.stderr).not.toMatch(/error/);
      expect(check.stdout.split("\n")[1]).toBe(
        `(${out}/codegen-manifest.json cannot be read (${reason}), so the protocol changes cannot be listed; it is rewritten by the next run without --check)`,
      );
      // The same input: only the manifest differs, and the first line says why.
      const same = await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types", "--check");
      expect(same.code).toBe(1);
      expect(same.stdout.split("\n").slice(0, 2)).toEqual([
        `${out}/codegen-manifest.json cannot be read (${reason}); it is rewritten by the next run without --check`,
        `changed: ${out}/codegen-manifest.json`,
      ]);
    }
    // The run that mends it says it rewrote the manifest, which the counts leave out (helper-106: "0 written").
    expect((await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types")).stdout).toBe(`${out}: 0 written, 1 unchanged; codegen-manifest.json rewritten\n`);
    rmSync(path);
    expect((await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types")).stdout).toBe(`${out}: 0 written, 1 unchanged; codegen-manifest.json rewritten\n`);
    expect((await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types")).stdout).toBe(`${out}: 0 written, 1 unchanged\n`);
  });

  it("an output without a manifest (written before manifests): the input change from the headers", async () => {
    const out = join(scratchDir("check-no-manifest"), "out");
    expect((await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types")).code).toBe(0);
    rmSync(join(out, "codegen-manifest.json"));
    const options = await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types", "--docs", "tags", "--check");
    expect(options.stdout.split("\n").slice(0, 2)).toEqual([`only the options changed since ${out} was generated: --docs full → tags`, `changed: ${out}/types.ts`]);
    const input = await cli("generate", "--schema", AFTER, "--out", out, "--targets", "types", "--check");
    expect(input.code).toBe(1);
    expect(input.stdout.split("\n").slice(0, 3)).toEqual([
      `the input changed since ${out} was generated: after.ts sha256 ${createHash("sha256").update(readFileSync(BEFORE)).digest("hex").slice(0, 12)}… → ${createHash("sha256").update(readFileSync(AFTER)).digest("hex").slice(0, 12)}…`,
      `(${out} has no codegen-manifest.json, so the protocol changes cannot be listed; it is written by the next run without --check)`,
      `changed: ${out}/types.ts`,
    ]);
  });
});

/** Copies the corpus's schemas of `versions` into `<dir>/spec/schema/<version>/schema.ts`: a spec folder a test may edit. */
function copySpec(dir: string, versions: readonly string[]): void {
  for (const version of versions) {
    mkdirSync(join(dir, "spec", "schema", version), { recursive: true });
    writeFileSync(join(dir, "spec", "schema", version, "schema.ts"), readFileSync(join(SPEC_DIR, "schema", version, "schema.ts")));
  }
}

describe("a write whose input changed lists the protocol changes (helper-100: only --check said what a spec update changed)", () => {
  it("one schema: the input change, then the sections of `diff` counted", async () => {
    const out = join(scratchDir("write-input-changed"), "out");
    expect((await cli("generate", "--schema", BEFORE, "--out", out, "--targets", "types")).code).toBe(0);
    const write = await cli("generate", "--schema", AFTER, "--out", out, "--targets", "types");
    expect(write.code).toBe(0);
    const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 12);
    // Each change, as `diff` on the same pair and --check list them (helper-137: only counts, and once written, --check
    // is clean and the earlier input gone).
    expect(write.stdout.split("\n")).toEqual([
      `${out}: 1 written, 0 unchanged`,
      `the protocol revisions changed since ${out} was generated: 2026-07-28 → 2026-09-01 (2026-07-28 is no longer in the output)`,
      `the input of ${out} changed since it was generated: before.ts sha256 ${sha(BEFORE)}… → after.ts sha256 ${sha(AFTER)}…`,
      "protocol changes:",
      ...EXPECTED_TEXT.filter((line) => line !== "").map((line) => `  ${line}`),
      "",
    ]);
    // Written: the same again says nothing of it.
    expect((await cli("generate", "--schema", AFTER, "--out", out, "--targets", "types")).stdout).toBe(`${out}: 0 written, 1 unchanged\n`);
  });

  it("several revisions: each folder whose input changed, and none other", async () => {
    const dir = scratchDir("write-input-changed-multi");
    copySpec(dir, ["draft", "2025-11-25"]);
    const out = join(dir, "out");
    const args = ["generate", "--spec", join(dir, "spec"), "--spec-version", "draft,2025-11-25", "--out", out, "--targets", "types,validators"];
    expect((await cli(...args)).code).toBe(0);
    const draft = join(dir, "spec", "schema", "draft", "schema.ts");
    const was = createHash("sha256").update(readFileSync(draft)).digest("hex").slice(0, 12);
    writeFileSync(draft, `${readFileSync(draft, "utf8")}\n/** An update that changes no declaration. */\n`);
    const now = createHash("sha256").update(readFileSync(draft)).digest("hex").slice(0, 12);
    const write = await cli(...args);
    expect(write.code).toBe(0);
    const said = write.stdout.split("\n").slice(1);
    expect(said).toEqual([
      `the input of ${out}/2026-07-28 changed since it was generated: schema.ts sha256 ${was}… → ${now}…`,
      "protocol changes: none",
      "",
    ]);
  });

  it("several revisions, the draft's protocol version moved on: --check and the write list the handler revision's changes against the one before (helper-153: only 'a new revision' and 'no longer generated', while the handlers' types changed)", async () => {
    const dir = scratchDir("write-handler-revision-moved");
    copySpec(dir, ["draft", "2025-11-25"]);
    const out = join(dir, "out");
    const args = ["generate", "--spec", join(dir, "spec"), "--spec-version", "draft,2025-11-25", "--out", out, "--targets", "types"];
    expect((await cli(...args)).code).toBe(0);
    const draft = join(dir, "spec", "schema", "draft", "schema.ts");
    const sha = () => createHash("sha256").update(readFileSync(draft)).digest("hex").slice(0, 12);
    const was = sha();
    const source = readFileSync(draft, "utf8");
    const tool = "export interface Tool extends BaseMetadata, Icons {\n";
    expect(source).toContain('export const LATEST_PROTOCOL_VERSION = "2026-07-28";');
    expect(source).toContain(tool);
    writeFileSync(draft, source.replace('LATEST_PROTOCOL_VERSION = "2026-07-28"', 'LATEST_PROTOCOL_VERSION = "2026-12-01"').replace(tool, `${tool}  version: string;\n`));
    const now = sha();
    const moved = [
      `the handler revision moved from ${out}/2026-07-28 to ${out}/2026-12-01: schema.ts sha256 ${was}… → ${now}…`,
      "protocol changes:",
      "  protocol version: 1 changed",
      "    ~ 2026-07-28 → 2026-12-01",
      "  types: 1 changed",
      "    ~ Tool",
      "        + version: string",
    ];
    const check = await cli(...args, "--check");
    expect(check.code).toBe(1);
    expect(check.stdout.split("\n").slice(0, 9)).toEqual([`${out}/2026-12-01 is a new revision (schema.ts)`, `${out}/2026-07-28 (schema.ts) is no longer generated`, ...moved]);
    const write = await cli(...args);
    expect(write.code).toBe(0);
    expect(write.stdout.split("\n").slice(1)).toEqual([
      `the protocol revisions changed since ${out} was generated: 2026-07-28, 2025-11-25 → 2026-12-01, 2025-11-25 (2026-07-28 is no longer in the output)`,
      ...moved,
      `removed (this run does not produce them): ${out}/2026-07-28/types.ts`,
      "",
    ]);
  });
});
