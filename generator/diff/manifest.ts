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

/** The manifest in `outDir`, or `undefined` when there is none or it cannot be read. */
export function readManifest(outDir: string): Manifest | undefined {
  const path = join(outDir, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const data = JSON.parse(readFileSync(path, "utf8")) as Partial<Manifest>;
    return data.manifestVersion === 1 && data.input && data.options && data.protocol ? (data as Manifest) : undefined;
  } catch {
    return undefined;
  }
}
