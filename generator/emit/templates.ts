/**
 * Loads and renders the Handlebars templates in `templates/`, one per output file.
 * Compiled with `strict: true` (a missing view-model field is an error) and `noEscape: true`
 * (output is code, not HTML); no helpers are registered, so templates only lay out text.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";

/** The package root: the nearest folder above this module holding `templates/`. */
function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, "templates");
    if (existsSync(join(candidate, "types.ts.hbs"))) return candidate;
    dir = dirname(dir);
  }
  throw new Error("templates/ folder not found next to the generator");
}

const cache = new Map<string, Handlebars.TemplateDelegate>();

/** The text of `templates/<name>`. */
export function readTemplate(name: string): string {
  return readFileSync(join(templatesDir(), name), "utf8");
}

/** Renders `templates/<name>` with `view`. */
export function renderTemplate(name: string, view: object): string {
  let template = cache.get(name);
  if (!template) {
    template = Handlebars.create().compile(readTemplate(name), { strict: true, noEscape: true });
    cache.set(name, template);
  }
  return template(view);
}
