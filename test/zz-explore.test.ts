import { it } from "vitest";
import { generateInto, corpusVersions, typecheck } from "./support/corpus.js";
it("tc", async () => {
  for (const v of corpusVersions()) {
    let t = Date.now();
    const dir = await generateInto("x-" + v.label, { schema: { path: v.schemaTs }, docs: "tags" });
    const g = Date.now() - t; t = Date.now();
    const d = typecheck(dir);
    console.log(v.label, "gen", g, "tc", Date.now() - t, d.length, d.slice(0, 5));
  }
});
