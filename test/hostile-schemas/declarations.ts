/* Statements that are not type declarations. */
export function handle(request: unknown): unknown {
  return request;
}

export class Server {
  name = "server";
}

export let counter = 0;

export var legacy = "x";

export const flag = true;

export default Server;
