/**
 * The server: the generated dispatcher (src/generated/dispatch.ts) with the handlers of
 * src/handlers.ts. Transports (src/generated/runtime/stdio.ts, src/generated/runtime/http.ts) only move messages to it.
 */
import { createServerDispatcher, type ServerDispatcher } from "./generated/dispatch.js";
import * as module from "./handlers.js";
import { SERVER_INFO } from "./server-info.js";

export { SERVER_INFO };

/**
 * A dispatcher for this server. Modern requests carry everything they need (no state between
 * them); a legacy client's `initialize` opens a session on its channel (the stdio process, or an
 * HTTP session), when the project serves the legacy era (the default). src/handlers.ts exports
 * `handlers`, `options`, and optionally `onDispatcher(dispatcher)`, called once with the new
 * dispatcher (to `publish` change notifications to `subscriptions/listen` streams).
 */
export function createDispatcher(): ServerDispatcher {
  const dispatcher = createServerDispatcher({ ...module.options, serverInfo: SERVER_INFO, handlers: module.handlers });
  (module as { onDispatcher?: (dispatcher: ServerDispatcher) => void }).onDispatcher?.(dispatcher);
  return dispatcher;
}
