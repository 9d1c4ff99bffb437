/**
 * The output manifest: a small JSON file that `generate` writes beside the generated files
 * (`codegen-manifest.json`), naming the input (file name and sha256), the options and the
 * input's {@link ProtocolSnapshot}. `generate --check` reads the one on disk to explain
 * drift: a changed input is summarised in the protocol's terms ({@link diffSnapshots}),
 * changed options are named.
 *
 * Shape: `{ "manifestVersion": 1, "generator": "0.1.0", "input": { "file": "schema.ts",
 * "sha256": "…" }, "options": { "--docs": "tags", … }, "protocol": ProtocolSnapshot }`. An
 * output of several revisions has one manifest for all its files: `input` and `protocol` are
 * the handler revision's, and `revisions` lists every revision (`folder`, `input`, `protocol`),
 * the handler revision first.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyze } from "../analyze/index.js";
import type { GenerateResult, GeneratedFile } from "../index.js";
import { protocolSnapshot, type ProtocolSnapshot } from "./snapshot.js";

export const MANIFEST_FILE = "codegen-manifest.json";

export interface Manifest {
  readonly manifestVersion: 1;
  readonly generator: string;
  readonly input: { readonly file: string; readonly sha256: string };
  /** Flag → value, in the options table's order (`--docs` → `tags`). */
  readonly options: Readonly<Record<string, string>>;
  readonly protocol: ProtocolSnapshot;
  /** An output of several revisions: each one, the handler revision first. */
  readonly revisions?: readonly ManifestRevision[];
}

/** One revision of a multi-revision output, in its manifest. */
export interface ManifestRevision {
  readonly folder: string;
  readonly input: { readonly file: string; readonly sha256: string };
  readonly protocol: ProtocolSnapshot;
}

/** `--docs tags --number-type integer …` → `{ "--docs": "tags", … }`. */
export function parseOptionsLine(line: string): Record<string, string> {
  const words = line.trim().split(/\s+/).filter(Boolean);
  const options: Record<string, string> = {};
  for (let i = 0; i + 1 < words.length; i += 2) options[words[i]!] = words[i + 1]!;
  return options;
}

/** The options a generated file's header names (its `// Options: …` line), or `undefined`. */
export function headerOptions(contents: string): Record<string, string> | undefined {
  const line = /^\/\/ Options: (.*)$/m.exec(contents.split("\n").slice(0, 3).join("\n"))?.[1];
  return line === undefined ? undefined : parseOptionsLine(line);
}

/** The manifest of one generation, as a file to write with the others. */
export function manifestFile(result: GenerateResult, generatorVersion: string): GeneratedFile {
  const manifest: Manifest = {
    manifestVersion: 1,
    generator: generatorVersion,
    input: { file: result.ir.source, sha256: result.ir.sha256 },
    options: headerOptions(result.files[0]?.contents ?? "") ?? {},
    protocol: protocolSnapshot(analyze(result.ir), result.protocol),
    ...(result.revisions !== undefined
      ? {
          revisions: result.revisions.map((r) => ({
            folder: r.folder,
            input: { file: r.ir.source, sha256: r.ir.sha256 },
            protocol: protocolSnapshot(analyze(r.ir), r.protocol),
          })),
        }
      : {}),
  };
  return { path: MANIFEST_FILE, contents: stringify(manifest) };
}

/** JSON with one line per entry of each protocol section (small, and diffs line by line). */
function stringify(manifest: Manifest): string {
  const { protocol, revisions, ...head } = manifest;
  const lines = Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const body = `{\n${lines.join(",\n")},\n  "protocol": ${snapshotText(protocol, "  ")}`;
  if (revisions === undefined) return `${body}\n}\n`;
  const listed = revisions.map(
    (r) =>
      `    {\n      "folder": ${JSON.stringify(r.folder)},\n      "input": ${JSON.stringify(r.input)},\n      "protocol": ${snapshotText(r.protocol, "      ")}\n    }`,
  );
  return `${body},\n  "revisions": [\n${listed.join(",\n")}\n  ]\n}\n`;
}

/** A protocol snapshot as JSON, one line per entry of each section, indented by `indent`. */
function snapshotText(protocol: ProtocolSnapshot, indent: string): string {
  const sections = Object.entries(protocol).map(([k, v]) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return `${indent}  ${JSON.stringify(k)}: ${JSON.stringify(v)}`;
    const entries = Object.entries(v as Record<string, unknown>).map(([name, value]) => `${indent}    ${JSON.stringify(name)}: ${JSON.stringify(value)}`);
    return entries.length === 0 ? `${indent}  ${JSON.stringify(k)}: {}` : `${indent}  ${JSON.stringify(k)}: {\n${entries.join(",\n")}\n${indent}  }`;
  });
  return `{\n${sections.join(",\n")}\n${indent}}`;
}

/** What {@link readManifest} found: no manifest, one it cannot use (and why), or the manifest. */
export type ManifestOnDisk =
  | { readonly state: "absent" }
  | { readonly state: "unreadable"; readonly reason: string }
  | { readonly state: "read"; readonly manifest: Manifest };

/**
 * The manifest in `outDir`. One that is not JSON, or whose shape is not {@link Manifest}'s down to
 * every protocol entry (a hand-edited or truncated file), is `unreadable` with the first
 * problem found, so that nothing reads a field it lacks.
 */
export function readManifest(outDir: string): ManifestOnDisk {
  const path = join(outDir, MANIFEST_FILE);
  if (!existsSync(path)) return { state: "absent" };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { state: "unreadable", reason: (error as Error).message };
  }
  const problem = manifestProblem(data);
  return problem === undefined ? { state: "read", manifest: data as Manifest } : { state: "unreadable", reason: problem };
}

type Check = (value: unknown, where: string) => string | undefined;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const string: Check = (v, where) => (typeof v === "string" ? undefined : `${where} is not a string`);
const boolean: Check = (v, where) => (typeof v === "boolean" ? undefined : `${where} is not true or false`);
const number: Check = (v, where) => (typeof v === "number" ? undefined : `${where} is not a number`);
const optional = (check: Check): Check => (v, where) => (v === undefined ? undefined : check(v, where));
const list = (check: Check): Check => (v, where) => (Array.isArray(v) ? first(v.map((e, i) => () => check(e, `${where}[${i}]`))) : `${where} is not a list`);
const record = (check: Check): Check => (v, where) => (isRecord(v) ? first(Object.entries(v).map(([k, e]) => () => check(e, `${where}.${k}`))) : `${where} is not an object`);
const fields =
  (shape: Readonly<Record<string, Check>>): Check =>
  (v, where) =>
    isRecord(v) ? first(Object.entries(shape).map(([k, check]) => () => check(v[k], `${where}.${k}`))) : `${where} is not an object`;

/** The first problem the checks find, running them in order until one does. */
function first(checks: readonly (() => string | undefined)[]): string | undefined {
  for (const check of checks) {
    const problem = check();
    if (problem !== undefined) return problem;
  }
  return undefined;
}

const input = fields({ file: string, sha256: string });
const stringOrNumber: Check = (v, where) => (typeof v === "string" ? undefined : number(v, where));
const property: Check = fields({
  optional: boolean,
  type: string,
  checked: optional(string),
  constraints: optional(record(stringOrNumber)),
  members: optional(record((v, where) => property(v, where))),
});
const protocol = fields({
  protocolVersion: optional(string),
  methods: record(fields({ kind: string, direction: string, params: string, paramsChecked: optional(string), results: list(string), paramsMembers: optional(record(property)) })),
  types: record(
    fields({
      kind: (v, where) => (v === "interface" || v === "alias" ? undefined : `${where} is not "interface" or "alias"`),
      extends: optional(list(string)),
      properties: optional(record(property)),
      inherited: optional(record((v, where) => property(v, where) ?? fields({ from: string })(v, where))),
      indexSignature: optional(string),
      indexChecked: optional(string),
      type: optional(string),
      checked: optional(string),
      constraints: optional(record(stringOrNumber)),
      members: optional(record(property)),
    }),
  ),
  errorCodes: record(number),
  metaKeys: record(fields({ required: boolean })),
  capabilities: record(string),
  resultTypes: list(string),
  constants: optional(record(stringOrNumber)),
  deprecated: optional(list(string)),
  checkedTexts: optional((v, where) => (v === true ? undefined : `${where} is not true`)),
});
const manifest = fields({
  manifestVersion: (v, where) => (v === 1 ? undefined : `${where} is ${JSON.stringify(v)}, not 1`),
  generator: string,
  input,
  options: record(string),
  protocol,
  revisions: optional(list(fields({ folder: string, input, protocol }))),
});

/** The first way `data` is not a {@link Manifest}, as `manifest.protocol.methods.ping.results is not a list`. */
function manifestProblem(data: unknown): string | undefined {
  return manifest(data, "manifest");
}
