/**
 * The configuration file (`mcp-schema-codegen.config.json`): found from the current folder
 * upward, `--config` instead, every output generated and checked without flags, env
 * expansion in paths, and every problem refused with its `file:line:col`.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_FILE_NAME, configInputs, findConfigFile, isLockedInput, loadConfig, type ConfigInput } from "../generator/config.js";
import * as api from "../generator/index.js";
import { GeneratorError } from "../generator/index.js";
import { cli } from "./support/cli.js";
import { ROOT, scratchDir, SPEC_DIR } from "./support/corpus.js";

/** The version folders of a spec folder that hold a schema.ts, sorted and comma-separated. */
const versions = (specDir: string) =>
  readdirSync(join(specDir, "schema"))
    .filter((v) => existsSync(join(specDir, "schema", v, "schema.ts")))
    .sort()
    .join(", ");

const DRAFT = join(SPEC_DIR, "schema", "draft", "schema.ts");
const home = process.cwd();
afterEach(() => process.chdir(home));

/** Writes a config file into `dir` and returns its path. */
function writeConfig(dir: string, config: unknown): string {
  const file = join(dir, CONFIG_FILE_NAME);
  writeFileSync(file, typeof config === "string" ? config : `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** The located messages of a config that fails to load. */
function problems(file: string, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    loadConfig(file, env);
  } catch (error) {
    if (!(error instanceof GeneratorError)) throw error;
    return error.diagnostics.map((d) => `${d.span ? `${d.span.line}:${d.span.column} ` : ""}${d.code} ${d.message}`);
  }
  return [];
}

describe("mcp-schema-codegen.config.json", () => {
  it("is found in the current folder or the nearest above it", () => {
    const dir = scratchDir("config-find");
    const nested = join(dir, "a", "b");
    mkdirSync(nested, { recursive: true });
    const file = writeConfig(dir, { outputs: [] });
    expect(findConfigFile(nested)).toBe(file);
    expect(findConfigFile(dir)).toBe(file);
  });

  it("drives generate and generate --check without flags, from a subfolder; option flags apply to every output", async () => {
    const dir = scratchDir("config-run");
    writeConfig(dir, {
      $schema: "ignored",
      outputs: [
        { input: { schema: relative(dir, DRAFT) }, out: "gen/a", options: { docs: "none", targets: ["types"] } },
        { input: { spec: "${CONFIG_TEST_SPEC:-" + relative(dir, SPEC_DIR) + "}", version: "draft" }, out: "gen/b", options: { targets: ["errors"], importExtension: "ts" } },
      ],
    });
    mkdirSync(join(dir, "sub"));
    process.chdir(join(dir, "sub"));
    const first = await cli("generate");
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(readdirSync(join(dir, "gen", "a")).sort()).toEqual(["codegen-manifest.json", "types.ts"]);
    expect(readdirSync(join(dir, "gen", "b")).sort()).toEqual(["codegen-manifest.json", "errors.ts", "runtime", "types.ts"]);
    expect(await cli("generate", "--check")).toMatchObject({ code: 0 });
    // A flag overrides every output's option: the folders drift from what is on disk.
    const drift = await cli("generate", "--check", "--docs", "tags");
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain(`changed: ${join(dir, "gen", "a", "types.ts")}`);
  });

  it("writes no output when one of them fails: every output is generated before any is written (exit 2)", async () => {
    const dir = scratchDir("config-one-fails");
    const file = join(dir, "several.json");
    const missing = join(dir, "missing", "schema.ts");
    writeFileSync(
      file,
      JSON.stringify({
        outputs: [
          { input: { schema: DRAFT }, out: join(dir, "a"), options: { targets: ["types"] } },
          { input: { schema: missing }, out: join(dir, "b"), options: { targets: ["types"] } },
          { input: { schema: DRAFT }, out: join(dir, "c"), options: { targets: ["types"] } },
        ],
      }),
    );
    const run = await cli("generate", "--config", file);
    expect([run.code, run.stdout]).toEqual([2, ""]);
    const column = readFileSync(file, "utf8").indexOf(JSON.stringify(missing)) + 1;
    expect(run.stderr).toContain(`several.json:1:${column} - error MCG020: outputs[1].input.schema: the schema file ${missing} does not exist`);
    expect(run.stderr).toContain("nothing was written to any of the 3 outputs");
    expect(readdirSync(dir)).toEqual(["several.json"]);
    // One that generates but could not be written (a file the generator did not write where it writes one) stops them all too.
    const fixed = JSON.parse(readFileSync(file, "utf8")) as { outputs: { input: { schema: string } }[] };
    fixed.outputs[1]!.input.schema = DRAFT;
    writeFileSync(file, JSON.stringify(fixed));
    mkdirSync(join(dir, "b"));
    writeFileSync(join(dir, "b", "types.ts"), "// mine\n");
    const foreign = await cli("generate", "--config", file);
    expect([foreign.code, foreign.stdout]).toEqual([2, ""]);
    expect(foreign.stderr).toMatch(/error MCG404: .*config-one-fails\/b holds a file the generator did not write/);
    expect(readdirSync(dir).sort()).toEqual(["b", "several.json"]);
    expect(readdirSync(join(dir, "b"))).toEqual(["types.ts"]);
    writeFileSync(file, JSON.stringify({ ...fixed, outputs: fixed.outputs.map((o, i) => (i === 1 ? { ...o, input: { schema: missing } } : o)) }));
    // --check still checks the outputs it could generate, and says which it could not.
    const check = await cli("generate", "--config", file, "--check");
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(/config-one-fails\/b was not checked/);
    // Two that fail: each error is said, then one tally for the run.
    writeFileSync(file, JSON.stringify({ ...fixed, outputs: fixed.outputs.map((o) => ({ ...o, input: { schema: missing } })) }));
    const all = await cli("generate", "--config", file);
    expect(all.code).toBe(2);
    expect(all.stderr.split("\n").filter((line) => line.includes("MCG020"))).toHaveLength(3);
    expect(all.stderr.split("\n").filter((line) => /^\d+ errors?;/.test(line))).toEqual(["3 errors; nothing was written to any of the 3 outputs"]);
  });

  it("an input that is not there is reported where the file names it (MCG020): the versions a spec folder has, what a variable became", async () => {
    const dir = scratchDir("config-absent-input");
    const file = join(dir, CONFIG_FILE_NAME);
    const draft = join(SPEC_DIR, "schema", "draft", "schema.ts");
    const outputs = [
      { input: { spec: "${NO_SUCH_SPEC:-../nowhere}", version: "draft" }, out: "a" },
      { input: { spec: SPEC_DIR, version: "drafft" }, out: "b" },
      { input: { spec: draft, version: "draft" }, out: "c" },
      { input: { schema: SPEC_DIR }, out: "d" },
    ];
    writeFileSync(file, `{\n  "outputs": [\n${outputs.map((o) => `    ${JSON.stringify(o)}`).join(",\n")}\n  ]\n}\n`);
    const run = await cli("generate", "--config", file);
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n").filter((line) => line.includes("MCG020")).map((line) => line.slice(line.indexOf(CONFIG_FILE_NAME)))).toEqual([
      `${CONFIG_FILE_NAME}:3:22 - error MCG020: outputs[0].input.spec: the spec folder "\${NO_SUCH_SPEC:-../nowhere}" (${join(dirname(dir), "nowhere")} once its variables are expanded) does not exist`,
      // The folder is there: the version is what is wrong, and is where it is said (helper-106: at "spec").
      `${CONFIG_FILE_NAME}:4:${`    ${JSON.stringify(outputs[1])}`.indexOf('"drafft"') + 1} - error MCG020: outputs[1].input.version: the spec folder ${SPEC_DIR} has no schema/drafft/schema.ts; versions there: ${versions(SPEC_DIR)}`,
      `${CONFIG_FILE_NAME}:5:22 - error MCG020: outputs[2].input.spec: the spec folder ${draft} is not a folder`,
      `${CONFIG_FILE_NAME}:6:24 - error MCG020: outputs[3].input.schema: ${SPEC_DIR} is a folder, not a schema file (a spec repository is { "spec": "<dir>", "version": "<v>" })`,
    ]);
    expect(readdirSync(dir)).toEqual([CONFIG_FILE_NAME]);
    // A version is a folder's name: one that climbs is refused where it is written.
    writeFileSync(file, JSON.stringify({ outputs: [{ input: { spec: SPEC_DIR, version: "../schema/draft" }, out: "e" }, { input: { version: "a/b" }, out: "f" }] }));
    const climbing = await cli("generate", "--config", file);
    expect(climbing.stderr).toMatch(/:1:\d+ - error MCG020: outputs\[0\]\.input\.version: "\.\.\/schema\/draft" is not a version name \(a folder under schema\/, such as draft or 2025-11-25\)\n/);
    expect(climbing.stderr).toMatch(/error MCG020: outputs\[1\]\.input\.version: "a\/b" is not a version name/);
    // Several inputs of one output that are not there are all said.
    writeFileSync(file, JSON.stringify({ outputs: [{ input: [{ schema: "one.ts" }, { schema: "two.ts" }], out: "g" }] }));
    const both = await cli("generate", "--config", file);
    expect(both.stderr.split("\n").filter((line) => line.includes("MCG020")).map((line) => line.replace(/^.*error MCG020: /, ""))).toEqual([
      `outputs[0].input[0].schema: the schema file ${join(dir, "one.ts")} does not exist`,
      `outputs[0].input[1].schema: the schema file ${join(dir, "two.ts")} does not exist`,
    ]);
  });


  it("inputs one output cannot serve together are refused at the inputs that name them (MCG320, with file:line:col)", async () => {
    const dir = scratchDir("config-unservable");
    const file = join(dir, CONFIG_FILE_NAME);
    const lines = [
      JSON.stringify({ input: [{ spec: SPEC_DIR, version: "draft" }, { spec: SPEC_DIR, version: "2026-07-28" }], out: "a" }),
      JSON.stringify({ input: [{ schema: join(SPEC_DIR, "schema", "2025-11-25", "schema.ts") }, { spec: SPEC_DIR, version: "2025-06-18" }], out: "b" }),
    ].map((o) => `    ${o}`);
    writeFileSync(file, `{\n  "outputs": [\n${lines.join(",\n")}\n  ]\n}\n`);
    const run = await cli("generate", "--config", file);
    expect(run.code).toBe(2);
    const at = (line: number, text: string) => `${CONFIG_FILE_NAME}:${line + 3}:${lines[line]!.indexOf(text) + 1}`;
    const schema = (version: string) => `${join(SPEC_DIR, "schema", version, "schema.ts")} (protocol version ${version === "draft" ? "2026-07-28" : version})`;
    expect(run.stderr.split("\n").filter((line) => line.includes(CONFIG_FILE_NAME)).map((line) => line.slice(line.indexOf(CONFIG_FILE_NAME)))).toEqual([
      // The second of two schemas of one version, at its version, with the first on the line below.
      `${at(0, '"2026-07-28"')} - error MCG320: ${schema("draft")} and ${schema("2026-07-28")} are both of protocol version 2026-07-28: one output serves each protocol version once; give one of them`,
      `${at(0, '"draft"')} - the other input`,
      // None modern: at the first input, where the list starts.
      `${at(1, '"/')} - error MCG320: none of the schemas is of a modern (stateless) revision, whose types the handlers are written against (one whose RequestMetaObject requires io.modelcontextprotocol/protocolVersion, as 2026-07-28 and later do): ${schema("2025-11-25")}, ${schema("2025-06-18")}; add one (e.g. --spec-version draft,2025-11-25)`,
    ]);
    expect(readdirSync(dir)).toEqual([CONFIG_FILE_NAME]);
    // One rule set for several schemas is refused when the file is read, at its value (it was MCG320 with no place).
    for (const name of ["a.ts", "b.ts", "c.ts"]) writeFileSync(join(dir, name), "export type A = 1;\n");
    const rules = writeConfig(dir, { outputs: [{ input: [{ schema: "a.ts" }, { schema: "b.ts" }], out: "a", options: { protocolRules: "2025-11-25" } }, { input: [{ schema: "c.ts" }], out: "c", options: { protocolRules: "2025-11-25" } }] });
    expect(problems(rules)).toEqual([
      '14:26 MCG020 outputs[0].options.protocolRules: "2025-11-25" applies to one schema; with several inputs, each schema\'s rules follow its own protocol version ("auto"): leave it out',
    ]);
  });

  it("--config names the file; it cannot be mixed with --out or an input", async () => {
    const dir = scratchDir("config-flag");
    const file = join(dir, "other.json");
    writeFileSync(file, JSON.stringify({ outputs: [{ input: { schema: DRAFT }, out: join(dir, "out"), options: { targets: ["types"] } }] }));
    expect((await cli("generate", "--config", file)).code).toBe(0);
    expect(readdirSync(join(dir, "out")).sort()).toEqual(["codegen-manifest.json", "types.ts"]);
    const mixed = await cli("generate", "--config", file, "--out", join(dir, "x"));
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("error MCG001: --config cannot be combined with");
  });

  it("without flags and without a config file, says what is missing (exit 2)", async () => {
    // test/.tmp lies inside the repository, whose own config would be found: look from / instead.
    process.chdir("/");
    const none = await cli("generate");
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`error MCG001: missing input: give --schema <file> (or --spec <dir> with --spec-version <name>, or --spec-version <name> alone for the locked spec revision) and --out <dir>, or write a ${CONFIG_FILE_NAME}`);
  });

  it("refuses unknown keys, wrong types and values, unset variables, with file:line:col (MCG020), all at once", async () => {
    const dir = scratchDir("config-bad");
    const file = writeConfig(
      dir,
      [
        "{",
        '  "outputs": [',
        "    {",
        '      "input": { "spec": "${NO_SUCH_VAR}", "version": "draft" },',
        '      "out": "gen",',
        '      "options": { "docs": "some", "targets": "types", "frobnicate": true, "importExtensions": "ts" }',
        "    },",
        '    { "input": { "schema": "a.ts", "spec": "b" }, "outt": "x" }',
        "  ],",
        '  "extra": 1',
        "}",
      ].join("\n"),
    );
    expect(problems(file)).toEqual([
      "4:26 MCG020 outputs[0].input.spec: the environment variable NO_SUCH_VAR is not set (write ${NO_SUCH_VAR:-default} to give a default)",
      '6:28 MCG020 outputs[0].options.docs: "some" is not one of full, tags, none',
      "6:47 MCG020 outputs[0].options.targets must be an array of: types, validators, errors, meta, methods, dispatch, index",
      '6:56 MCG020 outputs[0].options: unknown key "frobnicate"; allowed: docs, numberType, targets, enumStyle, protocolRules, importExtension, transports',
      '6:76 MCG020 outputs[0].options: unknown key "importExtensions" (did you mean "importExtension"?); allowed: docs, numberType, targets, enumStyle, protocolRules, importExtension, transports',
      '8:5 MCG020 outputs[1]: missing "out"',
      '8:16 MCG020 outputs[1].input: give either "schema", or "spec" with "version", or "version" alone (of the locked revision), not several',
      '8:51 MCG020 outputs[1]: unknown key "outt" (did you mean "out"?); allowed: input, out, options',
      '10:3 MCG020 the configuration: unknown key "extra"; allowed: $schema, outputs',
    ]);
    // An input that is not there is said with the file's other problems (helper-80: an unset variable hid it).
    const absent = writeConfig(dir, {
      outputs: [
        { input: { spec: "${NO_SUCH_VAR}", version: "draft" }, out: "a" },
        { input: { schema: "missing.ts" }, out: "b" },
        { input: { spec: SPEC_DIR, version: "drafty" }, out: "c" },
      ],
    });
    expect(problems(absent)).toEqual([
      "5:17 MCG020 outputs[0].input.spec: the environment variable NO_SUCH_VAR is not set (write ${NO_SUCH_VAR:-default} to give a default)",
      `12:19 MCG020 outputs[1].input.schema: the schema file ${join(dir, "missing.ts")} does not exist`,
      `19:20 MCG020 outputs[2].input.version: the spec folder ${SPEC_DIR} has no schema/drafty/schema.ts; versions there: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft`,
    ]);
    // Those of a list refused for naming a schema twice, and of an output refused for its options, too: each file once.
    const refused = writeConfig(dir, {
      outputs: [
        { input: [{ schema: "gone.ts" }, { schema: "gone.ts" }], out: "a" },
        { input: { schema: "lost.ts" }, out: "b", options: { docs: "some" } },
      ],
    });
    expect(problems(refused)).toEqual([
      `6:21 MCG020 outputs[0].input[0].schema: the schema file ${join(dir, "gone.ts")} does not exist`,
      "8:9 MCG020 outputs[0].input[1] names the same schema as outputs[0].input[0]",
      `16:19 MCG020 outputs[1].input.schema: the schema file ${join(dir, "lost.ts")} does not exist`,
      '20:17 MCG020 outputs[1].options.docs: "some" is not one of full, tags, none',
    ]);
    // A spec folder's version named twice is the same schema too (helper-86: the two were told apart by their places).
    const twiceSpec = writeConfig(dir, { outputs: [{ input: [{ spec: "nowhere", version: "draft" }, { spec: "nowhere", version: "draft" }], out: "a" }] });
    expect(problems(twiceSpec).map((p) => p.replace(/^\d+:\d+ /, ""))).toEqual([
      `MCG020 outputs[0].input[0].spec: the spec folder ${join(dir, "nowhere")} does not exist`,
      "MCG020 outputs[0].input[1] names the same schema as outputs[0].input[0]",
    ]);
    // And one schema reached two ways: a spec folder's version and its schema.ts by path, or through a link (helper-87: the
    // run failed later, with MCG320 and no location).
    symlinkSync(SPEC_DIR, join(dir, "linked-spec"), "dir");
    const twoWays = writeConfig(dir, {
      outputs: [
        { input: [{ spec: SPEC_DIR, version: "draft" }, { schema: join(SPEC_DIR, "schema", "draft", "schema.ts") }], out: "a" },
        { input: [{ spec: SPEC_DIR, version: "draft" }, { spec: "linked-spec", version: "draft" }], out: "b" },
        { input: [{ schema: "own.ts" }, { schema: "own-hard-link.ts" }], out: "c" },
      ],
    });
    // A hard link is the file too (helper-88).
    writeFileSync(join(dir, "own.ts"), "export type A = 1;\n");
    linkSync(join(dir, "own.ts"), join(dir, "own-hard-link.ts"));
    expect(problems(twoWays).map((p) => p.replace(/^\d+:\d+ /, ""))).toEqual([
      "MCG020 outputs[0].input[1] names the same schema as outputs[0].input[0]",
      "MCG020 outputs[1].input[1] names the same schema as outputs[1].input[0]",
      "MCG020 outputs[2].input[1] names the same schema as outputs[2].input[0]",
    ]);
    // A spec folder without a schema/ folder is said so once (helper-82: nested in parentheses).
    mkdirSync(join(dir, "bare"), { recursive: true });
    const bare = loadConfig(writeConfig(dir, { outputs: [{ input: { spec: "bare", version: "draft" }, out: "a" }] }), {});
    const failure = await configInputs(bare.outputs[0]!.input).catch((e: unknown) => e);
    expect((failure as GeneratorError).diagnostics.map((d) => d.message)).toEqual([
      `outputs[0].input.spec: the spec folder ${join(dir, "bare")} has no schema/ folder (a clone of the spec repository has schema/<version>/schema.ts)`,
    ]);
  });

  it("refuses outputs in the same folder or one inside another (MCG020, at the later output)", () => {
    const dir = scratchDir("config-nested");
    writeFileSync(join(dir, "a.ts"), "export type A = 1;\n");
    const input = { schema: "a.ts" };
    const file = writeConfig(dir, { outputs: [{ input, out: "gen/legacy" }, { input, out: "gen" }, { input, out: "other" }, { input, out: "./other" }, { input, out: "gen/legacy/x" }] });
    expect(problems(file)).toEqual([
      "9:5 MCG020 outputs[1].out is a folder holding that of outputs[0]; give each output a folder of its own, outside the others",
      "21:5 MCG020 outputs[3].out is the same folder as outputs[2]; give each output a folder of its own, outside the others",
      "27:5 MCG020 outputs[4].out is a folder inside that of outputs[0]; give each output a folder of its own, outside the others",
    ]);
    // A trailing slash names the same folder.
    expect(problems(writeConfig(dir, { outputs: [{ input, out: "gen/x" }, { input, out: "gen/x/" }] }))).toEqual([
      "9:5 MCG020 outputs[1].out is the same folder as outputs[0]; give each output a folder of its own, outside the others",
    ]);
    // A symbolic link to another output's folder is that folder.
    mkdirSync(join(dir, "real"));
    symlinkSync("real", join(dir, "link"));
    expect(problems(writeConfig(dir, { outputs: [{ input, out: "real" }, { input, out: "link/sub" }] }))).toEqual([
      "9:5 MCG020 outputs[1].out is a folder inside that of outputs[0]; give each output a folder of its own, outside the others",
    ]);
    // A dangling link is where a write would put the folder.
    symlinkSync("later", join(dir, "dangling"));
    expect(problems(writeConfig(dir, { outputs: [{ input, out: "dangling" }, { input, out: "later" }] }))).toEqual([
      "9:5 MCG020 outputs[1].out is the same folder as outputs[0]; give each output a folder of its own, outside the others",
    ]);
    // Folders whose names only start alike are apart.
    expect(problems(writeConfig(dir, { outputs: [{ input, out: "gen" }, { input, out: "gen2" }] }))).toEqual([]);
    // An empty list of targets is said where it is written, with the other problems (helper-53).
    expect(problems(writeConfig(dir, { outputs: [{ input, out: "a", options: { targets: [] } }, { input, out: "b", options: { docs: "some" } }] }))).toEqual([
      "9:20 MCG020 outputs[0].options.targets is empty; choose from types, validators, errors, meta, methods, dispatch, index",
      '18:17 MCG020 outputs[1].options.docs: "some" is not one of full, tags, none',
    ]);
    // Said in the same run as the output's other problems, not after they are mended.
    expect(problems(writeConfig(dir, { outputs: [{ input, out: "gen" }, { input: { schema: 1 }, out: "gen/x", options: { docs: "some" } }] }))).toEqual([
      "9:5 MCG020 outputs[1].out is a folder inside that of outputs[0]; give each output a folder of its own, outside the others",
      "11:19 MCG020 outputs[1].input.schema must be a non-empty string",
      '15:17 MCG020 outputs[1].options.docs: "some" is not one of full, tags, none',
    ]);
  });

  it("reads a file that starts with a byte-order mark, locating problems as an editor shows them (helper-53)", () => {
    const dir = scratchDir("config-bom");
    const file = join(dir, "mcp-schema-codegen.config.json");
    writeFileSync(file, '\uFEFF{ "outputs": [{ "input": { "schema": "a.ts" }, "out": "gen", "options": { "docs": "some" } }] }\n');
    expect(problems(file)).toEqual([
      `1:38 MCG020 outputs[0].input.schema: the schema file ${join(dir, "a.ts")} does not exist`,
      '1:83 MCG020 outputs[0].options.docs: "some" is not one of full, tags, none',
    ]);
    writeFileSync(file, '\uFEFF{ "outputs": [{ "input": { "schema": "a.ts" }, "out": "gen" }] }\n');
    expect(loadConfig(file).outputs.map((o) => o.out)).toEqual([join(dir, "gen")]);
  });

  it("expands ${NAME} and ${NAME:-default} in paths, against the file's folder", () => {
    const dir = scratchDir("config-env");
    const file = writeConfig(dir, { outputs: [{ input: { spec: "${SPEC:-spec}", version: "draft" }, out: "${OUT}/gen" }] });
    const [withDefault] = loadConfig(file, { OUT: "o" }).outputs;
    expect(withDefault).toMatchObject({ input: { specDir: join(dir, "spec"), version: "draft" }, out: join(dir, "o", "gen"), options: {} });
    // The input keeps where the file names it and what it wrote there, for errors reading it.
    expect(loadConfig(file, { OUT: "/abs", SPEC: "/s" }).outputs[0]!.input).toEqual({
      specDir: "/s",
      version: "draft",
      place: {
        key: "outputs[0].input.spec",
        written: "${SPEC:-spec}",
        span: expect.objectContaining({ line: 5, column: 17 }),
        version: { key: "outputs[0].input.version", span: expect.objectContaining({ line: 6, column: 20 }) },
      },
    });
  });

  it("takes a variable's value as it is, as a POSIX shell does: only the file's own text is checked for ${…}", () => {
    const dir = scratchDir("config-env-literal");
    const file = writeConfig(dir, { outputs: [{ input: { spec: "${SPEC:-spec}", version: "draft" }, out: "${OUT}" }] });
    expect(loadConfig(file, { OUT: "${HOME}/x", SPEC: "${S2:-a}" }).outputs[0]).toMatchObject({ input: { specDir: join(dir, "${S2:-a}") }, out: join(dir, "${HOME}", "x") });
    // What the file writes is checked, a default included.
    const bad = writeConfig(scratchDir("config-env-literal-bad"), { outputs: [{ input: { spec: "${SPEC:-${OTHER}}", version: "draft" }, out: "a${OUT" }] });
    expect(problems(bad, { OUT: "o", SPEC: "s" }).map((p) => p.replace(/^\d+:\d+ /, ""))).toEqual([
      "MCG020 outputs[0].input.spec: ${…} must be ${NAME} or ${NAME:-default}",
      "MCG020 outputs[0].out: ${…} must be ${NAME} or ${NAME:-default}",
    ]);
  });

  it('reads { "version" } alone as a version of the locked revision: the lock beside the file, or "lock" relative to it', () => {
    const dir = scratchDir("config-locked");
    const file = writeConfig(dir, {
      outputs: [
        { input: [{ version: "draft" }, { version: "2025-11-25", lock: "${LOCKS:-pins}/mcp-spec.lock.json" }], out: "gen" },
        { input: { schema: "a.ts" }, out: "other" },
      ],
    });
    const [locked, plain] = loadConfig(file, {}).outputs;
    expect(locked!.input).toEqual([
      { version: "draft", lockFile: join(dir, "mcp-spec.lock.json"), span: { file: relative(process.cwd(), file), line: 5, column: 9 } },
      { version: "2025-11-25", lockFile: join(dir, "pins", "mcp-spec.lock.json"), span: { file: relative(process.cwd(), file), line: 8, column: 9 } },
    ]);
    expect((locked!.input as ConfigInput[]).map(isLockedInput)).toEqual([true, true]);
    expect(isLockedInput(plain!.input as ConfigInput)).toBe(false);
    const bad = writeConfig(scratchDir("config-locked-bad"), {
      outputs: [
        { input: { spec: "s", version: "draft", lock: "l.json" }, out: "a" },
        { input: { lock: "l.json" }, out: "b" },
        { input: { schema: "a.ts", version: "draft" }, out: "c" },
        { input: { version: "" }, out: "d" },
        { input: [{ version: "draft" }, { version: "draft" }], out: "e" },
        { input: { version: "draft", lock: "${EMPTY:-}" }, out: "f" },
      ],
    });
    expect(problems(bad).map((p) => p.replace(/^\d+:\d+ /, ""))).toEqual([
      'MCG020 outputs[0].input: "lock" names the lock of a version read from the cache; with "spec" the version is read from that folder',
      'MCG020 outputs[1].input: "lock" goes with "version" (a version of the revision the lock pins)',
      'MCG020 outputs[2].input: give either "schema", or "spec" with "version", or "version" alone (of the locked revision), not several',
      "MCG020 outputs[3].input.version must be a non-empty string",
      "MCG020 outputs[4].input[1] names the same schema as outputs[4].input[0]",
      'MCG020 outputs[5].input.lock: "${EMPTY:-}" is an empty path once its variables are expanded',
    ]);
  });

  it("refuses text that is not JSON, at the place it breaks", () => {
    const dir = scratchDir("config-syntax");
    const file = writeConfig(dir, '{\n  "outputs": [\n    { "out": "x", },\n  ]\n}\n');
    const [problem] = problems(file);
    expect(problem).toMatch(/^3:\d+ MCG020 not valid JSON: /);
  });

  it("the library API exports the reader", () => {
    expect([api.loadConfig, api.findConfigFile, api.CONFIG_FILE_NAME, api.isLockedInput, api.configInputs]).toEqual([
      loadConfig,
      findConfigFile,
      CONFIG_FILE_NAME,
      isLockedInput,
      configInputs,
    ]);
  });

  it("this repository's npm run generate uses it", () => {
    const config = loadConfig(join(ROOT, CONFIG_FILE_NAME), { MCP_SPEC_DIR: SPEC_DIR });
    expect(config.outputs.map((o) => relative(ROOT, o.out))).toEqual([join("generated", "draft"), join("generated", "2025-11-25")]);
    expect(config.outputs.map((o) => o.input)).toMatchObject([
      { specDir: SPEC_DIR, version: "draft" },
      { specDir: SPEC_DIR, version: "2025-11-25" },
    ]);
  });
});
