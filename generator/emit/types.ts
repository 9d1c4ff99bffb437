/**
 * Builds the view model of `types.ts`: every declaration of the schema re-emitted from
 * the IR, interfaces flattened (inherited properties included), so the file is
 * self-contained.
 */
import type { Model } from "../analyze/index.js";
import { renderDoc, type DocsMode } from "./docs.js";
import { layOutAlias, layOutConst, layOutInterface, printObject, printType } from "./print-type.js";

export interface TypesView {
  readonly declarations: readonly { readonly doc: string; readonly code: string }[];
  /**
   * Whether every declaration is printed as Prettier prints it (see `layOut*` in
   * print-type.ts), so the file needs no Prettier; otherwise the code is the plain printing.
   */
  readonly laidOut: boolean;
}

export function buildTypes(model: Model, docsMode: DocsMode): TypesView {
  const source = model.ir.source;
  const doc = (docs: Parameters<typeof renderDoc>[2], line?: number) => renderDoc(docsMode, source, docs, line);
  const laidOut = model.ir.declarations.map((d) => {
    if (d.kind === "const") return layOutConst(d.exported, d.name, d.value);
    if (d.kind === "alias") return layOutAlias(d.exported, d.name, d.type, doc);
    return layOutInterface(d.exported, d.name, d.type, doc);
  });
  const all = laidOut.every((code) => code !== undefined);
  const declarations = model.ir.declarations.map((d, i) => {
    const exported = d.exported ? "export " : "";
    let code: string;
    if (all) code = laidOut[i]!;
    else if (d.kind === "const") code = `${exported}const ${d.name} = ${JSON.stringify(d.value)};`;
    else if (d.kind === "alias") code = `${exported}type ${d.name} = ${printType(d.type, doc)};`;
    else code = `${exported}interface ${d.name} ${printObject(d.type, doc)}`;
    return { doc: doc(d.docs, d.span.line), code };
  });
  return { declarations, laidOut: all };
}
