// @ts-check
// The page's engine client, which main.js imports. Its start adopts the worker that
// engine-start.js (the page's first, classic script) began before any module had loaded, or
// starts one where that failed.

import { EngineClient } from "./engine-client.js";

export const engine = new EngineClient();
engine.start();
