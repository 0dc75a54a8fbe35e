// The published surface of assets/events: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { assetEventFilter, ASSET_STREAM_KINDS } from "./events.service.ts";
