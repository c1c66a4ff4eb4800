// The XML-RPC capability's public face (README.md): MetaWeblog for MarsEdit-style apps, over the app keys.
export { createXmlRpcMethods, type XmlRpcMethods } from "./methods.ts";
export { createXmlRpcRoutes, rsdDocument } from "./http.ts";
