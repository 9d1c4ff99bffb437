import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { generateInto, SPEC_DIR, typecheck } from "./support/corpus.js";

describe("draft smoke", () => {
  it("generates, type-checks and validates a ping request", async () => {
    const dir = await generateInto("smoke-draft", { schema: { specDir: SPEC_DIR, version: "draft" }, docs: "tags" });
    expect(typecheck(dir)).toEqual([]);
    const v = await import(join(dir, "validators.ts"));
    expect(v.isJSONRPCRequest({ jsonrpc: "2.0", id: 1, method: "ping" })).toBe(true);
    expect(v.isJSONRPCRequest({ jsonrpc: "2.0", id: null, method: "ping" })).toBe(false);
  });
});
