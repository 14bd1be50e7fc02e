// @ts-check
// Loaded first, on its own (index.html: `async`): starts the engine worker before the rest of
// the app has loaded, so Pyodide's files download while the page's modules do. main.js imports
// the same client.

import { EngineClient } from "./engine-client.js";

export const engine = new EngineClient();
engine.start();
