/**
 * Builds the view model of `types.ts`: every declaration of the schema re-emitted from
 * the IR, interfaces flattened (inherited properties included), so the file is
 * self-contained.
 */
import type { Model } from "../analyze/index.js";
import { renderDoc, type DocsMode } from "./docs.js";
import { printObject, printType } from "./print-type.js";

export interface TypesView {
  readonly declarations: readonly { readonly doc: string; readonly code: string }[];
}

export function buildTypes(model: Model, docsMode: DocsMode): TypesView {
  const source = model.ir.source;
  const doc = (docs: Parameters<typeof renderDoc>[2], line?: number) => renderDoc(docsMode, source, docs, line);
  const declarations = model.ir.declarations.map((d) => {
    const exported = d.exported ? "export " : "";
    let code: string;
    if (d.kind === "const") code = `${exported}const ${d.name} = ${JSON.stringify(d.value)};`;
    else if (d.kind === "alias") code = `${exported}type ${d.name} = ${printType(d.type, doc)};`;
    else code = `${exported}interface ${d.name} ${printObject(d.type, doc)}`;
    return { doc: doc(d.docs, d.span.line), code };
  });
  return { declarations };
}
