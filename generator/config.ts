/**
 * The configuration file, `mcp-schema-codegen.config.json`: one or more outputs, each an
 * input, an output folder and options, so that `mcp-schema-codegen generate` (and
 * `generate --check` in CI) needs no flags. Found as other tools find theirs: in the current
 * folder or the nearest one above it; `--config <file>` names one instead.
 *
 * ```json
 * {
 *   "outputs": [
 *     {
 *       "input": { "spec": "${MCP_SPEC_DIR:-../spec}", "version": "draft" },
 *       "out": "src/generated",
 *       "options": { "docs": "tags", "importExtension": "js" }
 *     }
 *   ]
 * }
 * ```
 *
 * - `input`: `{ "schema": "<file>" }`, `{ "spec": "<dir>", "version": "<name>" }`, or
 *   `{ "version": "<name>" }` alone (optionally with `"lock": "<file>"`, default
 *   `mcp-spec.lock.json` beside this file): a version of the spec revision the lock pins, read
 *   from the cache and fetched when missing (see `spec fetch`); or a non-empty list of them: one
 *   output serving several protocol revisions (a folder per revision, one dispatcher; see
 *   `generate`).
 * - `out`: the output folder.
 * - `options` (optional): the options table's keys (`docs`, `numberType`, `targets` as an
 *   array, `enumStyle`, `protocolRules`, `importExtension`).
 * - `$schema` (optional, top level) is allowed and ignored.
 *
 * Paths are relative to the file's folder. In `input.schema`, `input.spec`, `input.lock` and `out`,
 * `${NAME}` is the environment variable's value and `${NAME:-default}` its value or, when
 * unset or empty, `default` (as in a POSIX shell: the value is used as it is, never expanded
 * again). Every problem (a key the file may not
 * hold, a wrong type, a value outside an option's choices, an unset variable) is reported
 * at once with `file:line:col`, code MCG020.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { closestMatch } from "leven";
import { ts } from "./ts-morph.js";
import { DiagnosticBag, GeneratorError } from "./errors.js";
import { jsonSyntaxProblem, withoutByteOrderMark } from "./json-text.js";
import type { Diagnostic, SourceSpan } from "./ir.js";
import type { SchemaInput } from "./load/index.js";
import { OPTION_SPECS, type GeneratorOptions } from "./options.js";
import { isVersionName, LOCK_FILE_NAME, lockedSpecDir, type Environment } from "./spec/index.js";
import { isInside, writeTarget } from "./write.js";

/** The file name looked for. */
export const CONFIG_FILE_NAME = "mcp-schema-codegen.config.json";

/**
 * A version of the spec revision a lock file pins (`{ "version": "draft" }` in the file): a
 * {@link SchemaInput} once the revision is in the cache (`lockedSpecDir(version, { lockFile })`
 * of `spec/index.ts` fetches it when missing).
 */
export interface LockedInput {
  readonly version: string;
  /** The lock file, absolute. */
  readonly lockFile: string;
  /** Where the configuration file names it: errors reading the revision are located there. */
  readonly span?: SourceSpan;
}

/**
 * A schema file or a spec folder's version as the configuration file names it: `place` says
 * where (its span, the key as the file writes it, and the value before its variables were
 * expanded), so that an input that is not there is reported at that place.
 */
export type PlacedInput = SchemaInput & {
  readonly place?: { readonly span: SourceSpan; readonly key: string; readonly written: string; readonly version?: { readonly span: SourceSpan; readonly key: string } };
};

/** An input of the configuration file: a schema, a spec folder's version, or a locked version. */
export type ConfigInput = PlacedInput | LockedInput;

/** Whether `input` names a version of a locked revision (resolved when its output runs). */
export function isLockedInput(input: ConfigInput): input is LockedInput {
  return "lockFile" in input;
}

/** What else a configuration input can name when the locked revision cannot be read. */
const CONFIG_ALTERNATIVES = 'name a local clone ({ "spec": "<clone>", "version": "<v>" }) or one file ({ "schema": "<file>" }) in this input instead';

/**
 * The schemas an output reads: its inputs, each locked version replaced by the spec folder of
 * the revision its lock pins (from the cache; fetched when missing, unless `offline`).
 * `onProgress` hears each step, per version (several versions of one lock each say where their
 * revision was found; the CLI says each line once).
 *
 * @throws GeneratorError what `lockedSpecDir` throws: MCG504 (no lock file), MCG505 (`offline`
 *   and not cached), MCG506 (a version the revision lacks), MCG501–503 (the download)
 */
export async function configInputs(
  input: ConfigInput | readonly ConfigInput[],
  options: { readonly offline?: boolean; readonly onProgress?: (line: string) => void } = {},
): Promise<SchemaInput[]> {
  const inputs: readonly ConfigInput[] = Array.isArray(input) ? input : [input as ConfigInput];
  const resolved: SchemaInput[] = [];

  // Every input that is not there is said, not only the first, before any locked revision is fetched.
  const absent = new DiagnosticBag();
  addAbsences(absent, inputs);
  absent.throwIfAny();
  for (const one of inputs) {
    if (!isLockedInput(one)) {
      const { place: _place, ...input } = one;
      resolved.push(input as SchemaInput);
      continue;
    }
    let specDir: string;
    try {
      specDir = await lockedSpecDir(one.version, { lockFile: one.lockFile, alternatives: CONFIG_ALTERNATIVES, ...options });
    } catch (error) {
      // Located at the input that named the version, so the message points into the configuration file.
      if (!(error instanceof GeneratorError) || one.span === undefined) throw error;
      throw new GeneratorError(error.diagnostics.map((d) => (d.span ? d : { ...d, span: one.span! })), error.warnings);
    }
    resolved.push({ specDir, version: one.version });
  }
  return resolved;
}

/** Where the configuration file names `input`: a spec folder's version at its `version`, else the input's own span. */
function spanOf(input: ConfigInput): SourceSpan | undefined {
  return isLockedInput(input) ? input.span : (input.place?.version?.span ?? input.place?.span);
}

/**
 * `error` with each finding about one of `input`'s schemas that has no place of its own (one output cannot serve them
 * together: MCG320) located at the input that names it, and the other input it involves named on the line below.
 */
export function locatedAtInputs(error: GeneratorError, input: ConfigInput | readonly ConfigInput[]): GeneratorError {
  const inputs: readonly ConfigInput[] = Array.isArray(input) ? input : [input as ConfigInput];
  const located = error.diagnostics.map((d): Diagnostic => {
    const at = d.input === undefined || d.span !== undefined ? undefined : inputs[d.input.index];
    const span = at === undefined ? undefined : spanOf(at);
    if (span === undefined) return d;
    const other = d.input!.other === undefined ? undefined : inputs[d.input!.other];
    const otherSpan = other === undefined ? undefined : spanOf(other);
    return { ...d, span, ...(otherSpan !== undefined ? { related: [...(d.related ?? []), { message: "the other input", span: otherSpan }] } : {}) };
  });
  return new GeneratorError(located, error.warnings);
}

/**
 * The schema file an input reads, as one key: the file itself (its device and inode, through symbolic links, so a hard
 * link is the file too; helper-88) when it is there, else its absolute path; a text input's name.
 */
function schemaFileOf(input: SchemaInput): string {
  const file = "path" in input ? input.path : "specDir" in input ? join(input.specDir, "schema", input.version, "schema.ts") : input.fileName;
  const stat = statSync(file, { throwIfNoEntry: false, bigint: true });
  return stat === undefined ? resolve(file) : `file ${stat.dev}:${stat.ino}`;
}

/** Adds to `bag` an MCG020, at its place, for each of `inputs` whose schema is not there ({@link absence}). */
function addAbsences(bag: DiagnosticBag, inputs: readonly ConfigInput[]): void {
  for (const one of inputs) {
    const problem = !isLockedInput(one) && one.place !== undefined ? absence(one, one.place) : undefined;
    if (problem !== undefined) bag.add(CODE, problem.message, problem.span);
  }
}

/**
 * What is wrong (MCG020, at the configuration's input) when the schema it names is not there: a missing file, or a
 * spec folder without that version (the versions it has listed), saying what its variables became; else `undefined`.
 */
function absence(input: SchemaInput, place: NonNullable<PlacedInput["place"]>): { readonly message: string; readonly span: SourceSpan } | undefined {
  const expanded = (path: string) => (place.written.includes("${") ? `${JSON.stringify(place.written)} (${path} once its variables are expanded)` : path);
  if ("path" in input) {
    const kind = entryKind(input.path);
    if (kind === "none") return { message: `${place.key}: the schema file ${expanded(input.path)} does not exist`, span: place.span };
    if (kind === "folder") return { message: `${place.key}: ${expanded(input.path)} is a folder, not a schema file (a spec repository is { "spec": "<dir>", "version": "<v>" })`, span: place.span };
  }
  if ("specDir" in input && entryKind(join(input.specDir, "schema", input.version, "schema.ts")) === "none") {
    const kind = entryKind(input.specDir);
    // A folder with no schema/ folder is said so once (versionsIn would say it again, in parentheses; helper-82).
    const folderProblem = kind === "folder" ? specFolderProblem(input.specDir) : undefined;
    if (kind === "folder" && folderProblem === undefined) {
      // A spec folder that is there, without that version: the version is what is wrong, and is where it is said (helper-106).
      const at = place.version ?? place;
      return { message: `${at.key}: the spec folder ${expanded(input.specDir)} has no schema/${input.version}/schema.ts${versionsIn(input.specDir)}`, span: at.span };
    }
    const where = kind === "folder" ? folderProblem! : kind === "none" ? "does not exist" : "is not a folder";
    return { message: `${place.key}: the spec folder ${expanded(input.specDir)} ${where}`, span: place.span };
  }
  return undefined;
}

/**
 * What is at `path`, following links: nothing (or a path through a file), a folder, or something else; one that cannot
 * be looked at (a permission) is "other", for the loader to explain (MCG101).
 */
function entryKind(path: string): "none" | "folder" | "other" {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat === undefined ? (lstatSync(path, { throwIfNoEntry: false }) === undefined ? "none" : "other") : stat.isDirectory() ? "folder" : "other";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOTDIR" ? "none" : "other";
  }
}

/** "; versions there: draft, 2025-11-25, …" for a spec folder, or "" when it has none. */
export function versionsIn(specDir: string): string {
  const problem = specFolderProblem(specDir);
  if (problem !== undefined) return ` (${specDir} ${problem})`;
  try {
    const versions = readdirSync(join(specDir, "schema")).filter((v) => existsSync(join(specDir, "schema", v, "schema.ts"))).sort();
    return versions.length > 0 ? `; versions there: ${versions.join(", ")}` : "";
  } catch {
    return ` (${join(specDir, "schema")} cannot be read)`;
  }
}

/**
 * What keeps `specDir` from being a spec repository's folder, as the end of a sentence about it
 * (`does not exist`; `has no schema/ folder …`), or `undefined` when it has a `schema/` folder. A
 * folder that holds version folders itself is the `schema/` folder: its parent is named.
 */
export function specFolderProblem(specDir: string): string | undefined {
  if (entryKind(join(specDir, "schema")) === "folder") return undefined;
  const kind = entryKind(specDir);
  if (kind !== "folder") return kind === "none" ? "does not exist" : "is not a folder";
  let versions: string[] = [];
  try {
    versions = readdirSync(specDir).filter((v) => /^(\d{4}-\d{2}-\d{2}|draft)$/.test(v) && existsSync(join(specDir, v, "schema.ts")));
  } catch {
    return "cannot be read";
  }
  return versions.length > 0
    ? `has no schema/ folder: it is one itself (it holds ${versions.sort().join(", ")}); give the repository's folder, ${dirname(resolve(specDir))}`
    : "has no schema/ folder (a clone of the spec repository has schema/<version>/schema.ts)";
}

/** One output of the configuration: where from, where to, with which options. */
export interface ConfigOutput {
  /** One input, or several (one per protocol revision the output serves). */
  readonly input: ConfigInput | readonly ConfigInput[];
  /** The output folder, absolute. */
  readonly out: string;
  readonly options: Partial<GeneratorOptions>;
}

/** A configuration file, read and checked. */
export interface Config {
  /** The file's path, absolute. */
  readonly file: string;
  readonly outputs: readonly ConfigOutput[];
}

/** ` (did you mean "out"?)` for the allowed key a misspelt one is closest to (a third of its letters or fewer changed), else nothing. */
function didYouMean(key: string, allowed: readonly string[]): string {
  const closest = closestMatch(key, allowed, { maxDistance: Math.max(1, Math.floor(key.length / 3)) });
  return closest === undefined ? "" : ` (did you mean ${JSON.stringify(closest)}?)`;
}

/** The nearest configuration file: in `startDir` or the closest folder above it, or `undefined`. */
export function findConfigFile(startDir: string): string | undefined {
  for (let dir = resolve(startDir); ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

const CODE = "MCG020";

/** `${NAME}` or `${NAME:-default}` in a path: the name, and the default when one is written. */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Reads and checks a configuration file; throws {@link GeneratorError} (MCG020, located) listing every problem. */
export function loadConfig(file: string, env: Environment = process.env): Config {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new GeneratorError([{ code: CODE, message: `configuration file ${file} cannot be read (${reason})` }]);
  }
  const display = relative(process.cwd(), path) || path;
  text = withoutByteOrderMark(text);
  const source = ts.parseJsonText(display, text);
  const span = (node: ts.Node | number): SourceSpan => {
    const at = typeof node === "number" ? node : node.getStart(source);
    const { line, character } = source.getLineAndCharacterOfPosition(at);
    return { file: display, line: line + 1, column: character + 1 };
  };
  const problem = jsonSyntaxProblem(text, display, source);
  if (problem !== undefined) throw new GeneratorError([{ code: CODE, message: `not valid JSON: ${problem.why}`, span: problem.span }]);
  const bag = new DiagnosticBag();
  const reader = new ConfigReader(bag, span, (node) => node.getText(source), dirname(path), env);
  const outputs = reader.config(source.statements[0]?.expression);
  // When the file has problems, the inputs that are not there are said with them, every one at once, those of a refused
  // output or list too (helper-80: an unset variable hid them). Otherwise configInputs says them, per output, as the
  // generation reaches it.
  if (bag.items.length > 0) addAbsences(bag, reader.inputsRead);
  bag.throwIfAny();
  return { file: path, outputs };
}

type Node = ts.Expression | undefined;

/** Walks the parsed file, collecting every problem with its location. */
class ConfigReader {
  constructor(
    private readonly bag: DiagnosticBag,
    private readonly span: (node: ts.Node) => SourceSpan,
    private readonly textOf: (node: ts.Node) => string,
    private readonly baseDir: string,
    private readonly env: Environment,
  ) {}

  /** Every input read whole, each schema once, whether or not its output or its list is refused for something else. */
  readonly inputsRead: ConfigInput[] = [];

  config(node: Node): ConfigOutput[] {
    const top = this.object(node, "the configuration", ["$schema", "outputs"], ["outputs"]);
    if (!top) return [];
    const schemaRef = top.get("$schema");
    if (schemaRef) this.string(schemaRef, "$schema");
    const list = top.get("outputs");
    if (!list) return [];
    if (!ts.isArrayLiteralExpression(list) || list.elements.length === 0) {
      this.bag.add(CODE, "outputs must be a non-empty array of { input, out, options }", this.span(list));
      return [];
    }
    const outputs: ConfigOutput[] = [];
    const seen: { readonly out: string; readonly index: number }[] = [];
    list.elements.forEach((element, i) => {
      const { out: written, output } = this.output(element, `outputs[${i}]`);
      if (output) outputs.push(output);
      // Checked whatever else is wrong with the output, so every problem is said in one run.
      if (written === undefined) return;
      // An output is written by swapping its whole folder (see write.ts): one inside another would be swapped with it,
      // and its files taken for the other's stale ones.
      // Compared where they really are: a symbolic link to another output's folder is that folder.
      const out = writeTarget(written);
      const other = seen.find((s) => s.out === out || isInside(out, s.out) || isInside(s.out, out));
      if (other) {
        const how = other.out === out ? "the same folder as" : isInside(out, other.out) ? "a folder inside that of" : "a folder holding that of";
        this.bag.add(CODE, `outputs[${i}].out is ${how} outputs[${other.index}]; give each output a folder of its own, outside the others`, this.span(element));
      }
      seen.push({ out, index: i });
    });
    return outputs;
  }

  /** One output: its folder when `out` is a valid path, and the whole output when nothing in it is wrong. */
  private output(node: ts.Expression, where: string): { out?: string; output?: ConfigOutput } {
    const fields = this.object(node, where, ["input", "out", "options"], ["input", "out"]);
    if (!fields) return {};
    const input = fields.get("input") ? this.inputs(fields.get("input")!, `${where}.input`) : undefined;
    const outNode = fields.get("out");
    const out = outNode ? this.path(outNode, `${where}.out`) : undefined;
    const optionsNode = fields.get("options");
    const options = optionsNode ? this.options(optionsNode, `${where}.options`) : {};
    // Several schemas each follow their own version's rules: one rule set for all of them is refused here, at its value.
    if (Array.isArray(input) && input.length > 1 && options?.protocolRules !== undefined && options.protocolRules !== "auto") {
      const rules = optionsNode !== undefined && ts.isObjectLiteralExpression(optionsNode) ? optionsNode.properties.find((p) => p.name !== undefined && ts.isStringLiteral(p.name) && p.name.text === "protocolRules") : undefined;
      this.bag.add(
        CODE,
        `${where}.options.protocolRules: ${JSON.stringify(options.protocolRules)} applies to one schema; with several inputs, each schema's rules follow its own protocol version ("auto"): leave it out`,
        this.span(rules !== undefined && ts.isPropertyAssignment(rules) ? rules.initializer : optionsNode!),
      );
      return { ...(out !== undefined ? { out } : {}) };
    }
    return { ...(out !== undefined ? { out } : {}), ...(input && out && options ? { output: { input, out, options } } : {}) };
  }

  /** One input, or a non-empty list of them. */
  private inputs(node: ts.Expression, where: string): ConfigInput | ConfigInput[] | undefined {
    if (!ts.isArrayLiteralExpression(node)) {
      const input = this.input(node, where);
      if (input !== undefined) this.inputsRead.push(input);
      return input;
    }
    if (node.elements.length === 0) {
      this.bag.add(CODE, `${where} must be an input object or a non-empty array of them`, this.span(node));
      return undefined;
    }
    const read = node.elements.map((element, i) => this.input(element, `${where}[${i}]`));
    // One revision twice is one folder twice: refused here, where the file says it, as --spec-version refuses draft,draft.
    // Named by the file they read, through links, not by where or how the file says them (helper-86: a spec folder's key held
    // its place, so two alike differed; helper-87: a spec folder's version and its schema.ts by path, or a link to it).
    const keys = read.map((i) => (i === undefined ? undefined : isLockedInput(i) ? `version ${i.version} of ${i.lockFile}` : `schema ${schemaFileOf(i)}`));
    read.forEach((input, i) => input !== undefined && keys.indexOf(keys[i]) === i && this.inputsRead.push(input));
    if (!read.every((i) => i !== undefined)) return undefined;
    const inputs = read as ConfigInput[];
    const twice = keys.findIndex((k, i) => keys.indexOf(k) !== i);
    if (twice >= 0) {
      this.bag.add(CODE, `${where}[${twice}] names the same schema as ${where}[${keys.indexOf(keys[twice]!)}]`, this.span(node.elements[twice]!));
      return undefined;
    }
    return inputs;
  }

  private input(node: ts.Expression, where: string): ConfigInput | undefined {
    const fields = this.object(node, where, ["schema", "spec", "version", "lock"], []);
    if (!fields) return undefined;
    const schema = fields.get("schema");
    const spec = fields.get("spec");
    const version = fields.get("version");
    const lock = fields.get("lock");
    if (schema && (spec || version || lock)) {
      this.bag.add(CODE, `${where}: give either "schema", or "spec" with "version", or "version" alone (of the locked revision), not several`, this.span(node));
      return undefined;
    }
    if (spec && lock) {
      this.bag.add(CODE, `${where}: "lock" names the lock of a version read from the cache; with "spec" the version is read from that folder`, this.span(lock));
      return undefined;
    }
    if (version && !spec) {
      const name = this.versionName(version, `${where}.version`);
      const lockFile = lock ? this.path(lock, `${where}.lock`) : join(this.baseDir, LOCK_FILE_NAME);
      return name && lockFile ? { version: name, lockFile, span: this.span(node) } : undefined;
    }
    if (schema) {
      const path = this.path(schema, `${where}.schema`);
      return path ? { path, place: { span: this.span(schema), key: `${where}.schema`, written: ts.isStringLiteral(schema) ? schema.text : "" } } : undefined;
    }
    if (spec && version) {
      const specDir = this.path(spec, `${where}.spec`);
      const name = this.versionName(version, `${where}.version`);
      if (!specDir || !name) return undefined;
      const written = ts.isStringLiteral(spec) ? spec.text : "";
      return { specDir, version: name, place: { span: this.span(spec), key: `${where}.spec`, written, version: { span: this.span(version), key: `${where}.version` } } };
    }
    this.bag.add(
      CODE,
      lock
        ? `${where}: "lock" goes with "version" (a version of the revision the lock pins)`
        : `${where} needs "schema" (a schema.ts file), or "spec" (a spec repository folder) with "version", or "version" alone (of the revision ${LOCK_FILE_NAME} pins)`,
      this.span(node),
    );
    return undefined;
  }

  private options(node: ts.Expression, where: string): Partial<GeneratorOptions> | undefined {
    const fields = this.object(node, where, OPTION_SPECS.map((s) => s.key), []);
    if (!fields) return undefined;
    const options: Record<string, unknown> = {};
    let ok = true;
    for (const spec of OPTION_SPECS) {
      const value = fields.get(spec.key);
      if (!value) continue;
      const values = spec.list ? (ts.isArrayLiteralExpression(value) ? [...value.elements] : undefined) : [value];
      if (!values) {
        this.bag.add(CODE, `${where}.${spec.key} must be an array of: ${spec.choices.join(", ")}`, this.span(value));
        ok = false;
        continue;
      }
      if (spec.list && values.length === 0) {
        this.bag.add(CODE, `${where}.${spec.key} is empty; choose from ${spec.choices.join(", ")}`, this.span(value));
        ok = false;
        continue;
      }
      const strings = values.map((v) => {
        const s = ts.isStringLiteral(v) ? v.text : undefined;
        if (s === undefined || !spec.choices.includes(s)) {
          this.bag.add(CODE, `${where}.${spec.key}: ${this.textOf(v)} is not one of ${spec.choices.join(", ")}`, this.span(v));
          ok = false;
        }
        return s;
      });
      options[spec.key] = spec.list ? strings : strings[0];
    }
    return ok ? (options as Partial<GeneratorOptions>) : undefined;
  }

  /** The properties of an object literal by name, after refusing unknown, duplicate and missing keys. */
  private object(node: Node, where: string, allowed: readonly string[], required: readonly string[]): Map<string, ts.Expression> | undefined {
    if (!node || !ts.isObjectLiteralExpression(node)) {
      if (node) this.bag.add(CODE, `${where} must be an object`, this.span(node));
      else this.bag.add(CODE, `${where} is empty; it must be an object`);
      return undefined;
    }
    const fields = new Map<string, ts.Expression>();
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property) || !ts.isStringLiteral(property.name)) {
        this.bag.add(CODE, `${where}: not a JSON property`, this.span(property));
        continue;
      }
      const key = property.name.text;
      if (!allowed.includes(key)) {
        this.bag.add(CODE, `${where}: unknown key ${JSON.stringify(key)}${didYouMean(key, allowed)}; allowed: ${allowed.join(", ")}`, this.span(property.name));
      } else if (fields.has(key)) {
        this.bag.add(CODE, `${where}: ${JSON.stringify(key)} is given twice`, this.span(property.name));
      } else {
        fields.set(key, property.initializer);
      }
    }
    for (const key of required) {
      if (!fields.has(key)) this.bag.add(CODE, `${where}: missing ${JSON.stringify(key)}`, this.span(node));
    }
    return fields;
  }

  /** A version folder's name (`draft`, `2025-11-25`): no path separators or leading dot. */
  private versionName(node: ts.Expression, where: string): string | undefined {
    const name = this.string(node, where);
    if (name === undefined || isVersionName(name)) return name;
    this.bag.add(CODE, `${where}: ${JSON.stringify(name)} is not a version name (a folder under schema/, such as draft or 2025-11-25)`, this.span(node));
    return undefined;
  }

  private string(node: ts.Expression, where: string): string | undefined {
    if (ts.isStringLiteral(node) && node.text !== "") return node.text;
    this.bag.add(CODE, `${where} must be a non-empty string`, this.span(node));
    return undefined;
  }

  /**
   * A path string, its `${NAME}` and `${NAME:-default}` expanded, resolved against the file's folder.
   * A value substituted is taken as it is, as a POSIX shell does: only the file's own text (a default
   * included) must hold no other `${`.
   */
  private path(node: ts.Expression, where: string): string | undefined {
    const text = this.string(node, where);
    if (text === undefined) return undefined;
    let ok = true;
    const expanded = text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
      const value = this.env[name];
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      this.bag.add(CODE, `${where}: the environment variable ${name} is not set (write \${${name}:-default} to give a default)`, this.span(node));
      ok = false;
      return "";
    });
    // The file's own text: each variable left out, its default kept (`${A:-${B}}` is refused).
    if (ok && text.replace(VARIABLE, (_, _name: string, fallback: string | undefined) => fallback ?? "").includes("${")) {
      this.bag.add(CODE, `${where}: \${…} must be \${NAME} or \${NAME:-default}`, this.span(node));
      ok = false;
    }
    if (ok && expanded.trim() === "") {
      this.bag.add(CODE, `${where}: ${this.textOf(node)} is an empty path once its variables are expanded`, this.span(node));
      ok = false;
    }
    return ok ? resolve(this.baseDir, expanded) : undefined;
  }
}

