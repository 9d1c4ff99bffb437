/* A schema that names other files in triple-slash directives. */
/// <reference path="./base.ts" />
/// <reference types="node" />
/// <reference lib="es2015" />

export interface Tool {
  name: string;
}
