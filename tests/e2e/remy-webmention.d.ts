// @remy/webmention names a declaration file it does not ship: the little of it the tests use.
declare module "@remy/webmention" {
  import { EventEmitter } from "node:events";
  export default class Webmention extends EventEmitter {
    constructor(options?: { limit?: number; send?: boolean });
    fetch(url: string): void;
  }
}
