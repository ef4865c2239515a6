// Compiled (not run) by `tsc -p clients/node/test`: an app's use of the client type-checks
// against index.d.ts, and a misuse below would not.
import { PaywallClient, PaywallError, parentFromElectronHandle, type AppRequest } from "..";

async function app(handle: Uint8Array): Promise<number | null> {
  const client = new PaywallClient({ command: ["/usr/bin/paywall", "serve"], stderr: "inherit" });
  client.on("purchase", (request: AppRequest) => {
    const product: string = String(request.product?.id);
    request.respond(product === "" ? "failed" : "purchased");
  });
  client.on("customerInfoChanged", (info) => console.log(info.subscription_status));
  client.on("exit", (code) => console.log(code === null ? "did not start" : code));
  const parent = parentFromElectronHandle(handle);
  try {
    await client.call("initialize", { catalog: "store.json", controller: "app" });
    await client.call("present", { paywall: "upsell", ...(parent ? { parent } : {}) });
  } catch (error) {
    if (error instanceof PaywallError) console.log(error.code, error.rpcMessage, error.data);
  }
  return client.close();
}

void app;
