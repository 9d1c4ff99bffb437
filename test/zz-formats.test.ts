import { it } from "vitest";
import fc from "fast-check";
import { join } from "node:path";
import { ajvOracle, readSchemaJson } from "./support/ajv-oracle.js";
import { corpusVersions, ROOT } from "./support/corpus.js";
import { Comparison } from "./support/comparison.js";
import { loadIntendedDifferences } from "./support/intended-differences.js";
it("formats", async () => {
  const vs = corpusVersions();
  const v = vs.find((x) => x.label === "draft")!;
  const m: any = await import(join(ROOT, "test/.tmp/upstream-draft/validators.ts"));
  const schema = readSchemaJson(v.schemaJson);
  const diffs = loadIntendedDifferences(join(ROOT, "test/intended-differences.json"), vs.map((x) => x.label)).filter((d) => d.versions.includes("draft"));
  const c = new Comparison("draft", m, ajvOracle(schema), schema, diffs);
  const cases: [string, (s: string) => any][] = [
    ["Root", (s) => ({ uri: s })],
    ["ResourceTemplate", (s) => ({ name: "n", uriTemplate: s })],
    ["BlobResourceContents", (s) => ({ uri: "file:///a", blob: s })],
  ];
  const alphabet = fc.constantFrom(..."aZ09:/?#[]@!$&'()*+,;=-._~% {}|\\^`\"<>\u00e9\u0000\n\r\u007f\u2028vV".split(""));
  const str = fc.oneof(
    fc.string({ unit: alphabet, maxLength: 12 }),
    fc.tuple(fc.constantFrom("http://", "a:", "file:///", "x:/", "urn:", "http://[", "//", "", "http://[::1]", "http://[v1.a]"), fc.string({ unit: alphabet, maxLength: 10 })).map(([a, b]) => a + b),
    fc.webUrl({ withFragments: true, withQueryParameters: true }).chain((u) => fc.nat(u.length).chain((i) => fc.string({ unit: alphabet, maxLength: 2 }).map((x) => u.slice(0, i) + x + u.slice(i)))),
    fc.base64String().chain((u) => fc.nat(u.length).chain((i) => fc.string({ unit: alphabet, maxLength: 2 }).map((x) => u.slice(0, i) + x + u.slice(i)))),
    fc.tuple(fc.string({ unit: alphabet, maxLength: 3 }), fc.constantFrom("{", "{+", "{#"), fc.string({ unit: fc.constantFrom(..."ab._%2F:*,1".split("")), maxLength: 6 }), fc.constantFrom("}", "")).map((p) => p.join("")),
  );
  const samples = ["a:", "a:?q", "a:#f", "http://[1]/", "http://[::1]/", "http://[v1.x]/", "http://[V1.x]/", "HTTP://X", "http://x:y@h/", "a:b c", "http://%41/", "file://", "http:", "x", "{x}", "a{+b}", "{a.b}", "{a..b}", "{x:0}", "{x:10000}", "é", "a%", "", "====", "YQ", "YQ=", "YQ==", "YWI=", "Y Q==", "a:\u00e9", "\u00e9", "http://h:x", "a\u007f"];
  const all = [...samples, ...fc.sample(str, { seed: 7, numRuns: 30000 })];
  for (const [type, wrap] of cases) for (const s of all) c.check(type, "fuzz", JSON.stringify(s), wrap(s), false);
  console.log(c.checked, c.disagreements, [...c.covered], c.failures.length);
  const seen = new Set<string>();
  for (const f of c.failures) { const k = f.split("\n")[0]!.replace(/ — fuzz — .*/, "") + (f.includes("ajv (2020-12): accepts") ? " ajv+" : " ajv-"); if (seen.has(k + f.slice(0, 0))) {} ; }
  console.log(c.failures.slice(0, 60).map((f) => f.split("\n")[0] + " | " + f.split("\n")[2]!.trim() + " | " + f.split("\n")[3]!.trim().slice(0, 30)).join("\n"));
});
