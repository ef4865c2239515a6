// The ESM entry: the same client as the CommonJS one (index.js).
import client from "./index.js";

export const { PaywallClient, PaywallError, AppRequest, PROTOCOL_VERSION, NEWER_PROTOCOL, parentFromElectronHandle } =
  client;
export default client;
