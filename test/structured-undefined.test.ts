/**
 * A tool's structuredContent is checked against its outputSchema as it is sent: JSON.stringify leaves out a property
 * whose value is undefined, so the check reads it as absent (helper-130).
 */
import { describe, expect, it } from "vitest";
import { checkStructuredContent } from "../runtime/tool-arguments.js";

const OUT = { type: "object", properties: { city: { type: "string" }, note: { type: "string" } }, required: ["city"], additionalProperties: false };

describe("checkStructuredContent and properties whose value is undefined (helper-130)", () => {
  it("passes an optional property set to undefined, which is not sent: it was refused (/note: expected string, got undefined) and the call answered -32603", () => {
    expect(checkStructuredContent(OUT, { city: "Paris", note: undefined })).toBeUndefined();
    expect(checkStructuredContent(OUT, { city: "Paris", other: undefined })).toBeUndefined();
    expect(checkStructuredContent({ type: "object", maxProperties: 1 }, { city: "Paris", note: undefined })).toBeUndefined();
  });

  it("refuses a required property set to undefined, which the client would find missing: it passed", () => {
    expect(checkStructuredContent(OUT, { city: undefined })).toBe('missing required property "city"');
    expect(checkStructuredContent({ type: "object", minProperties: 1 }, { city: undefined })).toBe("must have at least 1 property");
    // A value the schema checks is still checked.
    expect(checkStructuredContent(OUT, { city: 3 })).toBe("/city: expected string, got integer");
  });
});
